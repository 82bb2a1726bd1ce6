"""Tables, players and notices for the notices' tests, made through the services."""

from __future__ import annotations

from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import selectors, services
from bansugoroku.games.models import Player, Seat, Table
from bansugoroku.games.store import load_table
from bansugoroku.games.tasks import deliver_events
from engine.rules import Rules
from notifications.models import ConfirmationMail, EmailAddress, Notice
from notifications.sign_in import SEND_SIGN_IN, send_sign_in
from notifications.tasks import send_confirmation


def player(name: str, address: str | None = None, locale: str = "en") -> Player:
    """A player, with a confirmed address when one is given."""
    made, _ = services.player_create(name=name, locale=locale)
    if address:
        EmailAddress.objects.create(player=made, address=address, confirmed_at=timezone.now())
    return made


def started(host: Player, guest: Player) -> Table:
    """A table the host started: it is the host's turn (Black starts the first game)."""
    table = services.table_create(host=host, rules=Rules()).table
    version = services.table_join(player=guest, code=table.code).table.version
    return services.table_start(player=host, code=table.code, version=version).table


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


def play_turn(table: Table, mover: Player) -> None:
    """Play the mover's whole turn, one legal move at a time."""
    while True:
        state = selectors.table_state(load_table(table.code), mover)
        turn = state["game"]["turn"] if state["game"] else None
        if not turn or not turn["yours"] or not turn["legal_moves"]:
            return
        services.game_move(
            player=mover, code=table.code, version=state["version"], moves=[turn["legal_moves"][0]]
        )


def send_sign_ins() -> list[str]:
    """Send the sign-in mails queued on the broker so far, as the worker does (taking
    them off the queue; the other tasks queued there, which no worker runs in these
    tests, are dropped); what each did."""
    done = []
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.conf.task_default_queue)
        try:
            while True:
                try:
                    message = queue.get_nowait()
                except queue.Empty:
                    break
                message.ack()
                if message.headers.get("task") == SEND_SIGN_IN:
                    args, _, _ = message.decode()
                    done.append(send_sign_in(*args))
        finally:
            queue.close()
    return done
