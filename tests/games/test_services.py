"""Service behaviour that the API cannot reach easily: a game nobody can ever move in."""

from __future__ import annotations

import pytest
from django.db import transaction

from bansugoroku.games import services
from bansugoroku.games.models import GameState, Player, TableState, Turn
from bansugoroku.games.store import CODE_ALPHABET
from engine.notation import position_id
from engine.rules import Rules
from tests.engine.helpers import make


@pytest.fixture
def players(db):
    return [services.player_create(name=n)[0] for n in ("Aiko", "Ben")]


def started(players: list[Player]):
    host, guest = players
    table = services.table_create(host=host, rules=Rules())
    services.table_join(player=guest, code=table.code)
    table.refresh_from_db()
    return services.table_start(player=host, code=table.code, version=table.version)


def test_a_game_where_neither_side_can_ever_move_ends_with_no_result(players):
    table = started(players)
    game = table.current_game
    # Both sides: one stone on the bar, the other fourteen closing their home.
    closed = {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2}
    theirs = {25 - p: n for p, n in closed.items()}
    game.position = position_id(make(closed, theirs, bar=(1, 1)))
    game.save()
    with transaction.atomic():
        passes = services._begin_turn(table, game, 0)
        services._save(table, game, passes)
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.state == GameState.ABANDONED and game.winner is None and game.points == 0
    assert table.state == TableState.BETWEEN_GAMES and table.score == (0, 0)
    assert Turn.objects.filter(game=game, moves=[]).exists()


def test_codes_use_only_the_unambiguous_alphabet(players):
    codes = {services.table_create(host=players[0], rules=Rules()).code for _ in range(30)}
    assert len(codes) == 30
    assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("".join(codes)) & set("0O1IL")
