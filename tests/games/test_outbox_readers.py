"""The readers of the events outbox: registered by their apps, each handed the events
being delivered, before they are marked delivered."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bansugoroku.games import outbox, services
from bansugoroku.games.models import Event
from bansugoroku.games.tasks import deliver_events
from engine.rules import Rules
from notifications.tasks import outbox_notices

pytestmark = pytest.mark.django_db


def test_the_apps_register_the_cpus_turn_the_reviews_and_the_notices_once_each():
    registered = (outbox.cpu_turns, outbox.game_reviews, outbox_notices)
    assert outbox.readers() == registered
    outbox.add_reader("notifications.tasks.outbox_notices")
    assert outbox.readers() == registered


def test_the_end_of_a_game_queues_its_review_after_the_commit(
    monkeypatch, django_capture_on_commit_callbacks
):
    queued: list[int] = []
    monkeypatch.setattr(outbox, "queue_review", queued.append)
    host, guest = (services.player_create(name=name)[0] for name in ("Ann", "Ben"))
    table = services.table_create(host=host, rules=Rules()).table
    version = services.table_join(player=guest, code=table.code).table.version
    started = services.table_start(player=host, code=table.code, version=version).table
    services.game_resign(player=guest, code=table.code, version=started.version)
    events = list(Event.objects.filter(table=table))
    with django_capture_on_commit_callbacks(execute=True):
        outbox.game_reviews(table.pk, events)
    assert queued == [started.current_game_id], "game_ended, and nothing else"


read: list[tuple[int, list[str], int]] = []


def reader(table_id: int, events: Sequence[Event]) -> None:
    """A reader of the outbox, registered by the test below."""
    waiting = Event.objects.filter(table_id=table_id, delivered_at=None).count()
    read.append((table_id, [event.kind for event in events], waiting))


def test_a_registered_reader_reads_each_new_event_once_before_it_is_marked(monkeypatch):
    monkeypatch.setattr(outbox, "_readers", list(outbox._readers))
    read.clear()
    outbox.add_reader(f"{__name__}.reader")
    host, guest = (services.player_create(name=name)[0] for name in ("Ann", "Ben"))
    table = services.table_create(host=host, rules=Rules()).table
    services.table_join(player=guest, code=table.code)

    assert deliver_events(table.pk, 1, 1) == 1
    assert deliver_events(table.pk, 1, 1) == 0

    assert read == [(table.pk, ["player_joined"], 1), (table.pk, [], 0)]
    assert Event.objects.get(table=table).delivered_at is not None
