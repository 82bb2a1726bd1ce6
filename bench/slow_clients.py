"""Do slow clients stop a server? `python -m bench.slow_clients [--path /] [--gunicorn ...]`

Starts gunicorn on a loopback port with production settings, as the Procfile's `web`
runs it (or with the worker options given last), then 50 clients that each open a
connection and send one header line a second, never ending their request (bounded to
20 s). Meanwhile one normal client calls GET /api/v1/players/me (a token lookup in
PostgreSQL), each request on a new connection with a 2 s timeout, and counts how many
were answered during the attack, next to how many it managed in the same time before it.
`--path /` makes the normal client ask for the home page instead, a page that sets a
cookie (the CSRF token), as a browser does.
Loopback only. Uses DATABASE_URL, else the embedded PostgreSQL.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

from bench.api_bench import ensure_database
from harness.serving import HOST, PROCFILE_WEB, ROOT, gunicorn, server_env


def slow_client(port: int, seconds: float, stop: threading.Event) -> None:
    with socket.create_connection((HOST, port), timeout=5) as sock:
        sock.sendall(b"GET /api/v1/players/me HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        deadline = time.monotonic() + seconds
        line = 0
        while time.monotonic() < deadline and not stop.is_set():
            try:
                sock.sendall(f"X-Slow-{line}: {'x' * 20}\r\n".encode())
            except OSError:
                return  # the server hung up on us: fine
            line += 1
            stop.wait(1.0)


def normal_requests(
    port: int, token: str, seconds: float, path: str
) -> tuple[int, int, list[float]]:
    """(answered with 200, failed or timed out, latencies) of requests sent one after
    another for `seconds`."""
    answered = failed = 0
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        conn = http.client.HTTPConnection(HOST, port, timeout=2.0)
        try:
            conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                answered += 1
                latencies.append(time.monotonic() - started)
            else:
                failed += 1
        except OSError:
            failed += 1
        finally:
            conn.close()
    return answered, failed, latencies


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=50, help="slow clients (%(default)s)")
    parser.add_argument("--attack", type=float, default=20.0, help="seconds (%(default)s)")
    parser.add_argument("--measure", type=float, default=15.0, help="seconds (%(default)s)")
    parser.add_argument("--path", default="/api/v1/players/me",
                        help="what the normal client asks for (%(default)s)")  # fmt: skip
    parser.add_argument("--gunicorn", nargs=argparse.REMAINDER, default=PROCFILE_WEB,
                        help="gunicorn worker options, last (default: %(default)s)")  # fmt: skip
    args = parser.parse_args(argv)
    args.gunicorn = args.gunicorn or PROCFILE_WEB

    env = server_env(os.environ.get("DATABASE_URL") or "")
    if not os.environ.get("DATABASE_URL"):
        from bansugoroku.development.embedded_db import database_url

        env["DATABASE_URL"] = database_url()
    else:
        ensure_database(env["DATABASE_URL"])
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)

    with gunicorn(args.gunicorn, env) as (port, _):
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        conn.request("POST", "/api/v1/players", json.dumps({"name": "Normal"}),
                     {"Content-Type": "application/json"})  # fmt: skip
        token = json.loads(conn.getresponse().read())["token"]
        conn.close()

        quiet, _, quiet_latencies = normal_requests(port, token, args.measure, args.path)

        stop = threading.Event()
        attackers = [
            threading.Thread(target=slow_client, args=(port, args.attack, stop), daemon=True)
            for _ in range(args.slow)
        ]
        for thread in attackers:
            thread.start()
        time.sleep(2.0)  # let the slow clients connect and start sending
        answered, failed, latencies = normal_requests(port, token, args.measure, args.path)
        stop.set()
        for thread in attackers:
            thread.join(10)

    def ms(values: list[float]) -> str:
        if not values:
            return "-"
        values = sorted(values)
        return f"p50 {values[len(values) // 2] * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms"

    print(f"gunicorn          {' '.join(args.gunicorn)}")
    print(f"normal client     GET {args.path}")
    print(f"without attack    {quiet} answered in {args.measure:.0f} s ({ms(quiet_latencies)})")
    print(
        f"during attack     {answered} answered, {failed} failed or timed out (2 s) in "
        f"{args.measure:.0f} s, {args.slow} slow clients ({ms(latencies)})"
    )


if __name__ == "__main__":
    main()
