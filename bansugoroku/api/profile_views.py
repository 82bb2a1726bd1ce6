"""`GET /players/{id}`: a player of the lobby as anyone signed in may read them
(`games.profiles`), and the replay of any of their games the page lists."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.history_views import NUMBER, private
from bansugoroku.api.schema import component
from bansugoroku.api.views import CODE
from bansugoroku.games import history, profiles, services, shapes

PLAYER_ID = OpenApiParameter(
    "player_id", int, OpenApiParameter.PATH, description="A lobby host's `host.id`."
)


class PlayerPageView(APIView):
    @extend_schema(
        operation_id="players_page",
        parameters=[PLAYER_ID],
        responses={200: component(shapes.PlayerPage)} | schema.problems(404),
        summary="A player of the lobby: rating, record, tables and recent games",
        description="Only players who opened a table to anyone or took a seat in the "
        "lobby have a page; any other id answers 404 `player_not_found`, as an id nobody "
        "has does.",
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(profiles.player_page(player_id))


class PublicGameView(APIView):
    @extend_schema(
        operation_id="players_game",
        parameters=[PLAYER_ID, CODE, NUMBER],
        responses={200: component(shapes.GameHistory)} | schema.problems(404),
        summary="One of a player's games their page lists, turn by turn, from their side",
        description="The same answer as `GET /tables/{code}/games/{number}` gives the "
        "player, for any game of theirs that is over at a table whose two seats are "
        "players of the lobby (a `recent_games` row's `table` and `number`, also past the "
        "latest 10). Any other game answers 404 `game_not_found`, as a game nobody played; "
        "a player who never came to the lobby 404 `player_not_found`.",
    )
    def get(self, request: Request, player_id: int, code: str, number: int) -> Response:
        player, game = profiles.public_game(player_id=player_id, code=code, number=number)
        return private(Response(history.game_history(game, player)))


class BlockView(APIView):
    @extend_schema(
        operation_id="players_block",
        parameters=[PLAYER_ID],
        request=None,
        responses={204: None} | schema.problems(404, 409),
        summary="Block a player of the lobby: you never meet again",
        description="Neither of you finds the other's tables in the lobby any more, nor "
        "takes a seat at them, from the lobby or by a code (answered 404, as a table with "
        "no free seat); tables you share play on. Blocking twice changes nothing; 409 "
        "`wrong_state` for yourself.",
    )
    def post(self, request: Request, player_id: int) -> Response:
        services.player_block(player=player_of(request), other_id=player_id, block=True)
        return Response(status=204)

    @extend_schema(
        operation_id="players_unblock",
        parameters=[PLAYER_ID],
        request=None,
        responses={204: None} | schema.problems(404, 409),
        summary="No longer block the player",
    )
    def delete(self, request: Request, player_id: int) -> Response:
        services.player_block(player=player_of(request), other_id=player_id, block=False)
        return Response(status=204)
