"""Handing a change's events to Celery once its transaction has committed, the readers
that delivery hands them to, and the CPU's turns once their events are delivered.

The events are already rows (`Event`), written by the change itself; this only tells a
worker there is something to read. If the broker cannot be reached the request still
succeeds: the events stay undelivered and the periodic relay (`games.tasks`) hands
them on within a couple of minutes. A CPU's turn lost the same way is queued again by
the periodic recovery of the CPU's turns. Tasks are sent by name, so the domain does
not import the task module that sits above it.

The readers register themselves by name (`add_reader`, from their app's `ready`): the CPU's
turn and the review of a finished game here (`cpu_turns`, `game_reviews`), the notices in
`notifications`, live updates later. So the games import none of them, and a new reader
changes nothing here.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils.module_loading import import_string

from bansugoroku.games import payloads
from bansugoroku.games.models import ClosedReason, Event, EventKind, Seat
from bansugoroku.runtime import courier

DELIVER = "games.deliver_events"
DELIVER_MANY = "games.deliver_events_of_tables"
CPU_TURN = "games.cpu_turn"
REVIEW = "games.review_game"

log = logging.getLogger(__name__)

Reader = Callable[[int, Sequence[Event]], object]
"""Reads a table's events as they are delivered, `(table_id, events)`, inside the
delivering transaction: it may write rows (the notices) and queue work for after the
commit (`transaction.on_commit`). It must be idempotent: the relay delivers an event
again when a worker died between reading it and marking it delivered."""

_readers: list[str] = []


def add_reader(path: str) -> None:
    """Hand every delivered event to the reader at the dotted `path` too, after the
    readers added before it. A path, imported at the first delivery: an app registers
    its reader in `ready` without loading, in every web process, what only the worker
    runs (the notices' senders bring Web Push, FCM and Google's auth)."""
    if path not in _readers:
        _readers.append(path)


def readers() -> tuple[Reader, ...]:
    return tuple(import_string(path) for path in _readers)


def cpu_turns(table_id: int, events: Sequence[Event]) -> None:
    """The reader that plays the CPU: a `turn_started` for a CPU seat queues the CPU's
    play of that very turn once the delivery commits (which does nothing once the turn
    is played)."""
    cpu_seats = set(
        Seat.objects.filter(table_id=table_id).exclude(cpu="").values_list("number", flat=True)
    )
    for event in events:
        if event.kind == EventKind.TURN_STARTED and event.seat in cpu_seats:
            payload: payloads.TurnStarted = event.payload
            args = (event.table.code, payload["game"], payload["turn"])
            transaction.on_commit(functools.partial(queue_cpu_turn, *args))


def game_reviews(table_id: int, events: Sequence[Event]) -> None:
    """The reader that reviews finished games: the end of a game (`game_ended`, or the
    `table_closed` of a player who left one) queues its review once the delivery commits
    (which does nothing once the review is stored). The games the idle close abandons
    are not reviewed: nobody played them for weeks, and a sweep closes a thousand
    tables at once, whose reviews would hold up the CPU's turns for minutes."""
    for event in events:
        reason = event.payload.get("reason")
        left = event.kind == EventKind.TABLE_CLOSED and reason == ClosedReason.LEFT
        if (event.kind == EventKind.GAME_ENDED or left) and event.game_id is not None:
            transaction.on_commit(functools.partial(queue_review, event.game_id))


def hand_on_after_commit(table_id: int, events: Sequence[Event]) -> None:
    if events:
        first, last = events[0].sequence, events[-1].sequence
        transaction.on_commit(lambda: hand_on(table_id, first, last))


def hand_on(table_id: int, first: int, last: int) -> None:
    """Queue the delivery of the table's events `first` to `last`; never raises, since
    the relay makes up for a broker that is down."""
    lost = "events %s-%s of table %s wait for the relay"
    send_quietly(DELIVER, (table_id, first, last), lost, first, last, table_id)


def hand_on_many(ranges: Sequence[tuple[int, int, int]]) -> None:
    """Queue the delivery of many tables' events, each `(table, first, last)`, in one
    message: the idle sweep closes a thousand tables at a time, and a message each cost
    about 4 ms with Redis on the development machine (an hour for a million closings,
    measured). Never raises, as `hand_on`."""
    args = ([list(r) for r in ranges],)
    send_quietly(DELIVER_MANY, args, "events of %s tables wait for the relay", len(ranges))


def queue_cpu_turn(code: str, game: int, turn: int) -> None:
    """Queue the CPU's play of turn `turn` of game `game` at the table `code`; never
    raises, since the recovery queues again a turn that waits too long."""
    lost = "the CPU's turn %s of game %s at table %s waits for the recovery"
    send_quietly(CPU_TURN, (code, game, turn), lost, turn, game, code)


def queue_review(game_id: int) -> None:
    """Queue the review of a finished game; never raises, since the recovery of lost
    reviews (`games.recover_reviews`) queues it again."""
    send_quietly(REVIEW, (game_id,), "the review of game %s waits for the recovery", game_id)


def send_quietly(task: str, args: tuple[Any, ...], lost: str, *lost_args: Any) -> bool:
    """Send the task by name, once, without waiting for a broker that is away: then log
    `lost % lost_args` and return False, for a periodic task (a relay) that queues again
    what was lost, or a state that says so. Never raises: it runs after a commit, which a
    failure must not undo."""
    try:
        courier.send(task, args)
    except Exception:  # kombu raises many kinds when the broker is away
        log.warning(lost, *lost_args, exc_info=True)
        return False
    return True
