"""Races between requests: calls released together in threads of their own, and what a
race over a table left behind."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connection, transaction

from bansugoroku.games.models import Table
from tests.client import Answer, Api

TIMEOUT = 30.0
"""Seconds a racer may take; far above what a request needs, it only stops a hang."""

T = TypeVar("T")


class Race(Generic[T]):
    """Calls run in threads of their own, each on its own database connection, and
    released together by a barrier: requests, or any call that takes a lock."""

    def __init__(self, *calls: Callable[[], T]) -> None:
        self.barrier = threading.Barrier(len(calls))
        self.outcomes: list[T | BaseException | None] = [None] * len(calls)
        self.threads = [
            threading.Thread(target=self._run, args=(index, call), daemon=True)
            for index, call in enumerate(calls)
        ]

    def _run(self, index: int, call: Callable[[], T]) -> None:
        try:
            self.barrier.wait(TIMEOUT)
            self.outcomes[index] = call()
        except BaseException as exc:  # a 500 raises in the test client: shown by answers()
            self.outcomes[index] = exc
        finally:
            connection.close()  # this thread's own connection

    def start(self) -> Race[T]:
        for thread in self.threads:
            thread.start()
        return self

    def done(self) -> int:
        """How many racers have had their answer (or failed) so far."""
        return sum(outcome is not None for outcome in self.outcomes)

    def answers(self) -> list[T]:
        for thread in self.threads:
            if thread.ident is not None:
                thread.join(TIMEOUT)
        assert not any(thread.is_alive() for thread in self.threads), "a racer hangs"
        answers: list[T] = []
        for outcome in self.outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
            assert outcome is not None
            answers.append(outcome)
        return answers


def in_thread(call: Callable[[], object]) -> threading.Thread:
    """`call` on a connection of its own, started now."""

    def run() -> None:
        try:
            call()
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def lock_waiters() -> int:
    """Connections to the test database waiting for a lock, as PostgreSQL sees them now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else frozen for the transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def race_behind_lock(code: str, *calls: Callable[[], Answer]) -> list[Answer]:
    """A race in which every racer is queued on the table row, or answered without
    writing, before any may go on."""
    racing = Race(*calls)
    with transaction.atomic():
        Table.objects.select_for_update().get(code=code)
        racing.start()
        deadline = time.monotonic() + TIMEOUT
        while lock_waiters() + racing.done() < len(calls):
            assert time.monotonic() < deadline, "the racers never queued on the table row"
            time.sleep(0.002)
    return racing.answers()


def post(player: Api, code: str, action: str, body: dict[str, Any]) -> Callable[[], Answer]:
    return lambda: device(player).post(f"tables/{code}/{action}", body)


def outcome(answer: Answer) -> tuple[int, str | None]:
    code = answer.body.get("code") if isinstance(answer.body, dict) else None
    return answer.status, code if answer.status != 200 else None


@dataclass(frozen=True)
class Before:
    """What the database held before a race."""

    game_id: int
    turn_number: int
    pending: list[list[int]]


def before(code: str) -> Before:
    game = Table.objects.select_related("current_game").get(code=code).current_game
    assert game is not None
    return Before(game_id=game.pk, turn_number=game.turn_number, pending=game.pending)


def legal_moves(player: Api, code: str) -> tuple[int, list[list[int]]]:
    state = player.state(code)
    turn = state["game"]["turn"]
    assert turn["yours"], "not this player's turn"
    return state["version"], turn["legal_moves"]


def seated(host: Api, guest: Api, code: str) -> tuple[Api, Api]:
    """The player to move and the other one (the host sits in seat 0)."""
    game = Table.objects.select_related("current_game").get(code=code).current_game
    assert game is not None
    return (host, guest) if game.turn_seat == 0 else (guest, host)


def device(player: Api) -> Api:
    """Another device of the same player: its own client, the same token."""
    return Api(player.token)
