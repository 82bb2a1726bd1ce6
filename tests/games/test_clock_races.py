"""A move arriving at its deadline while the timeout sweep runs, through real concurrent
connections: the game is decided once, never both played and lost on time."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from bansugoroku.games import services, timeouts
from bansugoroku.games.models import EventKind, Game, GameState, Table, TableState, Turn
from tests.client import open_table
from tests.finished_games import whole_play, without_auto_vacation
from tests.races import TIMEOUT, before, in_thread, legal_moves, outcome, post, seated

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def clocks_run_out(host, guest):
    """Both players without auto-vacation: their clocks run out."""
    without_auto_vacation(host, guest)


def game_ended_events(code: str) -> int:
    return Table.objects.get(code=code).events.filter(kind=EventKind.GAME_ENDED).count()


@pytest.mark.parametrize("round_", range(4))
def test_a_move_and_the_sweep_released_together_at_the_deadline_decide_once(
    clock, host, guest, round_
):
    code = open_table(host, guest, clock_days=1)
    me, _ = seated(host, guest, code)
    version, _ = legal_moves(me, code)
    play = whole_play(code)
    was = before(code)
    clock.move_to(Table.objects.get(code=code).deadline)
    barrier = threading.Barrier(2)
    answers: list = []
    swept: list[timeouts.Sweep] = []
    move = post(me, code, "moves", {"version": version, "moves": play})

    def after_barrier(call, into):
        return lambda: (barrier.wait(TIMEOUT), into.append(call()))

    racers = [
        in_thread(after_barrier(move, answers)),
        in_thread(after_barrier(lambda: timeouts.sweep(now=timezone.now()), swept)),
    ]
    for racer in racers:
        racer.join(TIMEOUT)
    [answer], [sweep] = answers, swept

    # Turn 1: running out cancels the game. Whoever held the row first decided it.
    assert outcome(answer) in {(409, "time_ran_out"), (409, "stale_state")}
    assert sweep.cancelled == (1 if outcome(answer) == (409, "stale_state") else 0)
    assert game_ended_events(code) == 1
    game = Game.objects.get(pk=was.game_id)
    assert game.state == GameState.CANCELLED and game.turn_number == was.turn_number
    assert not Turn.objects.filter(game=game).exists(), "the move was never played"


def test_a_move_holding_the_row_as_the_deadline_passes_is_played_and_starts_the_other_clock(
    clock, host, guest
):
    code = open_table(host, guest, clock_days=1)
    me, _ = seated(host, guest, code)
    version, _ = legal_moves(me, code)
    play = whole_play(code)
    deadline = Table.objects.get(code=code).deadline
    clock.move_to(deadline - timedelta(seconds=1))
    swept: list[timeouts.Sweep] = []

    with transaction.atomic():
        services.game_move(
            player=me.player(), code=code, version=version, moves=[(m[0], m[1]) for m in play]
        )
        clock.move_to(deadline + timedelta(seconds=1))
        sweeper = in_thread(lambda: swept.append(timeouts.sweep(now=timezone.now())))
        sweeper.join(TIMEOUT)  # it never waits for the row: SKIP LOCKED
        assert not sweeper.is_alive(), "the sweep waited for the move's lock"

    assert (swept[0].timed_out, swept[0].cancelled) == (0, 0)
    assert timeouts.sweep(now=timezone.now()).cancelled == 0, "the other clock runs now"
    table = Table.objects.get(code=code)
    assert table.state == TableState.PLAYING and table.deadline > timezone.now()
    assert game_ended_events(code) == 0
