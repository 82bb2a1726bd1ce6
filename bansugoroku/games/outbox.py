"""Handing a change's events to Celery once its transaction has committed.

The events are already rows (`Event`), written by the change itself; this only tells a
worker there is something to read. If the broker cannot be reached the request still
succeeds: the events stay undelivered and the periodic relay (`games.tasks`) hands
them on within a couple of minutes. Tasks are sent by name, so the domain does not
import the task module that sits above it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from celery import current_app
from django.db import transaction

from bansugoroku.games.models import Event

DELIVER = "games.deliver_events"
DELIVER_MANY = "games.deliver_events_of_tables"

log = logging.getLogger(__name__)


def hand_on_after_commit(table_id: int, events: Sequence[Event]) -> None:
    if events:
        first, last = events[0].sequence, events[-1].sequence
        transaction.on_commit(lambda: hand_on(table_id, first, last))


def hand_on(table_id: int, first: int, last: int) -> None:
    """Queue the delivery of the table's events `first` to `last`; never raises, since
    the relay makes up for a broker that is down."""
    try:
        current_app.send_task(DELIVER, args=(table_id, first, last), retry=False)
    except Exception:  # kombu raises many kinds when the broker is away
        log.warning(
            "events %s-%s of table %s wait for the relay", first, last, table_id, exc_info=True
        )


def hand_on_many(ranges: Sequence[tuple[int, int, int]]) -> None:
    """Queue the delivery of many tables' events, each `(table, first, last)`, in one
    message: the idle sweep closes a thousand tables at a time, and a message each cost
    about 4 ms with Redis on the development machine (an hour for a million closings,
    measured). Never raises, as `hand_on`."""
    try:
        current_app.send_task(DELIVER_MANY, args=([list(r) for r in ranges],), retry=False)
    except Exception:
        log.warning("events of %s tables wait for the relay", len(ranges), exc_info=True)
