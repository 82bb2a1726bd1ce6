"""The lobby, where strangers meet (`games.lobby`): `GET /lobby` lists the open tables,
`POST /lobby/{code}/take` takes one's seat, `POST /lobby/quick-pairing` takes the
longest waiting match or opens a table, and `POST /tables/{code}/open` puts a host's
table in the lobby or takes it out."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import Throttled
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.schema import component
from bansugoroku.api.serializers import JoinSerializer, StrictSerializer, VersionSerializer
from bansugoroku.api.views import CODE, TableActionView, change_schema, parse, state_response
from bansugoroku.games import clocks, lobby, services, shapes
from bansugoroku.limits.creation_limits import new_table_wait
from bansugoroku.limits.throttles import TakeSeatThrottle, limit_wait
from engine.rules import Finish, Muji, Start

CLOCKS = [lobby.ANY, lobby.NO_CLOCK, *map(str, clocks.DAYS)]  # strings: one type for the schema


class FiltersSerializer(StrictSerializer):
    """What to look for; a rule left out takes any."""

    finish = serializers.ChoiceField([f.value for f in Finish], required=False)
    muji = serializers.ChoiceField([m.value for m in Muji], required=False)
    start = serializers.ChoiceField([s.value for s in Start], required=False)
    clock = serializers.ChoiceField(
        CLOCKS,
        default=lobby.ANY,
        help_text=f'Days a move ({", ".join(map(str, clocks.DAYS))}), "none" for no clock, '
        'or "any" (the default).',
    )


def filters(data: dict[str, Any]) -> lobby.Filters:
    return lobby.Filters(
        finish=Finish(data["finish"]) if "finish" in data else None,
        muji=Muji(data["muji"]) if "muji" in data else None,
        start=Start(data["start"]) if "start" in data else None,
        clock=lobby.clock_of(data["clock"]),
    )


class LobbyQuerySerializer(FiltersSerializer):
    cursor = serializers.CharField(
        required=False, max_length=200, help_text="From the previous page's `next`."
    )


class QuickPairingSerializer(FiltersSerializer, JoinSerializer):
    pass


class LobbyPages(CursorPagination):
    """Pages of the lobby by the time each table leaves it: a table that comes or goes
    between two pages neither repeats nor hides another, as offsets would."""

    page_size = 50
    ordering = ("open_until", "id")

    def get_paginated_response(self, data: Any) -> Response:
        page: shapes.LobbyPage = {"next": self.get_next_link(), "results": data}
        return Response(page)


def take_wait(request: Request) -> None:
    """Count a seat taken from the lobby against the player (THROTTLE_TAKE_SEAT)."""
    wait = limit_wait(TakeSeatThrottle(str(player_of(request).pk)), request)
    if wait is not None:
        raise Throttled(wait)


class LobbyView(APIView):
    @extend_schema(
        operation_id="lobby_list",
        parameters=[LobbyQuerySerializer],
        responses={200: component(shapes.LobbyPage)} | schema.problems(400),
        summary="The open tables, where anyone may take the free seat",
        description="Hosts who opened their table to anyone, the longest waiting first, 50 "
        "a page, with the host's name and record, the house rules and the clock. Filter by "
        "any of them. Your own open tables are listed too, marked `yours`.",
    )
    def get(self, request: Request) -> Response:
        query = LobbyQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        viewer = player_of(request)
        found = lobby.open_tables(timezone.now(), filters(query.validated_data), viewer.pk)
        pages = LobbyPages()
        page = pages.paginate_queryset(found.select_related("host"), request, view=self)
        return pages.get_paginated_response(lobby.lobby_json(page or [], viewer.pk))


class TakeView(APIView):
    @extend_schema(
        operation_id="lobby_take",
        parameters=[CODE],
        request=JoinSerializer,
        responses={200: component(shapes.TableStateJson)} | schema.problems(400, 404, 409),
        summary="Take the free seat at a table in the lobby",
        description="Of two who take the seat at once, one gets it; the other is told 409 "
        "`seat_taken`. A table no longer in the lobby (taken out, or past its time) answers "
        "404 `table_not_found`; taking a seat you hold already changes nothing. At most "
        "THROTTLE_TAKE_SEAT seats a player (429 `throttled` beyond, with `Retry-After`).",
    )
    def post(self, request: Request, code: str) -> Response:
        data = parse(JoinSerializer, request)
        take_wait(request)
        player = player_of(request)
        change = services.seat_take(player=player, code=code, **data)
        return state_response(change.table, player)


class QuickPairingView(APIView):
    @extend_schema(
        operation_id="lobby_quick_pairing",
        request=QuickPairingSerializer,
        responses={
            200: component(shapes.TableStateJson),
            201: component(shapes.TableStateJson),
        }
        | schema.problems(400, 409),
        summary="Play the first who waits for what you want, or wait for them yourself",
        description="Takes the seat at the longest waiting table in the lobby that matches "
        "(200, ready to start), someone else's. If none does, your own open table that "
        "matches (200, still waiting), else a new one, opened with what you asked for and "
        "the default rules for the rest (201): the first to pair with you takes its seat. "
        "Counts as a seat taken (THROTTLE_TAKE_SEAT), and a new table as one created (the "
        "limits of `POST /tables`, and LOBBY_TABLES_MAX).",
    )
    def post(self, request: Request) -> Response:
        data = parse(QuickPairingSerializer, request)
        take_wait(request)
        player = player_of(request)
        wanted = filters(data)
        change = services.quick_take(player=player, filters=wanted, entropy=data["entropy"])
        if change is not None:
            return state_response(change.table, player)
        wait = new_table_wait(request, player, cpu="")
        if wait is not None:
            raise Throttled(wait)
        change = services.table_create(
            host=player, rules=wanted.rules(), clock_days=wanted.clock_days(), open=True
        )
        return state_response(change.table, player, status=201)


class OpenSerializer(VersionSerializer):
    open = serializers.BooleanField(
        default=True, help_text="False takes the table out of the lobby."
    )


@change_schema(
    "open",
    "The host opens the table to anyone, in the lobby, or takes it out",
    "Only the host (403 `not_the_host`), and only while the table waits for an opponent "
    "(409 `wrong_state`). The table is in the lobby for OPEN_TABLE_DAYS, or until someone "
    "takes its seat; its code admits whoever has it as before. At most LOBBY_TABLES_MAX "
    "of yours are in the lobby at once (409 `too_many_in_lobby`, with the `limit`). "
    "Opening an open table changes nothing; `open_until` in the answer says until when.",
    OpenSerializer,
    refusals=(400, 403, 404, 409),
)
class OpenView(TableActionView):
    service = staticmethod(services.table_open)
    serializer_class = OpenSerializer
