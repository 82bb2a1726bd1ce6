"""The Makefile as a newcomer uses it: `make run` (and Ctrl-C), `make manage`,
`make admin`, `make clean`, each run for real in a subprocess."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from bansugoroku.development import devserver, embedded_db
from harness.serving import free_port

ROOT = Path(__file__).resolve().parents[2]
# Never connected to: `check` and `--help` open no connection.
NO_DATABASE = "postgres://user@127.0.0.1:1/none"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("make") is None, reason="needs make"),
]


def make_env(**extra: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    return {**keep, **extra}


def make(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=cwd,
        env=make_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_make_manage_runs_a_command_with_development_settings():
    result = make("manage", "ARGS=check", DATABASE_URL=NO_DATABASE)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_make_manage_never_makes_production_settings_debug():
    result = make("manage", "ARGS=check", DEBUG="0", DATABASE_URL=NO_DATABASE)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_make_admin_creates_a_superuser():
    result = make("admin", "ARGS=--help", DATABASE_URL=NO_DATABASE)
    assert result.returncode == 0, result.stderr
    assert "createsuperuser" in result.stdout


def get(url: str, host: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.status, answer.read().decode()


READY = {
    "worker": re.compile(r"celery@\S+ ready\."),
    "beat": re.compile(r"beat: Starting\.\.\."),
}


def test_make_run_serves_with_a_worker_and_beat_and_ctrl_c_stops_them_all():
    """Without DATABASE_URL or a broker, as a newcomer runs it: the embedded PostgreSQL
    starts, the web server answers, a Celery worker and beat come up on the files in
    .celery/; Ctrl-C (SIGINT to the terminal's process group) stops every process and,
    when no other process uses it, the database."""
    port = free_port()
    with embedded_db._locked():
        # This test's own process is a client when the suite runs on the embedded database.
        already = set(embedded_db._read_clients())
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=ROOT,
        env=make_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        # As in a terminal, whatever the test runner's own handling of SIGINT.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout or ()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 180
        status = None
        while status is None or not all(
            any(ready.search(line) for line in list(lines)) for ready in READY.values()
        ):
            assert process.poll() is None, "".join(lines)
            assert time.monotonic() < deadline, "make run did not come up:\n" + "".join(lines)
            if status is None:
                with contextlib.suppress(OSError):
                    status, body = get(f"http://127.0.0.1:{port}/healthz", f"localhost:{port}")
            time.sleep(0.5)
        assert status == 200 and json.loads(body) == {"status": "ok"}
        started = psutil.Process(process.pid).children(recursive=True)
        site_urls = {
            role: {p.environ().get("SITE_URL") for p in started if role in p.cmdline()}
            for role in ("worker", "runserver")
        }
        served = set(json.loads(embedded_db.CLIENTS_FILE.read_text())) - already
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
        reader.join(10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = "".join(lines)
    assert "Traceback" not in output, output
    assert "Warm shutdown" in output, output
    # The worker's mails link to this server; the web server's links follow each
    # request's host.
    assert site_urls == {"worker": {f"http://127.0.0.1:{port}"}, "runserver": {None}}
    assert not [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    with embedded_db._locked():
        clients = embedded_db._read_clients()
        assert not served & set(clients)
        # Stopped by the last of its processes, unless something else still uses it.
        assert clients or embedded_db._postmaster_pid() is None


def test_make_run_on_every_interface_allows_this_machine_but_not_any_host(monkeypatch):
    monkeypatch.setattr(devserver, "own_names", lambda: ["192.168.1.23", "box", "box.local"])
    assert devserver.allowed_hosts("0.0.0.0") == [
        "localhost",
        "127.0.0.1",
        "[::1]",
        "192.168.1.23",
        "box",
        "box.local",
    ]
    assert devserver.allowed_hosts("127.0.0.1") == ["localhost", "127.0.0.1", "[::1]"]
    assert devserver.allowed_hosts("10.0.0.5")[-1] == "10.0.0.5"


def test_the_worker_and_beat_link_to_the_server_make_run_starts(monkeypatch):
    """The worker has no request whose address its mails' links could follow."""
    for target in ("worker", "beat"):
        dry = make("-n", target, "PORT=8795")
        assert dry.returncode == 0, dry.stderr
        assert 'SITE_URL="${SITE_URL:-http://127.0.0.1:8795}"' in dry.stdout
    monkeypatch.setattr(devserver, "own_names", lambda: ["192.168.1.23", "box", "box.local"])
    assert devserver.server_url("0.0.0.0", "8795") == "http://192.168.1.23:8795"
    assert devserver.server_url("::1", "8000") == "http://[::1]:8000"
    monkeypatch.setattr(devserver, "own_names", lambda: [])
    assert devserver.server_url("0.0.0.0", "8795") == "http://127.0.0.1:8795"


def test_make_run_installs_what_running_needs_and_make_test_the_dev_group_too(tmp_path):
    """What each target would install (`make -n`), as the stamps in .venv/ stand."""
    for name in ("Makefile", "pyproject.toml", "uv.lock"):
        shutil.copy(ROOT / name, tmp_path)
    run_stamp, dev_stamp = tmp_path / ".venv/.install-stamp", tmp_path / ".venv/.dev-install-stamp"
    run_stamp.parent.mkdir()
    runtime = "uv sync --frozen --no-dev --inexact"
    everything = "uv sync --frozen --all-groups --inexact"

    def syncs(target: str) -> list[str]:
        dry = make("-n", target, cwd=tmp_path)
        assert dry.returncode == 0, dry.stderr
        return [line.split("/")[-1] for line in dry.stdout.splitlines() if " sync " in line]

    def stamped(path: Path, age: float) -> None:
        path.touch()
        os.utime(path, (time.time() - age,) * 2)

    assert syncs("run") == [runtime]  # a fresh clone
    assert syncs("test") == [runtime, everything]
    stamped(run_stamp, 0)  # after `make run`, the tests add the dev group
    assert syncs("test") == [everything]
    stamped(dev_stamp, 0)  # after `make test`, running installs nothing
    assert syncs("run") == syncs("lint") == syncs("bench") == []
    stamped(run_stamp, 20)  # the lock changed since: both sync again
    stamped(dev_stamp, 20)
    stamped(tmp_path / "uv.lock", 10)
    assert syncs("run") == [runtime]
    assert syncs("test") == [runtime, everything]


@pytest.mark.parametrize(
    ("host", "alone"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.23", False),
        ("box.local", False),
    ],
)
def test_make_run_tells_its_processes_whether_only_this_machine_reaches_it(
    monkeypatch, host, alone
):
    """Only then may a push endpoint be http on loopback: with HOST=0.0.0.0 anyone on the
    network could otherwise have the worker post to this machine's Redis. The address
    bound decides, whatever the environment said."""
    monkeypatch.setattr(devserver, "own_names", lambda: ["192.168.1.23"])
    monkeypatch.setenv("LOOPBACK_ONLY", "1")
    started: list[dict[str, str]] = []
    monkeypatch.setattr(
        devserver.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0)
    )
    monkeypatch.setattr(
        devserver, "run_together", lambda commands: started.extend(env for _, env in commands) or 0
    )
    assert devserver.main([host, "8000"]) == 0
    assert len(started) == 3, "the web server, the worker and beat"
    assert {env["LOOPBACK_ONLY"] for env in started} == {"1" if alone else "0"}


def test_own_names_are_real_and_never_a_wildcard():
    names = devserver.own_names()
    assert "*" not in names and "127.0.0.1" not in names


def test_make_clean_removes_what_the_project_writes_and_keeps_the_rest(tmp_path):
    """Every git-ignored path but .env (the developer's own settings), in a copy."""
    tree = tmp_path / "tree"
    tree.mkdir()
    shutil.copy(ROOT / "Makefile", tree)
    shutil.copy(ROOT / ".gitignore", tree)
    (tree / "bansugoroku").mkdir()
    (tree / "bansugoroku" / "settings.py").write_text("")
    written = [
        ".venv/bin/activate",
        "bansugoroku/__pycache__/settings.cpython-311.pyc",
        "stray.pyc",
        "bansugoroku.egg-info/PKG-INFO",
        ".pytest_cache/README.md",
        ".mypy_cache/3.11/x.json",
        ".ruff_cache/content",
        ".hypothesis/examples/x",
        ".pgdata/data/PG_VERSION",
        "staticfiles/admin/x.css",
        ".benchmarks/run.json",
        "bench-results/run.txt",
        "api.prof",
        ".import_linter_cache/x",
        ".celery/queue/x.msg",
        ".screenshots/pages.png",
        "locale/de/LC_MESSAGES/django.mo",
        ".vapid/private_key.pem",
        ".mail/20270301-120000-000000-1-1.eml",
        ".screenshots/table.png",
        "celerybeat-schedule",
        ".train/checkpoint.npz",
    ]
    for name in written:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("x")
    (tree / ".env").write_text("SECRET_KEY=mine")
    (tree / "locale/de/LC_MESSAGES/django.po").write_text("")  # the translations stay
    result = make("clean", cwd=tree)
    assert result.returncode == 0, result.stderr
    left = sorted(str(p.relative_to(tree)) for p in tree.rglob("*"))
    assert left == [
        ".env",
        ".gitignore",
        "Makefile",
        "bansugoroku",
        "bansugoroku/settings.py",
        "locale",
        "locale/de",
        "locale/de/LC_MESSAGES",
        "locale/de/LC_MESSAGES/django.po",
    ]
    # Nothing the project writes is missing from this test's list.
    ignored = [line.strip("/") for line in (ROOT / ".gitignore").read_text().splitlines()]
    patterns = {line for line in ignored if line and not line.startswith("#")} - {".env"}
    globs = {"__pycache__", "*.pyc", "*.egg-info", "*.prof", "celerybeat-schedule*"}
    covered = globs | {"locale/*/LC_MESSAGES/*.mo"} | {name.split("/")[0] for name in written}
    assert patterns <= covered, patterns - covered


def test_when_one_process_of_make_run_ends_the_others_are_stopped_and_its_status_returned():
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    failing = [sys.executable, "-c", "import time, sys; time.sleep(0.5); sys.exit(3)"]
    started = time.monotonic()

    env = dict(os.environ)
    status = devserver.run_together([(sleeper, env), (failing, env), (sleeper, env)])

    assert status == 3
    assert time.monotonic() - started < 30, "the sleepers were stopped by their SIGINT"
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN, "Ctrl-C works again"
