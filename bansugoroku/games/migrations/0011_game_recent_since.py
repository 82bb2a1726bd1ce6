from typing import Any

from django.db import migrations


def fill_since(apps: Any, schema_editor: Any) -> None:
    """Each game's latest plays and every turn since each seat's, from its history, as
    `events.note_turns` keeps them from now on (it kept only the passes before)."""
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    for game in Game.objects.filter(turns__isnull=False).distinct().iterator():
        plays: list[Any] = [None, None]
        since: list[list[Any]] = [[], []]
        for turn in Turn.objects.filter(game=game).order_by("number"):
            told = {"turn": turn.number, "seat": turn.seat, "dice": turn.dice}
            if turn.moves:
                told |= {"moves": turn.moves, "notation": turn.notation, "hit": turn.hit}
            for seat, listed in enumerate(since):
                if not turn.moves or seat != turn.seat:
                    listed.append(told)
            if turn.moves:
                plays[turn.seat] = told
                since[turn.seat] = []
        game.recent = {"plays": plays, "since": since}
        game.save(update_fields=["recent"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_signed_in_token"),
    ]

    operations = [
        migrations.RunPython(fill_since, migrations.RunPython.noop),
    ]
