"""Loading and locking tables."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from bansugoroku.games.errors import StaleState, TableNotFound
from bansugoroku.games.store import clean_code, lock_seat, lock_table
from tests.factories import PlayerFactory, TableFactory


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
