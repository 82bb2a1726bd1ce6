"""Notices made from the events outbox, in the transaction that hands the events on.

Who is told about what: "your turn" to the human seat to move (`turn_started`, also
after the opponent's roll was a pass), "time running out" to the same seat before its
deadline (`clock_low`), and that a day of their vacation started when it ran out
(`auto_vacation`), "game over" to both humans, "opponent joined" to
the other seated human, the idle table's closing and close to both, the close of a
table a player left to the other one, a message to the other seat unless its writer was
to move (the "your turn" notice their move brings tells it: `mails.content`). The CPU
gets nothing. A notice is made for each channel that has a sender and that the player
has not turned off for that kind, unless the table is muted; the rest is decided when
it is sent (`sending`), since a player may change their mind in between. A push notice
is made only for a player with a browser or app registered for push: most have none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils import timezone

from bansugoroku.games.models import Event, EventKind, Seat
from notifications.channels.registry import SENDERS
from notifications.models import (
    Channel,
    DeviceToken,
    Kind,
    Notice,
    NoticeStatus,
    Preferences,
    PushSubscription,
    TableMute,
)

_TO_SEAT: dict[str, Kind] = {
    EventKind.TURN_STARTED: Kind.YOUR_TURN,
    EventKind.CLOCK_LOW: Kind.CLOCK_LOW,
    EventKind.AUTO_VACATION: Kind.AUTO_VACATION,
}
"""Events told to the seat they name."""
_TO_BOTH: dict[str, Kind] = {
    EventKind.GAME_ENDED: Kind.GAME_OVER,
    EventKind.TABLE_CLOSING: Kind.TABLE_CLOSING,
}
_TO_THE_OTHER: dict[str, Kind] = {
    EventKind.PLAYER_JOINED: Kind.OPPONENT_JOINED,
    EventKind.TABLE_CLOSED: Kind.TABLE_CLOSED,
    EventKind.MESSAGE: Kind.MESSAGE,
}
"""Events told to the seats they don't name: both, when they name none (an idle close)."""


def recipients(event: Event, seats: Sequence[Seat]) -> list[tuple[Kind, int]]:
    """The (kind, player id) pairs an event is told to; the CPU is never one."""
    humans = {seat.number: seat.player_id for seat in seats if seat.player_id is not None}
    if event.kind == EventKind.MESSAGE and event.payload["with_move"]:
        return []
    if event.kind in _TO_SEAT and event.seat is not None:
        numbers = [event.seat]
        kind = _TO_SEAT[event.kind]
    elif event.kind in _TO_BOTH:
        numbers, kind = [0, 1], _TO_BOTH[event.kind]
    elif event.kind in _TO_THE_OTHER:
        numbers, kind = [n for n in (0, 1) if n != event.seat], _TO_THE_OTHER[event.kind]
    else:
        return []
    return [(kind, player) for n in numbers if (player := humans.get(n)) is not None]


def make_notices(table_id: int, events: Iterable[Event]) -> list[int]:
    """Write the notices of a table's events; the ids of the events' pending notices.
    An event handed on twice makes nothing the second time: (event, player, channel)
    is unique."""
    events = list(events)
    if not events:
        return []
    seats = list(Seat.objects.filter(table_id=table_id))
    wanted = [
        (event, kind, player) for event in events for kind, player in recipients(event, seats)
    ]
    players = {player for _, _, player in wanted}
    prefs = {p.player_id: p for p in Preferences.objects.filter(player_id__in=players)}
    muted = set(
        TableMute.objects.filter(table_id=table_id, player_id__in=players).values_list(
            "player_id", flat=True
        )
    )
    pushable = set(
        PushSubscription.objects.filter(player_id__in=players).values_list("player_id", flat=True)
    ) | set(DeviceToken.objects.filter(player_id__in=players).values_list("player_id", flat=True))
    now = timezone.now()
    notices = [
        Notice(
            event=event,
            player_id=player,
            table_id=table_id,
            channel=channel,
            kind=kind,
            next_attempt_at=now,
        )
        for event, kind, player in wanted
        if player not in muted
        for channel in SENDERS
        if channel != Channel.PUSH or player in pushable
        if player not in prefs or prefs[player].wants(kind, channel)
    ]
    Notice.objects.bulk_create(notices, ignore_conflicts=True)
    return list(
        Notice.objects.filter(event__in=events, status=NoticeStatus.PENDING).values_list(
            "pk", flat=True
        )
    )
