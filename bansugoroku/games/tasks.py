"""Celery tasks that read the events outbox: delivery, and the relay that retries it.

Delivery hands a table's new events to their readers and marks them delivered. The
readers (turn notices, the CPU's turn, live updates) arrive with the next issues; each
will be idempotent, because the relay may deliver an event twice when a worker dies
between reading and marking.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db.models import Max, Min
from django.utils import timezone

from bansugoroku.games.models import Event
from bansugoroku.games.outbox import DELIVER, hand_on

RELAY_AFTER = timedelta(minutes=1)
"""An event not delivered by then was lost on its way (broker down, worker killed)."""


@shared_task(name=DELIVER, ignore_result=True)
def deliver_events(table_id: int, first: int, last: int) -> int:
    """Hand on the table's events `first` to `last`; returns how many were new."""
    return Event.objects.filter(
        table_id=table_id, sequence__range=(first, last), delivered_at=None
    ).update(delivered_at=timezone.now())


@shared_task(name="games.relay_events", ignore_result=True)
def relay_events() -> int:
    """Queue again every event older than `RELAY_AFTER` that was never delivered, one
    task per table; returns how many tables had some."""
    waiting = (
        Event.objects.filter(delivered_at=None, created_at__lt=timezone.now() - RELAY_AFTER)
        .values("table_id")
        .annotate(first=Min("sequence"), last=Max("sequence"))
    )
    count = 0
    for row in waiting:
        hand_on(row["table_id"], row["first"], row["last"])
        count += 1
    return count
