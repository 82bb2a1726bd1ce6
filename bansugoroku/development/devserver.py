"""`make run`: migrate, then the whole service on one machine: Django's development
server on HOST:PORT, a Celery worker and Celery beat, all on the same database and broker.

    python -m bansugoroku.development.devserver [HOST [PORT]]     (127.0.0.1 8000)
    python -m bansugoroku.development.devserver --site-url HOST PORT

Without DATABASE_URL and CELERY_BROKER_URL that is the embedded PostgreSQL and kombu's
filesystem transport in `.celery/`, so a fresh machine needs no server of its own.

HOST=0.0.0.0 listens on every interface, so that a phone on the same network can
reach the server. Unless ALLOWED_HOSTS is set, it then allows this machine's own
addresses and name besides localhost: never '*', with which any web page open in the
developer's browser could reach the server through a name of its own (DNS rebinding).
Invitation links follow the address a client used (SITE_URL unset in development).
The worker serves no request whose address its links could follow, so unless SITE_URL
is set, the worker and beat get the server's address as their SITE_URL (`--site-url`
prints it, for `make worker` and `make beat`): the "your turn" mails then link to it.

The processes are told whether the server listens on loopback alone (`LOOPBACK_ONLY`):
only then may a push endpoint be plain http on loopback, as the tests' push service is.

Each process runs in a process group of its own, and this one hands each group a
single SIGINT when Ctrl-C (or SIGTERM) reaches it, or when one of them stops: as a
terminal would, but once, since a second Ctrl-C makes Celery's worker stop without
finishing its task. The embedded PostgreSQL, if one is used, stops with the last
process using it (bansugoroku/development/embedded_db.py).
"""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

BASE_DIR = Path(__file__).resolve().parents[2]
LOCAL = ["localhost", "127.0.0.1", "[::1]"]
EVERY_INTERFACE = ("0.0.0.0", "::")
CELERY = [sys.executable, "-m", "celery", "-A", "bansugoroku"]
WORKER = [*CELERY, "worker", "-l", "info"]
BEAT = [*CELERY, "beat", "-l", "info", "-s", str(BASE_DIR / ".celery" / "beat-schedule")]
"""As `make worker` and `make beat` run them; beat's schedule file in the ignored folder."""
STOP_TIMEOUT = 30.0
"""Seconds each process has to stop after its SIGINT (a worker finishes its task)."""


def own_names() -> list[str]:
    """This machine's IPv4 addresses other than loopback, and its name (as is and with
    .local, as mDNS resolves it on the local network)."""
    import psutil

    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if (
                address.family == socket.AF_INET
                and not ipaddress.ip_address(address.address).is_loopback
            ):
                found.append(address.address)
    name = socket.gethostname()
    if name and name != "localhost":
        found += [name] if "." in name else [name, f"{name}.local"]
    return list(dict.fromkeys(found))


def allowed_hosts(host: str) -> list[str]:
    if host in EVERY_INTERFACE:
        return [*LOCAL, *own_names()]
    bracketed = f"[{host}]" if ":" in host else host
    return list(dict.fromkeys([*LOCAL, bracketed]))


def server_url(host: str, port: str) -> str:
    """The base URL of the server on HOST:PORT; on every interface, at this machine's
    first address that other devices can reach (else loopback)."""
    if host in EVERY_INTERFACE:
        host = next(iter(own_names()), "127.0.0.1")
    bracketed = f"[{host}]" if ":" in host else host
    return f"http://{bracketed}:{port}"


def loopback_only(host: str) -> bool:
    """Whether a server bound to `host` is reachable from this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def main(argv: list[str]) -> int:
    if argv[:1] == ["--site-url"]:
        print(server_url(argv[1], argv[2]))
        return 0
    host = argv[0] if argv else "127.0.0.1"
    port = argv[1] if len(argv) > 1 else "8000"
    env = dict(os.environ)
    hosts = env.get("ALLOWED_HOSTS", "").strip()
    if not hosts:
        hosts = env["ALLOWED_HOSTS"] = ",".join(allowed_hosts(host))
    # Whatever the environment said: only the address bound to decides.
    env["LOOPBACK_ONLY"] = "1" if loopback_only(host) else "0"
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    try:
        migrated = subprocess.run([*manage, "migrate", "--noinput"], env=env, check=False)
    except KeyboardInterrupt:  # Ctrl-C while migrating
        return 130
    if migrated.returncode != 0:
        return migrated.returncode
    if host in EVERY_INTERFACE:
        urls = [f"http://{name}:{port}/" for name in hosts.split(",") if name not in LOCAL]
        print("From another device on this network:", *urls, sep="\n  ", flush=True)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    web = [*manage, "runserver", address]
    # Each line as it is written, so the three logs interleave in the order of events
    # even when the output is a pipe.
    env["PYTHONUNBUFFERED"] = "1"
    # The worker's links can't follow a request's host: they name this server.
    celery_env = (
        env if env.get("SITE_URL", "").strip() else env | {"SITE_URL": server_url(host, port)}
    )
    return run_together([(web, env), (WORKER, celery_env), (BEAT, celery_env)])


class Stop(Exception):
    """SIGTERM reached this process: stop every process, as for Ctrl-C."""


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise Stop


def run_together(commands: list[tuple[list[str], dict[str, str]]]) -> int:
    """Run the commands, each with its environment, until Ctrl-C, SIGTERM or the end of
    any one of them; then stop them all. Returns the status of the one that ended first,
    130 after Ctrl-C."""
    handlers = {name: signal.getsignal(name) for name in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, _terminated)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for command, env in commands:
            processes.append(subprocess.Popen(command, env=env, process_group=0))
        while all(process.poll() is None for process in processes):
            time.sleep(0.2)
        return next(p.returncode for p in processes if p.returncode is not None)
    except (KeyboardInterrupt, Stop):
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut it short
        stop_all(processes)
        for name, handler in handlers.items():
            signal.signal(name, handler)


def stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGINT to each process group once, then wait; SIGKILL what outlives STOP_TIMEOUT."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
    deadline = time.monotonic() + STOP_TIMEOUT
    for process in processes:
        try:
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
