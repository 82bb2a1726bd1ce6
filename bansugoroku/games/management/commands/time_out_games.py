"""`manage.py time_out_games [--now ISO-8601]`: the beat's timeout sweep, run by hand.

The same work as the beat task `games.time_out_games` (`bansugoroku.games.timeouts`):
end every game whose mover's clock ran out, remind the movers whose reminder is due,
and print what it did. `--now` stands in
for the clock, as for `close_idle_tables`.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from bansugoroku.games import timeouts
from bansugoroku.games.management.commands.close_idle_tables import moment


class Command(BaseCommand):
    help = "End the games whose player to move ran out of time; remind those near it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--now", help="act as if it were this time (ISO-8601), not now")

    def handle(self, *args: Any, now: str | None, **options: Any) -> None:
        at = timezone.now() if now is None else moment(now)
        self.stdout.write(timeouts.sweep(now=at).summary())
        self.stdout.write(timeouts.remind(now=at).summary())
