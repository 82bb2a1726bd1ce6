"""The idle sweep over many tables: `python -m bench.idle_sweep` (or `make bench-sweep`).

In a scratch database of its own on the server of `DATABASE_URL` (else the embedded
PostgreSQL), made and dropped by the run, it writes with bulk SQL (INSERT ... SELECT
generate_series) N tables idle for 46-58 days, every second one with a game in
progress, beside N/10 active ones the sweep must leave open; then it runs the sweep as
the hourly task does (`bansugoroku.games.idle.sweep`) and prints the time taken, the
tables closed per second and the time each batch held its transaction, which is as
long as any table row stayed locked: the longest is what a move waiting on one of them
could wait. Each size starts from empty tables.

The sweep hands each batch's `table_closed` events on to the broker in one message
after the batch commits: to kombu's in-memory transport by default, to a real broker
with `--broker URL` (e.g. Redis), to see what it adds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime

from bench.scratch import scratch_database

_MAKE_TABLES = """
    INSERT INTO games_table (id, code, host_id, finish, muji, start, state, score_black,
        score_white, version, current_game_id, created_at, updated_at, closed_reason,
        last_event, next_seed, next_seed_hash, next_seed_version, active_at, idle_warned)
    SELECT i, upper(lpad(to_hex(i), 6, '0')), %(host)s, 'iri', 'bigger', 'alternate',
        CASE WHEN i %% 2 = 0 THEN 'playing' ELSE 'waiting' END, 0, 0, 5,
        CASE WHEN i %% 2 = 0 THEN i END, at, at, '', 3, NULL, '', NULL, at, NULL
    FROM generate_series(1, %(count)s) i,
        LATERAL (SELECT CASE WHEN i <= %(idle)s
            THEN %(now)s - interval '46 days' - i * interval '1 second'
            ELSE %(now)s - i * interval '1 second' END AS at) a
"""

_MAKE_GAMES = """
    INSERT INTO games_game (id, table_id, number, starter, opening_rolls, seed, seed_hash,
        seed_version, black_entropy, white_entropy, state, position, turn_number,
        turn_seat, dice, pending, recent, points, win_kind, started_at)
    SELECT i, i, 1, 0, '[]', '\\x00', '', 2, '', '', 'playing',
        'b4E1C3eE3c1e4B/0-0/0-0', 12, 1, '[3, 5]', '[]', '{}', 0, '', %(now)s
    FROM generate_series(2, %(count)s, 2) i
"""


def make_tables(idle: int, now: datetime) -> float:
    """`idle` idle tables and idle // 10 active ones, from empty; returns the seconds."""
    from django.db import connection, transaction

    from bansugoroku.games.models import Player

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE games_event, games_turn, games_seat, games_game, games_table,"
            " games_player RESTART IDENTITY CASCADE"
        )
    host = Player.objects.create(token_hash="bench", name="Bench")
    count = idle + idle // 10
    with transaction.atomic(), connection.cursor() as cursor:
        params = {"host": host.pk, "count": count, "idle": idle, "now": now}
        cursor.execute(_MAKE_TABLES, params)
        cursor.execute(_MAKE_GAMES, params)
        for table in ("games_table", "games_game"):
            cursor.execute(f"SELECT setval('{table}_id_seq', %s)", [count])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_table, games_game")
    return time.perf_counter() - started


def run(idle: int, batch: int, now: datetime) -> None:
    from bansugoroku.games import idle as idle_tables
    from bansugoroku.games.models import Table

    made = make_tables(idle, now)
    print(f"\n{idle:,} idle tables (+{idle // 10:,} active), made in {made:.1f} s")
    started = time.perf_counter()
    done = idle_tables.sweep(now=now, batch=batch)
    took = time.perf_counter() - started
    still_open = Table.objects.exclude(state="closed").count()
    seconds = sorted(done.batch_seconds)
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))] if seconds else 0.0
    print(
        f"closed            {done.closed:,} ({done.games_ended:,} with a game), open {still_open:,}"
    )
    print(f"sweep             {took:.1f} s, {done.closed / took:,.0f} tables/s")
    print(
        f"transactions      {len(seconds):,} of up to {batch:,} tables: p50 "
        f"{statistics.median(seconds) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"longest {seconds[-1] * 1000:.0f} ms (the longest any row lock was held)"
        if seconds
        else "transactions      none"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.idle_sweep", description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--batch", type=int, default=1000, help="tables per transaction")
    parser.add_argument("--broker", default="memory://", help="where events are handed on")
    args = parser.parse_args(argv)

    with scratch_database("idle_sweep", {"CELERY_BROKER_URL": args.broker}):
        now = datetime.now(UTC)
        for idle in args.sizes:
            run(idle, args.batch, now)


if __name__ == "__main__":
    main()
