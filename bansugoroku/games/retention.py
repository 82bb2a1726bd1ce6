"""The retention the data page (/data) promises, enforced: old tables and the players
they leave behind are deleted.

- A table where nobody has played for `RETENTION_TABLE_DAYS` (its `active_at`, the idle
  close's clock: a join, a game's start, a finished turn, a resignation, a leave) is
  deleted with its seats, games, turns and events. Not its `updated_at`, which any
  change moves: a die move taken back with an undo would keep the table, and the
  other player's name and history, for ever.
- A player who sits at no table (as host or guest) and was created more than
  `RETENTION_PLAYER_DAYS` ago is deleted. Whatever else is kept about a player (an
  e-mail address, push subscriptions) must point at the player with
  `on_delete=models.CASCADE`, so it goes with them.

Other apps keep rows of their own that expire: each registers what deletes them
(`purges.add_purge`, from its app's `ready`), and the purge runs it too: the notices'
used and expired sign-in links so. The games import none of them.

Each batch locks its tables `FOR UPDATE SKIP LOCKED` and checks their age again under
the lock, so a table a move is changing right now is left for the next run, and a move
waiting for the lock finds the table gone (404), never half of it. Players are locked
the same way: one who is taking a seat right now holds a key lock on their row and is
skipped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from bansugoroku.games import purges
from bansugoroku.games.models import Player, Seat, Table

log = logging.getLogger(__name__)

PURGE_TASK = "games.purge"
"""The Celery task that runs `purge`, every hour by beat."""

BATCH = 200
"""Tables deleted per transaction: a short lock, and a bounded list of ids in memory."""


@dataclass(frozen=True)
class Purged:
    tables: int
    players: int
    others: dict[str, int] = field(default_factory=dict)
    """What each of the other apps' purges deleted, by what it deletes."""

    def summary(self) -> str:
        counts = [f"{self.tables} tables", f"{self.players} players"]
        counts += [f"{count} {what}" for what, count in self.others.items()]
        return ", ".join(counts[:-1]) + f" and {counts[-1]}"


def purge(now: datetime | None = None) -> Purged:
    """Delete what the retention periods say is due at `now` (default: now)."""
    now = now or timezone.now()
    tables = 0
    while deleted := _purge_tables(now - timedelta(days=settings.RETENTION_TABLE_DAYS)):
        tables += deleted
    players = 0
    while deleted := _purge_players(now - timedelta(days=settings.RETENTION_PLAYER_DAYS)):
        players += deleted
    others = purges.run_others(now)
    purged = Purged(tables, players, others)
    log.info("purge: %s deleted", purged.summary())
    return purged


def _purge_tables(before: datetime) -> int:
    with transaction.atomic():
        ids = list(
            Table.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(active_at__lt=before)
            .values_list("pk", flat=True)[:BATCH]
        )
        if ids:
            Table.objects.filter(pk__in=ids).delete()
    return len(ids)


def _purge_players(before: datetime) -> int:
    with transaction.atomic():
        ids = list(
            Player.objects.select_for_update(skip_locked=True)
            .filter(created_at__lt=before)
            .exclude(Exists(Seat.objects.filter(player=OuterRef("pk"))))
            .exclude(Exists(Table.objects.filter(host=OuterRef("pk"))))
            .values_list("pk", flat=True)[:BATCH]
        )
        if ids:
            Player.objects.filter(pk__in=ids).delete()
    return len(ids)
