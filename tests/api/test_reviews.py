"""A finished game's review: `GET .../games/{n}/review`, once the worker stored it."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from bansugoroku.games import idle, reviews
from bansugoroku.games.models import Game, GameReview
from engine.notation import parse_position_id
from engine.side import Side
from tests.client import check

PATH = "/api/v1/tables/{code}/games/{number}/review"


def reviewed(code: str) -> GameReview:
    game = Game.objects.get(table__code=code, number=1)
    assert reviews.store_review(game.pk)
    return GameReview.objects.get(game=game)


def test_the_review_shows_each_play_beside_hards_from_the_callers_side(played, finished):
    stored = reviewed(finished)
    for player, me in ((played.host, Side.BLACK), (played.guest, Side.WHITE)):
        answer = player.get(f"tables/{finished}/games/1/review")
        assert answer.status == 200, answer.body
        assert answer.headers["Cache-Control"] == "private, no-cache"
        body = answer.body
        assert (body["table"], body["game"]) == (finished, 1)
        assert body["marked_loss"] == GameReview.MARK_LOSS
        assert len(body["plays"]) == len(stored.plays) > 10
        for shown, kept in zip(body["plays"], stored.plays, strict=True):
            mover = Side(kept["seat"])
            assert shown["color"] == ("black", "white")[kept["seat"]]
            assert shown["moves"] == [list(m) for m in me.sees_moves(mover, kept["moves"])]
            hard = kept["best"]
            assert shown["best"]["moves"] == [list(m) for m in me.sees_moves(mover, hard["moves"])]
            board = me.sees(parse_position_id(hard["position_after"]))
            assert shown["best"]["position_after"]["points"] == list(board.points)
            assert (shown["loss"], shown["marked"]) == (kept["loss"], kept["marked"])


def test_a_review_not_stored_yet_is_409_review_pending(played, finished):
    answer = played.guest.get(f"tables/{finished}/games/1/review")
    assert answer.status == 409 and answer.body["code"] == "review_pending"
    assert answer.headers["Retry-After"] == "5"
    assert answer.headers["Content-Type"] == "application/problem+json"


def test_a_game_the_idle_close_abandoned_is_404_review_not_found(host, table, settings):
    assert idle.sweep(now=timezone.now() + timedelta(days=settings.IDLE_CLOSE_DAYS + 1)).closed
    answer = host.get(f"tables/{table}/games/1/review")
    assert answer.status == 404 and answer.body["code"] == "review_not_found"


def test_a_game_still_played_has_no_review(host, table):
    answer = host.get(f"tables/{table}/games/1/review")
    assert answer.status == 409 and answer.body["code"] == "game_in_progress"


def test_review_answers_match_the_schema(openapi, played, finished, host, table):
    check(openapi, PATH, "get", 409, played.host.get(f"tables/{finished}/games/1/review"))
    check(openapi, PATH, "get", 409, host.get(f"tables/{table}/games/1/review"))
    check(openapi, PATH, "get", 404, host.get(f"tables/{table}/games/2/review"))
    reviewed(finished)
    check(openapi, PATH, "get", 200, played.host.get(f"tables/{finished}/games/1/review"))
