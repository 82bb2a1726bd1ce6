"""`manage.py purge`: delete what the retention periods say is due, as beat does hourly;
queued for the worker, or with `--now` right here."""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.core.management.base import BaseCommand, CommandParser

from bansugoroku.games import retention


class Command(BaseCommand):
    help = (
        "Delete the tables no one changed for RETENTION_TABLE_DAYS and the players left "
        "with no table after RETENTION_PLAYER_DAYS, as the data page promises, and what "
        "other apps registered (used and expired sign-in links)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--now",
            action="store_true",
            help="Purge in this process and wait for it, rather than queue it for the worker.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["now"]:
            current_app.send_task(retention.PURGE_TASK)
            self.stdout.write("Queued the purge for the worker; --now runs it here instead.")
            return
        purged = retention.purge()
        self.stdout.write(f"Deleted {purged.summary()}.")
