"""Faults on the way: a broker down while a move is made, a worker killed while it
sends, a provider that stalls. The move commits, and after recovery every notice is
sent, the ones the broker lost exactly once."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import services
from bansugoroku.games.models import Event
from bansugoroku.games.tasks import relay_events
from harness.workers import worker_processes
from notifications.channels import sending
from notifications.models import Attempt, Notice, default_kinds
from notifications.tasks import send_due
from tests.client import Api
from tests.factories import (
    EmailAddressFactory,
    GameFactory,
    PlayerFactory,
    PreferencesFactory,
    TableFactory,
)
from tests.processes import with_broker_down, worker_running

T = TypeVar("T")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not app.conf.broker_url.startswith(("redis://", "amqp://")),
        reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
    ),
]


def until(
    found: Callable[[], T | None], timeout: float = 30, nudge: Callable[[], object] = lambda: None
) -> T:
    """What `found` returns once it is something; `nudge` is called every second
    meanwhile, as beat calls `send_due`."""
    deadline = time.monotonic() + timeout
    nudged = 0.0
    while time.monotonic() < deadline:
        if (result := found()) is not None:
            return result
        if time.monotonic() - nudged >= 1:
            nudge()
            nudged = time.monotonic()
        time.sleep(0.1)
    raise AssertionError(f"nothing found in {timeout} s; notices: {list(Notice.objects.values())}")


def settled(timeout: float = 30, nudge: Callable[[], object] = lambda: None) -> list[Notice]:
    """The notices, once none is pending."""

    def done() -> list[Notice] | None:
        notices = list(Notice.objects.order_by("pk"))
        return notices if notices and all(n.status != "pending" for n in notices) else None

    return until(done, timeout, nudge)


def test_a_move_while_the_broker_is_down_is_told_once_after_it_is_back(postmark, settings):
    settings.NOTICE_LOOKING_WINDOW = timedelta(0)
    settings.NOTICE_EMAIL_SPACING = timedelta(0)
    host, guest = (
        PlayerFactory(name="Aiko", address="aiko@example.com"),
        PlayerFactory(name="Ben", address="ben@example.com"),
    )
    table = GameFactory(host=host, guest=guest).table
    app.control.purge()  # the broker restarted empty: those messages are lost too
    script = (
        "from bansugoroku.games.models import Player, Table;"
        "from tests.factories import TurnFactory;"
        f"TurnFactory(game=Table.objects.get(pk={table.pk}).current_game)"
    )
    moved = with_broker_down(script)
    assert moved.returncode == 0, moved.stderr
    assert "wait for the relay" in moved.stderr
    table.refresh_from_db()
    assert table.current_game.turn_seat == 1, "the move was committed: the guest is to move"
    assert not Notice.objects.exists()

    Event.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    with worker_running():
        relay_events.delay()
        notices = settled()
        relay_events.delay()  # again, as beat would: nothing left to hand on
        send_due.delay()
        time.sleep(2)

    told = {(n.kind, n.player_id): n.status for n in notices}
    assert told == {
        ("opponent_joined", host.pk): "sent",
        ("your_turn", host.pk): "skipped",  # played while the broker was down
        ("your_turn", guest.pk): "sent",
    }
    assert sorted((m.to, m.body["Subject"]) for m in postmark.received) == [
        ("aiko@example.com", f"Ben joined your table {table.code}"),
        ("ben@example.com", f"Your turn at {table.code}"),
    ]


def test_a_worker_killed_while_sending_leaves_the_notice_to_the_next_and_says_so(postmark):
    """The provider has the mail when the worker dies: once the lease has run out the
    notice is sent again (at least once), and its record shows both attempts, the first
    with its outcome unknown."""
    postmark.delay = 30  # the provider holds the mail: the worker dies waiting for its answer
    app.control.purge()
    email = EmailAddressFactory()
    with worker_processes(postmark, NOTICE_SEND_TIMEOUT="3s") as (worker,):  # a 6 s lease
        services.table_join(player=PlayerFactory(), code=TableFactory(host=email.player).code)
        postmark.wait_for_arrival(1)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)

    (notice,) = Notice.objects.all()
    assert (notice.status, notice.attempts) == ("pending", 1)
    assert list(notice.attempts_made.values_list("outcome", flat=True)) == ["in_flight"]
    assert sending.due_notices() == [], "leased: no other worker takes it yet"
    postmark.release()
    with worker_running():
        (notice,) = settled(nudge=send_due.delay)
    assert (notice.status, notice.attempts) == ("sent", 2)
    attempts = list(notice.attempts_made.order_by("pk"))
    assert [a.outcome for a in attempts] == ["unknown", "sent"]
    assert "may have it" in attempts[0].error
    assert [m.to for m in postmark.wait_for(2)] == [email.address, email.address]
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "r@example.com", None))
    page = staff.get(f"/admin/notifications/notice/{notice.pk}/change/").text
    shown = page[page.index('id="attempts_made-group"') :]
    assert shown.index("Unknown") < shown.index("may have it") < shown.index("Sent")


def test_a_stalled_provider_holds_up_no_one_else(postmark):
    """While a worker waits for the provider, the player changes their notice settings
    at once: no row stays locked across the call (the preferences row used to, for a
    "your turn" e-mail, until the provider answered)."""
    postmark.delay = 8
    app.control.purge()
    host = EmailAddressFactory().player
    PreferencesFactory(player=host, email_kinds=default_kinds() | {"opponent_joined": False})
    with worker_processes(postmark, NOTICE_SEND_TIMEOUT="20s"):
        GameFactory(host=host)  # one notice: the host's turn, by e-mail
        postmark.wait_for_arrival(1)
        began = time.monotonic()
        answer = Api(host.token).call("PATCH", "players/me/notices", {"email_mode": "daily_digest"})
        took = time.monotonic() - began
        assert answer.status == 200, answer.body
        assert took < 2, f"the change waited {took:.1f} s for the provider"
        assert postmark.received == [], "the provider was still stalling"
        postmark.release()
        (notice,) = settled()
    assert notice.status == "sent" and notice.kind == "your_turn"


def test_a_provider_stalling_beyond_the_timeout_is_a_transient_error_tried_again(postmark):
    postmark.delay = 10  # far beyond the worker's timeout, well within anymail's own 30 s
    app.control.purge()
    host = EmailAddressFactory().player
    with worker_processes(postmark, NOTICE_SEND_TIMEOUT="1s", NOTICE_RETRY_AFTER="1s"):
        services.table_join(player=PlayerFactory(), code=TableFactory(host=host).code)
        postmark.wait_for_arrival(1)
        failed = until(lambda: Attempt.objects.filter(outcome="transient").first(), 8)
        assert "timed out" in failed.error, failed.error
        assert postmark.received == [], "the worker gave up while the provider stalled"
        postmark.release()
        (notice,) = settled(nudge=send_due.delay)
    assert notice.status == "sent"
    assert list(Attempt.objects.order_by("pk").values_list("outcome", flat=True)) == [
        "transient",
        "sent",
    ]


def test_events_delivered_while_the_broker_is_down_keep_their_notices_for_send_due():
    """The delivery commits its notices, then cannot queue their sending: it still ends
    well (the notices are pending rows, which `send_due` picks up)."""
    host = EmailAddressFactory().player
    table = TableFactory(host=host)
    services.table_join(player=PlayerFactory(name="Ben"), code=table.code)
    script = "from bansugoroku.games.tasks import deliver_events; print(deliver_events({}, 1, 1))"
    delivered = with_broker_down(script.format(table.pk))
    assert delivered.returncode == 0, delivered.stderr
    assert delivered.stdout.strip() == "1"
    (notice,) = Notice.objects.filter(player=host, kind="opponent_joined", channel="email")
    assert notice.status == "pending" and notice.pk in sending.due_notices()
