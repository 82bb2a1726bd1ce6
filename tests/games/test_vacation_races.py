"""A vacation started, or quiet hours set, while the opponent finishes the turn that
hands the clock over, and an auto-vacation due in a late move while the sweep finds it
too, through real concurrent connections: the vacationer's clock never runs during the
vacation, and nothing is decided twice or lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bansugoroku.games import clocks, timeouts
from bansugoroku.games.models import GameState, Player, Table
from bansugoroku.lib.quiet_hours import reached
from tests.client import open_table
from tests.finished_games import play_turn, whole_play
from tests.races import Race, device, legal_moves, outcome, post, seated

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("round_", range(3))
def test_a_vacation_and_the_move_that_hands_over_the_clock_never_let_it_run(
    clock, host, guest, round_
):
    code = open_table(host, guest, clock_days=3)
    mover, away = seated(host, guest, code)
    version, _ = legal_moves(mover, code)

    move, vacation = (
        Race(
            post(mover, code, "moves", {"version": version, "moves": whole_play(code)}),
            lambda: device(away).post("players/me/vacation", {"days": 2}),
        )
        .start()
        .answers()
    )

    assert vacation.status == 200, vacation.body
    assert outcome(move) in {(200, None), (409, "stale_state")}
    if move.status != 200:  # the vacation moved the version on first: play again
        play_turn(code, host, guest)
    table = Table.objects.get(code=code)
    until = Player.objects.get(pk=away.player().pk).vacation_until
    assert table.turn_started_at == until, "the clock handed over starts when they are back"
    assert table.deadline > until


@pytest.mark.parametrize("round_", range(3))
def test_quiet_hours_set_while_the_clock_is_handed_over_give_its_deadline(
    clock, host, guest, round_
):
    code = open_table(host, guest, clock_days=3)
    mover, away = seated(host, guest, code)
    version, _ = legal_moves(mover, code)
    nights = {"time_zone": "Asia/Tokyo", "start_hour": 22, "end_hour": 8, "days_off": [7]}

    move, quiet = (
        Race(
            post(mover, code, "moves", {"version": version, "moves": whole_play(code)}),
            lambda: device(away).call("PUT", "players/me/quiet-hours", body=nights),
        )
        .start()
        .answers()
    )

    assert quiet.status == 200, quiet.body
    assert outcome(move) in {(200, None), (409, "stale_state")}
    if move.status != 200:
        play_turn(code, host, guest)
    table = Table.objects.get(code=code)
    player = Player.objects.get(pk=away.player().pk)
    bank = table.seats.get(player=player).clock_left
    expected = reached(clocks.quiet_hours(player), table.turn_started_at, bank)
    assert table.deadline == expected, "the handed-over clock runs under the new hours"
    assert table.deadline > table.turn_started_at + bank


@pytest.mark.parametrize("round_", range(3))
def test_a_late_move_and_the_sweep_start_one_auto_vacation(clock, host, guest, round_):
    code = open_table(host, guest, clock_days=1)
    for _ in range(4):
        play_turn(code, host, guest)
    mover, _ = seated(host, guest, code)
    version, _ = legal_moves(mover, code)
    deadline = Table.objects.get(code=code).deadline
    clock.move_to(deadline)

    move, swept = (
        Race(
            post(mover, code, "moves", {"version": version, "moves": whole_play(code)}),
            lambda: timeouts.sweep(now=timezone.now()),
        )
        .start()
        .answers()
    )

    # The sweep may start the vacation first, moving the version on: the move is then
    # refused as stale, and nothing is lost.
    assert outcome(move) in {(200, None), (409, "stale_state")}, move.body
    assert swept.timed_out == 0 and swept.vacations in {0, 1}
    table = Table.objects.select_related("current_game").get(code=code)
    assert table.current_game.state == GameState.PLAYING
    player = Player.objects.get(pk=mover.player().pk)
    assert player.vacation_until == deadline + timedelta(days=1)
    assert mover.get("players/me/vacation").body["days_left"] < 10, "one day taken, once"
    assert mover.get("players/me/vacation").body["days_left"] > 8.9
