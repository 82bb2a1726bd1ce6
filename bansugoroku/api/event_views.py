"""What happened at a table since a client last looked: the events every change writes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api.auth import player_of
from bansugoroku.api.history_views import private
from bansugoroku.api.schema import problems
from bansugoroku.api.serializers import EventsQuerySerializer
from bansugoroku.api.views import CODE
from bansugoroku.games import selectors
from bansugoroku.games.models import EventKind

KINDS = """Each event has a `kind`, the `seat` it concerns, and a `payload`:
- `player_joined` (seat: who joined): `name`.
- `game_started` (seat: the starter): `game`, `starter`, `opening_rolls`, `seed_sha256`.
- `turn_started` (seat: who is to move): `game`, `turn`, `seat`, `dice`; `played`, the
  play that ended the turn before (`turn`, `seat`, `dice`, `moves` from the mover's
  side, `notation` like "13/10 10/9*", `hit`), null at a game's start; `passes`, the
  rolls with no legal move in between (`turn`, `seat`, `dice`).
- `game_ended` (seat: the winner, null with no result): `game`, `winner`, `points`,
  `how` (`normal`, `resigned` or `abandoned`), `score` [Black, White] after it, and
  `played` and `passes` as in `turn_started`.
- `table_closed` (no seat): `reason`."""


class EventSerializer(serializers.Serializer[Any]):
    sequence = serializers.IntegerField(help_text="1, 2, 3, ... per table.")
    kind = serializers.ChoiceField(EventKind.choices)
    seat = serializers.IntegerField(allow_null=True, help_text="The seat it concerns.")
    payload = serializers.DictField(help_text="What happened; its keys depend on `kind`.")
    created_at = serializers.DateTimeField()


class EventsSerializer(serializers.Serializer[Any]):
    events = EventSerializer(many=True)
    last_sequence = serializers.IntegerField(help_text="The table's newest event.")
    more = serializers.BooleanField(help_text="More events follow: ask again with `after`.")


class EventsView(APIView):
    @extend_schema(
        operation_id="tables_events",
        parameters=[CODE, EventsQuerySerializer],
        responses={200: EventsSerializer} | problems(400, 401, 403, 404),
        summary="What happened at the table since event `after`",
        description="A client that was away reads what it missed, to say for example "
        '"Ben played 13/10 10/9*, then you rolled 5-3". Events come oldest first, at '
        "most 100 at a time.\n\n" + KINDS,
    )
    def get(self, request: Request, code: str) -> Response:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table = selectors.table_for_player(code=code, player=player_of(request))
        return private(Response(selectors.events_since(table, query.validated_data["after"])))
