"""Tables, players and notices for the notices' tests, made through the services."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core import mail
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games.models import Player, Seat, Table
from bansugoroku.games.tasks import deliver_events
from notifications.models import ConfirmationMail, EmailAddress, Notice
from notifications.replies.answers import SEND_ANSWER
from notifications.sign_in import SEND_SIGN_IN
from notifications.tasks import send_answer, send_confirmation, send_sign_in
from tests.client import Api

LOCALES = ["en", "de", "fr", "ru", "ja"]
"""The languages players read their notices in."""


def deliver(table: Table) -> list[Notice]:
    """Hand on the table's events as the worker does; its notices so far."""
    table.refresh_from_db()
    deliver_events(table.pk, 1, table.last_event)
    return list(Notice.objects.filter(table=table).order_by("pk"))


def send_confirmations() -> list[str]:
    """Send the confirmation mails queued so far, as the worker does (a test's
    transaction never commits, so nothing was queued on the broker); what each did."""
    queued = EmailAddress.objects.filter(confirmation_mail=ConfirmationMail.QUEUED).order_by("pk")
    return [send_confirmation(pk, address) for pk, address in queued.values_list("pk", "address")]


def unseen(table: Table) -> None:
    """As if nobody had looked at the table for a long time."""
    Seat.objects.filter(table=table).update(last_seen_at=None)


def notice(table: Table, to: Player, kind: str, channel: str = "email") -> Notice:
    return Notice.objects.get(table=table, player=to, kind=kind, channel=channel)


def confirmation_token(message: mail.EmailMessage) -> str:
    found = re.search(r"confirm\?token=(\S+)", str(message.body))
    assert found, message.body
    return found[1]


def confirmed_address(host: Api, address: str = "aiko@example.com") -> int:
    """Give the player a confirmed address, as the link would; the player's id."""
    player = Player.objects.get(pk=host.get("players/me").body["id"])
    EmailAddress.objects.update_or_create(
        player=player, defaults={"address": address, "confirmed_at": timezone.now()}
    )
    return player.pk


def send_sign_ins() -> list[str]:
    """Send the sign-in mails queued on the broker so far, as the worker does."""
    return run_queued(SEND_SIGN_IN)


def send_answers() -> list[str]:
    """Send the answers to replies queued on the broker so far, as the worker does."""
    return run_queued(SEND_ANSWER)


_TASKS: dict[str, Callable[..., str]] = {SEND_SIGN_IN: send_sign_in, SEND_ANSWER: send_answer}


def run_queued(name: str) -> list[str]:
    """Run the tasks called `name` queued on the broker so far, with the arguments each
    message carries, as the worker does (taking them off the queue; the other tasks
    queued there, which no worker runs in these tests, are dropped); what each did."""
    queued = []
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.conf.task_default_queue)
        try:
            while True:
                try:
                    message = queue.get_nowait()
                except queue.Empty:
                    break
                message.ack()
                if message.headers.get("task") == name:
                    queued.append(message.decode()[0])
        finally:
            queue.close()
    # Run once the queue is read: what they queue in turn stays for the next call.
    return [_TASKS[name](*args) for args in queued]
