"""Ending the games whose mover's clock ran out (`games.clocks`), and reminding movers
before: the beat's task every CLOCK_SWEEP_SECONDS and `manage.py time_out_games`.

A sweep works in batches, each its own short transaction: pick up to CLOCK_SWEEP_BATCH
tables whose deadline has passed, on the partial index of running clocks, FOR UPDATE
SKIP LOCKED (a table a change holds is left to that change, which finds the time run
out itself, or to the next sweep), and end each one's game through the same locked
service as every change (`services.game_time_out`), which checks the deadline again
under the lock. Where the mover's auto-vacation is due instead, it starts after the
batch's transaction (`vacations.start_auto` locks all the player's tables).

So a move and the sweep decide once: a move that got the row first and
finished its turn started the other clock; one that waited finds the game over.

Reminders (`remind`) go the way of the idle warnings: batches of the tables whose
`remind_at` has come (read with the turn's start, the mover's bank and quiet hours,
from which the clock finds the thresholds passed and the next), picked FOR UPDATE SKIP
LOCKED on their own partial index, each written in one statement that sets the next
`remind_at` (or none) and adds a `clock_low` event. That is no change of the game: it
moves `last_event` but not the version, so a move in flight is never made stale by it.
As `remind_at` moves on in the statement that writes the event, a threshold is
reminded once; a move that finishes the turn sets the next mover's own.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction

from bansugoroku.games import clocks, outbox, services, vacations
from bansugoroku.games.models import Event, EventKind, Game, Player, Seat, Table
from engine.game import Ending

_PICK_SQL = f"""
    SELECT code FROM {Table._meta.db_table}
    WHERE deadline IS NOT NULL AND deadline <= %(now)s
    ORDER BY deadline
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
"""


_TABLE, _EVENT = Table._meta.db_table, Event._meta.db_table

_REMIND_PICK_SQL = f"""
    SELECT t.id, t.deadline, g.id, g.number, g.turn_seat, t.turn_started_at, s.clock_left,
        ARRAY(SELECT jsonb_array_elements_text(p.reminder_hours)::integer),
        p.time_zone, p.quiet_from, p.quiet_to,
        ARRAY(SELECT jsonb_array_elements_text(p.days_off)::integer)
    FROM {_TABLE} t
    JOIN {Game._meta.db_table} g ON g.id = t.current_game_id
    JOIN {Seat._meta.db_table} s ON s.table_id = t.id AND s.number = g.turn_seat
    JOIN {Player._meta.db_table} p ON p.id = s.player_id
    WHERE t.remind_at IS NOT NULL AND t.remind_at <= %(now)s
    ORDER BY t.remind_at
    LIMIT %(limit)s
    FOR UPDATE OF t SKIP LOCKED
"""

# The payload is `payloads.ClockLow`, built in SQL; a test holds its keys to that type.
_REMIND_SQL = f"""
    WITH due AS (
        SELECT * FROM unnest(
            %(ids)s::bigint[], %(next)s::timestamptz[], %(hours)s::integer[],
            %(games)s::bigint[], %(numbers)s::integer[], %(seats)s::integer[]
        ) AS due(id, next, hours, game, number, seat)
    ), reminded AS (
        UPDATE {_TABLE} t SET remind_at = due.next,
            last_event = t.last_event + (due.hours IS NOT NULL)::integer
        FROM due WHERE t.id = due.id
        RETURNING t.id, t.last_event, t.deadline
    )
    INSERT INTO {_EVENT} (table_id, game_id, sequence, kind, seat, payload, created_at)
    SELECT reminded.id, due.game, reminded.last_event, '{EventKind.CLOCK_LOW.value}',
        due.seat,
        jsonb_build_object(
            'game', due.number, 'deadline', reminded.deadline, 'hours', due.hours
        ),
        %(now)s
    FROM reminded JOIN due USING (id)
    WHERE due.hours IS NOT NULL
    RETURNING table_id, sequence
"""


@dataclass
class Reminders:
    """What a reminders sweep did: reminders sent by threshold, batches' lock hold."""

    sent: dict[int, int] = field(default_factory=dict)
    batch_seconds: list[float] = field(default_factory=list)

    def summary(self) -> str:
        sent = ", ".join(f"{n} at {h} h" for h, n in sorted(self.sent.items(), reverse=True))
        longest = max(self.batch_seconds, default=0.0)
        return (
            f"reminded {sum(self.sent.values())} movers ({sent or 'none'}); "
            f"{len(self.batch_seconds)} batches, the longest {longest * 1000:.1f} ms"
        )


def remind(*, now: datetime, batch: int | None = None) -> Reminders:
    """Remind every mover whose next reminder is due at `now`: the nearest threshold
    passed, so that a sweep which comes late does not send two at once."""
    limit = settings.CLOCK_SWEEP_BATCH if batch is None else batch
    done = Reminders()
    while True:
        started = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_REMIND_PICK_SQL, {"now": now, "limit": limit})
            picked = cursor.fetchall()
            if not picked:
                return done
            due: dict[str, list[object]] = {
                key: [] for key in ("ids", "next", "hours", "games", "numbers", "seats")
            }
            for table_id, deadline, game_id, number, seat, start, bank, *mover in picked:
                reminder_hours, *quiet = mover
                moments = clocks.reminders(clocks.quiet_of(*quiet), start, bank, reminder_hours)
                threshold = clocks.passed_threshold(moments, deadline, now)
                row = (
                    table_id,
                    clocks.next_reminder(moments, now),
                    threshold,
                    game_id,
                    number,
                    seat,
                )
                for key, value in zip(due, row, strict=True):
                    due[key].append(value)
                if threshold is not None:
                    done.sent[threshold] = done.sent.get(threshold, 0) + 1
            cursor.execute(_REMIND_SQL, due | {"now": now})
            written = cursor.fetchall()
            transaction.on_commit(functools.partial(_took, done.batch_seconds, started))
            if written:
                ranges = [(table_id, seq, seq) for table_id, seq in written]
                transaction.on_commit(functools.partial(outbox.hand_on_many, ranges))
        if len(picked) < limit:
            return done


def _took(seconds: list[float], started: float) -> None:
    seconds.append(time.perf_counter() - started)


@dataclass
class Sweep:
    """What a sweep did, and how long each batch held its transaction (and row locks)."""

    timed_out: int = 0
    cancelled: int = 0
    vacations: int = 0
    """Auto-vacations started instead."""
    batch_seconds: list[float] = field(default_factory=list)

    def summary(self) -> str:
        longest = max(self.batch_seconds, default=0.0)
        return (
            f"{self.timed_out} games won on time, {self.cancelled} cancelled, "
            f"{self.vacations} auto-vacations started instead; "
            f"{len(self.batch_seconds)} batches, the longest {longest * 1000:.1f} ms"
        )


def sweep(*, now: datetime, batch: int | None = None) -> Sweep:
    """End every game whose mover's deadline is at or before `now`."""
    limit = settings.CLOCK_SWEEP_BATCH if batch is None else batch
    done = Sweep()
    while True:
        started = time.perf_counter()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(_PICK_SQL, {"now": now, "limit": limit})
                codes = [row[0] for row in cursor.fetchall()]
            found = [services.game_time_out(code=code, now=now) for code in codes]
        done.batch_seconds.append(time.perf_counter() - started)
        changes = [change for change in found if isinstance(change, services.Change)]
        for due in {
            f.player_id: f for f in found if isinstance(f, vacations.AutoVacationDue)
        }.values():
            vacations.start_auto(due, now)
            done.vacations += 1
        for change in changes:
            if change.game is not None and change.game.result:
                if change.game.result.ending is Ending.CANCELLED:
                    done.cancelled += 1
                else:
                    done.timed_out += 1
        if len(codes) < limit or not any(found):
            return done
