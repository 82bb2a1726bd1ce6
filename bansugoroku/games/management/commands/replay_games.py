"""`manage.py replay_games [--game ID] [--table CODE]`: check stored games against their history.

Replays every game (or the one asked for) from its turns with the engine and prints one
line per game, or table score, that differs from what the replay gives; exits non-zero
when any does. See `bansugoroku.games.replay`.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Prefetch

from bansugoroku.games.models import Game, Seat, Table
from bansugoroku.games.replay import replay_game, score_problems


class Command(BaseCommand):
    help = "Replay games from their turn history and report any stored state that differs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, help="only the game with this id")
        parser.add_argument("--table", help="only the games at the table with this code")

    def handle(self, *args: Any, game: int | None, table: str | None, **options: Any) -> None:
        games = (
            Game.objects.select_related("table")
            .prefetch_related(
                Prefetch("table__seats", queryset=Seat.objects.select_related("player")), "turns"
            )
            .order_by("table__code", "number")
        )
        tables = Table.objects.prefetch_related(
            Prefetch("games", queryset=Game.objects.order_by("number"))
        ).order_by("code")
        if game is not None:
            games, tables = games.filter(pk=game), tables.none()  # a score needs every game
            if not games.exists():
                raise CommandError(f"no game with id {game}")
        if table is not None:
            code = table.upper()
            if not Table.objects.filter(code=code).exists():
                raise CommandError(f"no table with code {table}")
            games, tables = games.filter(table__code=code), tables.filter(code=code)
        checked = differ = 0
        for each in games.iterator(chunk_size=200):
            checked += 1
            problems = replay_game(each)
            if problems:
                differ += 1
                where = f"{each.table.code} game {each.number} (id {each.pk})"
                self.stdout.write(f"{where}: " + "; ".join(problems))
        scores = 0
        for each_table in tables.iterator(chunk_size=200):
            problems = score_problems(each_table, each_table.games.all())
            if problems:
                scores += 1
                self.stdout.write(f"{each_table.code}: " + "; ".join(problems))
        summary = f"checked {checked} games, {differ} differ"
        if scores:
            summary += f"; {scores} table scores differ"
        self.stdout.write(summary)
        if differ or scores:
            raise CommandError("stored state differs from the history: " + summary)
