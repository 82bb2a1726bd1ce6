"""The lobby among many open tables: `python -m bench.lobby` (or `make bench-lobby`).

In a scratch database of its own (`bench.scratch`), it writes with bulk SQL `--players`
players (100,000), each with a record: `--players` * 2 finished games between two of
them, one a table; then `--open` tables in the lobby (10,000), hosted by players drawn
at random, with house rules and clocks drawn from every choice and a time left in the
lobby of up to OPEN_TABLE_DAYS. A table being played, made through the services, is the
reference: its state (`GET /api/v1/tables/{code}`), the request every client sends most.

Then, in this process with production settings (DEBUG off), through Django's test
client (the whole stack but the socket: middleware, authentication, throttles, the
view, the JSON), `--requests` of each, each kind measured in turn and again, best of
`--rounds`: the reference, the lobby's first page and the one after, a filtered page,
the web lobby, and quick pairing (each by a player of its own, so that each takes
another table, the longest waiting). For each: the CPU time of this process a request
(the server's Python) and the wall time (with PostgreSQL's share), beside the
reference's. Last, the lobby query's plan (EXPLAIN ANALYZE) over the open tables.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime

from bench.clock_sweep import code_sql
from bench.scratch import scratch_database

_MAKE_PLAYERS = """
    INSERT INTO games_player (id, token_hash, name, locale, created_at, reminder_hours,
        auto_vacation, listed_at)
    SELECT i, md5('lobby' || i), 'Player ' || i, 'en', %(now)s - interval '90 days',
        '[24, 2]', true, %(now)s - interval '60 days'
    FROM generate_series(1, %(players)s) i
"""

# Finished tables 1..games, each with one game won; then the open tables after them.
_MAKE_FINISHED = """
    INSERT INTO games_table (id, code, host_id, finish, muji, start, state, score_black,
        score_white, version, current_game_id, created_at, updated_at, closed_reason,
        last_event, next_seed_hash, active_at)
    SELECT i, {code}, 1 + i %% %(players)s, 'iri', 'bigger', 'alternate', 'between_games',
        1 - i %% 2, i %% 2, 40, i, %(now)s - interval '30 days', %(now)s - interval '20 days',
        '', 30, '', %(now)s - interval '20 days'
    FROM generate_series(1, %(games)s) i
"""

_MAKE_GAMES = """
    INSERT INTO games_game (id, table_id, number, starter, opening_rolls, seed, seed_hash,
        seed_version, black_entropy, white_entropy, state, position, turn_number,
        turn_seat, dice, pending, recent, points, win_kind, winner, started_at, ended_at)
    SELECT i, i, 1, 0, '[]', '\\x00', '', 2, '', '', 'won', 'b4E1C3eE3c1e4B/0-0/0-0', 60,
        0, '[]', '[]', '{}', 1, 'iri', i %% 2, %(now)s - interval '30 days',
        %(now)s - interval '20 days'
    FROM generate_series(1, %(games)s) i
"""

# The second seat's player: another than the host's, drawn by a multiplier prime to it.
_MAKE_FINISHED_SEATS = """
    INSERT INTO games_seat (table_id, number, player_id, cpu, entropy, joined_at)
    SELECT i, n, CASE n WHEN 0 THEN 1 + i %% %(players)s
        ELSE 1 + (i %% %(players)s + 1 + i * 7919 %% (%(players)s - 1)) %% %(players)s END,
        '', '', %(now)s - interval '30 days'
    FROM generate_series(1, %(games)s) i, generate_series(0, 1) n
"""

_MAKE_OPEN = """
    INSERT INTO games_table (id, code, host_id, finish, muji, start, state, score_black,
        score_white, version, created_at, updated_at, closed_reason, last_event,
        next_seed_hash, active_at, clock_days, open_until)
    SELECT i, {code}, host, (ARRAY['iri', 'bear_off'])[1 + floor(random() * 2)::int],
        (ARRAY['bigger', 'on_the_spot', 'off'])[1 + floor(random() * 3)::int],
        (ARRAY['alternate', 'roll'])[1 + floor(random() * 2)::int], 'waiting', 0, 0, 1,
        %(now)s, %(now)s, '', 0, '', %(now)s,
        (ARRAY[NULL, 1, 2, 3, 5, 7, 14])[1 + floor(random() * 7)::int],
        %(now)s + random() * %(days)s * interval '1 day'
    FROM (
        SELECT i, 1 + floor(random() * %(players)s)::int AS host
        FROM generate_series(%(games)s + 1, %(games)s + %(open)s) i
    ) drawn
"""

_MAKE_OPEN_SEATS = """
    INSERT INTO games_seat (table_id, number, player_id, cpu, entropy, joined_at)
    SELECT id, n, CASE n WHEN 0 THEN host_id END, '', '', %(now)s
    FROM games_table, generate_series(0, 1) n WHERE state = 'waiting'
"""


def make_rows(players: int, open_count: int, now: datetime) -> float:
    """The players, their finished games and the open tables, from empty; the seconds."""
    from django.conf import settings
    from django.db import connection, transaction

    started = time.perf_counter()
    params = {
        "players": players,
        "games": players * 2,
        "open": open_count,
        "now": now,
        "days": settings.OPEN_TABLE_DAYS,
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.25)")
        cursor.execute(_MAKE_PLAYERS, params)
        cursor.execute(_MAKE_FINISHED.format(code=code_sql()), params)
        cursor.execute(_MAKE_GAMES, params)
        cursor.execute(_MAKE_FINISHED_SEATS, params)
        cursor.execute(_MAKE_OPEN.format(code=code_sql()), params)
        cursor.execute(_MAKE_OPEN_SEATS, params)
        for table, last in (
            ("games_player", players),
            ("games_table", players * 2 + open_count),
            ("games_game", players * 2),
        ):
            cursor.execute(f"SELECT setval('{table}_id_seq', %s)", [last])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_player, games_table, games_game, games_seat")
    return time.perf_counter() - started


def reference_table() -> tuple[str, str]:
    """A table being played, made through the services: its code and its host's token."""
    from bansugoroku.games import services
    from engine.rules import Rules

    host, token = services.player_create(name="Aiko")
    guest, _ = services.player_create(name="Ben")
    table = services.table_create(host=host, rules=Rules(), clock_days=3).table
    services.table_join(player=guest, code=table.code)
    table.refresh_from_db()
    services.table_start(player=host, code=table.code, version=table.version)
    return table.code, token


def measure(requests: int, call: Callable[[int], int]) -> tuple[float, float]:
    """CPU and wall milliseconds a request of `call(i)`, which answers its status."""
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(requests):
        status = call(i)
        assert status in (200, 201), status
    return (
        (time.process_time() - cpu) * 1000 / requests,
        (time.perf_counter() - wall) * 1000 / requests,
    )


def run(players: int, open_count: int, requests: int, rounds: int, static_root: str) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from bansugoroku.games import lobby, services

    now = datetime.now(UTC)
    print(f"made {players:,} players, {players * 2:,} finished games and {open_count:,} open")
    print(f"tables in {make_rows(players, open_count, now):.1f} s")
    code, token = reference_table()
    # The web page's static files as the deployment builds them (its manifest), in a
    # directory of the run's own rather than the checkout's.
    settings.STATIC_ROOT = static_root
    call_command("collectstatic", interactive=False, verbosity=0)
    seekers = [services.player_create(name=f"Seeker {i}")[1] for i in range(requests * rounds + 1)]

    client = Client(SERVER_NAME="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {token}")
    second = client.get("/api/v1/lobby").json()["next"]
    kinds: dict[str, Callable[[int], int]] = {
        "table state (reference)": lambda i: client.get(f"/api/v1/tables/{code}").status_code,
        "lobby, first page": lambda i: client.get("/api/v1/lobby").status_code,
        "lobby, bear_off, 3 days": lambda i: (
            client.get("/api/v1/lobby?finish=bear_off&clock=3").status_code
        ),
        "lobby, page 2": lambda i: client.get(second).status_code,
        "web lobby page": lambda i: client.get("/lobby").status_code,
    }
    taken = iter(seekers)

    seeker = Client(SERVER_NAME="127.0.0.1")  # one client: each loads the middleware

    def quick_pairing(i: int) -> int:
        headers = {"Authorization": f"Bearer {next(taken)}"}
        answer = seeker.post("/api/v1/lobby/quick-pairing", {}, "application/json", headers=headers)
        return answer.status_code

    kinds["quick pairing"] = quick_pairing
    for call in kinds.values():
        call(0)  # warm: imports, caches, the first plans
    best: dict[str, tuple[float, float]] = {}
    for _ in range(rounds):
        for name, call in kinds.items():
            cpu, wall = measure(requests, call)
            best[name] = min(best.get(name, (cpu, wall)), (cpu, wall))
    base_cpu, base_wall = best["table state (reference)"]
    print(f"\n{requests} requests of each, best of {rounds} rounds; ms a request:")
    print(f"{'':26} {'CPU':>7} {'wall':>7}  CPU / reference")
    for name, (cpu, wall) in best.items():
        print(f"{name:26} {cpu:7.2f} {wall:7.2f}  {cpu / base_cpu:.2f}x")
    left = lobby.open_tables(datetime.now(UTC)).count()
    print(f"\nopen tables left: {left:,} (quick pairing took {open_count - left:,})")
    with connection.cursor() as cursor:
        query, params = lobby.open_tables(datetime.now(UTC))[:50].query.sql_with_params()
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {query}", params)
        print("\nthe lobby's first page:\n" + "\n".join(row[0] for row in cursor.fetchall()))
    print(f"(reference wall {base_wall:.2f} ms)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.lobby", description=__doc__)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--open", type=int, default=10_000, help="tables in the lobby")
    parser.add_argument("--requests", type=int, default=200, help="of each kind, a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.players < 2 or args.open < args.requests * args.rounds:
        parser.error("at least 2 players, and an open table for each quick pairing")
    unlimited = {name: "1000000/min" for name in ("THROTTLE_TAKE_SEAT", "THROTTLE_NEW_TABLE")}
    with scratch_database("lobby", unlimited), tempfile.TemporaryDirectory() as static_root:
        run(args.players, args.open, args.requests, args.rounds, static_root)


if __name__ == "__main__":
    main()
