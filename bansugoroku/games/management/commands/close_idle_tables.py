"""`manage.py close_idle_tables [--now ISO-8601]`: the hourly idle sweep, run by hand.

The same work as the beat task `games.close_idle_tables` (`bansugoroku.games.idle`):
close the tables idle for IDLE_CLOSE_DAYS, warn those 7 and 1 days from it, and print
what it did. `--now` stands in for the clock, so support can see what a sweep at
another moment would do to a copy of the data, and checks can run it at a set time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from bansugoroku.games import idle


def moment(text: str) -> datetime:
    """An ISO-8601 date and time; one without a time zone is UTC."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(
            f"--now {text!r} is not an ISO-8601 time, e.g. 2027-01-31T12:00:00Z"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class Command(BaseCommand):
    help = "Close the tables idle for IDLE_CLOSE_DAYS and warn those 7 and 1 days from it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--now", help="act as if it were this time (ISO-8601), not now")

    def handle(self, *args: Any, now: str | None, **options: Any) -> None:
        done = idle.sweep(now=timezone.now() if now is None else moment(now))
        self.stdout.write(done.summary())
