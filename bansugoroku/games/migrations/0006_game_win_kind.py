"""Each game stores how it was won. The finished games get their kind here: a
resignation says it; a won game's kind is a function of its final position (the one
its winning move left) and its table's rules, the same function the engine asks when
the move is made, so it is read from the stored position rather than by replaying the
game from its seed. A game whose position gives no win keeps no kind, and
`manage.py replay_games` reports it."""

from typing import Any

from django.db import migrations, models

from engine.notation import parse_position_id
from engine.plays import board_of, win_kind
from engine.rules import Finish, Muji, Rules
from engine.side import Side


def kinds_of_finished_games(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    Game.objects.filter(state="resigned").update(win_kind="resigned")
    won = Game.objects.filter(state="won", winner__isnull=False).select_related("table")
    for game in won.iterator():
        rules = Rules(Finish(game.table.finish), Muji(game.table.muji))
        seen = Side(game.winner).sees(parse_position_id(game.position))
        kind = win_kind(board_of(seen), seen.bar[1], rules)
        if kind is not None:
            Game.objects.filter(pk=game.pk).update(win_kind=kind.value)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_table_cpu_to_move"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="win_kind",
            field=models.CharField(
                blank=True,
                choices=[
                    ("iri", "iri"),
                    ("bear_off", "bear_off"),
                    ("muji", "muji"),
                    ("mushi", "mushi"),
                    ("mujo", "mujo"),
                    ("resigned", "resigned"),
                ],
                default="",
                max_length=10,
            ),
        ),
        migrations.RunPython(kinds_of_finished_games, migrations.RunPython.noop),
    ]
