"""Ending the games whose mover's clock ran out (`games.clocks`): the beat's task every
CLOCK_SWEEP_SECONDS and `manage.py time_out_games`.

A sweep works in batches, each its own short transaction: pick up to CLOCK_SWEEP_BATCH
tables whose deadline has passed, on the partial index of running clocks, FOR UPDATE
SKIP LOCKED (a table a change holds is left to that change, which finds the time run
out itself, or to the next sweep), and end each one's game through the same locked
service as every change (`services.game_time_out`), which checks the deadline again
under the lock. So a move and the sweep decide once: a move that got the row first and
finished its turn started the other clock; one that waited finds the game over.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction

from bansugoroku.games import services
from bansugoroku.games.models import Table
from engine.game import Ending

_PICK_SQL = f"""
    SELECT code FROM {Table._meta.db_table}
    WHERE deadline IS NOT NULL AND deadline <= %(now)s
    ORDER BY deadline
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
"""


@dataclass
class Sweep:
    """What a sweep did, and how long each batch held its transaction (and row locks)."""

    timed_out: int = 0
    cancelled: int = 0
    batch_seconds: list[float] = field(default_factory=list)

    def summary(self) -> str:
        longest = max(self.batch_seconds, default=0.0)
        return (
            f"{self.timed_out} games won on time, {self.cancelled} cancelled; "
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
            changes = [services.game_time_out(code=code, now=now) for code in codes]
        done.batch_seconds.append(time.perf_counter() - started)
        for change in changes:
            if change is not None and change.game is not None and change.game.result:
                if change.game.result.ending is Ending.CANCELLED:
                    done.cancelled += 1
                else:
                    done.timed_out += 1
        if len(codes) < limit or not any(changes):
            return done
