"""Load test of the move API on gunicorn: `python -m bench.api_bench` (or `make bench-api`).

Starts gunicorn on a free loopback port with production settings (DEBUG off), migrates
the database (`DATABASE_URL`, else the embedded PostgreSQL), and sets up one table per
client. Rate limits are counted in the cache at `CACHE_URL` (Redis, as in production)
when it is set, else in each worker's memory. Each client plays both seats of its own
table, so it always has a move to send and no client waits for another: the count is
what the server accepts, not how fast players take turns. A client sends single die
moves picked from the state's `legal_moves`, uses the state each answer carries, GETs
the table as the other seat's device when the turn passes (or before every move with
--get-before-each-move), and asks for the next game when one ends. Clients run as
threads in a few processes, on the same cores as the server; the CPU each side used is
printed with the results.

`--reference` serves a bare DRF view instead (bench/reference_urls.py: lock a row,
update it, insert a row) to the same clients: the host's speed drifts from hour to
hour, so a move rate means something only next to the reference rate of the same hour.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import timeit
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

import psutil

from harness.serving import HOST, ROOT, gunicorn, server_env

TIMEOUT = 10.0
"""Seconds before a request counts as failed; far above any latency worth measuring."""

# gunicorn's workers: one sync worker per core. A request is CPU-bound Python and the
# database sits on the same machine, a tenth of a millisecond away, so a worker hardly
# idles: a worker beyond the cores only takes turns with the others, and each request
# then costs more CPU. On 2 cores with 32 clients, --rounds 3 --duration 10, four runs
# of each count within an hour: 2 workers served 395-516 moves/s (median 465) at 1.7-2.2
# ms of gunicorn CPU a request, 5 workers 316-437 (median 377) at 2.2-3.1 ms; the
# reference 1,096-1,220 requests/s (median 1,170) with 2, 887-1,351 (median 1,218) with
# 5. When a move took four round trips and could wait for a lock, 2, 3 and 5 workers
# served about the same, and 5 (gunicorn's advice for waiting workers, 2 x cores + 1)
# was the default. Threads in one process take turns on the GIL unevenly: long tails.
WORKERS = ["--worker-class", "sync", "--workers", str(os.cpu_count() or 1)]


def ensure_database(url: str) -> None:
    """Create the database of `url` when the server lacks it (a fresh bench database)."""
    import psycopg
    from psycopg import sql

    name = unquote(urlsplit(url).path.lstrip("/"))
    maintenance = urlsplit(url)._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def make_reference_rows(url: str, count: int) -> None:
    """The tables of the reference view (not the app's: no migration), a row per client."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_counter (id integer PRIMARY KEY, n bigint)")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_log (id bigserial PRIMARY KEY, counter integer,"
            " n bigint, at timestamptz NOT NULL DEFAULT now())"
        )
        conn.execute(
            "INSERT INTO bench_counter SELECT i, 0 FROM generate_series(0, %s) i"
            " ON CONFLICT DO NOTHING",
            [count - 1],
        )


def server_processes(pid: int) -> list[psutil.Process]:
    master = psutil.Process(pid)
    return [master, *master.children(recursive=True)]


class Connection:
    """One HTTP/1.1 connection to the server, kept open while the server allows it.

    A few lines over a socket rather than `http.client`, whose header parsing (through
    the `email` package) made the clients take a fifth of the two cores the server needs.
    A dropped connection is reopened and the request resent once (safe: a change carries
    the version, so a resent one gets 409).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.reader: Any = None

    def close(self) -> None:
        if self.sock is not None:
            self.reader.close()
            self.sock.close()
        self.sock = self.reader = None

    def call(
        self, method: str, path: str, token: str | None, body: Any = None
    ) -> tuple[int, Any, float]:
        """Status, parsed answer, and seconds from sending to the last byte."""
        head = f"{method} /api/v1/{path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode()
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        request = head.encode() + b"\r\n" + payload
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                if self.sock is None:
                    self.sock = socket.create_connection((HOST, self.port), timeout=TIMEOUT)
                    self.reader = self.sock.makefile("rb")
                self.sock.sendall(request)
                status, data = self.response()
            except OSError:
                self.close()
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - started
            return status, json.loads(data) if data else None, elapsed
        raise AssertionError("unreachable")

    def response(self) -> tuple[int, bytes]:
        status_line = self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        length, close = 0, False
        while (line := self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection":
                close = value.strip().lower() == b"close"
        data = self.reader.read(length) if length else b""
        if close:
            self.close()
        return status, data


Table = tuple[str, tuple[str, str]]
"""A client's table: its code and its two seats' tokens (the reference: its row, no tokens)."""


def set_up_table(conn: Connection, index: int) -> Table:
    """A started table and the tokens of its two seats."""
    tokens = []
    for seat in (0, 1):
        status, body, _ = conn.call("POST", "players", None, {"name": f"bench {index}.{seat}"})
        assert status == 201, body
        tokens.append(body["token"])
    status, body, _ = conn.call("POST", "tables", tokens[0], {})
    assert status == 201, body
    code = body["code"]
    status, body, _ = conn.call("POST", f"tables/{code}/join", tokens[1], {})
    assert status == 200, body
    status, body, _ = conn.call(
        "POST", f"tables/{code}/start", tokens[0], {"version": body["version"]}
    )
    assert status == 200, body
    return code, (tokens[0], tokens[1])


@dataclass
class Tally:
    """What the clients of one process saw inside the measured window."""

    moves: list[float] = field(default_factory=list)
    """Latency of every accepted move (seconds)."""
    gets: list[float] = field(default_factory=list)
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0
    """CPU seconds the client process used in the window."""

    def add(self, other: Tally) -> None:
        self.moves += other.moves
        self.gets += other.gets
        self.answers += other.answers
        self.failures += other.failures
        self.cpu += other.cpu


@dataclass(frozen=True)
class Plan:
    port: int
    measure_from: float
    """Wall-clock time the window opens (after the warm-up)."""
    stop_at: float
    get_every_move: bool
    local_rules: bool
    """Work out the other seat's legal moves with the engine instead of GETting them."""
    max_requests: int
    reference: bool
    """Clients call the bare reference view instead of playing."""


class Player:
    """One client: a table, both its seats' tokens, and the last state it was answered."""

    def __init__(self, plan: Plan, code: str, tokens: tuple[str, str], tally: Tally) -> None:
        self.plan, self.code, self.tokens, self.tally = plan, code, tokens, tally
        self.conn = Connection(plan.port)
        self.rng = random.Random(code)

    def call(self, kind: str, seat: int, action: str = "", body: Any = None) -> Any:
        path = f"tables/{self.code}" + (f"/{action}" if action else "")
        token = self.tokens[seat]
        status, answer = self.timed(kind, "POST" if action else "GET", path, token, body)
        return answer if status == 200 else None

    def timed(
        self, kind: str, method: str, path: str, token: str | None, body: Any
    ) -> tuple[int, Any]:
        """One request, counted under `kind` when it falls inside the measured window."""
        started = time.time()
        status, answer, elapsed = self.conn.call(method, path, token, body)
        if self.plan.measure_from <= started and time.time() <= self.plan.stop_at:
            self.tally.answers[kind, status] += 1
            if status == 200 and kind == "move":
                self.tally.moves.append(elapsed)
            elif status == 200 and kind == "get":
                self.tally.gets.append(elapsed)
        return status, answer

    def play(self) -> None:
        state = self.call("get", 0)
        for _ in range(self.plan.max_requests):
            if time.time() >= self.plan.stop_at:
                return
            if state is None:  # an error answer: start again from the table as it is
                state = self.call("get", 0)
                continue
            seat = state["you"]["seat"]
            if state["state"] == "between_games":
                state = self.call("again", seat, "play-again", {"version": state["version"]})
                continue
            turn = state["game"]["turn"]
            if not turn["yours"] and self.plan.local_rules:
                turn = other_seats_turn(state)
            elif not turn["yours"] or self.plan.get_every_move:
                state = self.call("get", turn["seat"])
                if not self.plan.get_every_move or state is None:
                    continue
                turn = state["game"]["turn"]
            move = self.rng.choice(turn["legal_moves"])
            body = {"version": state["version"], "moves": [move]}
            state = self.call("move", turn["seat"], "moves", body)

    def run(self) -> None:
        try:
            self.play()
        except Exception as exc:  # counted and shown; the other clients go on
            self.tally.failures[f"{type(exc).__name__}: {exc}"] += 1


class ReferenceClient(Player):
    """A client of the bare reference view: POSTs to its own counter row, over and over."""

    def play(self) -> None:
        row = int(self.code)
        for _ in range(self.plan.max_requests):
            if time.time() >= self.plan.stop_at:
                return
            self.timed("move", "POST", "reference", None, {"row": row})


def other_seats_turn(state: dict[str, Any]) -> dict[str, Any]:
    """The turn as the other seat's device would be told it, worked out with the engine
    from the answer the last mover got: their position flipped, the dice shown to both."""
    from engine.position import Position
    from engine.rules import Rules
    from engine.turn import TurnInProgress

    game = state["game"]
    seen = Position.from_json({k: game["position"][k] for k in ("points", "bar", "off")})
    dice = (game["turn"]["dice"][0], game["turn"]["dice"][1])
    turn = TurnInProgress(seen.flipped(), dice, Rules.from_json(state["rules"]))
    return game["turn"] | {"legal_moves": [list(m) for m in turn.legal_moves()]}


def client_process(plan: Plan, tables: list[Table], out: Any) -> None:
    """Runs one thread per table and sends back the merged tally."""
    tallies = [Tally() for _ in tables]
    threads = [
        threading.Thread(
            target=(ReferenceClient if plan.reference else Player)(plan, code, tokens, tally).run
        )
        for (code, tokens), tally in zip(tables, tallies, strict=True)
    ]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, plan.measure_from - time.time()))
    cpu = time.process_time()
    time.sleep(max(0.0, plan.stop_at - time.time()))
    cpu = time.process_time() - cpu
    for thread in threads:
        thread.join(TIMEOUT * 3)
    total = Tally(cpu=cpu)
    for tally in tallies:
        total.add(tally)
    out.put(total)


READ_EVERY = 0.5
"""Seconds between readings of a window's CPU: a backend that ends takes at most this
much of its use with it."""


class CpuMeter:
    """CPU seconds a changing set of processes uses from the meter's start, read every
    READ_EVERY seconds: the database's backends come and go (a web worker reconnects
    once its connection is CONN_MAX_AGE old), and a process's CPU can no longer be read
    once it has ended. One started inside the window counts whole; of one that ended,
    what it used up to its last reading. A total over the processes alive at each end
    counted an ended backend's whole past against the window instead: a negative share."""

    def __init__(self, find: Callable[[], list[psutil.Process]]) -> None:
        self.find, self.started = find, time.time()
        self.first: dict[psutil.Process, float] = {}
        self.last: dict[psutil.Process, float] = {}
        self.read()

    def read(self) -> None:
        for process in self.find():
            try:
                times = process.cpu_times()
                if process not in self.first:
                    new = process.create_time() >= self.started
                    self.first[process] = 0.0 if new else times.user + times.system
            except psutil.Error:  # ended since it was found
                continue
            self.last[process] = times.user + times.system

    def used(self) -> float:
        return sum(seconds - self.first[process] for process, seconds in self.last.items())


@dataclass(frozen=True)
class Used:
    """The CPU the server and the database used in a window, and the machine's times."""

    server: float
    database: float
    machine_before: Any
    machine_after: Any


def postgres_processes() -> list[psutil.Process]:
    """Every PostgreSQL process on the machine (other databases' too, if any are busy)."""
    found = []
    for process in psutil.process_iter(["name"]):
        if process.info["name"] == "postgres":
            found.append(process)
    return found


def percentiles(seconds: list[float]) -> str:
    if len(seconds) < 2:
        return "too few answers"
    cuts = statistics.quantiles(seconds, n=100, method="inclusive")
    p50, p95, p99 = (cuts[p - 1] * 1000 for p in (50, 95, 99))
    return f"p50 {p50:.1f}  p95 {p95:.1f}  p99 {p99:.1f}  max {max(seconds) * 1000:.1f}"


def clients_tables(port: int, args: argparse.Namespace, reference: bool) -> list[Table]:
    """A table for each client: a started game, or a row of the reference view's."""
    if reference:
        return [(str(index), ("", "")) for index in range(args.clients)]
    setup = Connection(port)
    return [set_up_table(setup, index) for index in range(args.clients)]


def measure(
    port: int, pid: int, args: argparse.Namespace, tables: list[Table], reference: bool
) -> float:
    """One window of load on the server at `port`, reported; the rate it accepted."""
    start = time.time() + 1.0  # time for the client processes to start
    plan = Plan(
        port=port,
        measure_from=start + args.warmup,
        stop_at=start + args.warmup + args.duration,
        get_every_move=args.get_before_each_move,
        local_rules=args.local_rules,
        max_requests=args.max_requests,
        reference=reference,
    )
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    shares = [tables[i :: args.processes] for i in range(args.processes)]
    clients = [
        context.Process(target=client_process, args=(plan, share, out), daemon=True)
        for share in shares
    ]
    for client in clients:
        client.start()
    try:
        time.sleep(max(0.0, plan.measure_from - time.time()))
        servers, databases = CpuMeter(lambda: server_processes(pid)), CpuMeter(postgres_processes)
        machine = psutil.cpu_times()
        while (left := plan.stop_at - time.time()) > 0:
            time.sleep(min(READ_EVERY, left))
            servers.read()
            databases.read()
        used = Used(servers.used(), databases.used(), machine, psutil.cpu_times())
        total = Tally()
        for _ in clients:
            total.add(out.get(timeout=TIMEOUT * 4))
    finally:
        for client in clients:
            client.join(TIMEOUT)
            if client.is_alive():
                client.terminate()
                client.join(TIMEOUT)
    report(args, total, plan, used)
    return len(total.moves) / (plan.stop_at - plan.measure_from)


def python_speed() -> float:
    """Microseconds for a fixed bit of Python: the host's speed drifts (shared cores), so
    runs compare only at similar values."""
    return min(timeit.repeat("sum(range(1000))", number=2000, repeat=5)) / 2000 * 1e6


def report(args: argparse.Namespace, total: Tally, plan: Plan, used: Used) -> None:
    """The window's figures, a line each."""
    window = plan.stop_at - plan.measure_from
    cores = psutil.cpu_count() or 1

    def share(seconds: float) -> str:
        return f"{seconds / window * 100:.0f}%"

    before, after = used.machine_before, used.machine_after
    idle = after.idle - before.idle
    busy = sum(after) - sum(before) - idle
    accepted = len(total.moves)
    print(f"gunicorn          {' '.join(args.gunicorn)}")
    if not plan.reference:  # the bare view has no rate limits
        counters = "the cache at CACHE_URL" if os.environ.get("CACHE_URL") else "process memory"
        print(f"rate limits       counted in {counters}")
    print(f"Python speed      sum(range(1000)) in {python_speed():.1f} µs")
    print(
        f"load              {args.clients} clients, one table each, in {args.processes} "
        f"processes; warm-up {args.warmup:g} s, measured {window:g} s"
        + ("; GET before every move" if plan.get_every_move else "")
    )
    if plan.reference:
        print(f"reference POST/s  {accepted / window:.1f}  ({accepted} requests)")
        print(f"reference ms      {percentiles(total.moves)}")
    else:
        print(f"accepted moves/s  {accepted / window:.1f}  ({accepted} moves)")
        print(f"move POST ms      {percentiles(total.moves)}")
        print(f"GET state ms      {percentiles(total.gets)}  ({len(total.gets) / window:.1f}/s)")
        print(f"play-again 200    {total.answers['again', 200]}")
    other = {f"{kind} {status}": n for (kind, status), n in total.answers.items() if status != 200}
    print(f"non-200 answers   {other or 'none'}")
    if total.failures:
        print(f"client failures   {dict(total.failures)}")
    server, database = used.server, used.database
    steal = getattr(after, "steal", 0.0) - getattr(before, "steal", 0.0)
    print(
        f"CPU ({cores * 100}% = {cores} cores busy)  clients {share(total.cpu)}, "
        f"gunicorn {share(server)}, PostgreSQL {share(database)}, "
        f"anything else {share(max(0.0, busy - total.cpu - server - database))}; "
        f"taken by the host (steal) {share(steal)}"
    )
    requests = sum(total.answers.values())
    if requests:
        print(f"gunicorn CPU      {server / requests * 1000:.1f} ms per request")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.api_bench", description=__doc__)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="per client")
    parser.add_argument("--get-before-each-move", action="store_true")
    parser.add_argument(
        "--local-rules",
        action="store_true",
        help="clients know the rules: no GET when the turn passes, only moves",
    )
    parser.add_argument(
        "--reference",
        action="store_true",
        help="serve the bare reference view (bench/reference_urls.py) instead of the API, "
        "to put the figures of moves in proportion",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="serve the API and the reference view side by side and measure them in turn, "
        "ROUNDS windows each: every round's moves/s as a share of its reference, and the "
        "median share",
    )
    parser.add_argument(
        "--gunicorn",
        nargs=argparse.REMAINDER,
        default=WORKERS,
        help="gunicorn worker options, last on the line (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    args.gunicorn = args.gunicorn or parser.get_default("gunicorn")

    database_url = os.environ.get("DATABASE_URL")
    if database_url:
        ensure_database(database_url)
    else:
        from bansugoroku.development.embedded_db import database_url as embedded

        database_url = embedded()
    env = server_env(database_url)
    reference_env = env | {"DJANGO_SETTINGS_MODULE": "bench.reference_settings"}
    if args.reference or args.rounds:
        make_reference_rows(database_url, args.clients)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so gunicorn is stopped too
    if args.rounds:
        compare(args, env, reference_env)
        return
    with gunicorn(args.gunicorn, reference_env if args.reference else env) as (port, pid):
        measure(port, pid, args, clients_tables(port, args, args.reference), args.reference)


def compare(args: argparse.Namespace, env: dict[str, str], reference_env: dict[str, str]) -> None:
    """`--rounds`: the reference view and the API, each on a gunicorn of its own, measured
    in turn. The host's speed drifts within minutes, so a share taken in one round (its
    two windows a few seconds apart) means more than two runs' figures set side by side;
    the idle server's workers wait on their sockets meanwhile."""
    with (
        gunicorn(args.gunicorn, reference_env) as (reference_port, reference_pid),
        gunicorn(args.gunicorn, env) as (port, pid),
    ):
        rows = clients_tables(reference_port, args, reference=True)
        tables = clients_tables(port, args, reference=False)
        shares = []
        for number in range(1, args.rounds + 1):
            print(f"--- round {number}: the reference view")
            reference = measure(reference_port, reference_pid, args, rows, reference=True)
            print(f"--- round {number}: the move API")
            moves = measure(port, pid, args, tables, reference=False)
            shares.append(moves / reference if reference else 0.0)
            print(f"moves/s / reference  {shares[-1]:.1%}")
    listed = ", ".join(f"{share:.1%}" for share in shares)
    print(f"=== moves/s as a share of the round's reference: {listed}")
    print(f"=== median {statistics.median(shares):.1%}")


if __name__ == "__main__":
    main()
