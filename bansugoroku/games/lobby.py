"""The lobby, where strangers meet: the tables their hosts opened to anyone
(`Table.open_until`), found by house rules and clock, and each host's record and
rating beside it. Its changes (opening a table, taking its seat, quick pairing) are table changes
like any other, in `games.services`; this module holds what they and the lists read.

A table is open while it waits for an opponent and `open_until` is ahead: taken, closed
or past its time, it has left the lobby, with no sweep needed. Only players who opened
a table or took a seat here (`Player.listed_at`) are shown to strangers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from django.db.models import Q, QuerySet

from bansugoroku.games import shapes
from bansugoroku.games.models import Block, Table, TableState
from bansugoroku.games.records import records
from bansugoroku.games.selectors import rating_json, rules_json
from engine.rules import Finish, Muji, Rules, Start

ANY: Literal["any"] = "any"
NO_CLOCK: Literal["none"] = "none"

Clock = int | Literal["any", "none"]
"""A clock to look for: a number of days a move, `NO_CLOCK`, or `ANY`."""


def clock_of(text: str) -> Clock:
    """A clock to look for as a query or a form sends it: "any", "none" or the days a
    move (one of those the caller's field offers)."""
    return text if text in (ANY, NO_CLOCK) else int(text)


@dataclass(frozen=True)
class Filters:
    """What a player looks for in the lobby; None (or `ANY`) takes any."""

    finish: Finish | None = None
    muji: Muji | None = None
    start: Start | None = None
    clock: Clock = ANY

    def rules(self) -> Rules:
        """The house rules of a table opened for what was looked for: the defaults
        where any would do."""
        default = Rules()
        return Rules(
            self.finish or default.finish, self.muji or default.muji, self.start or default.start
        )

    def clock_days(self) -> int | None:
        """The clock of a table opened for what was looked for: none where any would do."""
        return self.clock if isinstance(self.clock, int) else None


def open_tables(
    now: datetime, filters: Filters = Filters(), viewer_id: int | None = None
) -> QuerySet[Table]:
    """The tables in the lobby that match, the longest waiting first (on the lobby's
    index, which holds only the tables waiting for an opponent that were opened); for a
    `viewer`, none whose host they blocked or who blocked them."""
    tables = Table.objects.filter(state=TableState.WAITING, open_until__gt=now)
    if viewer_id is not None:
        tables = tables.exclude(
            host_id__in=Block.objects.filter(blocker_id=viewer_id).values("blocked_id")
        ).exclude(host_id__in=Block.objects.filter(blocked_id=viewer_id).values("blocker_id"))
    if filters.finish:
        tables = tables.filter(finish=filters.finish)
    if filters.muji:
        tables = tables.filter(muji=filters.muji)
    if filters.start:
        tables = tables.filter(start=filters.start)
    if filters.clock == NO_CLOCK:
        tables = tables.filter(clock_days__isnull=True)
    elif filters.clock != ANY:
        tables = tables.filter(clock_days=filters.clock)
    return tables.order_by("open_until", "id")


def blocked(one_id: int, other_id: int) -> bool:
    """Whether either of the two players blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=one_id, blocked_id=other_id) | Q(blocker_id=other_id, blocked_id=one_id)
    ).exists()


def is_open(table: Table, now: datetime) -> bool:
    """Whether the table is in the lobby now: what `open_tables` finds, for one table."""
    return (
        table.state == TableState.WAITING
        and table.open_until is not None
        and (table.open_until > now)
    )


def lobby_json(tables: Iterable[Table], viewer_id: int | None) -> list[shapes.LobbyTableJson]:
    """The lobby's tables as it lists them, with their hosts' records (one query for
    all); `select_related("host")` the tables."""
    tables = list(tables)
    found = records(table.host_id for table in tables)
    return [
        {
            "code": table.code,
            "host": {
                "id": table.host_id,
                "name": table.host.name,
                "record": found[table.host_id].to_json(),
                "rating": rating_json(table.host),
            },
            "rules": rules_json(table.rules),
            "clock_days": table.clock_days,
            "rated": table.rated,
            "open_until": table.open_until.isoformat(),  # type: ignore[union-attr]
            "yours": table.host_id == viewer_id,
        }
        for table in tables  # open_tables' tables: each has its open_until
    ]
