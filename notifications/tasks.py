"""Celery tasks of the notices: send one, the periodic pick-up of those due, and an
address's confirmation mail (`addresses.send_confirmation`, queued by `email_set`), and
a sign-in mail (`sign_in.send_sign_in`, queued by `sign_in.queue_sign_in`), and the
answer to a reply that plays a move by mail (`answers.send_answer`).

`games.deliver_events` makes the notices in its own transaction (`outbox_notices`, a
reader of the games' outbox, registered in the app's `ready`) and queues
`notifications.send` for each once it commits. Anything that task did not finish
(delayed, to be retried, or lost with a broker or worker that was down) is still a
pending row, which `notifications.send_due` queues again every minute from beat.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from celery import shared_task
from django.db import transaction

from bansugoroku.games.models import Event
from bansugoroku.games.outbox import send_quietly
from notifications import sign_in
from notifications.channels import sending
from notifications.consent import addresses
from notifications.making import make_notices
from notifications.replies import answers

SEND = "notifications.send"


@shared_task(name=SEND, ignore_result=True)
def send_notice(notice_id: int) -> str:
    return sending.send_notice(notice_id)


@shared_task(name=addresses.SEND_CONFIRMATION, ignore_result=True)
def send_confirmation(email_id: int, address: str) -> str:
    return addresses.send_confirmation(email_id, address)


@shared_task(name=sign_in.SEND_SIGN_IN, ignore_result=True)
def send_sign_in(address: str, next_path: str = "") -> str:
    return sign_in.send_sign_in(address, next_path)


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
    """Queue the notice's sending as the outbox queues events; a message the broker
    lost is made up for by `send_due`."""
    send_quietly(SEND, (notice_id,), "notice %s waits for send_due", notice_id)


@shared_task(name=answers.SEND_ANSWER, ignore_result=True)
def send_answer(player_id: int, code: str, answer: str, written: str) -> str:
    return answers.send_answer(player_id, code, answer, written)
