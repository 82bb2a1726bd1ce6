"""A move arriving while the idle sweep runs, through real concurrent connections: it
lands before the close (and the table is then not idle), or it is refused as
`table_closed`; never half-applied. Time is moved with time-machine, in every thread.
And the sweep committed by another process, with the broker away."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection, transaction
from django.utils import timezone

from bansugoroku.games import idle, services
from bansugoroku.games.models import EventKind, Game, GameState, Table, TableState, Turn
from harness.databases import database_url
from tests.client import open_table
from tests.finished_games import whole_play
from tests.races import (
    TIMEOUT,
    Before,
    Race,
    before,
    in_thread,
    legal_moves,
    lock_waiters,
    outcome,
    post,
    seated,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

START = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def clock() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def assert_history_intact(code: str) -> None:
    """The game's turns are numbered 1..N, the one being played (or abandoned by the
    close) without a row yet; the table's events 1..N, the close's the last."""
    table = Table.objects.get(code=code)
    for game in Game.objects.filter(table=table):
        numbers = list(game.turns.values_list("number", flat=True))
        assert numbers == list(range(1, game.turn_number)), (game, numbers)
    sequences = list(table.events.values_list("sequence", flat=True))
    assert sequences == list(range(1, table.last_event + 1)), "events with a gap or twice"


def test_a_move_waiting_for_the_sweeps_lock_is_refused_as_table_closed(clock, host, guest):
    code = open_table(host, guest)
    me, _ = seated(host, guest, code)
    version, moves = legal_moves(me, code)
    was = before(code)
    clock.shift(timedelta(days=46))

    with transaction.atomic():
        assert idle.sweep(now=timezone.now()).closed == 1  # its batch's lock still held
        racing = Race(post(me, code, "moves", {"version": version, "moves": [moves[0]]}))
        racing.start()
        deadline = time.monotonic() + TIMEOUT
        while lock_waiters() < 1:
            assert time.monotonic() < deadline, "the move never queued on the table row"
            time.sleep(0.002)
    [answer] = racing.answers()

    assert outcome(answer) == (409, "table_closed")
    game = Game.objects.get(pk=was.game_id)
    assert game.pending == was.pending and game.turn_number == was.turn_number
    assert Table.objects.get(code=code).version == version + 1
    assert_history_intact(code)


def played_once(was: Before, moves: list[list[int]]) -> None:
    """The whole play is the turn's row, once; the game went on to the next turn."""
    recorded = Turn.objects.filter(game_id=was.game_id, number=was.turn_number)
    assert list(recorded.values_list("moves", flat=True)) == [moves]
    assert Game.objects.get(pk=was.game_id).turn_number > was.turn_number


def test_the_sweep_passes_over_a_table_a_move_holds_and_the_move_makes_it_active(
    clock, host, guest
):
    """A finished turn is activity (a die move that leaves the turn open is not)."""
    code = open_table(host, guest)
    me, _ = seated(host, guest, code)
    version, _ = legal_moves(me, code)
    play = whole_play(code)
    was = before(code)
    player = me.player()
    clock.shift(timedelta(days=46))
    swept: list[idle.Sweep] = []

    with transaction.atomic():
        services.game_move(
            player=player, code=code, version=version, moves=[(m[0], m[1]) for m in play]
        )
        sweeper = in_thread(lambda: swept.append(idle.sweep(now=timezone.now())))
        sweeper.join(TIMEOUT)  # it never waits for the row: SKIP LOCKED
        assert not sweeper.is_alive(), "the sweep waited for the move's lock"

    assert swept[0].closed == 0
    assert idle.sweep(now=timezone.now()).closed == 0  # active now
    table = Table.objects.get(code=code)
    assert table.state == TableState.PLAYING and table.active_at == timezone.now()
    played_once(was, play)
    assert_history_intact(code)


@pytest.mark.parametrize("round_", range(4))
def test_a_move_and_the_sweep_released_together_one_outcome_or_the_other(
    clock, host, guest, round_
):
    code = open_table(host, guest)
    me, _ = seated(host, guest, code)
    version, _ = legal_moves(me, code)
    play = whole_play(code)
    was = before(code)
    clock.shift(timedelta(days=46))
    barrier = threading.Barrier(2)
    answers, swept = [], []
    move = post(me, code, "moves", {"version": version, "moves": play})

    def after_barrier(call, into):
        return lambda: (barrier.wait(TIMEOUT), into.append(call()))

    racers = [
        in_thread(after_barrier(move, answers)),
        in_thread(after_barrier(lambda: idle.sweep(now=timezone.now()), swept)),
    ]
    for racer in racers:
        racer.join(TIMEOUT)
    [answer], [_] = answers, swept

    table = Table.objects.get(code=code)
    closings = table.events.filter(kind=EventKind.TABLE_CLOSED).count()
    if outcome(answer) == (200, None):
        assert swept[0].closed == 0 and closings == 0
        assert table.state == TableState.PLAYING
        played_once(was, play)
    else:
        assert outcome(answer) == (409, "table_closed")
        assert swept[0].closed == 1 and closings == 1
        game = Game.objects.get(pk=was.game_id)
        assert game.pending == was.pending and game.turn_number == was.turn_number
        assert game.state == GameState.ABANDONED and table.state == TableState.CLOSED
    assert_history_intact(code)


def test_the_command_closes_tables_while_the_broker_is_down_and_their_events_wait(host, guest):
    """Run as support runs it, in a process of its own whose broker is a closed port."""
    code = open_table(host, guest)
    env = os.environ | {
        "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "1",
    }
    later = (timezone.now() + timedelta(days=46)).isoformat()
    command = [sys.executable, "manage.py", "close_idle_tables", "--now", later]

    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)

    assert ran.returncode == 0, ran.stderr
    assert "closed 1 idle tables (1 with a game in progress)" in ran.stdout
    assert "events of 1 tables wait for the relay" in ran.stderr
    table = Table.objects.get(code=code)
    assert table.state == TableState.CLOSED
    closed = table.events.get(sequence=table.last_event)
    assert closed.kind == EventKind.TABLE_CLOSED and closed.delivered_at is None
