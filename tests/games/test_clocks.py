"""A table's clock, through the API as a client plays it: days a move with a time bank,
the timeout win, the early cancellation, the move after the deadline, and the sweep.
Time is moved with time-machine."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bansugoroku.games import idle, timeouts
from bansugoroku.games.models import EventKind, GameState, Seat, Table, TableState
from bansugoroku.games.replay import replay_game, score_problems
from tests.client import Api, check, open_table
from tests.finished_games import play_turn, to_move, whole_play, without_auto_vacation
from tests.moments import START

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def clocks_run_out(host, guest):
    """Both players without auto-vacation: their clocks run out."""
    without_auto_vacation(host, guest)


def banks(code: str) -> list[timedelta | None]:
    return list(Seat.objects.filter(table__code=code).values_list("clock_left", flat=True))


def play_until_turn(code: str, host: Api, guest: Api, number: int) -> None:
    while Table.objects.get(code=code).current_game.turn_number < number:
        play_turn(code, host, guest)


def test_the_clock_is_chosen_at_creation_and_shown_before_and_after_the_start(
    clock, host, guest, openapi
):
    created = host.post("tables", {"clock_days": 3})
    check(openapi, "/api/v1/tables", "post", 201, created)
    assert created.body["clock"] | {"banks": None} == {
        "days": 3,
        "cap_days": 6,
        "day_seconds": 86_400,
        "banks": None,
        "deadline": None,
        "turn_started_at": None,
        "quiet_spans": [],
    }
    code = created.body["code"]
    assert guest.post(f"tables/{code}/join").status == 200
    host.post(f"tables/{code}/start", {"version": host.state(code)["version"]})
    state = host.get(f"tables/{code}")
    check(openapi, "/api/v1/tables/{code}", "get", 200, state)
    assert state.body["clock"]["banks"] == [3 * 86_400.0, 3 * 86_400.0]
    assert state.body["clock"]["deadline"] == (START + 3 * DAY).isoformat()
    assert state.body["clock"]["turn_started_at"] == START.isoformat()
    assert banks(code) == [3 * DAY, 3 * DAY]


def test_no_clock_by_default(host, guest):
    code = open_table(host, guest)
    assert host.state(code)["clock"] is None
    assert Table.objects.get(code=code).deadline is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"clock_days": 4}, "clock_days"),
        ({"clock_days": "a week"}, "clock_days"),
        ({"clock_days": 3, "opponent": "cpu", "cpu_level": "easy"}, "clock_days"),
    ],
)
def test_a_clock_is_one_of_the_offered_days_and_never_against_the_cpu(host, body, field):
    answer = host.post("tables", body)
    assert answer.status == 400 and field in str(answer.body), answer.body


def test_each_turn_charges_the_time_used_and_adds_the_days_up_to_twice_them(clock, host, guest):
    code = open_table(host, guest, clock_days=2)
    black = play_turn(code, host, guest)  # at once: 2 - 0 + 2 = 4 days, the cap
    seat = 0 if black is host else 1
    assert banks(code)[seat] == 4 * DAY
    clock.shift(timedelta(hours=30))
    play_turn(code, host, guest)  # the other seat used 30 h of its 2 days: 2 - 1.25 + 2
    assert banks(code)[1 - seat] == timedelta(hours=48 - 30 + 48)
    clock.shift(timedelta(hours=1))
    play_turn(code, host, guest)  # 4 days - 1 h + 2 days, capped at 4 days
    assert banks(code)[seat] == 4 * DAY
    table = Table.objects.get(code=code)
    assert table.turn_started_at == timezone.now()
    assert table.deadline == timezone.now() + timedelta(hours=66)


def test_a_move_within_a_turn_leaves_the_clock_running(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    me, _ = to_move(code, host, guest)
    deadline = Table.objects.get(code=code).deadline
    clock.shift(timedelta(hours=5))
    first = whole_play(code)[0]
    assert (
        me.post(
            f"tables/{code}/moves", {"version": me.state(code)["version"], "moves": [first]}
        ).status
        == 200
    )
    assert Table.objects.get(code=code).deadline == deadline


def test_time_running_out_loses_the_game_on_time_and_both_are_told(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    play_until_turn(code, host, guest, 5)
    late, winner = to_move(code, host, guest)
    clock.shift(2 * DAY - timedelta(seconds=1))  # the mover's bank is full: 2 days
    assert timeouts.sweep(now=timezone.now()).timed_out == 0
    clock.shift(timedelta(seconds=2))

    done = timeouts.sweep(now=timezone.now())

    assert (done.timed_out, done.cancelled) == (1, 0)
    table = Table.objects.select_related("current_game").get(code=code)
    game = table.current_game
    assert game.state == GameState.TIMED_OUT and game.win_kind == "time" and game.points == 1
    winner_seat = 1 - game.turn_seat
    assert game.winner == winner_seat and table.score[winner_seat] == 1
    assert table.state == TableState.BETWEEN_GAMES and table.deadline is None
    ended = table.events.get(sequence=table.last_event)
    assert ended.kind == EventKind.GAME_ENDED and ended.seat == winner_seat
    assert ended.payload | {"played": None, "passes": []} == ended.payload
    assert (ended.payload["how"], ended.payload["win_kind"]) == ("time", "time")
    seen = late.state(code)
    assert (
        seen["game"]["result"]["kind"] == "timed_out" and seen["game"]["result"]["you_won"] is False
    )
    assert winner.state(code)["game"]["result"]["you_won"] is True
    feed = winner.get(f"tables/{code}/events?after=0").body["events"]
    assert feed[-1]["kind"] == "game_ended" and feed[-1]["payload"]["how"] == "time"
    assert timeouts.sweep(now=timezone.now()).timed_out == 0, "ended once"
    assert replay_game(game) == [] and score_problems(table, [game]) == []


def test_before_each_side_has_played_two_turns_time_running_out_cancels_the_game(
    clock, host, guest
):
    code = open_table(host, guest, clock_days=1)
    play_until_turn(code, host, guest, 3)
    clock.shift(2 * DAY)  # the deadline itself (the bank is full, 2 days): no time left

    done = timeouts.sweep(now=timezone.now())

    assert (done.timed_out, done.cancelled) == (0, 1)
    table = Table.objects.select_related("current_game").get(code=code)
    assert table.current_game.state == GameState.CANCELLED
    assert table.current_game.winner is None and table.score == (0, 0)
    ended = table.events.get(sequence=table.last_event)
    assert ended.payload["how"] == "cancelled" and ended.payload["winner"] is None
    assert host.state(code)["can_play_again"]
    assert replay_game(table.current_game) == []


def test_a_move_after_the_deadline_is_refused_and_the_game_ends_on_time(clock, host, guest):
    code = open_table(host, guest, clock_days=3)
    play_until_turn(code, host, guest, 6)
    me, other = to_move(code, host, guest)
    version, play = me.state(code)["version"], whole_play(code)
    turn = Table.objects.get(code=code).current_game.turn_number
    clock.shift(6 * DAY)  # whatever the bank held, it is spent

    answer = me.post(f"tables/{code}/moves", {"version": version, "moves": play})

    assert (answer.status, answer.body["code"]) == (409, "time_ran_out")
    table = Table.objects.select_related("current_game").get(code=code)
    assert table.current_game.state == GameState.TIMED_OUT
    assert table.current_game.turn_number == turn and not table.current_game.turns.filter(
        number=turn
    )
    assert other.state(code)["game"]["result"]["you_won"] is True
    again = me.post(f"tables/{code}/moves", {"version": table.version, "moves": play})
    assert (again.status, again.body["code"]) == (409, "game_over")


def test_a_new_game_fills_both_banks_again(clock, host, guest):
    code = open_table(host, guest, clock_days=1)
    play_until_turn(code, host, guest, 5)
    clock.shift(2 * DAY)
    timeouts.sweep(now=timezone.now())
    again = host.post(f"tables/{code}/play-again", {"version": host.state(code)["version"]})
    assert again.status == 200, again.body
    assert banks(code) == [DAY, DAY]
    assert again.body["clock"]["deadline"] == (timezone.now() + DAY).isoformat()


def test_the_idle_close_and_leaving_stop_the_clock(clock, host, guest):
    left, idle_code = open_table(host, guest, clock_days=14), open_table(host, guest, clock_days=14)
    assert host.post(f"tables/{left}/leave", {"version": host.state(left)["version"]}).status == 200
    assert Table.objects.get(code=left).deadline is None
    Table.objects.filter(code=idle_code).update(deadline=timezone.now() + 100 * DAY)
    clock.shift(46 * DAY)
    assert idle.sweep(now=timezone.now()).closed == 1
    assert Table.objects.get(code=idle_code).deadline is None
    assert timeouts.sweep(now=timezone.now() + 200 * DAY).timed_out == 0


def test_my_tables_put_the_soonest_deadline_first_within_my_turns(clock, host, guest):
    """Three tables where it is the host's turn: no clock, 14 days, 1 day."""
    codes = [open_table(host, guest, clock_days=days) for days in (None, 14, 1)]
    assert all(to_move(code, host, guest)[0] is host for code in codes)
    listed = host.get("tables").body
    assert [t["code"] for t in listed] == [codes[2], codes[1], codes[0]]
    assert listed[0]["deadline"] == (START + DAY).isoformat() and listed[2]["deadline"] is None
