"""The review of a finished game: computed from its turns by the engine, stored once,
and queued by a real worker when the game ends, for a game against the CPU and one
between two people."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from celery.signals import task_postrun
from django.core.management import call_command
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games import idle, reviews, services
from bansugoroku.games.models import Event, EventKind, Game, GameReview, Turn
from bansugoroku.games.outbox import REVIEW, hand_on
from bansugoroku.games.tasks import recover_reviews
from engine.notation import parse_position_id
from engine.plays import apply_moves
from engine.position import Position
from engine.side import Side
from tests.client import Api
from tests.cpu_games import human_to_move, play_first_legal_move
from tests.factories import PlayerFactory, TableFactory
from tests.finished_games import finished_table, play_out
from tests.processes import needs_a_broker, worker_running


def finished_game_between_people() -> Game:
    table = TableFactory()
    guest = PlayerFactory()
    version = services.table_join(player=guest, code=table.code).table.version
    services.table_start(player=table.host, code=table.code, version=version)
    return play_out(table.code, random.Random(7))


def test_a_review_holds_every_play_of_both_people_beside_hards(db):
    game = finished_game_between_people()
    assert reviews.store_review(game.pk)
    plays = GameReview.objects.get(game=game).plays
    played = Turn.objects.filter(game=game).exclude(moves=[])
    assert [(p["turn"], p["seat"]) for p in plays] == [(t.number, t.seat) for t in played]
    for play in plays:
        assert play["loss"] == pytest.approx(
            max(0.0, play["best"]["equity"] - play["equity"]), abs=0.002
        )
        # Hard's play, made from the position before the turn, leaves the stored position.
        before = Turn.objects.filter(game=game, number__lt=play["turn"]).last()
        side = Side(play["seat"])
        board = parse_position_id(before.position_after) if before else Position.start()
        after = apply_moves(side.sees(board), [tuple(m) for m in play["best"]["moves"]])
        assert side.sees(after) == parse_position_id(play["best"]["position_after"])
    for seat in (0, 1):
        marked = [p for p in plays if p["seat"] == seat and p["marked"]]
        assert len(marked) <= GameReview.MARKED
        assert all(p["loss"] >= GameReview.MARK_LOSS for p in marked)
        unmarked = [p["loss"] for p in plays if p["seat"] == seat and not p["marked"]]
        if len(marked) == GameReview.MARKED:
            assert max(unmarked) <= min(p["loss"] for p in marked)
    assert any(p["marked"] for p in plays), "a game played for the pips alone has errors"


def test_a_second_review_of_a_game_computes_nothing(db, monkeypatch):
    game = finished_game_between_people()
    assert reviews.store_review(game.pk)
    stored = GameReview.objects.get(game=game)

    def not_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the game was reviewed again")

    monkeypatch.setattr(reviews, "review_play", not_again)
    assert not reviews.store_review(game.pk)
    assert GameReview.objects.get(game=game).created_at == stored.created_at


def test_a_game_still_played_or_gone_is_not_reviewed(db):
    table = TableFactory(cpu="easy")
    started = services.table_start(player=table.host, code=table.code, version=table.version)
    game = started.table.current_game
    assert not reviews.store_review(game.pk)
    assert not reviews.store_review(game.pk + 1000)
    assert not GameReview.objects.exists()


def test_a_game_abandoned_when_its_table_closed_is_reviewed_too(db):
    table = TableFactory(cpu="easy")
    started = services.table_start(player=table.host, code=table.code, version=table.version)
    left = services.table_leave(player=table.host, code=table.code, version=started.table.version)
    game = Game.objects.get(pk=started.table.current_game_id)
    assert game.state == "abandoned"
    closed = Event.objects.get(table=left.table, kind=EventKind.TABLE_CLOSED)
    assert closed.game_id == game.pk, "the event its review is queued from"
    assert reviews.store_review(game.pk)
    assert GameReview.objects.get(game=game).plays == []


def test_the_recovery_queues_a_review_only_once_its_message_is_surely_lost(db):
    game = finished_game_between_people()
    assert recover_reviews() == 0, "its message may be on its way still"
    with time_machine.travel(game.ended_at + reviews.RETRY_AFTER + timedelta(seconds=1)):
        assert reviews.lost_reviews(timezone.now()) == [game.pk]
        assert recover_reviews() == 1
        reviews.store_review(game.pk)
        assert recover_reviews() == 0, "stored: nothing is lost"
    GameReview.objects.filter(game=game).delete()
    with time_machine.travel(game.ended_at + reviews.RETRY_WITHIN + timedelta(seconds=1)):
        assert recover_reviews() == 0, "older than a day: not looked for"


def test_review_games_reviews_what_the_recovery_no_longer_looks_for(db, settings):
    old = finished_game_between_people()
    table = TableFactory(cpu="easy")
    services.table_start(player=table.host, code=table.code, version=table.version)
    idle.sweep(now=timezone.now() + timedelta(days=settings.IDLE_CLOSE_DAYS + 1))
    out = StringIO()
    with time_machine.travel(old.ended_at + reviews.RETRY_WITHIN * 30):
        assert recover_reviews() == 0
        call_command("review_games", stdout=out)
    assert out.getvalue() == "1 of 1 games reviewed\n", "the idle close's game is left"
    assert GameReview.objects.filter(game=old).exists()
    call_command("review_games", stdout=out)
    assert out.getvalue().endswith("0 of 0 games reviewed\n")


def test_beat_runs_the_recovery_as_often_as_a_review_counts_as_lost(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["recover-reviews"]
    assert entry == {
        "task": "games.recover_reviews",
        "schedule": reviews.RETRY_AFTER.total_seconds(),
    }
    app.loader.import_default_modules()
    assert "games.recover_reviews" in app.tasks


def test_the_recovery_leaves_the_games_the_idle_close_abandoned(db, settings):
    table = TableFactory(cpu="easy")
    services.table_start(player=table.host, code=table.code, version=table.version)
    closed_at = timezone.now() + timedelta(days=settings.IDLE_CLOSE_DAYS + 1)
    assert idle.sweep(now=closed_at).closed == 1
    with time_machine.travel(closed_at + reviews.RETRY_AFTER * 2):
        assert reviews.lost_reviews(timezone.now()) == []


@pytest.fixture
def review_runs() -> Iterator[list[bool]]:
    """What each `games.review_game` the worker ran returned: True when it stored one."""
    runs: list[bool] = []

    def note(sender: object = None, retval: object = None, **_: object) -> None:
        if getattr(sender, "name", None) == REVIEW:
            runs.append(bool(retval))

    task_postrun.connect(note, weak=False)
    yield runs
    task_postrun.disconnect(note)


def wait_for(condition: object, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@needs_a_broker
def test_the_worker_reviews_each_finished_game_once(review_runs):
    app.control.purge()  # what earlier tests queued, for tables long gone
    with worker_running():
        human = Api().new_player("Aiko")
        created = human.post("tables", {"opponent": "cpu", "cpu_level": "easy"}).body
        cpu_code = created["code"]
        human.post(f"tables/{cpu_code}/start", {"version": created["version"]})
        deadline = time.monotonic() + 120
        while human.state(cpu_code)["game"]["state"] == "playing":
            assert time.monotonic() < deadline, "the game against the CPU did not end"
            if human_to_move(cpu_code, human):
                play_first_legal_move(cpu_code, human)
            else:
                time.sleep(0.05)
        people_code = finished_table(Api().new_player("Aiko"), Api().new_player("Ben"))
        codes = (cpu_code, people_code)
        wait_for(
            lambda: GameReview.objects.filter(game__table__code__in=codes).count() == 2,
            "both games reviewed",
        )
        # The game's end delivered again, as the relay does for a worker that died
        # before marking it: the review is queued again, and stores nothing.
        for code in codes:
            ended = Event.objects.get(table__code=code, kind=EventKind.GAME_ENDED)
            Event.objects.filter(pk=ended.pk).update(delivered_at=None)
            hand_on(ended.table_id, ended.sequence, ended.sequence)
        wait_for(lambda: len(review_runs) == 4, "the second deliveries reviewed")
    assert sorted(review_runs) == [False, False, True, True]
    assert GameReview.objects.filter(game__table__code__in=codes).count() == 2
    cpu_plays = GameReview.objects.get(game__table__code=cpu_code).plays
    assert cpu_plays and {p["seat"] for p in cpu_plays} == {0}, "the person's plays only"
    people_plays = GameReview.objects.get(game__table__code=people_code).plays
    assert {p["seat"] for p in people_plays} == {0, 1}
