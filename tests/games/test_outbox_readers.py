"""The readers of the events outbox: registered by their apps, each handed the events
being delivered, before they are marked delivered."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from bansugoroku.games import idle, outbox, services
from bansugoroku.games.models import Event, EventKind, Table
from bansugoroku.games.tasks import deliver_events
from notifications.tasks import outbox_notices
from tests.factories import GameFactory, SeatFactory

pytestmark = pytest.mark.django_db


def test_the_apps_register_the_cpus_turn_the_reviews_and_the_notices_once_each():
    registered = (outbox.cpu_turns, outbox.game_reviews, outbox_notices)
    assert outbox.readers() == registered
    outbox.add_reader("notifications.tasks.outbox_notices")
    assert outbox.readers() == registered


def a_game_being_played() -> Table:
    table = GameFactory().table
    table.refresh_from_db()
    return table


def reviews_queued(table: Table, capture: Any) -> list[int]:
    """The games whose review the reader queues for all the table's events."""
    queued: list[int] = []
    with pytest.MonkeyPatch.context() as patch, capture(execute=True):
        patch.setattr(outbox, "queue_review", queued.append)
        outbox.game_reviews(table.pk, list(Event.objects.filter(table=table)))
    return queued


def test_a_game_won_resigned_or_left_queues_its_review_after_the_commit(
    django_capture_on_commit_callbacks,
):
    resigned, left = a_game_being_played(), a_game_being_played()
    for table, end in ((resigned, services.game_resign), (left, services.table_leave)):
        end(player=table.host, code=table.code, version=table.version)
        assert reviews_queued(table, django_capture_on_commit_callbacks) == [table.current_game_id]


def test_a_game_the_idle_close_abandons_is_not_reviewed(django_capture_on_commit_callbacks):
    table = a_game_being_played()
    assert idle.sweep(now=timezone.now() + timedelta(days=settings.IDLE_CLOSE_DAYS + 1)).closed
    closed = Event.objects.get(table=table, kind=EventKind.TABLE_CLOSED)
    assert closed.game_id == table.current_game_id
    assert reviews_queued(table, django_capture_on_commit_callbacks) == []


read: list[tuple[int, list[str], int]] = []


def reader(table_id: int, events: Sequence[Event]) -> None:
    """A reader of the outbox, registered by the test below."""
    waiting = Event.objects.filter(table_id=table_id, delivered_at=None).count()
    read.append((table_id, [event.kind for event in events], waiting))


def test_a_registered_reader_reads_each_new_event_once_before_it_is_marked(monkeypatch):
    monkeypatch.setattr(outbox, "_readers", list(outbox._readers))
    read.clear()
    outbox.add_reader(f"{__name__}.reader")
    table = SeatFactory().table

    assert deliver_events(table.pk, 1, 1) == 1
    assert deliver_events(table.pk, 1, 1) == 0

    assert read == [(table.pk, ["player_joined"], 1), (table.pk, [], 0)]
    assert Event.objects.get(table=table).delivered_at is not None
