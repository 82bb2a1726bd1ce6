"""Celery tasks of the notices: send one, and the periodic pick-up of those due.

`games.deliver_events` makes the notices in its own transaction (`outbox_notices`, a
reader of the games' outbox, registered in the app's `ready`) and queues
`notifications.send` for each once it commits. Anything that task did not finish
(delayed, to be retried, or lost with a broker or worker that was down) is still a
pending row, which `notifications.send_due` queues again every minute from beat.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable

from celery import shared_task
from django.db import transaction

from bansugoroku.games.models import Event
from notifications import sending
from notifications.making import make_notices

SEND = "notifications.send"

log = logging.getLogger(__name__)


@shared_task(name=SEND, ignore_result=True)
def send_notice(notice_id: int) -> str:
    return sending.send_notice(notice_id)


@shared_task(name="notifications.send_due", ignore_result=True)
def send_due() -> int:
    """Queue every notice that is due; returns how many."""
    due = sending.due_notices()
    for notice_id in due:
        send_notice.delay(notice_id)
    return len(due)


def outbox_notices(table_id: int, events: Iterable[Event]) -> int:
    """Make the notices of events being delivered, in the delivering transaction, and
    queue their sending after it commits; returns how many were made."""
    made = make_notices(table_id, events)
    for notice_id in made:
        transaction.on_commit(functools.partial(queue_send, notice_id))
    return len(made)


def queue_send(notice_id: int) -> None:
    """Queue the notice's sending; never raises, since a broker gone away loses only the
    message, which `send_due` makes up for, and must not keep the next notices from being
    queued nor fail the delivery that made them, already committed. No retry: the
    outbox's way (`games.outbox.hand_on`), so a broker that is down costs no wait."""
    try:
        send_notice.apply_async((notice_id,), retry=False)
    except Exception:  # kombu raises many kinds when the broker is away
        log.warning("notice %s waits for send_due", notice_id, exc_info=True)
