"""Service behaviour that the API cannot reach easily: codes, what a change returns, and
the one time it stamps."""

from __future__ import annotations

import pytest

from bansugoroku.games import services, store
from bansugoroku.games.models import Player
from engine.rules import Rules
from tests.factories import PlayerFactory


@pytest.fixture
def players(db):
    return [PlayerFactory(name=n) for n in ("Aiko", "Ben")]


def started(players: list[Player]) -> services.Change:
    host, guest = players
    table = services.table_create(host=host, rules=Rules()).table
    services.table_join(player=guest, code=table.code)
    table.refresh_from_db()
    return services.table_start(player=host, code=table.code, version=table.version)


def test_a_change_returns_the_events_it_wrote(players):
    change = started(players)
    kinds = [event.kind for event in change.events]
    assert kinds == ["game_started", "turn_started"]
    assert [event.sequence for event in change.events] == [2, 3]  # 1: the guest joined
    assert change.table.last_event == 3


def test_a_change_stamps_one_time_on_the_seat_the_game_and_the_table(players):
    host, guest = players
    table = started(players).table

    services.game_resign(player=guest, code=table.code, version=table.version)

    table.refresh_from_db()
    game = table.current_game
    assert game is not None and game.ended_at is not None
    seat = table.seats.get(player=guest)
    assert game.ended_at == table.active_at == seat.last_seen_at


def test_codes_use_only_the_unambiguous_alphabet(players):
    codes = {services.table_create(host=players[0], rules=Rules()).table.code for _ in range(30)}
    assert len(codes) == 30
    assert all(len(c) == 6 and set(c) <= set(store.CODE_ALPHABET) for c in codes)
    assert not set("".join(codes)) & set("0O1IL")


@pytest.mark.django_db
def test_only_a_cpu_table_starts_with_its_creation():
    from bansugoroku.games.errors import WrongState
    from bansugoroku.games.models import Table
    from tests.factories import PlayerFactory

    host = PlayerFactory()
    with pytest.raises(WrongState):
        services.table_create(host=host, rules=Rules(), start=True)
    assert Table.objects.count() == 0
    started = services.table_create(host=host, rules=Rules(), cpu="easy", start=True)
    assert started.table.state == "playing" and started.table.version == 2
    assert [event.kind for event in started.events][:1] == ["game_started"]
