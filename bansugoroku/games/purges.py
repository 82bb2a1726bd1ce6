"""The purges other apps add to the hourly retention purge (`games.retention`).

An app that keeps rows of its own which expire registers what deletes them from its
app's `ready`, by dotted path as the outbox's readers are (`outbox.add_reader`): the
games then run it without importing the app, and it sits below the retention, so an app
beside the retention (the notices) may register.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.module_loading import import_string

_purges: dict[str, str] = {}


def add_purge(what: str, path: str) -> None:
    """Run the function at the dotted `path` with each purge's time too: it deletes what
    is due then and returns how many, reported as `what` ("sign-in links")."""
    _purges[what] = path


def run_others(now: datetime) -> dict[str, int]:
    """Run every registered purge; what each deleted."""
    return {what: import_string(path)(now) for what, path in _purges.items()}
