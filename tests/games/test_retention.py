"""The purge keeps what the data page promises: tables no one changed for
RETENTION_TABLE_DAYS go with everything in them, then the players left with no table
once RETENTION_PLAYER_DAYS have passed since they were created."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from bansugoroku.games import retention, services, tasks
from bansugoroku.games.models import Event, Game, Player, Seat, Table, Turn
from notifications.models import SignInLink
from tests.factories import GameFactory, PlayerFactory, SignInLinkFactory, TableFactory
from tests.finished_games import whole_play

NOW = datetime(2027, 6, 1, 12, tzinfo=UTC)
NO_LINKS = {"sign-in links": 0}
"""What the notices' purge deletes where no sign-in link was asked for."""


@pytest.fixture(autouse=True)
def periods(settings):
    settings.RETENTION_TABLE_DAYS = 180
    settings.RETENTION_PLAYER_DAYS = 30


def player(name: str, at: datetime) -> Player:
    """A player created at `at`."""
    with time_machine.travel(at, tick=False):
        return PlayerFactory(name=name)


def played_table(host: Player, guest: Player, at: datetime) -> str:
    """A table whose first game was played to the end at `at`."""
    with time_machine.travel(at, tick=False):
        return GameFactory(host=host, guest=guest, finished=True).table.code


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


@pytest.mark.django_db
def test_a_move_taken_back_keeps_no_table_only_playing_does():
    """A die move and its undo change the table (its version and `updated_at`) but are
    no play: the table still goes once nobody has played there for the period."""
    old = NOW - timedelta(days=181)
    aiko, ben = player("Aiko", old), player("Ben", old)
    codes = []
    with time_machine.travel(old, tick=False):
        for _ in range(2):
            codes.append(GameFactory(host=aiko, guest=ben).table.code)
    taken_back, played = codes
    with time_machine.travel(NOW - timedelta(days=1), tick=False):
        _move_and_undo(taken_back)
        _finish_a_turn(played)

    with time_machine.travel(NOW, tick=False):
        assert retention.purge().tables == 1

    assert list(Table.objects.values_list("code", flat=True)) == [played]


def _move_and_undo(code: str) -> None:
    """The first die move of a play of two or more (so the turn stays open), undone."""
    table, mover = _mover(code)
    first, *rest = whole_play(code)
    assert rest, "the turn stays open after the first move"
    services.game_move(player=mover, code=code, version=table.version, moves=[tuple(first)])
    services.turn_undo(player=mover, code=code, version=table.version + 1)
    assert Table.objects.get(code=code).updated_at == timezone.now()


def _finish_a_turn(code: str) -> None:
    table, mover = _mover(code)
    moves = [(m[0], m[1]) for m in whole_play(code)]
    services.game_move(player=mover, code=code, version=table.version, moves=moves)


def _mover(code: str) -> tuple[Table, Player]:
    table = Table.objects.select_related("current_game").get(code=code)
    return table, table.seats.get(number=table.current_game.turn_seat).player


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
        TableFactory(host=host)  # waiting for a guest: still used

    with time_machine.travel(NOW, tick=False):
        assert retention.purge() == retention.Purged(tables=0, players=1, others=NO_LINKS)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Host", "New"]

    with time_machine.travel(NOW + timedelta(days=171), tick=False):
        assert retention.purge() == retention.Purged(tables=1, players=2, others=NO_LINKS)
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_purging_again_deletes_nothing_more():
    player("Old", NOW - timedelta(days=31))
    with time_machine.travel(NOW, tick=False):
        assert retention.purge().players == 1
        assert retention.purge() == retention.Purged(0, 0, others=NO_LINKS)


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
    assert "Deleted 0 tables, 1 players and 0 sign-in links." in capsys.readouterr().out
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_the_beat_task_purges():
    player("Old", NOW - timedelta(days=31))
    with time_machine.travel(NOW, tick=False):
        assert tasks.purge() == (0, 1)


@pytest.mark.django_db
def test_the_hourly_purge_deletes_the_sign_in_links_that_can_no_longer_be_used():
    with time_machine.travel(NOW - timedelta(hours=2), tick=False):
        expired = SignInLinkFactory()
        used = SignInLinkFactory(used_at=timezone.now())
    with time_machine.travel(NOW, tick=False):
        fresh = SignInLinkFactory()
        used_now = SignInLinkFactory(used_at=timezone.now())
        tasks.purge()
    assert list(SignInLink.objects.all()) == [fresh]
    for gone in (expired, used, used_now):
        assert Player.objects.filter(pk=gone.player_id).exists(), "the link only"


@pytest.mark.django_db
def test_the_command_counts_the_sign_in_links(capsys):
    with time_machine.travel(NOW - timedelta(hours=1), tick=False):
        SignInLinkFactory.create_batch(2)
    with time_machine.travel(NOW, tick=False):
        call_command("purge", "--now")
    assert "Deleted 0 tables, 0 players and 2 sign-in links." in capsys.readouterr().out


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
        code = TableFactory(host=host).code
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
            assert retention.purge() == retention.Purged(0, 0, others=NO_LINKS)
        assert Table.objects.filter(code=code).exists()
    finally:
        release.set()
        holder.join(30)
    with time_machine.travel(NOW, tick=False):
        assert retention.purge() == retention.Purged(1, 1, others=NO_LINKS)
