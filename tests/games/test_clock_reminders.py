"""Reminders before a deadline: at the mover's chosen hours (24 and 2 by default), once
per threshold, the nearest one only when the sweep comes late, none at or beyond the
turn's whole time; chosen through the API, and refused when malformed. Time is moved
with time-machine."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bansugoroku.games import payloads, timeouts
from bansugoroku.games.models import EventKind, Table
from tests.client import Api, open_table
from tests.finished_games import play_turn, to_move

HOUR = timedelta(hours=1)


def reminders(code: str) -> list[tuple[int, int]]:
    """Each `clock_low` of the table: the seat told and the hours it said."""
    events = Table.objects.get(code=code).events.filter(kind=EventKind.CLOCK_LOW)
    return [(event.seat, event.payload["hours"]) for event in events.order_by("sequence")]


def deadline(code: str):
    return Table.objects.get(code=code).deadline


def test_the_mover_is_reminded_24_and_2_hours_before_the_deadline_once_each(clock, host, guest):
    code = open_table(host, guest, clock_days=3)
    mover_seat = Table.objects.get(code=code).seat_to_move
    version = Table.objects.get(code=code).version
    clock.move_to(deadline(code) - 24 * HOUR - timedelta(seconds=1))
    assert timeouts.remind(now=timezone.now()).sent == {}
    clock.shift(timedelta(seconds=1))

    done = timeouts.remind(now=timezone.now())

    assert done.sent == {24: 1} and reminders(code) == [(mover_seat, 24)]
    table = Table.objects.get(code=code)
    event = table.events.get(kind=EventKind.CLOCK_LOW)
    assert event.payload.keys() == payloads.ClockLow.__required_keys__
    assert event.game_id == table.current_game_id and event.payload["game"] == 1
    assert table.version == version, "a reminder leaves the version be: no move goes stale"
    assert table.remind_at == table.deadline - 2 * HOUR
    assert timeouts.remind(now=timezone.now()).sent == {}, "never doubled"
    clock.move_to(table.deadline - 2 * HOUR)
    assert timeouts.remind(now=timezone.now()).sent == {2: 1}
    assert reminders(code) == [(mover_seat, 24), (mover_seat, 2)]
    assert Table.objects.get(code=code).remind_at is None
    assert timeouts.remind(now=timezone.now() + HOUR).sent == {}


def test_a_late_sweep_sends_only_the_nearest_threshold(clock, host, guest):
    code = open_table(host, guest, clock_days=3)
    clock.move_to(deadline(code) - HOUR)
    assert timeouts.remind(now=timezone.now()).sent == {2: 1}
    assert [hours for _, hours in reminders(code)] == [2]


def test_a_threshold_at_or_beyond_the_turns_whole_time_is_skipped(clock, host, guest):
    """A 1-day clock's first turn has 24 hours in all: reminded at 2 hours only."""
    code = open_table(host, guest, clock_days=1)
    table = Table.objects.get(code=code)
    assert table.remind_at == table.deadline - 2 * HOUR


def test_a_played_turn_moves_the_reminder_to_the_next_mover(clock, host, guest):
    code = open_table(host, guest, clock_days=3)
    clock.move_to(deadline(code) - 24 * HOUR)
    timeouts.remind(now=timezone.now())
    first = Table.objects.get(code=code).seat_to_move

    play_turn(code, host, guest)

    table = Table.objects.get(code=code)
    assert table.seat_to_move != first
    assert table.remind_at == table.deadline - 24 * HOUR
    clock.move_to(table.deadline - 24 * HOUR)
    timeouts.remind(now=timezone.now())
    assert [seat for seat, _ in reminders(code)] == [first, 1 - first]


def test_a_player_chooses_their_reminder_hours_or_none(clock, host, guest, openapi):
    from tests.client import check

    chosen = host.patch("players/me/notices", {"clock_reminders": [6, 48]})
    check(openapi, "/api/v1/players/me/notices", "patch", 200, chosen)
    assert chosen.body["clock_reminders"] == [48, 6]
    assert guest.patch("players/me/notices", {"clock_reminders": []}).status == 200
    assert guest.get("players/me/notices").body["clock_reminders"] == []
    code = open_table(host, guest, clock_days=5)
    mover, _ = to_move(code, host, guest)
    table = Table.objects.get(code=code)

    if mover is host:
        assert table.remind_at == table.deadline - 48 * HOUR
        clock.move_to(table.deadline - 48 * HOUR)
        assert timeouts.remind(now=timezone.now()).sent == {48: 1}
        assert Table.objects.get(code=code).remind_at == table.deadline - 6 * HOUR
    else:
        assert table.remind_at is None, "the guest turned reminders off"
    play_turn(code, host, guest)
    table = Table.objects.get(code=code)
    assert (table.remind_at is None) == (mover is host), "the other mover's own choice"


@pytest.mark.parametrize(
    "hours",
    [[5], [1, 2, 3], [0], [-2], ["soon"], [True], 24, "24,2", [None], [[24]], [10**20]],
    ids=repr,
)
def test_malformed_reminder_hours_are_refused_and_change_nothing(api: Api, host, hours):
    answer = host.patch(
        "players/me/notices", {"clock_reminders": hours, "email_mode": "daily_digest"}
    )
    assert answer.status == 400, answer.body
    after = host.get("players/me/notices").body
    assert after["clock_reminders"] == [24, 2] and after["email_mode"] == "spaced"
