"""The timeout sweep over many clocks: `python -m bench.clock_sweep` (or `make bench-clock`).

In a scratch database of its own on the server of `DATABASE_URL` (else the embedded
PostgreSQL), made and dropped by the run, it writes with bulk SQL (INSERT ... SELECT
generate_series) N tables playing a game with a clock: clock_days drawn from
`clocks.DAYS`, two seated players, a game at a turn between 1 and 60, both banks
(`Seat.clock_left`) between a quarter of the days and the cap, and the deadline the
mover's bank after the turn began. `--expired` of them (1% by default, scattered over
the ids as a backlog would be) ran out in the hour before `now`; the others run out
after it. Then, in this order:

- the pick with nothing due: EXPLAIN ANALYZE of the sweep's query, and whole sweeps,
  at a `now` before every deadline, to show the partial index (`table_deadline`) finds
  nothing at once among a million running clocks, as the beat's sweep does each minute;
  then the pick's plan at `now`, with the backlog due;
- the reference: one `UPDATE` of the same rows as the sweep ends (deadline and turn
  start cleared, state `between_games`, version bumped), timed and rolled back, then
  the table vacuumed so the sweep finds the rows as they were. Rolled back rather than
  run on a second copy: building the data again would double the run for a commit
  (one WAL flush, a few ms) the reference does not pay. It writes no game, seats,
  events or seed, so it is the floor of ending those tables in SQL, not a rival design;
- the sweep itself (`bansugoroku.games.timeouts.sweep`), as the beat's task runs it, in
  batches of CLOCK_SWEEP_BATCH unless `--batch`: tables ended a second, the batches,
  and each batch's time from BEGIN to COMMIT (with the hand-on of its events after it),
  which is as long as its table rows stayed locked: a move waiting on one could wait
  that long, so it says whether any batch held them over a second;
- the next sweep at the same `now`, with nothing due but the ended tables' dead index
  entries before the live ones (no vacuum has run yet);
- the reminders (`timeouts.remind`): every running clock given a reminder 2 hours before
  its deadline, as the clock would set it, then the reminders' sweep at `now` (those
  whose deadline is at most 2 hours away are due) beside one raw `UPDATE` of the same
  rows (reminder cleared, `last_event` moved on; rolled back), and its next sweep.

Each change hands its table's events on to the broker after the batch commits: to
kombu's in-memory transport by default, to a real broker with `--broker URL`.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from datetime import UTC, datetime, timedelta

from bench.scratch import scratch_database

_MAKE_PLAN = """
    CREATE TEMP TABLE plan AS
    SELECT i, days, turn, mover, banks, CASE WHEN expired
        THEN %(now)s - r * interval '1 hour'
        ELSE %(now)s + (1 - r) * banks[mover + 1] END AS deadline
    FROM (
        SELECT i, days, turn, (turn + 1) %% 2 AS mover, r, expired,
            ARRAY[b0 * days * %(day)s, b1 * days * %(day)s] AS banks
        FROM (
            SELECT i, (ARRAY[1, 2, 3, 5, 7, 14])[1 + floor(random() * 6)::int] AS days,
                1 + floor(random() * 60)::int AS turn, random() AS r,
                (0.25 + random() * 1.75) * interval '1 second' AS b0,
                (0.25 + random() * 1.75) * interval '1 second' AS b1,
                (i::bigint * %(spread)s) %% %(count)s < %(expired)s AS expired
            FROM generate_series(1, %(count)s) i
        ) drawn
    ) planned
"""

# Auto-vacation off: the sweep measured is the one that ends games.
_MAKE_PLAYERS = """
    INSERT INTO games_player (id, token_hash, name, locale, created_at, reminder_hours,
        auto_vacation)
    SELECT i, md5('bench' || i), 'Bench ' || i, 'en', %(now)s - interval '60 days',
        '[24, 2]', false
    FROM generate_series(1, %(count)s) i
"""

# Starter Black, so the mover of turn n is (n + 1) % 2 (passes aside); the position and
# the table's rules are the idle sweep's.
_MAKE_TABLES = """
    INSERT INTO games_table (id, code, host_id, finish, muji, start, state, score_black,
        score_white, version, current_game_id, created_at, updated_at, closed_reason,
        last_event, next_seed, next_seed_hash, next_seed_version, active_at, idle_warned,
        clock_days, deadline, turn_started_at)
    SELECT i, {code}, i, 'iri', 'bigger', 'alternate', 'playing', 0, 0, turn + 5, i,
        started - interval '1 day', started, '', turn + 3, NULL, '', NULL, started, NULL,
        days, deadline, started
    FROM plan, LATERAL (SELECT deadline - banks[mover + 1] AS started) s
"""

_MAKE_GAMES = """
    INSERT INTO games_game (id, table_id, number, starter, opening_rolls, seed, seed_hash,
        seed_version, black_entropy, white_entropy, state, position, turn_number,
        turn_seat, dice, pending, recent, points, win_kind, started_at)
    SELECT i, i, 1, 0, '[]', '\\x00', '', 2, '', '', 'playing',
        'b4E1C3eE3c1e4B/0-0/0-0', turn, mover, jsonb_build_array(1 + i %% 6, 1 + i / 6 %% 6),
        '[]', '{}', 0, '', deadline - banks[mover + 1] - interval '1 day'
    FROM plan
"""

# Each player sits at two tables: Black at their own, White at the one before.
_MAKE_SEATS = """
    INSERT INTO games_seat (table_id, number, player_id, cpu, entropy, joined_at, clock_left)
    SELECT i, n, CASE n WHEN 0 THEN i ELSE i %% %(count)s + 1 END, '', '',
        deadline - banks[mover + 1] - interval '1 day', banks[n + 1]
    FROM plan, generate_series(0, 1) n
"""

_SET_REMINDERS = """
    UPDATE games_table SET remind_at = deadline - %(before)s WHERE deadline IS NOT NULL
"""

_REMIND_REFERENCE = """
    UPDATE games_table SET remind_at = NULL, last_event = last_event + 1
    WHERE remind_at IS NOT NULL AND remind_at <= %(now)s
"""

_REFERENCE = """
    UPDATE games_table SET deadline = NULL, turn_started_at = NULL, state = 'between_games',
        version = version + 1, updated_at = %(now)s
    WHERE deadline IS NOT NULL AND deadline <= %(now)s
"""


def code_sql() -> str:
    """The join code of table `i` in SQL: `i` in base 31 over the codes' alphabet, which
    the services check (`store.clean_code`); the idle sweep's hex codes would fail it."""
    from bansugoroku.games.store import CODE_ALPHABET, CODE_LENGTH

    base = len(CODE_ALPHABET)
    digits = [
        f"substr('{CODE_ALPHABET}', i / {base**k} %% {base} + 1, 1)"
        for k in reversed(range(CODE_LENGTH))
    ]
    return " || ".join(digits)


def make_tables(count: int, expired: int, now: datetime) -> float:
    """`count` tables with running clocks, `expired` of them past their deadline at `now`,
    from empty; returns the seconds. Multiplying the ids by a number prime to `count`
    permutes them modulo `count`: exactly `expired` tables, scattered over the heap."""
    from django.conf import settings
    from django.db import connection, transaction

    started = time.perf_counter()
    spread = 7919
    while math.gcd(spread, count) != 1:
        spread += 2
    params = {
        "count": count,
        "expired": expired,
        "now": now,
        "spread": spread,
        "day": settings.CLOCK_DAY_SECONDS,
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.5)")
        cursor.execute(_MAKE_PLAN, params)
        cursor.execute(_MAKE_PLAYERS, params)
        cursor.execute(_MAKE_TABLES.format(code=code_sql()), params)
        cursor.execute(_MAKE_GAMES, params)
        cursor.execute(_MAKE_SEATS, params)
        cursor.execute("DROP TABLE plan")
        for table in ("games_player", "games_table", "games_game"):
            cursor.execute(f"SELECT setval('{table}_id_seq', %s)", [count])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_player, games_table, games_game, games_seat")
    return time.perf_counter() - started


def pick_plan(now: datetime, limit: int) -> str:
    """The sweep's pick at `now` under EXPLAIN ANALYZE, as its chain of plan nodes and
    its execution time (its row locks end with the statement)."""
    from django.db import connection

    from bansugoroku.games import timeouts

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN ANALYZE " + timeouts._PICK_SQL, {"now": now, "limit": limit})
        lines = [row[0] for row in cursor.fetchall()]
    nodes = [line.split("  (")[0].strip(" ->") for line in lines if "(cost=" in line]
    executed = next(line for line in lines if line.startswith("Execution Time"))
    return f"{' > '.join(nodes)}; {executed.split(': ')[1]}"


def sweeps_when_none_due(before: datetime) -> list[float]:
    """The seconds of five whole sweeps at `before`, when no deadline has passed."""
    from bansugoroku.games import timeouts

    seconds = []
    for _ in range(5):
        started = time.perf_counter()
        timeouts.sweep(now=before)
        seconds.append(time.perf_counter() - started)
    return seconds


def reference(now: datetime, sql: str = _REFERENCE) -> tuple[int, float]:
    """The rows one UPDATE (`sql`) writes and its seconds, rolled back and vacuumed away."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        started = time.perf_counter()
        cursor.execute(sql, {"now": now})
        took = time.perf_counter() - started
        rows = cursor.rowcount
        transaction.set_rollback(True)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_table")
    return rows, took


def run(count: int, expired: int, batch: int | None, now: datetime) -> None:
    from django.conf import settings

    from bansugoroku.games import timeouts
    from bansugoroku.games.models import Table

    limit = settings.CLOCK_SWEEP_BATCH if batch is None else batch
    made = make_tables(count, expired, now)
    print(f"\n{count:,} tables with a clock, {expired:,} past their deadline: made in {made:.1f} s")

    first = Table.objects.filter(deadline__isnull=False).order_by("deadline")[0].deadline
    before = first - timedelta(seconds=1)
    print(f"pick, none due    {pick_plan(before, limit)}")
    picks = sweeps_when_none_due(before)
    print(
        f"sweep, none due   best {min(picks) * 1000:.2f} ms, "
        f"median {statistics.median(picks) * 1000:.2f} ms (5 sweeps)"
    )
    label = f"pick, {expired:,} due"
    print(f"{label:<17} {pick_plan(now, limit)}")

    rows, took = reference(now)
    reference_rate = rows / took
    print(f"reference         {rows:,} rows in {took:.2f} s, {reference_rate:,.0f} rows/s")

    started = time.perf_counter()
    done = timeouts.sweep(now=now, batch=batch)
    took = time.perf_counter() - started
    ended = done.timed_out + done.cancelled
    left = Table.objects.filter(deadline__lte=now).count()
    seconds = sorted(done.batch_seconds)
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
    over = sum(s > 1 for s in seconds)
    print(
        f"ended             {ended:,} ({done.timed_out:,} won on time, "
        f"{done.cancelled:,} cancelled), still past their deadline {left:,}"
    )
    print(f"sweep             {took:.1f} s, {ended / took:,.0f} tables/s")
    print(
        f"batches           {len(seconds):,} of up to {limit:,} tables: p50 "
        f"{statistics.median(seconds) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"longest {seconds[-1] * 1000:.0f} ms; over 1 s: {over or 'none'}"
    )
    print(f"sweep / reference {ended / took / reference_rate * 100:.2f}%")

    started = time.perf_counter()
    timeouts.sweep(now=now)
    print(f"next sweep        {(time.perf_counter() - started) * 1000:.1f} ms (nothing due)")
    reminders(now)


def reminders(now: datetime) -> None:
    """The reminders' sweep over every running clock, beside one raw UPDATE."""
    from django.db import connection

    from bansugoroku.games import clocks, timeouts

    with connection.cursor() as cursor:
        cursor.execute(_SET_REMINDERS, {"before": clocks.hours(2)})
        cursor.execute("VACUUM ANALYZE games_table")
    rows, took = reference(now, _REMIND_REFERENCE)
    reference_rate = rows / took
    print(f"remind reference  {rows:,} rows in {took:.2f} s, {reference_rate:,.0f} rows/s")
    started = time.perf_counter()
    done = timeouts.remind(now=now)
    took = time.perf_counter() - started
    sent = sum(done.sent.values())
    seconds = sorted(done.batch_seconds)
    print(
        f"reminded          {sent:,} in {took:.2f} s, {sent / took:,.0f} tables/s "
        f"({sent / took / reference_rate * 100:.2f}% of the reference); batches p50 "
        f"{statistics.median(seconds) * 1000:.0f} ms, longest {seconds[-1] * 1000:.0f} ms"
    )
    started = time.perf_counter()
    timeouts.remind(now=now)
    print(f"next remind       {(time.perf_counter() - started) * 1000:.1f} ms (nothing due)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.clock_sweep", description=__doc__)
    parser.add_argument("--tables", type=int, default=1_000_000, help="tables with a clock")
    parser.add_argument("--expired", type=int, help="past their deadline (default 1%%)")
    parser.add_argument("--batch", type=int, help="tables per transaction (CLOCK_SWEEP_BATCH)")
    parser.add_argument("--broker", default="memory://", help="where events are handed on")
    args = parser.parse_args(argv)
    if args.tables < 2:
        parser.error("--tables: at least 2 (each player sits at two tables)")
    expired = args.tables // 100 if args.expired is None else args.expired
    if not 0 < expired <= args.tables:
        parser.error("--expired: between 1 and --tables")

    with scratch_database("clock_sweep", {"CELERY_BROKER_URL": args.broker}):
        run(args.tables, expired, args.batch, datetime.now(UTC))


if __name__ == "__main__":
    main()
