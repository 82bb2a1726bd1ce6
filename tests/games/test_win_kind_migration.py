"""The migration that gives the games already finished their kind of win: read from the
final position and the table's rules, it names each kind as the engine did."""

from __future__ import annotations

import importlib

from django.apps import apps

from bansugoroku.games.models import Game
from tests.client import open_table
from tests.finished_games import won_table
from tests.wins import WINS

migration = importlib.import_module("bansugoroku.games.migrations.0006_game_win_kind")


def test_finished_games_get_the_kind_the_engine_gave_them(host, guest, api):
    codes = {won_table(host, guest, win)[0]: win.kind.value for win in WINS}
    playing = api.new_player("Chie")

    open_table(host, playing)
    Game.objects.update(win_kind="")
    migration.kinds_of_finished_games(apps, None)
    found = dict(Game.objects.values_list("table__code", "win_kind"))
    assert {code: found.pop(code) for code in codes} == codes
    assert list(found.values()) == [""], "a game being played has none"
