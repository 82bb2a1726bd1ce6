"""A change whose outcome is unknown: the database connection dies as it is stored.

The request's own PostgreSQL backend is terminated from a second connection, the honest
way to lose a connection: just before the change is committed (it is not stored), or
just after (stored, but the reply is lost on the way to the client, here the next
statement on the dead connection). Either way the client can't know, so the answer is
503 `outcome_unknown`, and GETting the table tells the truth. Every change, a move
as any other, locks the table in a transaction and is committed by COMMIT.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection

from bansugoroku.games import services
from tests.client import Api, mover
from tests.second_connection import terminate_backend

pytestmark = pytest.mark.django_db(transaction=True)  # a real COMMIT, not a savepoint


def terminate_own_backend() -> None:
    """Kill the backend of Django's connection from another one, and wait until it is gone."""
    terminate_backend(connection.connection.info.backend_pid)


@contextmanager
def at_commit(hook: Callable[[Callable[[], Any]], None]) -> Iterator[None]:
    """Run `hook(commit)` instead of the next COMMIT of Django's connection."""
    original = connection._commit
    calls = []

    def patched() -> None:
        connection._commit = original  # once only
        calls.append(1)
        hook(original)

    connection._commit = patched
    try:
        yield
    finally:
        connection._commit = original
    assert calls, "no COMMIT was sent"


def killed_before_commit(commit: Callable[[], Any]) -> None:
    terminate_own_backend()
    commit()


def killed_after_commit(commit: Callable[[], Any]) -> None:
    commit()
    terminate_own_backend()
    with connection.wrap_database_errors:
        connection.connection.execute("SELECT 1")  # the reply that never comes


def assert_outcome_unknown(answer) -> None:
    assert answer.status == 503, answer.body
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert answer.body["code"] == "outcome_unknown"
    assert int(answer.headers["Retry-After"]) > 0
    assert "GET the table" in answer.body["detail"]


def a_move(table: str, host: Api, guest: Api) -> tuple[Api, dict, dict]:
    player, state = mover(table, host, guest)
    body = {"version": state["version"], "moves": [state["game"]["turn"]["legal_moves"][0]]}
    return player, state, body


def test_connection_lost_before_commit_the_move_is_not_stored(host, guest, table):
    player, before, body = a_move(table, host, guest)
    with at_commit(killed_before_commit):
        answer = player.post(f"tables/{table}/moves", body)
    assert_outcome_unknown(answer)
    after = player.state(table)
    assert after["version"] == before["version"]  # not stored: safe to send again
    assert after["game"] == before["game"]
    retried = player.post(f"tables/{table}/moves", body)
    assert retried.status == 200, retried.body
    assert retried.body["version"] == before["version"] + 1


def test_connection_lost_after_commit_the_move_is_stored(host, guest, table):
    player, before, body = a_move(table, host, guest)
    with at_commit(killed_after_commit):
        answer = player.post(f"tables/{table}/moves", body)
    assert_outcome_unknown(answer)
    after = player.state(table)
    assert after["version"] == before["version"] + 1  # stored: don't send it again
    assert after["game"] != before["game"]
    retried = player.post(f"tables/{table}/moves", body)
    assert retried.status == 409 and retried.body["code"] == "stale_state"


@pytest.mark.parametrize(
    ("hook", "stored"), [(killed_before_commit, False), (killed_after_commit, True)]
)
def test_connection_lost_at_the_commit_of_a_locked_change(host, guest, table, hook, stored):
    before = host.state(table)
    with at_commit(hook):
        answer = host.post(f"tables/{table}/leave", {"version": before["version"]})
    assert_outcome_unknown(answer)
    after = host.state(table)
    assert after["version"] == before["version"] + stored
    assert (after["state"] == "closed") is stored


def test_connection_lost_before_a_move_is_written_is_unavailable_not_unknown(
    host, guest, table, monkeypatch
):
    player, before, body = a_move(table, host, guest)
    lock_seat = services.lock_seat

    def die_then_lock(*args, **kwargs):
        terminate_own_backend()
        return lock_seat(*args, **kwargs)

    monkeypatch.setattr(services, "lock_seat", die_then_lock)
    answer = player.post(f"tables/{table}/moves", body)
    assert answer.status == 503 and answer.body["code"] == "unavailable", answer.body
    monkeypatch.undo()
    # What the end of a request does, but the test client's does not: no transaction
    # closed the lost connection, the next request connects afresh.
    connection.close_if_unusable_or_obsolete()
    assert player.state(table)["version"] == before["version"]


def test_connection_lost_before_the_commit_is_unavailable_not_unknown(
    host, guest, table, monkeypatch
):
    before = host.state(table)
    lock_seat = services.lock_seat

    def lock_then_die(*args, **kwargs):
        locked = lock_seat(*args, **kwargs)
        terminate_own_backend()
        return locked

    monkeypatch.setattr(services, "lock_seat", lock_then_die)
    answer = host.post(f"tables/{table}/leave", {"version": before["version"]})
    assert answer.status == 503 and answer.body["code"] == "unavailable", answer.body
    monkeypatch.undo()
    assert host.state(table)["version"] == before["version"]
