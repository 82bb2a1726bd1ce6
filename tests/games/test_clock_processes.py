"""The timeout as deployed: a real worker and beat over a real broker, killed over a
deadline. Nothing ends a game while they are down; once they are back the game is ended
once, and each player is told once."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import services
from bansugoroku.games.models import EventKind, GameState, Table
from engine.rules import Rules
from notifications.models import Kind, Notice
from tests.factories import PlayerFactory
from tests.processes import beat_process, needs_a_broker, worker_process

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), needs_a_broker]

DAY_SECONDS = 4
FAST = {"CLOCK_DAY_SECONDS": str(DAY_SECONDS), "CLOCK_SWEEP_SECONDS": "1"}
BACK_WITHIN = 30.0


def game_over_notices(code: str) -> list[int]:
    """The players told of a game's end, one entry per notice."""
    notices = Notice.objects.filter(table__code=code, kind=Kind.GAME_OVER)
    return sorted(notices.values_list("player_id", flat=True))


def test_a_deadline_passed_while_worker_and_beat_were_down_ends_the_game_once(tmp_path, settings):
    app.control.purge()  # what earlier tests queued, for tables long gone
    settings.CLOCK_DAY_SECONDS = DAY_SECONDS
    host = PlayerFactory(address="aiko@example.test", auto_vacation=False)
    guest = PlayerFactory(address="ben@example.test", auto_vacation=False)
    table = services.table_create(host=host, rules=Rules(), clock_days=1).table
    services.table_join(player=guest, code=table.code)
    version = Table.objects.get(pk=table.pk).version
    table = services.table_start(player=host, code=table.code, version=version).table
    deadline = Table.objects.get(pk=table.pk).deadline
    assert deadline is not None

    with (
        worker_process(tmp_path / "killed-worker.log", name="killed", **FAST) as worker,
        beat_process(tmp_path / "killed-beat.log", **FAST) as beat,
    ):
        time.sleep(1.0)
        for process in (worker, beat):
            process.kill()
            process.wait()
    assert timezone.now() < deadline, "they were killed before the deadline"
    time.sleep((deadline - timezone.now()).total_seconds() + 2)
    assert Table.objects.get(pk=table.pk).current_game.state == GameState.PLAYING

    with (
        worker_process(tmp_path / "worker.log", name="back", **FAST),
        beat_process(tmp_path / "beat.log", **FAST),
    ):
        give_up = time.monotonic() + BACK_WITHIN
        while len(game_over_notices(table.code)) < 2:
            assert time.monotonic() < give_up, (tmp_path / "worker.log").read_text()[-2000:]
            time.sleep(0.2)
        time.sleep(3)  # three more sweeps: nothing ends twice, nobody is told twice

    ended = Table.objects.select_related("current_game").get(pk=table.pk)
    assert ended.current_game.state == GameState.CANCELLED  # turn 1: no result
    assert ended.events.filter(kind=EventKind.GAME_ENDED).count() == 1
    assert game_over_notices(table.code) == sorted([host.pk, guest.pk])
