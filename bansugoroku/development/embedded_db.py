"""Embedded PostgreSQL for development and tests, used only when DATABASE_URL is unset.

The server comes from the `pgserver` package, whose wheel ships real PostgreSQL
binaries. Its files live in the git-ignored folder `.pgdata/` of the repository:

    .pgdata/data/          the cluster (PGDATA); also holds the unix socket
    .pgdata/lock           exclusive lock taken while starting or stopping
    .pgdata/clients.json   pids of the processes using the server

The server listens on a unix socket in `.pgdata/data` only (no TCP), so it never
collides with a system PostgreSQL on port 5432.

Sharing: each process that needs the database calls `database_url()` once (settings
does). Under the lock it registers its pid, starts the server if it is not running
yet, or reuses the running one (runserver's reloader and its child, a Celery worker,
a test run, a shell...). When a registered process exits it unregisters, and the last
one stops the server. Pids of processes that died without unregistering (SIGKILL)
are pruned, so a killed run leaves at most an idle server that the next process
adopts and later stops. `python -m bansugoroku.development.embedded_db stop` stops it at once.

As root, pgserver runs PostgreSQL as a dedicated system user `pgserver` (created
with useradd on first use, since PostgreSQL refuses to run as root), gives that user
the data folder, and makes the folders above it traversable (chmod o+rx).
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import pwd
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parents[2]
ROOT = BASE_DIR / ".pgdata"
PGDATA = ROOT / "data"
LOCK_FILE = ROOT / "lock"
CLIENTS_FILE = ROOT / "clients.json"
DB_NAME = "bansugoroku"
DB_USER = "postgres"

_url: str | None = None


def database_url() -> str:
    """Start (or join) the embedded server and return a DATABASE_URL for it."""
    global _url
    if _url is None:
        _url = _start()
    return _url


def _pgserver() -> ModuleType:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); harmless.
        warnings.simplefilter("ignore")
        import pgserver
    return pgserver


@contextmanager
def _locked() -> Iterator[None]:
    ROOT.mkdir(exist_ok=True)
    with open(LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _read_clients() -> list[int]:
    try:
        pids = json.loads(CLIENTS_FILE.read_text())
    except (FileNotFoundError, ValueError):
        return []
    return [pid for pid in pids if isinstance(pid, int) and _alive(pid)]


def _write_clients(pids: list[int]) -> None:
    tmp = CLIENTS_FILE.with_suffix(".tmp")
    tmp.write_text(json.dumps(sorted(set(pids))))
    tmp.replace(CLIENTS_FILE)


def _postmaster_pid() -> int | None:
    """Pid of the running postmaster of PGDATA, or None."""
    import psutil

    try:
        pid = int((PGDATA / "postmaster.pid").read_text().split("\n", 1)[0])
        process = psutil.Process(pid)
        if process.status() != psutil.STATUS_ZOMBIE and process.name() == "postgres":
            return pid
    except (FileNotFoundError, ValueError, psutil.Error):
        pass
    return None


def _clear_stale_lock_files() -> None:
    """After a crash or reboot the pids in PostgreSQL's lock files may belong to other
    processes now; PostgreSQL would then refuse to start. Remove such stale files."""
    if not PGDATA.is_dir() or _postmaster_pid() is not None:
        return
    for lock_file in [PGDATA / "postmaster.pid", *PGDATA.glob(".s.PGSQL.*.lock")]:
        lock_file.unlink(missing_ok=True)


def _system_user() -> str | None:
    """The user PostgreSQL runs as, when we are root (pgserver's dedicated user)."""
    if os.geteuid() != 0 or not PGDATA.exists():
        return None
    owner = pwd.getpwuid(PGDATA.stat().st_uid).pw_name
    return None if owner == "root" else owner


def _ensure_database(host: str, port: int) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        host=host, port=port, user=DB_USER, dbname="postgres", autocommit=True
    ) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DB_NAME)))


def _start() -> str:
    pgserver = _pgserver()
    pid = os.getpid()
    with _locked():
        clients = _read_clients()
        _clear_stale_lock_files()
        # cleanup_mode=None: this module, not pgserver, decides when to stop (see _release).
        server = pgserver.get_server(PGDATA, cleanup_mode=None)
        info = server.get_postmaster_info()
        if info.socket_dir is None or info.port is None:
            raise RuntimeError(f"embedded PostgreSQL gave no unix socket: {info}")
        _ensure_database(str(info.socket_dir), info.port)
        _write_clients([*clients, pid])
    atexit.register(_release, pid)
    host = quote(str(info.socket_dir), safe="")
    return f"postgres://{DB_USER}@{host}:{info.port}/{DB_NAME}"


def _release(pid: int) -> None:
    if os.getpid() != pid:  # a forked child (gunicorn, celery prefork) inherited the hook
        return
    if not ROOT.exists():  # deleted meanwhile (make clean)
        return
    with _locked():
        clients = [p for p in _read_clients() if p != pid]
        _write_clients(clients)
        if not clients:
            _stop_server()


def _stop_server() -> bool:
    """Stop the server if it runs; True if it was running."""
    if _postmaster_pid() is None:
        return False
    pgserver = _pgserver()
    pgserver.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=PGDATA, user=_system_user())
    return True


def stop() -> bool:
    """Stop the embedded server now, whoever uses it."""
    if not ROOT.exists():
        return False
    with _locked():
        _write_clients([])
        return _stop_server()


def main(argv: list[str]) -> int:
    if argv == ["stop"]:
        print("embedded PostgreSQL stopped" if stop() else "embedded PostgreSQL not running")
        return 0
    print("usage: python -m bansugoroku.development.embedded_db stop", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
