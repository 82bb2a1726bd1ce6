"""The limits on making players and tables, for the API and the home page's forms alike.

Without them one address made 200 players in 2 s and one player 100 tables in 2 s: each
new player is a fresh token with rate limits of its own, and each table a row and a
join code. An address may make THROTTLE_NEW_PLAYER players, a player create
THROTTLE_NEW_TABLE tables (both counted in windows, answered 429 with Retry-After), and
host at most OPEN_TABLES_MAX tables that wait for an opponent (409: a wait does not end
that, sharing a code or the idle close does).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request

from bansugoroku.games.errors import TooManyOpenTables
from bansugoroku.games.models import Player, Table, TableState
from bansugoroku.limits.throttles import NewPlayerThrottle, NewTableThrottle, limit_wait


def new_player_wait(request: HttpRequest | Request) -> int | None:
    """Count a new player against the client's address: None while under the limit,
    else the whole seconds to wait."""
    return limit_wait(NewPlayerThrottle(), request)


def new_table_wait(request: HttpRequest | Request, host: Player, cpu: str) -> int | None:
    """Check that the host may open another table waiting for an opponent, if it will
    wait (no CPU seated; else raise TooManyOpenTables), then count it against the host's
    limit as `new_player_wait` counts a player."""
    waiting = 0 if cpu else Table.objects.filter(host=host, state=TableState.WAITING).count()
    if waiting >= settings.OPEN_TABLES_MAX:
        raise TooManyOpenTables(
            f"you host {waiting} tables that wait for an opponent: share one of their "
            "codes before you create another",
            limit=settings.OPEN_TABLES_MAX,
        )
    return limit_wait(NewTableThrottle(str(host.pk)), request)
