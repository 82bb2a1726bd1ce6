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
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import services
from bansugoroku.games.models import Event
from bansugoroku.games.tasks import relay_events
from engine.rules import Rules
from notifications.models import Attempt, Notice
from notifications.tasks import send_due
from tests.factories import EmailAddressFactory, PlayerFactory, TableFactory
from tests.games.test_tasks import with_broker_down, worker_running
from tests.notifications.helpers import player, started
from tests.notifications.processes import worker_processes

T = TypeVar("T")

pytestmark = [
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
    host, guest = player("Aiko", "aiko@example.com"), player("Ben", "ben@example.com")
    table = started(host, guest)
    app.control.purge()  # the broker restarted empty: those messages are lost too
    script = (
        "from bansugoroku.games.models import Player, Table;"
        "from tests.notifications.helpers import play_turn;"
        f"play_turn(Table.objects.get(pk={table.pk}), Player.objects.get(pk={host.pk}))"
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


def test_a_worker_killed_while_sending_leaves_the_notice_to_the_next(postmark):
    postmark.delay = 3  # the provider is slow: the worker dies while waiting for it
    app.control.purge()
    host, guest = player("Aiko", "aiko@example.com"), player("Ben")
    with worker_processes(postmark) as (worker,):
        table = services.table_create(host=host, rules=Rules()).table
        services.table_join(player=guest, code=table.code)
        deadline = time.monotonic() + 30
        while postmark.arrived == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert postmark.arrived == 1, "the worker never sent"
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)

    (notice,) = Notice.objects.all()
    assert (notice.status, notice.attempts) == ("pending", 0), "its transaction died with it"
    postmark.delay = 0
    with worker_running():
        send_due.delay()
        (notice,) = settled()
    assert notice.status == "sent"
    assert list(Attempt.objects.values_list("outcome", flat=True)) == ["sent"]
    # The provider had the first request too: a worker that dies between the provider's
    # acceptance and its own commit sends that notice twice; never fewer than once.
    assert postmark.wait_for(2)


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
