"""gunicorn with production settings on a free loopback port, for the benchmarks and for
the tests that need the real server (its workers, its logs, its outages)."""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

# The Procfile's `web`, with WEB_CONCURRENCY=3.
PROCFILE_WEB = [
    "--worker-class",
    "bansugoroku.runtime.tornado_worker.TornadoWorker",
    "--workers",
    "3",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def server_env(database_url: str) -> dict[str, str]:
    """Production settings, with plain HTTP on loopback and rate limits out of the way."""
    return os.environ | {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "BEHIND_HTTPS_PROXY": "0",
        "DATABASE_URL": database_url,
        # Far above the load: the benchmark measures the server, not its limits. Per
        # minute, as production counts them: a process takes a hundredth of a limit from
        # Redis at a time (`bansugoroku.limits.throttles.Leases`), so windows of a second would
        # cost a round trip per token each second that production's do not.
        "THROTTLE_PLAYER": "1000000/min",
        "THROTTLE_ADDRESS": "1000000/min",
        "THROTTLE_JOIN": "1000000/min",  # the setup joins a table per client from one address
        "THROTTLE_NEW_PLAYER": "1000000/min",  # and makes two players per client
        "LOG_LEVEL": "WARNING",
    }


@contextmanager
def gunicorn(
    options: list[str], env: dict[str, str], log_path: Path | None = None
) -> Iterator[tuple[int, int]]:
    """gunicorn serving on a free loopback port; yields the port and the master's pid.
    Its output goes to `log_path` if given (for a test to read), else to a file that
    only a failed start shows.

    It runs in a session of its own: a Ctrl-C of the benchmark does not reach it, and
    on the way out it is stopped (with its workers) whatever happened meanwhile.
    """
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "bansugoroku.wsgi"]
    command += ["--bind", f"{HOST}:{port}", "--log-level", "warning", *options]
    with log_path.open("w+b") if log_path else tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 60
            while not serving(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    output = log.read().decode(errors="replace")[-4000:]
                    raise RuntimeError(f"gunicorn did not start:\n{output}")
                time.sleep(0.2)
            yield port, process.pid
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)  # graceful: the master stops its workers
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)


def serving(port: int) -> bool:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()
