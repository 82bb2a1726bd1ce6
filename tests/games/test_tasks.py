"""The events outbox read by a real Celery worker over the configured broker (Redis in CI):
delivery after the commit, the relay for events a worker never got, and a change that
still succeeds while the broker is away; and the retention purge queued for it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import services
from bansugoroku.games.models import Event, EventKind, Player, Table, TableState
from bansugoroku.games.tasks import close_idle_tables, relay_events
from tests.factories import GameFactory
from tests.processes import with_broker_down, worker_running

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not app.conf.broker_url.startswith(("redis://", "amqp://")),
        reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does "
        "(kombu's filesystem transport can hand a worker a message file still being written)",
    ),
]


@pytest.fixture
def worker() -> Iterator[None]:
    app.control.purge()  # what earlier tests queued, for tables long gone
    with worker_running():
        yield


def a_started_table() -> str:
    return GameFactory().table.code


def delivered(code: str, count: int) -> list[int]:
    """The sequences of the table's delivered events, once there are `count` of them."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        done = list(
            Event.objects.filter(table__code=code, delivered_at__isnull=False)
            .order_by("sequence")
            .values_list("sequence", flat=True)
        )
        if len(done) >= count:
            return done
        time.sleep(0.1)
    raise AssertionError(f"{count} events of {code} were not delivered in 15 s")


def test_a_changes_events_are_delivered_after_it_commits(worker):
    code = a_started_table()
    assert delivered(code, 3) == [1, 2, 3]


def test_the_hourly_task_closes_idle_tables_and_their_events_are_delivered(worker):
    code = a_started_table()
    Table.objects.filter(code=code).update(active_at=timezone.now() - timedelta(days=46))

    close_idle_tables.delay()

    assert delivered(code, 4) == [1, 2, 3, 4]
    assert Event.objects.get(table__code=code, sequence=4).kind == EventKind.TABLE_CLOSED
    assert Table.objects.get(code=code).state == TableState.CLOSED


@pytest.mark.slow
def test_the_relay_hands_on_events_older_than_a_minute_that_were_never_delivered():
    code = a_started_table()
    app.control.purge()  # the messages are lost: the broker restarted empty, say
    old = timezone.now() - timedelta(minutes=2)
    Event.objects.filter(table__code=code, sequence__lte=2).update(created_at=old)
    with worker_running():
        relay_events.delay()
        assert delivered(code, 2) == [1, 2]
    newest = Event.objects.get(table__code=code, sequence=3)
    assert newest.delivered_at is None, "an event younger than a minute is left to its task"


@pytest.mark.slow
def test_a_change_succeeds_while_the_broker_is_down_and_its_events_wait():
    """A separate process, whose broker is a closed port, makes a change."""
    script = (
        "from bansugoroku.games import services; from engine.rules import Rules;"
        "host, _ = services.player_create(name='Aiko');"
        "print(services.table_create(host=host, rules=Rules()).table.code)"
    )
    created = with_broker_down(script)
    assert created.returncode == 0, created.stderr
    code = created.stdout.strip()
    guest, _ = services.player_create(name="Ben")
    join = (
        "import time; from bansugoroku.games import services;"
        "from bansugoroku.games.models import Player; started = time.monotonic();"
        f"services.table_join(player=Player.objects.get(pk={guest.pk}), code='{code}');"
        "print(time.monotonic() - started)"
    )
    joined = with_broker_down(join)
    assert joined.returncode == 0, joined.stderr
    assert "wait for the relay" in joined.stderr
    # Not a benchmark: kombu's default retries held each change about 6 s, twice this.
    assert float(joined.stdout) < 3, "a broker that is down holds up the change"
    (event,) = Event.objects.filter(table__code=code)
    assert event.kind == "player_joined" and event.delivered_at is None


def test_the_purge_command_queues_the_purge_for_the_worker(worker):
    old, _ = services.player_create(name="Old")
    Player.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=400))
    call_command("purge")
    deadline = time.monotonic() + 15
    while Player.objects.filter(pk=old.pk).exists():
        assert time.monotonic() < deadline, "the worker did not purge in 15 s"
        time.sleep(0.1)
