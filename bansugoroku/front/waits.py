"""How long a table has waited, and when it closes for idling: what "My tables" and the
table page say of it. The wait is counted from the table's last activity (`active_at`,
restarted by every finished turn, as the idle close counts it), so when it is the
player's turn it is the time since the opponent moved (or the game started)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.utils.timesince import timesince
from django.utils.translation import gettext, ngettext

from bansugoroku.games.idle import WARN_DAYS
from bansugoroku.games.models import Table, TableState


def wait_words(table: Table, *, your_turn: bool, opponent: str | None, now: datetime) -> str:
    """ "Waiting for you for 3 hours", or for the opponent; empty where nobody's move is
    awaited (a closed table, or one still waiting for a guest), and in the first minute,
    where it would read "for 0 minutes" (the table page's script does the same)."""
    if table.state == TableState.CLOSED or opponent is None:
        return ""
    if now - table.active_at < timedelta(minutes=1):
        return ""
    since = timesince(table.active_at, now)
    if your_turn:
        return gettext("Waiting for you for %(time)s") % {"time": since}
    return gettext("Waiting for %(name)s for %(time)s") % {"name": opponent, "time": since}


def closes_in_days(table: Table, *, now: datetime) -> int | None:
    """Whole days, rounded up, until the table closes for idling, once the first warning
    is near (`idle.WARN_DAYS`); None before, or for a closed table."""
    if table.closes_at is None:
        return None
    days = max(1, math.ceil((table.closes_at - now) / timedelta(days=1)))
    return days if days <= max(WARN_DAYS) else None


def closing_words(table: Table, *, now: datetime) -> str:
    days = closes_in_days(table, now=now)
    if days is None:
        return ""
    return ngettext(
        "Closes in %(days)d day without a move",
        "Closes in %(days)d days without a move",
        days,
    ) % {"days": days}
