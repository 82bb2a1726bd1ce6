"""Handing a change's events to Celery once its transaction has committed, and the
CPU's turns once their events are delivered.

The events are already rows (`Event`), written by the change itself; this only tells a
worker there is something to read. If the broker cannot be reached the request still
succeeds: the events stay undelivered and the periodic relay (`games.tasks`) hands
them on within a couple of minutes. A CPU's turn lost the same way is queued again by
the periodic recovery of the CPU's turns. Tasks are sent by name, so the domain does
not import the task module that sits above it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import current_app
from django.db import transaction

from bansugoroku.games.models import Event

DELIVER = "games.deliver_events"
DELIVER_MANY = "games.deliver_events_of_tables"
CPU_TURN = "games.cpu_turn"

log = logging.getLogger(__name__)


def hand_on_after_commit(table_id: int, events: Sequence[Event]) -> None:
    if events:
        first, last = events[0].sequence, events[-1].sequence
        transaction.on_commit(lambda: hand_on(table_id, first, last))


def hand_on(table_id: int, first: int, last: int) -> None:
    """Queue the delivery of the table's events `first` to `last`; never raises, since
    the relay makes up for a broker that is down."""
    args = (table_id, first, last)
    _send(DELIVER, args, "events %s-%s of table %s wait for the relay", first, last, table_id)


def hand_on_many(ranges: Sequence[tuple[int, int, int]]) -> None:
    """Queue the delivery of many tables' events, each `(table, first, last)`, in one
    message: the idle sweep closes a thousand tables at a time, and a message each cost
    about 4 ms with Redis on the development machine (an hour for a million closings,
    measured). Never raises, as `hand_on`."""
    args = ([list(r) for r in ranges],)
    _send(DELIVER_MANY, args, "events of %s tables wait for the relay", len(ranges))


def queue_cpu_turn(code: str, game: int, turn: int) -> None:
    """Queue the CPU's play of turn `turn` of game `game` at the table `code`; never
    raises, since the recovery queues again a turn that waits too long."""
    lost = "the CPU's turn %s of game %s at table %s waits for the recovery"
    _send(CPU_TURN, (code, game, turn), lost, turn, game, code)


def _send(task: str, args: tuple[Any, ...], lost: str, *lost_args: Any) -> None:
    """Send the task by name, once; when the broker is away, log `lost % lost_args`."""
    try:
        current_app.send_task(task, args=args, retry=False)
    except Exception:  # kombu raises many kinds when the broker is away
        log.warning(lost, *lost_args, exc_info=True)
