"""Closing tables where nobody acted for IDLE_CLOSE_DAYS, and warning their seats first.

Every change that is activity (one that writes events: a join, a game's start, a
finished turn, a resignation, a new game) restarts a table's idle clock
(`Table.active_at`, written by the change's own statement); an hourly beat task and
`manage.py close_idle_tables` run `sweep`. A table idle that long closes whatever it
was doing, waiting for a guest included: a game in progress ends with no result
(`abandoned`: no winner, nothing scored), the table becomes `closed` with
`closed_reason` "idle", and a `table_closed` event says so. 7 days and 1 day before, a
`table_closing` event warns, once per threshold for each idle stretch
(`Table.idle_warned`); a warning is no activity and leaves the version be, so it never
makes a move in flight stale. A seated player can close a table the same way at once
(`services.table_leave`).

A sweep may find a million tables, so it works in batches, each its own short
transaction: pick up to IDLE_SWEEP_BATCH candidates on the partial index of open tables
with FOR UPDATE SKIP LOCKED (a table a change holds is left for the next hour), write
them in one statement that checks again, under the lock, that each is still idle, and
commit. A move waiting for a row the sweep holds then finds the table closed (409
`table_closed`); a move that got the row first and finished the turn makes it active.
The events are handed on after each batch's commit, a batch's in one message.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from bansugoroku.games import outbox
from bansugoroku.games.models import (
    ClosedReason,
    Event,
    EventKind,
    Game,
    GameState,
    Table,
    TableState,
)

WARN_DAYS = (1, 7)
"""Days before the close at which the seats are warned, nearest first: a table already
past both (no sweep ran for a week) gets only the nearer warning."""

_TABLE, _GAME, _EVENT = Table._meta.db_table, Game._meta.db_table, Event._meta.db_table

_CLOSED, _PLAYING, _ABANDONED, _IDLE = (
    TableState.CLOSED.value,
    GameState.PLAYING.value,
    GameState.ABANDONED.value,
    ClosedReason.IDLE.value,
)
_OPEN_AND_IDLE = f"state <> '{_CLOSED}' AND active_at <= %(idle_since)s"
"""Written again in each write's WHERE: checked once more under the row lock."""

_PICK_SQL = f"""
    SELECT id, active_at, current_game_id FROM {_TABLE}
    WHERE {_OPEN_AND_IDLE} AND active_at > %(not_before)s
        AND (active_at, id) > (%(after_at)s, %(after_id)s)
        AND (idle_warned IS NULL OR idle_warned > %(days_left)s)
    ORDER BY active_at, id
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
"""

# The events' payloads are built in SQL, each of its kind's type in `games.payloads`
# (`TableClosedIdle`, `TableClosing`); the tests hold their keys to those types.
_CLOSE_SQL = f"""
    WITH closed AS (
        UPDATE {_TABLE} SET state = '{_CLOSED}', closed_reason = '{_IDLE}',
            version = version + 1, last_event = last_event + 1, updated_at = %(now)s,
            deadline = NULL, turn_started_at = NULL, remind_at = NULL
        WHERE id = ANY(%(ids)s) AND {_OPEN_AND_IDLE}
        RETURNING id, last_event, current_game_id, active_at, score_black, score_white
    ), ended AS (
        UPDATE {_GAME} SET state = '{_ABANDONED}', ended_at = %(now)s
        WHERE id = ANY(%(games)s) AND state = '{_PLAYING}'
            AND table_id IN (SELECT id FROM closed)
        RETURNING id, number
    )
    INSERT INTO {_EVENT} (table_id, game_id, sequence, kind, seat, payload, created_at)
    SELECT closed.id, ended.id, closed.last_event, '{EventKind.TABLE_CLOSED.value}', NULL,
        jsonb_build_object(
            'reason', '{_IDLE}', 'idle_days', %(days)s::integer,
            'last_active_at', closed.active_at, 'game', ended.number,
            'score', jsonb_build_array(closed.score_black, closed.score_white)
        ),
        %(now)s
    FROM closed LEFT JOIN ended ON ended.id = closed.current_game_id
    RETURNING table_id, sequence, game_id
"""

_WARN_SQL = f"""
    WITH warned AS (
        UPDATE {_TABLE} SET idle_warned = %(days_left)s, last_event = last_event + 1
        WHERE id = ANY(%(ids)s) AND {_OPEN_AND_IDLE}
            AND (idle_warned IS NULL OR idle_warned > %(days_left)s)
        RETURNING id, last_event, active_at
    )
    INSERT INTO {_EVENT} (table_id, game_id, sequence, kind, seat, payload, created_at)
    SELECT id, NULL, last_event, '{EventKind.TABLE_CLOSING.value}', NULL,
        jsonb_build_object(
            'closes_at', active_at + %(idle)s::interval, 'days_left', %(days_left)s::integer
        ),
        %(now)s
    FROM warned
    RETURNING table_id, sequence, game_id
"""

_NEVER = datetime(1, 1, 1, tzinfo=UTC)


@dataclass
class Sweep:
    """What a sweep did, and how long each batch held its transaction (and row locks)."""

    closed: int = 0
    games_ended: int = 0
    warned: dict[int, int] = field(default_factory=lambda: dict.fromkeys(WARN_DAYS, 0))
    batch_seconds: list[float] = field(default_factory=list)

    def summary(self) -> str:
        warned = ", ".join(f"{self.warned[d]} with {d} day(s) left" for d in sorted(self.warned))
        longest = max(self.batch_seconds, default=0.0)
        return (
            f"closed {self.closed} idle tables ({self.games_ended} with a game in progress); "
            f"warned {warned}; {len(self.batch_seconds)} batches, "
            f"the longest {longest * 1000:.1f} ms"
        )


def sweep(*, now: datetime, batch: int | None = None) -> Sweep:
    """Close every open table idle for IDLE_CLOSE_DAYS at `now`, then warn those 1 and
    7 days from it, `batch` (IDLE_SWEEP_BATCH) tables per transaction."""
    days: int = settings.IDLE_CLOSE_DAYS
    limit = settings.IDLE_SWEEP_BATCH if batch is None else batch
    idle = timedelta(days=days)
    done = Sweep()
    base = {"now": now, "idle": idle, "days": days, "limit": limit}
    # Warned or not: no warning has fewer than 1 day left.
    closing = base | {"idle_since": now - idle, "not_before": _NEVER, "days_left": 0}
    for rows in _batches(_CLOSE_SQL, closing, done):
        done.closed += len(rows)
        done.games_ended += sum(1 for row in rows if row[2] is not None)
    for days_left in WARN_DAYS:
        if days_left >= days:
            continue  # it would come at or before the last activity
        window = {"idle_since": now - idle + timedelta(days=days_left), "not_before": now - idle}
        for rows in _batches(_WARN_SQL, base | window | {"days_left": days_left}, done):
            done.warned[days_left] += len(rows)
    return done


Written = list[tuple[int, int, int | None]]
"""Each event a batch wrote: its table, its sequence and the game a close ended."""


def _batches(write: str, params: dict[str, Any], done: Sweep) -> Iterator[Written]:
    """Yield the events each batch wrote, until no candidate is left. Batches go on from
    the last table picked (oldest activity first), so a table skipped because a change
    held it, or no longer idle, is not looked at again in this sweep."""
    after: tuple[datetime, int] = (_NEVER, 0)
    while True:
        started = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_PICK_SQL, params | {"after_at": after[0], "after_id": after[1]})
            picked = cursor.fetchall()
            if not picked:
                return
            # The current games, read with the rows locked, are found by their key: a
            # join from the tables would scan every game being played.
            ids, games = [row[0] for row in picked], [row[2] for row in picked if row[2]]
            cursor.execute(write, params | {"ids": ids, "games": games})
            written: Written = cursor.fetchall()
            # In this order after the commit: the row locks are gone before the events
            # are handed on, which the time measured leaves out.
            transaction.on_commit(functools.partial(_took, done, started))
            transaction.on_commit(functools.partial(_hand_on, written))
        after = (picked[-1][1], picked[-1][0])
        yield written


def _took(done: Sweep, started: float) -> None:
    done.batch_seconds.append(time.perf_counter() - started)


def _hand_on(rows: Written) -> None:
    outbox.hand_on_many([(table_id, sequence, sequence) for table_id, sequence, _ in rows])
