"""What happened at a table since a client last looked: the events every change writes."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api.auth import player_of
from bansugoroku.api.history_views import private
from bansugoroku.api.schema import component, problems
from bansugoroku.api.serializers import EventsQuerySerializer
from bansugoroku.api.views import CODE
from bansugoroku.games import selectors, shapes

KINDS = """Each event has a `kind`, the `seat` it concerns, and a `payload`:
- `player_joined` (seat: who joined): `name`.
- `game_started` (seat: the starter): `game`, `starter`, `opening_rolls`, `seed_sha256`.
- `turn_started` (seat: who is to move): `game`, `turn`, `seat`, `dice`; `played`, the
  play that ended the turn before (`turn`, `seat`, `dice`, `moves` numbered from
  your side as `game.position` is, `notation` like "13/10 10/9*" in the mover's own
  numbering, as backgammon writes a play, `hit`), null at a game's start; `passes`, the
  rolls with no legal move in between (`turn`, `seat`, `dice`).
- `game_ended` (seat: the winner, null with no result): `game`, `winner`, `points`,
  `how` (`normal`, `resigned`, `abandoned`, `time` or `cancelled`), `win_kind` (as a
  game's result has it: `iri`, `bear_off`, `muji`, `mushi`, `mujo`, `resigned` or
  `time`; null with no result),
  `score` [Black, White] after it, and
  `played` and `passes` as in `turn_started`.
- `table_closing` (no seat): nobody has acted at the table for a while, and it closes
  at `closes_at` (ISO-8601) unless someone does: `days_left` is 7, then 1.
- `table_closed` (seat: the player who left, null when it closed idle): `reason`
  (`idle`: nobody acted for `idle_days` days since `last_active_at`; `left`: the player
  in `seat`, called `name`, left it), `game` (the number of the game it ended with no
  result, null if none was being played) and `score` [Black, White].
- `clock_low` (seat: the player to move): their time to move runs out at `deadline`
  (ISO-8601), `hours` from now, the reminder threshold they chose; `game`.
- `auto_vacation` (seat: the player whose time ran out): a day of their vacation started
  instead of a loss on time, `until` (ISO-8601); `days_left`, the vacation left.
- `message` (seat: who wrote it): the message as `GET /tables/{code}/messages` lists
  it (`id`, `seat`, `yours`, `text`, `created_at`). Not listed where you may not read
  it: the other seat's while you mute them, and those you reported."""


class EventsView(APIView):
    @extend_schema(
        operation_id="tables_events",
        parameters=[CODE, EventsQuerySerializer],
        responses={200: component(shapes.Events)} | problems(400, 404),
        summary="What happened at the table since event `after`",
        description="A client that was away reads what it missed, to say for example "
        '"Ben played 13/10 10/9*, then you rolled 5-3". Events come oldest first, at '
        "most 100 at a time.\n\n" + KINDS,
    )
    def get(self, request: Request, code: str) -> Response:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player = player_of(request)
        table = selectors.table_for_player(code=code, player=player)
        answer = selectors.events_since(table, player, query.validated_data["after"])
        return private(Response(answer))
