"""Loading and locking tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import models, transaction
from django.db.models import signals
from django.utils import timezone

from bansugoroku.games.errors import StaleState, TableNotFound
from bansugoroku.games.models import Game, Player, Seat, Table
from bansugoroku.games.store import clean_code, load_table, lock_seat, lock_table
from tests.factories import GameFactory, PlayerFactory, TableFactory


@pytest.mark.django_db(transaction=True)
def test_a_table_is_locked_only_inside_a_transaction():
    table = TableFactory()
    with pytest.raises(RuntimeError):
        lock_table(table.code)


@pytest.mark.django_db
def test_locking_with_a_version_the_table_is_not_at_is_stale():
    table = TableFactory()
    host = table.host
    with transaction.atomic():
        locked, seat = lock_seat(table.code.lower(), host, table.version, timezone.now())
        assert locked.pk == table.pk and seat.player_id == host.pk
        with pytest.raises(StaleState) as stale:
            lock_seat(table.code, host, table.version + 1, timezone.now())
    assert stale.value.extra == {"version": table.version}


@pytest.mark.django_db
def test_a_stranger_is_told_no_table_before_any_version():
    stranger = PlayerFactory(name="Eve")
    table = TableFactory()
    with transaction.atomic(), pytest.raises(TableNotFound) as missing:
        lock_seat(table.code, stranger, table.version + 1, timezone.now())
    assert missing.value.detail == f"no table with code {table.code}"


def test_a_code_is_upper_case_from_the_alphabet():
    assert clean_code("abc234") == "ABC234"
    for wrong in ("ABC23", "ABC2345", "ABC20I", "ABC 23"):
        with pytest.raises(TableNotFound):
            clean_code(wrong)


def fields(instance: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.mark.django_db
def test_a_loaded_table_holds_what_the_orm_reads():
    game = GameFactory()
    table = load_table(game.table.code)
    seats = list(table.seats.all())
    loaded = [table, table.current_game, *seats, *(seat.player for seat in seats)]
    for instance in loaded:
        assert instance is not None
        assert fields(instance) == fields(type(instance).objects.get(pk=instance.pk))
        assert not instance._state.adding and instance._state.db == "default"
    table.score_black = 3
    table.save(update_fields=["score_black"])  # an UPDATE of the row it was read from
    assert Table.objects.get(pk=table.pk).score_black == 3


def test_the_hand_written_queries_models_have_no_init_receivers():
    """Their rows become instances without `Model.__init__` (queries._instance), which
    would send these signals: a field that listens to them (an ImageField) needs
    `Model.from_db` there again."""
    for model in (Game, Player, Seat, Table):
        assert not signals.pre_init.has_listeners(model)
        assert not signals.post_init.has_listeners(model)
