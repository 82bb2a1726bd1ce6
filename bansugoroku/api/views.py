"""The REST API: thin views that parse input, call one service or selector, answer.

Every table change needs the `version` the client last saw; the answer to every
change and to GET is the table from the caller's side, with an ETag.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import caller_of, player_of
from bansugoroku.api.confirmation import mail_confirmation
from bansugoroku.api.problems import PROBLEM_TYPES, ProblemList, ProblemType, problem, problem_list
from bansugoroku.api.schema import component
from bansugoroku.api.serializers import (
    EntropySerializer,
    JoinSerializer,
    MovesSerializer,
    NewGameSerializer,
    PlayerCreateSerializer,
    PlayerUpdateSerializer,
    TableCreateSerializer,
    VersionSerializer,
)
from bansugoroku.games import selectors, services, shapes
from bansugoroku.games.models import Player, Table
from bansugoroku.games.store import Caller
from bansugoroku.limits.creation_limits import new_player_wait, new_table_wait
from bansugoroku.limits.throttles import JoinCodeThrottle
from bansugoroku.players.locales import preferred_locale
from engine.game import GameValue
from engine.rules import Rules


def parse(serializer_class: type[Serializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def etag(version: int) -> str:
    """The ETag of a table at `version`: it changes exactly when the table does."""
    return f'"v{version}"'


def state_response(
    table: Table, player: Caller, status: int = 200, game: GameValue | None = None
) -> Response:
    """The table from the caller's side; `game` is the engine value a change made, which
    spares reading its turn back from the row just written."""
    response = Response(selectors.table_state(table, player, game), status=status)
    response["ETag"] = etag(table.version)
    response["Cache-Control"] = "private, no-cache"
    # The web page authenticates with its cookie: a browser that plays as someone else
    # after a device link must not revalidate the other player's view (same ETag).
    response["Vary"] = "Authorization, Cookie"
    return response


def player_json(player: Player) -> shapes.PlayerJson:
    return {"id": player.pk, "name": player.name, "locale": player.locale}


class PlayersView(APIView):
    # No token needed, so none is read: a stale one must not stop a client making a player.
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_create",
        request=PlayerCreateSerializer,
        responses={201: component(shapes.NewPlayer)} | schema.problems(400),
        auth=[],
        summary="Create a player and get their token (shown once)",
        description="At most THROTTLE_NEW_PLAYER per client address: 429 `throttled` "
        "beyond, with `Retry-After`.",
    )
    def post(self, request: Request) -> Response:
        fields = parse(PlayerCreateSerializer, request)
        wait = new_player_wait(request)
        if wait is not None:
            raise Throttled(wait)
        fields.setdefault("locale", preferred_locale(request.headers.get("Accept-Language")))
        player, token = services.player_create(**fields)
        answer: shapes.NewPlayer = {"token": token, "player": player_json(player)}
        return Response(answer, status=201)


class MeView(APIView):
    @extend_schema(
        operation_id="players_me",
        responses={200: component(shapes.PlayerJson)},
        summary="The player the token belongs to",
    )
    def get(self, request: Request) -> Response:
        return Response(player_json(player_of(request)))

    @extend_schema(
        operation_id="players_me_update",
        request=PlayerUpdateSerializer,
        responses={200: component(shapes.PlayerJson)} | schema.problems(400),
        summary="Change your display name, locale or e-mail address",
        description="A new `email` gets a confirmation link by mail (at most "
        "THROTTLE_CONFIRM_EMAIL per player and per address: 429 beyond); notices go to it "
        "once the link's token is posted to `/players/me/email/confirm`. The mail is sent "
        "after the answer: if it could not be, `GET /players/me/notices` shows "
        "`mail_failed`; set the address again to resend it.",
    )
    def patch(self, request: Request) -> Response:
        fields = parse(PlayerUpdateSerializer, request)
        player = player_of(request)
        if "email" in fields:
            mail_confirmation(request, player, fields.pop("email"))
        player = services.player_update(player=player, **fields)
        return Response(player_json(player))


class TablesView(APIView):
    @extend_schema(
        operation_id="tables_list",
        responses={200: component(shapes.TableSummary)(many=True)},
        summary="My tables: those waiting for my move first, then the longest waiting",
    )
    def get(self, request: Request) -> Response:
        tables = selectors.tables_for_player(player_of(request))
        return Response([selectors.table_summary(*seats) for seats in tables])

    @extend_schema(
        operation_id="tables_create",
        request=TableCreateSerializer,
        responses={201: component(shapes.TableStateJson)} | schema.problems(400, 409),
        summary="Create a table with house rules, to play a friend or the CPU",
        description="You host the table and take the first seat (Black). Share its `code` "
        'or `invite_url` with a friend, who joins with it; with `"opponent": "cpu"` the '
        "second seat is the CPU at `cpu_level`. Then the host starts the first game "
        '(or, against the CPU, `"start": true` starts it with the table). '
        "At most THROTTLE_NEW_TABLE per player (429 `throttled` beyond, with "
        "`Retry-After`), and OPEN_TABLES_MAX of yours waiting for an opponent at once "
        '(409 `too_many_open_tables`, with the `limit`). With `"open": true`, the table is '
        "also in the lobby, and at most LOBBY_TABLES_MAX of yours are there at once (409 "
        "`too_many_in_lobby`).",
    )
    def post(self, request: Request) -> Response:
        data = parse(TableCreateSerializer, request)
        player = player_of(request)
        cpu = data.get("cpu_level", "") if data["opponent"] == "cpu" else ""
        wait = new_table_wait(request, player, cpu)
        if wait is not None:
            raise Throttled(wait)
        change = services.table_create(
            host=player,
            rules=Rules.from_json(dict(data.get("rules", {}))),
            cpu=cpu,
            start=data["start"],
            clock_days=data["clock_days"],
            open=data["open"],
            rated=data["rated"],
        )
        return state_response(change.table, player, status=201)


CODE = OpenApiParameter(
    "code", str, OpenApiParameter.PATH, description="The 6-character join code."
)


class TableView(APIView):
    finds_caller_by_token = True

    @extend_schema(
        operation_id="tables_state",
        parameters=[CODE],
        responses={
            200: component(shapes.TableStateJson),
            304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match."),
        }
        | schema.problems(404),
        summary="The table from your side; send If-None-Match to poll cheaply",
        description="Points are numbered from your side; `game.turn.legal_moves` lists every "
        "single move you may send now, so a client needs no rules of its own. The `ETag` "
        "changes with the table's `version`: send it back in `If-None-Match` and an "
        "unchanged table answers 304 with no body. A table you don't sit at answers 404 "
        "`table_not_found`, as a code with no table does.",
    )
    def get(self, request: Request, code: str) -> Response:
        wanted = request.headers.get("If-None-Match")
        if wanted:
            version = selectors.table_version(code=code, player=player_of(request))
            tags = {tag.strip().removeprefix("W/") for tag in wanted.split(",")}
            if version is not None and etag(version) in tags:
                return Response(status=304, headers={"ETag": etag(version)})
        caller = caller_of(request)
        return state_response(selectors.table_for_player(code=code, player=caller), caller)


class JoinView(APIView):
    throttle_classes = [*APIView.throttle_classes, JoinCodeThrottle]

    @extend_schema(
        operation_id="tables_join",
        parameters=[CODE],
        request=JoinSerializer,
        responses={200: component(shapes.TableStateJson)} | schema.problems(400, 404, 409),
        summary="Take the free seat at a table by its code",
        description="Once both seats are taken the code no longer admits anyone: it answers "
        "404 `table_not_found`, as a code with no table does, so a full table can't be told "
        "from a guess; joining a table you already sit at changes nothing. Join attempts "
        "are limited per address (429 with `Retry-After`), so codes can't be guessed.",
    )
    def post(self, request: Request, code: str) -> Response:
        player = player_of(request)
        change = services.table_join(player=player, code=code, **parse(JoinSerializer, request))
        return state_response(change.table, player)


class TableActionView(APIView):
    """A change to a table: parse the body, call the service, answer the new state."""

    service: Callable[..., services.Change]
    serializer_class: type[Serializer[Any]] = VersionSerializer
    finds_caller_by_token = True

    def post(self, request: Request, code: str) -> Response:
        caller = caller_of(request)
        data = parse(self.serializer_class, request)
        change = self.service(player=caller, code=code, **data)
        return state_response(change.table, caller, game=change.game)


CHANGE_TEXT = (
    " Send the table `version` you last saw: if the table has moved on since, nothing "
    "changes and the answer is 409 `stale_state` with the current `version`, so a retried "
    "request is never applied twice. The answer is the table from your side. A table you "
    "don't sit at answers 404 `table_not_found`, as a code with no table does."
)


def change_schema(
    operation: str,
    summary: str,
    description: str,
    request: type[Serializer[Any]] = VersionSerializer,
    refusals: tuple[int, ...] = (400, 404, 409, 422),
) -> Any:
    """The OpenAPI description of a table change."""
    return extend_schema_view(
        post=extend_schema(
            operation_id=f"tables_{operation}",
            parameters=[CODE],
            request=request,
            responses={200: component(shapes.TableStateJson)} | schema.problems(*refusals),
            summary=summary,
            description=description + CHANGE_TEXT,
        )
    )


@change_schema(
    "start",
    "The host starts the first game once both seats are taken",
    "Only the host (403 `not_the_host`), and only when the table is ready (409 "
    "`wrong_state`). Send your `entropy` for the game's dice here, after reading "
    "`next_game.seed_sha256`. The server rolls the opening.",
    NewGameSerializer,
    refusals=(400, 403, 404, 409, 422),
)
class StartView(TableActionView):
    service = staticmethod(services.table_start)
    serializer_class = NewGameSerializer


@change_schema(
    "moves",
    "Send one die move or a whole play",
    "Moves are `[from, to]` from your side, taken from `game.turn.legal_moves`. They are "
    "kept as the turn's pending moves until no die is left or none can be used; then the "
    "turn ends by itself and the opponent's dice are rolled. A refused move is 422 "
    "`illegal_move` with a `reason` (`blocked`, `bar_first`, `must_use_both`, ...) and "
    "nothing of the request is applied; 409 `not_your_turn` when it is not your turn.",
    MovesSerializer,
)
class MovesView(TableActionView):
    service = staticmethod(services.game_move)
    serializer_class = MovesSerializer


@change_schema(
    "undo",
    "Take back this turn's moves (the dice stay as rolled)",
    "Only while the turn is yours and still open: a finished turn can't be undone (409 "
    "`nothing_to_undo` when no move is pending).",
)
class UndoView(TableActionView):
    service = staticmethod(services.turn_undo)


@change_schema(
    "play_again",
    "Start the next game at the table; the score carries over",
    "Either player, once the game has ended (409 `wrong_state` before), giving their "
    "`entropy` for it. Who starts follows the table's `start` rule: the seats "
    "alternate, or the opening is rolled.",
    NewGameSerializer,
)
class PlayAgainView(TableActionView):
    service = staticmethod(services.game_play_again)
    serializer_class = NewGameSerializer


@change_schema(
    "entropy",
    "Give your entropy for the next game's dice",
    "Between games (and before the first), once the table shows `next_game.seed_sha256`: "
    "the server has committed to the seed, so your randomness makes the dice neither "
    "side can choose. Giving it again replaces it until the game starts; 409 "
    "`wrong_state` during a game. Joining, starting and play-again take it too.",
    EntropySerializer,
)
class EntropyView(TableActionView):
    service = staticmethod(services.seat_entropy)
    serializer_class = EntropySerializer


@change_schema(
    "resign",
    "Resign the current game: the other seat wins it, worth 1",
    "At any time during a game, on your turn or not (409 `game_over` when no game is "
    "being played).",
)
class ResignView(TableActionView):
    service = staticmethod(services.game_resign)


@change_schema(
    "leave",
    "Leave the table: it closes for both seats, with no result",
    "Either seated player, at any point: the table's `state` becomes `closed` with "
    "`closed_reason` `left`, and a game in progress ends `abandoned`, with no winner and "
    "nothing added to the score, as when a table closes idle. The other seat is told (a "
    "`table_closed` event with `reason` `left`, and a notice). From then on every change "
    "is 409 `table_closed`; the table and its games can still be read.",
    refusals=(400, 404, 409),
)
class LeaveView(TableActionView):
    service = staticmethod(services.table_leave)


class ProblemsView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="problems_list",
        auth=[],
        responses={200: component(ProblemList)},
        summary="Every error code, and every reason a move is refused for",
        description="Each problem's `code` with its HTTP status and title, by status; and "
        "each `reason` an `illegal_move` problem may carry, with what it means.",
    )
    def get(self, request: Request) -> Response:
        return Response(problem_list())


class ProblemView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="problems_describe",
        auth=[],
        responses={200: component(ProblemType)} | schema.problems(404),
        summary="What an error code means",
    )
    def get(self, request: Request, code: str) -> Response:
        """What an error code means; the `type` of every problem response points here."""
        if code not in PROBLEM_TYPES:
            return problem(404, "not_found", "Not found", f"no problem type {code!r}")
        status, title = PROBLEM_TYPES[code]
        answer: ProblemType = {"code": code, "status": status, "title": title}
        return Response(answer)


@extend_schema(exclude=True)
class NoSuchEndpointView(APIView):
    """A problem+json 404 for any other path under the API, whatever the method."""

    permission_classes = [AllowAny]

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        self.http_method_names = [request.method.lower()] if request.method else []
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return problem(404, "not_found", "Not found", f"no endpoint {request.path}")

    post = put = patch = delete = head = options = get
