"""The purge keeps what the data page promises: tables no one changed for
RETENTION_TABLE_DAYS go with everything in them, then the players left with no table
once RETENTION_PLAYER_DAYS have passed since they were created."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection, transaction

from bansugoroku.games import retention, services, tasks
from bansugoroku.games.models import Event, Game, Player, Seat, Table, Turn
from engine.rules import Rules
from tests.finished_games import play_out

NOW = datetime(2027, 6, 1, 12, tzinfo=UTC)


@pytest.fixture(autouse=True)
def periods(settings):
    settings.RETENTION_TABLE_DAYS = 180
    settings.RETENTION_PLAYER_DAYS = 30


def player(name: str, at: datetime) -> Player:
    with time_machine.travel(at, tick=False):
        return services.player_create(name=name)[0]


def played_table(host: Player, guest: Player, at: datetime) -> str:
    """A table whose first game was played to the end at `at`."""
    with time_machine.travel(at, tick=False):
        table = services.table_create(host=host, rules=Rules()).table
        services.table_join(player=guest, code=table.code)
        table.refresh_from_db()
        services.table_start(player=host, code=table.code, version=table.version)
        play_out(table.code, random.Random(1))
    return table.code


@pytest.mark.django_db
def test_a_table_unchanged_for_the_period_goes_with_its_games_turns_and_events():
    old = NOW - timedelta(days=181)
    aiko, ben = player("Aiko", old), player("Ben", old)
    gone = played_table(aiko, ben, old)
    chie = player("Chie", NOW - timedelta(days=179))
    kept = played_table(aiko, chie, NOW - timedelta(days=179))
    assert Turn.objects.filter(game__table__code=gone).exists()

    with time_machine.travel(NOW, tick=False):
        purged = retention.purge()

    assert purged.tables == 1
    assert list(Table.objects.values_list("code", flat=True)) == [kept]
    for model in (Game, Turn, Event, Seat):
        assert model.objects.exclude(**_at(model, kept)).count() == 0, model
    # Ben sat only at the purged table and was created long ago: he goes in the same run.
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Aiko", "Chie"]
    assert purged.players == 1


def _at(model: type, code: str) -> dict[str, str]:
    return {
        Game: {"table__code": code},
        Turn: {"game__table__code": code},
        Event: {"table__code": code},
        Seat: {"table__code": code},
    }[model]


@pytest.mark.django_db
def test_a_player_without_a_table_stays_for_the_period_after_being_created():
    player("Old", NOW - timedelta(days=31))
    player("New", NOW - timedelta(days=29))
    host = player("Host", NOW - timedelta(days=365))
    with time_machine.travel(NOW - timedelta(days=10), tick=False):
        services.table_create(host=host, rules=Rules())  # waiting for a guest: still used

    with time_machine.travel(NOW, tick=False):
        assert retention.purge() == retention.Purged(tables=0, players=1)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Host", "New"]

    with time_machine.travel(NOW + timedelta(days=171), tick=False):
        assert retention.purge() == retention.Purged(tables=1, players=2)
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_purging_again_deletes_nothing_more():
    player("Old", NOW - timedelta(days=31))
    with time_machine.travel(NOW, tick=False):
        assert retention.purge().players == 1
        assert retention.purge() == retention.Purged(0, 0)


@pytest.mark.django_db
def test_the_periods_are_settings(settings):
    settings.RETENTION_PLAYER_DAYS = 400
    player("Old", NOW - timedelta(days=399))
    with time_machine.travel(NOW, tick=False):
        assert retention.purge().players == 0


@pytest.mark.django_db
def test_the_command_purges_here_with_now_and_else_queues_it(capsys):
    player("Old", NOW - timedelta(days=31))
    with time_machine.travel(NOW, tick=False):
        call_command("purge")
        assert "Queued" in capsys.readouterr().out
        assert Player.objects.count() == 1
        call_command("purge", "--now")
    assert "Deleted 0 tables and 1 players." in capsys.readouterr().out
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_the_beat_task_purges():
    player("Old", NOW - timedelta(days=31))
    with time_machine.travel(NOW, tick=False):
        assert tasks.purge() == (0, 1)


def test_beat_runs_the_purge_every_hour(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge"]
    assert entry == {"task": retention.PURGE_TASK, "schedule": 3600.0}
    assert retention.PURGE_TASK in tasks.purge.name


@pytest.mark.django_db(transaction=True)
def test_a_table_being_changed_is_left_for_the_next_run():
    """A move holds the table's row lock: the purge skips that table rather than wait for
    it or delete it under the move, and deletes it on the next run."""
    old = NOW - timedelta(days=200)
    host = player("Aiko", old)
    with time_machine.travel(old, tick=False):
        code = services.table_create(host=host, rules=Rules()).table.code
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(code=code)
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert locked.wait(30)
    try:
        with time_machine.travel(NOW, tick=False):
            assert retention.purge() == retention.Purged(0, 0)
        assert Table.objects.filter(code=code).exists()
    finally:
        release.set()
        holder.join(30)
    with time_machine.travel(NOW, tick=False):
        assert retention.purge() == retention.Purged(1, 1)
