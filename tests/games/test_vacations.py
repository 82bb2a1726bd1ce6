"""Vacation, through the API: days that accrue up to a cap, a vacation that stops the
player's clocks at every table and is shown to the opponent, ending it early, the
refusals, and auto-vacation instead of a loss on time (in the sweep and in a late
move). Time is moved with time-machine."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bansugoroku.games import payloads, timeouts
from bansugoroku.games.models import EventKind, GameState, Player, Seat, Table
from tests.client import Api, check, open_table
from tests.finished_games import play_turn, to_move
from tests.moments import START

DAY, HOUR = timedelta(days=1), timedelta(hours=1)


def vacation(player: Api) -> dict:
    answer = player.get("players/me/vacation")
    assert answer.status == 200, answer.body
    return answer.body


def table(code: str) -> Table:
    return Table.objects.select_related("current_game").get(code=code)


def test_vacation_days_start_at_10_accrue_30_a_year_and_stop_at_30(clock, host, openapi):
    shown = host.get("players/me/vacation")
    check(openapi, "/api/v1/players/me/vacation", "get", 200, shown)
    assert shown.body == {
        "until": None,
        "days_left": 10.0,
        "days_a_year": 30,
        "cap_days": 30,
        "auto": True,
    }
    clock.shift(73 * DAY)
    assert vacation(host)["days_left"] == 16.0
    clock.shift(365 * DAY)
    assert vacation(host)["days_left"] == 30.0


def test_a_vacation_stops_the_players_clocks_at_every_table_and_the_opponent_sees_it(
    clock, host, guest, api, openapi
):
    here = open_table(host, guest, clock_days=3)
    mover, waiting = to_move(here, host, guest)
    chie = api.new_player("Chie")
    other = open_table(mover, chie, clock_days=3)
    if to_move(other, mover, chie)[0] is mover:  # so that Chie is to move there
        play_turn(other, mover, chie)
    versions = {code: table(code).version for code in (here, other)}
    clock.shift(HOUR)

    started = mover.post("players/me/vacation", {"days": 3})

    check(openapi, "/api/v1/players/me/vacation", "post", 200, started)
    until = START + HOUR + 3 * DAY
    assert started.body["until"] == until.isoformat() and started.body["days_left"] == 7.0
    assert {code: table(code).version for code in versions} == {
        code: v + 1 for code, v in versions.items()
    }
    paused = table(here)
    assert paused.turn_started_at == until, "the clock restarts when the vacation ends"
    assert paused.deadline == until + 3 * DAY - HOUR, "the hour used before is charged"
    seen = waiting.state(here)
    theirs = next(s for s in seen["seats"] if not s["you"])
    assert theirs["vacation_until"] == until.isoformat()
    assert seen["clock"]["deadline"] == paused.deadline.isoformat()
    assert timeouts.sweep(now=START + 3 * DAY + 2 * HOUR).timed_out == 0

    # A turn that comes to them during the vacation starts at its end.
    clock.shift(DAY)
    play_turn(other, mover, chie)
    there = table(other)
    bank = Seat.objects.get(table=there, player=mover.player()).clock_left
    assert there.turn_started_at == until and there.deadline == until + bank


def test_ending_a_vacation_early_gives_back_the_rest_and_the_clock_runs_again(clock, host, guest):
    code = open_table(host, guest, clock_days=2)
    mover, _ = to_move(code, host, guest)
    mover.post("players/me/vacation", {"days": 5})
    clock.shift(2 * DAY)

    ended = mover.call("DELETE", "players/me/vacation")

    assert ended.status == 200 and ended.body["until"] is None
    assert ended.body["days_left"] == pytest.approx(8.0 + 2 * 30 / 365, abs=0.01)
    now = timezone.now()
    assert table(code).turn_started_at == now and table(code).deadline == now + 2 * DAY


def test_the_refusals_leave_everything_as_it_was(clock, host):
    assert host.call("DELETE", "players/me/vacation").body["code"] == "not_on_vacation"
    too_many = host.post("players/me/vacation", {"days": 11})
    assert (too_many.status, too_many.body["code"]) == (409, "no_vacation_left")
    assert too_many.body["days_left"] == 10.0
    assert host.post("players/me/vacation", {"days": 2}).status == 200
    again = host.post("players/me/vacation", {"days": 1})
    assert (again.status, again.body["code"]) == (409, "on_vacation")
    assert vacation(host)["days_left"] == 8.0


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"days": 0},
        {"days": 31},
        {"days": "3"},
        {"days": 2.5},
        {"days": True},
        {"days": None},
        {"days": 2, "extra": 1},
        [],
        "days",
    ],
    ids=repr,
)
def test_malformed_vacations_are_refused(clock, host, body):
    answer = host.call("POST", "players/me/vacation", body)
    assert answer.status == 400, answer.body
    assert vacation(host)["until"] is None


@pytest.mark.parametrize("body", [{}, {"auto": "no"}, {"auto": 0}, {"auto": None}], ids=repr)
def test_a_malformed_auto_switch_is_refused(host, body):
    assert host.patch("players/me/vacation", body).status == 400
    assert vacation(host)["auto"] is True


def test_auto_vacation_starts_at_the_deadline_instead_of_a_loss(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    for _ in range(4):
        play_turn(code, host, guest)
    mover, _ = to_move(code, host, guest)
    deadline = table(code).deadline
    clock.move_to(deadline + timedelta(seconds=30))  # the sweep comes a little late

    done = timeouts.sweep(now=timezone.now())

    assert (done.timed_out, done.vacations) == (0, 1)
    assert table(code).current_game.state == GameState.PLAYING
    told = table(code).events.get(kind=EventKind.AUTO_VACATION)
    assert told.seat == table(code).seat_to_move and told.sequence == table(code).last_event
    assert told.payload.keys() == payloads.AutoVacation.__required_keys__
    assert told.payload["until"] == (deadline + DAY).isoformat()
    feed = mover.get(f"tables/{code}/events?after={told.sequence - 1}").body["events"]
    assert [event["kind"] for event in feed] == ["auto_vacation"]
    assert vacation(mover)["until"] == (deadline + DAY).isoformat()
    assert table(code).deadline == deadline + DAY, "the bank was empty: it runs out at the end"
    accrued = (timezone.now() - START) / DAY * 30 / 365
    assert vacation(mover)["days_left"] == pytest.approx(10 + accrued - 1, abs=0.01)

    # Still away: another day, and so on while days are left; with auto off, it is lost.
    clock.move_to(deadline + DAY)
    assert timeouts.sweep(now=timezone.now()).vacations == 1
    assert mover.patch("players/me/vacation", {"auto": False}).body["auto"] is False
    clock.move_to(deadline + 2 * DAY)
    assert timeouts.sweep(now=timezone.now()).timed_out == 1
    assert table(code).current_game.state == GameState.TIMED_OUT


def test_a_move_after_the_deadline_with_auto_vacation_is_played(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    for _ in range(4):
        play_turn(code, host, guest)
    deadline = table(code).deadline
    clock.move_to(deadline + 2 * HOUR)  # no sweep ran

    played = play_turn(code, host, guest)

    assert table(code).current_game.state == GameState.PLAYING
    assert vacation(played)["until"] == (deadline + DAY).isoformat()
    bank = Seat.objects.get(table__code=code, player=played.player()).clock_left
    assert bank == DAY, "nothing left at the deadline, then the day a move"


def test_with_no_vacation_left_the_game_is_lost_on_time(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    for _ in range(4):
        play_turn(code, host, guest)
    mover, _ = to_move(code, host, guest)
    deadline = table(code).deadline
    Player.objects.filter(pk=mover.player().pk).update(
        vacation_banked=timedelta(0), vacation_banked_at=deadline - timedelta(minutes=1)
    )
    clock.move_to(deadline)

    assert timeouts.sweep(now=timezone.now()).timed_out == 1
