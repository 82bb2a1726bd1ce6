"""Celery workers as separate processes, on the test's broker and database, mailing
through the loopback Postmark: configured by environment variables alone, as in
production."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections

from bansugoroku.celery import app
from harness.databases import database_url
from harness.postmark import FakePostmark


@contextmanager
def worker_processes(
    postmark: FakePostmark, *, count: int = 1, threads: int = 1, **settings: str
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` workers of `threads` threads; `settings` are more environment variables,
    e.g. `NOTICE_SEND_TIMEOUT="1s"`."""
    env = os.environ | {
        "DATABASE_URL": database_url(connections["default"].settings_dict),
        "CELERY_BROKER_URL": app.conf.broker_url,
        "DJANGO_SETTINGS_MODULE": "bansugoroku.settings",
        "DEBUG": "1",
        "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
        "ANYMAIL_POSTMARK_SERVER_TOKEN": "test-token",
        "ANYMAIL_POSTMARK_API_URL": postmark.url,
        "NOTICE_LOOKING_WINDOW": "0",
        "NOTICE_EMAIL_SPACING": "0",
        **settings,
    }
    command = [sys.executable, "-m", "celery", "-A", "bansugoroku", "worker", "-P", "threads"]
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"]
    workers = [
        subprocess.Popen(
            [*command, "-c", str(threads), "-n", f"worker{n}@%h", *quiet],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for n in range(count)
    ]
    try:
        yield workers
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
