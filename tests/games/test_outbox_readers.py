"""The readers of the events outbox: registered by their apps, each handed the events
being delivered, before they are marked delivered."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bansugoroku.games import outbox
from bansugoroku.games.models import Event
from bansugoroku.games.tasks import deliver_events
from notifications.tasks import outbox_notices
from tests.factories import SeatFactory

pytestmark = pytest.mark.django_db


def test_the_apps_register_the_cpus_turn_and_the_notices_once_each():
    assert outbox.readers() == (outbox.cpu_turns, outbox_notices)
    outbox.add_reader("notifications.tasks.outbox_notices")
    assert outbox.readers() == (outbox.cpu_turns, outbox_notices)


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
