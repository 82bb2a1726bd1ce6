"""Project processes of the tests' own (a Celery worker, beat, a script) on the test
database and broker, configured by environment variables alone, as in production: so a
test can kill one for real, or give it a broker that is down."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connections

from bansugoroku.celery import app
from harness.databases import database_url

CELERY = [sys.executable, "-m", "celery", "-A", "bansugoroku"]


def process_env(**extra: str) -> dict[str, str]:
    """This process's environment, on the test database and broker, plus `extra`."""
    return os.environ | {
        "DATABASE_URL": database_url(connections["default"].settings_dict),
        "CELERY_BROKER_URL": app.conf.broker_url,
        "DJANGO_SETTINGS_MODULE": "bansugoroku.settings",
        "DEBUG": "1",
        **extra,
    }


@contextmanager
def celery_process(args: list[str], log: Path, **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """`celery -A bansugoroku ARGS` until the block ends (or the test kills it); its
    output goes to `log`, to read when a test fails."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*CELERY, *args], env=process_env(**env), stdout=out, stderr=subprocess.STDOUT
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_process(
    log: Path, *, name: str, threads: int = 1, **env: str
) -> AbstractContextManager[subprocess.Popen[bytes]]:
    """A worker whose tasks run in its own process (`-P threads`), so that killing it
    kills the task it runs."""
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"]
    args = ["worker", "-P", "threads", "-c", str(threads), "-n", f"{name}@%h", *quiet]
    return celery_process(args, log, **env)


def beat_process(log: Path, **env: str) -> AbstractContextManager[subprocess.Popen[bytes]]:
    """Beat, with a schedule file of its own beside `log`."""
    schedule = str(log.with_suffix(".schedule"))
    return celery_process(["beat", "-l", "info", "-s", schedule], log, **env)


def run_script(script: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `script` (Python, after `django.setup()`) in a process of its own."""
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {script}"],
        env=process_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def _close_connections(**_: object) -> None:
    """The worker thread opens its own database connection; close it after each task so
    the test database can be flushed and dropped."""
    connections.close_all()


@contextmanager
def worker_running() -> Iterator[None]:
    task_postrun.connect(_close_connections)
    try:
        with start_worker(app, perform_ping_check=False, shutdown_timeout=30):
            yield
    finally:
        task_postrun.disconnect(_close_connections)


def with_broker_down(script: str) -> subprocess.CompletedProcess[str]:
    """Run `script` (Python, after `django.setup()`) in a process of its own whose broker
    is a closed port, on the test database."""
    return run_script(script, CELERY_BROKER_URL="redis://127.0.0.1:1/0")


needs_a_broker = pytest.mark.skipif(
    not app.conf.broker_url.startswith(("redis://", "amqp://")),
    reason="real workers over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
)
