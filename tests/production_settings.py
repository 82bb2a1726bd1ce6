"""The settings module loaded in a fresh interpreter with a controlled environment, as
a production start loads it."""

from __future__ import annotations

import os
import secrets
import string
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(50)),
    "ALLOWED_HOSTS": "example.com",
    # Never connected to: loading settings and `check --deploy` don't open connections.
    "DATABASE_URL": "postgres://user@127.0.0.1:1/bansugoroku",
}


def run_python(args, env):
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "SYSTEMROOT")}
    return subprocess.run(
        [sys.executable, *args],
        env={**keep, "DJANGO_SETTINGS_MODULE": "bansugoroku.settings", **env},
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


def load_settings(env, expression="settings.DEBUG"):
    code = f"from django.conf import settings; print({expression})"
    return run_python(["-c", code], env)
