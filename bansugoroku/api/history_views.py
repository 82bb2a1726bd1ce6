"""The history of a table's games: the list, one game's turns, exports, the dice check
and the review.

Only the players seated at the table may read them; each view asks one function of
`bansugoroku.games.history` or `bansugoroku.games.exports` and answers what it returns.
"""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api.auth import player_of
from bansugoroku.api.negotiation import PlainTextRenderer
from bansugoroku.api.schema import component, problems
from bansugoroku.api.views import CODE
from bansugoroku.games import exports, history, shapes
from bansugoroku.games.selectors import table_for_player

_R = TypeVar("_R", bound=HttpResponseBase)

NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The game's number at the table: 1, 2, ..."
)


def private(response: _R, filename: str | None = None) -> _R:
    """A player's own reading: not for shared caches; a download when it has a file name."""
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization, Cookie"  # the web page reads with its cookie
    if filename:
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class GamesView(APIView):
    @extend_schema(
        operation_id="games_list",
        parameters=[CODE],
        responses={200: component(shapes.GameSummary)(many=True)} | problems(404),
        summary="Every game at the table, first to last",
    )
    def get(self, request: Request, code: str) -> Response:
        table = table_for_player(code=code, player=player_of(request))
        return private(Response(history.game_summaries(table)))


class GameView(APIView):
    @extend_schema(
        operation_id="games_history",
        parameters=[CODE, NUMBER],
        responses={200: component(shapes.GameHistory)} | problems(404),
        summary="One game turn by turn; its dice seed once it is over",
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        player = player_of(request)
        game = history.game_for_player(code=code, player=player, number=number)
        return private(Response(history.game_history(game, player)))


class ExportJsonView(APIView):
    @extend_schema(
        operation_id="games_export_json",
        parameters=[CODE, NUMBER],
        responses={200: component(shapes.GameExport)} | problems(404),
        summary="Download the game's whole event log as JSON",
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        player = player_of(request)
        game = history.game_for_player(code=code, player=player, number=number)
        answer = exports.game_export(game, player)
        return private(Response(answer), exports.export_filename(game, "json"))


class ExportMatView(APIView):
    renderer_classes = [PlainTextRenderer]

    @extend_schema(
        operation_id="games_export_mat",
        parameters=[CODE, NUMBER],
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR,
                description="A match text in the style of Jellyfish .mat files, UTF-8.",
            )
        }
        | problems(404),
        summary="Download the game as a backgammon-style .mat match text",
    )
    def get(self, request: Request, code: str, number: int) -> HttpResponse:
        game = history.game_for_player(code=code, player=player_of(request), number=number)
        text = exports.game_export_mat(game)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        return private(response, exports.export_filename(game, "mat"))


class DiceView(APIView):
    @extend_schema(
        operation_id="games_dice",
        parameters=[CODE, NUMBER],
        responses={200: component(shapes.DiceVerification)} | problems(404, 409),
        summary="Check every roll of a finished game against its revealed seed",
        description="409 `game_in_progress` while the game is played: the seed is secret.",
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        game = history.game_for_player(code=code, player=player_of(request), number=number)
        return private(Response(history.dice_verification(game)))


class ReviewView(APIView):
    @extend_schema(
        operation_id="games_review",
        parameters=[CODE, NUMBER],
        responses={200: component(shapes.GameReviewJson)} | problems(404, 409),
        summary="A finished game's plays beside the CPU's Hard level",
        description="Each play of the game's people with what it was worth in Hard's "
        "estimate, how much less than Hard's own play (whose moves and position are shown "
        "beside it), the worst few marked. A worker computes it once when the game ends. "
        "404 `table_not_found` or `game_not_found`, or `review_not_found` for a game "
        "abandoned when its table stood idle, which is never reviewed; 409 "
        "`game_in_progress` while the game is played, 409 `review_pending` (with "
        "Retry-After) until the worker stored it.",
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        player = player_of(request)
        game = history.game_for_player(code=code, player=player, number=number)
        return private(Response(history.game_review(game, player)))
