"""`GET /players/{id}`: a player of the lobby as anyone signed in may read them
(`games.profiles`)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.schema import component
from bansugoroku.games import profiles, services, shapes

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
