"""The CPU's turn: played through the same write as a person's, once per turn, by a
real worker reading the `turn_started` events."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import psycopg
import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import services
from bansugoroku.games.models import Event, Game, Table, Turn
from bansugoroku.games.replay import replay_game
from bansugoroku.games.tasks import recover_cpu_turns
from tests.client import Api
from tests.cpu_games import a_cpu_table, human_to_move, play_first_legal_move
from tests.factories import TableFactory
from tests.processes import (
    beat_process,
    needs_a_broker,
    with_broker_down,
    worker_process,
    worker_running,
)
from tests.second_connection import second_connection

pytestmark = pytest.mark.slow


def cpu_to_move(code: str) -> Game:
    game = Table.objects.select_related("current_game").get(code=code).current_game
    assert game is not None
    return game


def test_the_cpu_plays_its_turn_once_however_often_it_is_asked(db, api):
    human = api.new_player("Aiko")
    code = a_cpu_table(human, "easy")
    while human_to_move(code, human):
        play_first_legal_move(code, human)
    game = cpu_to_move(code)
    assert game.turn_seat == 1 and not game.is_over
    assert Table.objects.get(code=code).cpu_to_move, "what the recovery looks for"
    played = services.cpu_move(code=code, game_number=1, turn_number=game.turn_number)
    assert played is not None and played.events
    assert played.table.cpu_to_move == (cpu_to_move(code).turn_seat == 1)
    again = services.cpu_move(code=code, game_number=1, turn_number=game.turn_number)
    assert again is None, "a second run of the task changes nothing"
    assert Turn.objects.filter(game=game, number=game.turn_number, seat=1).count() == 1
    assert replay_game(Game.objects.get(pk=game.pk)) == []


def test_the_cpu_never_plays_a_persons_turn(db, api):
    human = api.new_player("Aiko")
    code = a_cpu_table(human)
    while not human_to_move(code, human):
        game = cpu_to_move(code)
        services.cpu_move(code=code, game_number=game.number, turn_number=game.turn_number)
    game = cpu_to_move(code)
    assert services.cpu_move(code=code, game_number=1, turn_number=game.turn_number) is None
    assert cpu_to_move(code).turn_number == game.turn_number


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not app.conf.broker_url.startswith(("redis://", "amqp://")),
    reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
)
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_whole_game_against_the_cpu_through_the_api_and_a_worker(level):
    human = Api().new_player("Aiko")
    app.control.purge()
    with worker_running():
        code = a_cpu_table(human, level)
        deadline = time.monotonic() + 120
        while human.state(code)["game"]["state"] == "playing":
            assert time.monotonic() < deadline, "the game did not end in 120 s"
            if human_to_move(code, human):
                play_first_legal_move(code, human)
            else:
                time.sleep(0.05)  # the worker plays the CPU's turn
        # The last move's events (the game's end) are the worker's to deliver still.
        while Event.objects.filter(table__code=code, delivered_at=None).exists():
            assert time.monotonic() < deadline + 30, "the worker left events undelivered"
            time.sleep(0.05)
    game = cpu_to_move(code)
    assert game.is_over and replay_game(game) == []
    seats = set(Turn.objects.filter(game=game).exclude(moves=[]).values_list("seat", flat=True))
    assert seats == {0, 1}, "both the person and the CPU played"


# A CPU's turn whose message is lost. Celery acknowledges a message before running its
# task, so a worker killed while playing the CPU's turn loses it, as does a broker that is
# down when the delivery of the events queues it. The recovery (beat, every
# CPU_TURN_RETRY_AFTER) queues it again once nothing changed at the table for that long;
# here that is two seconds.

RETRY_AFTER = {"CPU_TURN_RETRY_AFTER": "2s"}
BACK_WITHIN = 30.0
"""Seconds from a worker's start to the CPU's play (production: within two minutes)."""


def a_cpu_table_at_the_cpus_turn() -> tuple[str, int]:
    """A table where the CPU is to play, as its player's last move left it, and its
    turn number; no worker has run."""
    table = TableFactory(cpu="easy")
    human = Api(table.host.token)
    started = human.post(f"tables/{table.code}/start", {"version": table.version})
    assert started.status == 200, started.body
    while human_to_move(table.code, human):
        play_first_legal_move(table.code, human)
    game = cpu_to_move(table.code)
    assert game.turn_seat == 1 and not game.is_over
    return table.code, game.turn_number


def lock_waiters() -> int:
    """How many database backends wait for a lock in the test database. (The first to
    wait for a row waits for its holder, the next ones for the first.)"""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        (count,) = cursor.fetchone()
    return int(count)


def waiting_for(count: int) -> None:
    """Wait until `count` backends wait for a lock."""
    deadline = time.monotonic() + BACK_WITHIN
    while (waiting := lock_waiters()) < count:
        assert time.monotonic() < deadline, f"{waiting} of {count} waited for the table's row"
        time.sleep(0.1)


@contextmanager
def row_locked(code: str) -> Iterator[psycopg.Connection[Any]]:
    """The table's row locked on a connection of the test's own, as a long change would
    hold it, until the block ends."""
    with second_connection() as holder:
        holder.execute(
            f"SELECT 1 FROM {Table._meta.db_table} WHERE code = %s FOR UPDATE", [code]
        ).fetchone()
        yield holder
        holder.rollback()


def played_once(code: str, turn: int, since: float) -> None:
    """The CPU plays `turn` within BACK_WITHIN seconds of `since`, and only once: one
    Turn row, one event after it (the next turn, or the game's end) with its play, once
    no worker waits for the table any more."""
    while not Turn.objects.filter(game__table__code=code, number=turn).exists():
        assert time.monotonic() - since < BACK_WITHIN, f"turn {turn} was not played"
        time.sleep(0.1)
    while lock_waiters():
        assert time.monotonic() - since < BACK_WITHIN, "a worker still waits for the table"
        time.sleep(0.1)
    (played,) = Turn.objects.filter(game__table__code=code, number=turn)
    assert played.seat == 1
    after = Event.objects.filter(table__code=code, payload__played__turn=turn)
    assert [e.kind for e in after] in (["turn_started"], ["game_ended"])
    assert replay_game(Game.objects.get(pk=played.game_id)) == []


def play_in_a_thread(code: str, turn: int) -> bool:
    """`cpu_turn` as a worker's thread runs it, on a database connection of its own."""
    try:
        return services.cpu_move(code=code, game_number=1, turn_number=turn) is not None
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_two_runs_of_a_cpu_turn_that_waited_for_the_table_play_it_once():
    """A turn queued twice (its event delivered twice, or queued again by the recovery
    while a worker was about to play it): both runs wait for the table's row, and the
    one that gets it second finds the turn played."""
    code, turn = a_cpu_table_at_the_cpus_turn()
    with row_locked(code) as holder, ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(play_in_a_thread, code, turn) for _ in range(2)]
        waiting_for(2)
        holder.rollback()
        assert sorted(run.result() for run in runs) == [False, True]
    played_once(code, turn, since=time.monotonic())


def test_the_recovery_queues_the_cpus_turn_only_once_it_waited_too_long(db, settings):
    code, turn = a_cpu_table_at_the_cpus_turn()
    assert recover_cpu_turns() == 0, "its message may be on its way still"
    later = timezone.now() + settings.CPU_TURN_RETRY_AFTER + timedelta(seconds=1)
    with time_machine.travel(later):
        assert recover_cpu_turns() == 1
        services.cpu_move(code=code, game_number=1, turn_number=turn)
    with time_machine.travel(later + settings.CPU_TURN_RETRY_AFTER * 2):
        assert recover_cpu_turns() == (1 if cpu_to_move(code).turn_seat == 1 else 0)


@pytest.mark.django_db(transaction=True)
@needs_a_broker
def test_a_cpu_turn_whose_worker_was_killed_is_played_once_when_a_worker_is_back(tmp_path):
    app.control.purge()  # what earlier tests queued, for tables long gone
    code, turn = a_cpu_table_at_the_cpus_turn()
    with row_locked(code) as holder:
        with worker_process(tmp_path / "killed.log", name="killed") as killed:
            waiting_for(1)  # its cpu_turn, acknowledged, waits for the row
            killed.kill()
            killed.wait()
        assert not Turn.objects.filter(game__table__code=code, number=turn).exists()
        with (
            worker_process(tmp_path / "worker.log", name="back", threads=2, **RETRY_AFTER),
            beat_process(tmp_path / "beat.log", **RETRY_AFTER),
        ):
            back = time.monotonic()
            # The killed worker's backend, and the turn queued again twice by the
            # recovery, the second a duplicate: both of the new worker's threads wait.
            waiting_for(3)
            holder.rollback()
            played_once(code, turn, since=back)
    assert "raised unexpected" not in (tmp_path / "worker.log").read_text()


@pytest.mark.django_db(transaction=True)
@needs_a_broker
def test_a_cpu_turn_lost_with_the_broker_at_delivery_is_played_once_when_a_worker_is_back(
    tmp_path,
):
    code, turn = a_cpu_table_at_the_cpus_turn()
    app.control.purge()  # the deliveries, taken by a worker whose broker then went away
    table = Table.objects.get(code=code)
    # The delivery of the player's last move: one event, the CPU's turn_started.
    cpus_turn = Event.objects.get(table=table, sequence=table.last_event)
    assert (cpus_turn.kind, cpus_turn.seat) == ("turn_started", 1)
    delivered = with_broker_down(
        "from bansugoroku.games.tasks import deliver_events;"
        f"deliver_events({table.pk}, {cpus_turn.sequence}, {cpus_turn.sequence})"
    )
    cpus_turn.refresh_from_db()
    assert cpus_turn.delivered_at is not None
    with (
        worker_process(tmp_path / "worker.log", name="back", **RETRY_AFTER),
        beat_process(tmp_path / "beat.log", **RETRY_AFTER),
    ):
        played_once(code, turn, since=time.monotonic())
    assert delivered.returncode == 0, delivered.stderr
    assert "waits for the recovery" in delivered.stderr
