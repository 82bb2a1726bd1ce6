"""Quiet hours at a table with a clock, through the API as a client plays it: the
mover's nights and days off are not counted, the deadline the opponent sees is the
exact moment this gives (across a change of the clocks too), reminders come when that
many counted hours are left, and a change of the hours settles the running clock.
Time is moved with time-machine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from bansugoroku.games import timeouts
from bansugoroku.games.models import EventKind, Seat, Table
from tests.client import Api, check, open_table
from tests.finished_games import play_turn, to_move
from tests.moments import START

HOUR = timedelta(hours=1)
BERLIN_NIGHTS = {"time_zone": "Europe/Berlin", "start_hour": 23, "end_hour": 7, "days_off": []}


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def quiet(player: Api, **changes: Any) -> None:
    answer = player.put("players/me/quiet-hours", BERLIN_NIGHTS | changes)
    assert answer.status == 200, answer.body


def bank_of(code: str, player: Api) -> timedelta | None:
    return Seat.objects.get(table__code=code, player=player.player()).clock_left


def test_quiet_hours_are_set_and_read_back_as_the_schema_says(host, openapi):
    before = host.get("players/me/quiet-hours")
    check(openapi, "/api/v1/players/me/quiet-hours", "get", 200, before)
    assert before.body | {"most_hours": 0} == {
        "time_zone": "UTC",
        "start_hour": None,
        "end_hour": None,
        "days_off": [],
        "most_hours": 0,
        "most_days_off": 2,
    }
    body = BERLIN_NIGHTS | {"days_off": [7, 6]}
    answer = host.put("players/me/quiet-hours", body)
    check(openapi, "/api/v1/players/me/quiet-hours", "put", 200, answer)
    assert answer.body["days_off"] == [6, 7] and answer.body["start_hour"] == 23
    assert host.get("players/me/quiet-hours").body == answer.body


def test_the_deadline_skips_the_movers_nights_and_the_opponent_sees_it(clock, host, guest):
    quiet(host)
    quiet(guest)
    code = open_table(host, guest, clock_days=1)  # Monday 1 March 2027, 13:00 in Berlin
    mover, other = to_move(code, host, guest)
    # 10 hours to 23:00, the night, 14 more from 07:00: Tuesday 21:00 CET.
    state = other.state(code)
    assert state["clock"]["deadline"] == utc(2027, 3, 2, 20).isoformat()
    assert state["clock"]["quiet_spans"] == [
        [utc(2027, 3, 1, 22).isoformat(), utc(2027, 3, 2, 6).isoformat()]
    ]
    seat = next(s for s in state["seats"] if not s["you"])
    assert seat["quiet_hours"] == {k: v for k, v in BERLIN_NIGHTS.items()}

    clock.move_to(utc(2027, 3, 2, 8))  # 10 hours before the night, 2 after: 12 counted
    play_turn(code, host, guest)
    assert bank_of(code, mover) == timedelta(hours=24 - 12 + 24)


def test_a_weekend_off_and_a_night_make_one_span(clock, host, guest):
    clock.move_to(utc(2027, 3, 5, 12))  # a Friday, 13:00 in Berlin
    quiet(host, days_off=[6, 7])
    quiet(guest, days_off=[6, 7])
    code = open_table(host, guest, clock_days=1)
    state = host.state(code)
    assert state["clock"]["quiet_spans"][0] == [
        utc(2027, 3, 5, 22).isoformat(),
        utc(2027, 3, 8, 6).isoformat(),
    ]
    # Friday's 10 hours, then Monday from 07:00: 14 more, to 21:00 CET.
    assert state["clock"]["deadline"] == utc(2027, 3, 8, 20).isoformat()


def test_the_deadline_across_the_night_the_clocks_go_forward(clock, host, guest):
    clock.move_to(utc(2027, 3, 26, 12))  # Friday; Berlin goes to summer time on Sunday
    quiet(host)
    quiet(guest)
    code = open_table(host, guest, clock_days=3)
    spans = host.state(code)["clock"]["quiet_spans"]
    nights = [datetime.fromisoformat(end) - datetime.fromisoformat(start) for start, end in spans]
    assert nights == [8 * HOUR, 7 * HOUR, 8 * HOUR, 8 * HOUR]
    # 10 h on Friday, 16 on Saturday, Sunday and Monday, 14 on Tuesday to 21:00 CEST.
    assert host.state(code)["clock"]["deadline"] == utc(2027, 3, 30, 19).isoformat()


def test_a_reminder_comes_when_the_counted_hours_are_left_not_in_the_night(clock, host, guest):
    for player in (host, guest):
        quiet(player)
        assert player.patch("players/me/notices", {"clock_reminders": [2]}).status == 200
    clock.move_to(START + 3 * HOUR)  # Monday 16:00 in Berlin
    code = open_table(host, guest, clock_days=1)
    table = Table.objects.get(code=code)
    # 7 hours on Monday, 16 on Tuesday, 1 on Wednesday: 08:00 CET.
    assert table.deadline == utc(2027, 3, 3, 7)
    assert table.remind_at == utc(2027, 3, 2, 21), "22:00, not 06:00 in the night"
    clock.move_to(table.remind_at)
    assert timeouts.remind(now=timezone.now()).sent == {2: 1}
    assert table.events.filter(kind=EventKind.CLOCK_LOW).count() == 1
    assert Table.objects.get(code=code).remind_at is None


def test_a_change_of_quiet_hours_settles_the_running_clock_and_moves_the_deadline(
    clock, host, guest
):
    code = open_table(host, guest, clock_days=1)
    mover, other = to_move(code, host, guest)
    version = other.state(code)["version"]
    clock.move_to(START + 3 * HOUR)  # 3 hours used, under no quiet hours
    quiet(mover)
    table = Table.objects.get(code=code)
    assert bank_of(code, mover) == 21 * HOUR and table.turn_started_at == START + 3 * HOUR
    # From 16:00 CET: 7 hours to 23:00, the night, 14 from 07:00: Tuesday 21:00.
    assert table.deadline == utc(2027, 3, 2, 20)
    assert other.state(code)["version"] > version, "the opponent sees the new deadline"

    again = other.state(code)["version"]
    quiet(mover)
    assert other.state(code)["version"] == again, "the same hours again change nothing"


def test_a_clock_that_ran_out_is_left_to_the_sweep(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    mover, _ = to_move(code, host, guest)
    deadline = Table.objects.get(code=code).deadline
    clock.move_to(deadline + HOUR)
    quiet(mover)
    assert Table.objects.get(code=code).deadline == deadline


@pytest.mark.parametrize(
    "changes",
    [
        {"time_zone": "Mars/Olympus_Mons"},
        {"time_zone": ""},
        {"time_zone": 5},
        {"time_zone": "Europe/Berlin" * 10},
        {"start_hour": 24},
        {"start_hour": -1},
        {"start_hour": "23"},
        {"start_hour": True},
        {"start_hour": None},
        {"start_hour": 7},
        {"start_hour": 20, "end_hour": 9},
        {"days_off": [8]},
        {"days_off": [0]},
        {"days_off": [6, 6]},
        {"days_off": [5, 6, 7]},
        {"days_off": "6,7"},
        {"days_off": None},
        {"weekend": [6, 7]},
    ],
    ids=repr,
)
def test_malformed_quiet_hours_are_refused_and_change_nothing(host, guest, changes):
    code = open_table(host, guest, clock_days=1)
    deadline = Table.objects.get(code=code).deadline
    answer = host.put("players/me/quiet-hours", BERLIN_NIGHTS | changes)
    assert answer.status == 400, answer.body
    assert host.get("players/me/quiet-hours").body["start_hour"] is None
    assert Table.objects.get(code=code).deadline == deadline


@pytest.mark.parametrize("raw", ["", "null", "[]", '"night"', '{"time_zone": "UTC"}', "{"])
def test_a_body_that_is_not_the_whole_setting_is_refused(host, raw):
    answer = host.call("PUT", "players/me/quiet-hours", raw=raw or None)
    assert answer.status == 400, answer.body
    assert host.get("players/me/quiet-hours").body["time_zone"] == "UTC"
