"""The review of a finished game: each play of its people beside the CPU's Hard play.

A worker computes it once, when the game ends (the outbox's `game_reviews` reader queues
`games.review_game`), and stores it in a `GameReview` row that the history then reads:
reviewing a game takes a second or more of the engine (`engine.cpu.review`), too much for
each page view. Storing is idempotent: a second delivery of the game's end finds the row
and computes nothing, and two at once store one (the row's key is the game).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import QuerySet

from bansugoroku.games.models import ClosedReason, Game, GameReview, GameState
from bansugoroku.games.payloads import ReviewedPlay
from engine.cpu.review import review_play
from engine.notation import format_play, parse_position_id, position_id
from engine.plays import apply_moves
from engine.position import Position
from engine.side import Side

log = logging.getLogger(__name__)

DIGITS = 3
"""Equities are kept to a thousandth of a point."""
RETRY_AFTER = timedelta(minutes=10)
"""A game over for this long without a review lost its message (`lost_reviews`)."""
RETRY_WITHIN = timedelta(days=1)
"""...unless it ended longer ago than this: the recovery reads a day of games at most."""


def store_review(game_id: int) -> bool:
    """Review the game and store it; False when there is nothing to do: the review is
    there already, or the game is gone or still being played."""
    if GameReview.objects.filter(game_id=game_id).exists():
        return False
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or not game.is_over:
        return False
    _, created = GameReview.objects.get_or_create(game=game, defaults={"plays": review(game)})
    if created:
        log.info("%s reviewed", game)
    return created


def unreviewed() -> QuerySet[Game]:
    """The ended games without a review, but those the idle close abandoned, which are
    never reviewed."""
    return Game.objects.filter(ended_at__isnull=False, review__isnull=True).exclude(
        state=GameState.ABANDONED, table__closed_reason=ClosedReason.IDLE
    )


def lost_reviews(now: datetime) -> list[int]:
    """The games that ended between RETRY_WITHIN and RETRY_AFTER before `now` without a
    review: their review's message was lost, with the broker down when the game's end
    was delivered, or with the worker killed while reviewing (Celery acknowledges a
    message before running its task). An index on `ended_at` keeps this to the day's
    ended games; older ones are for `manage.py review_games`."""
    lost = unreviewed().filter(ended_at__gte=now - RETRY_WITHIN, ended_at__lt=now - RETRY_AFTER)
    return list(lost.values_list("pk", flat=True))


def review(game: Game) -> list[ReviewedPlay]:
    """Every play of the game's people, in turn order, beside Hard's choice, their worst
    few marked; the CPU's plays and the passes are not reviewed."""
    people = set(game.table.seats.filter(cpu="").values_list("number", flat=True))
    rules = game.table.rules
    board = Position.start()  # from Black's side, as the turns store it
    plays: list[ReviewedPlay] = []
    for turn in game.turns.all():
        before, board = board, parse_position_id(turn.position_after)
        if turn.seat not in people or not turn.moves:
            continue
        side = Side(turn.seat)
        position = side.sees(before)
        dice = (turn.dice[0], turn.dice[1])
        found = review_play(position, dice, rules, [(m[0], m[1]) for m in turn.moves])
        best = found.plays[found.best].moves
        plays.append(
            {
                "turn": turn.number,
                "seat": turn.seat,
                "dice": list(dice),
                "moves": turn.moves,
                "notation": turn.notation,
                "position_after": turn.position_after,
                "equity": round(found.equities[found.played], DIGITS),
                "loss": round(found.loss, DIGITS),
                "marked": False,
                "best": {
                    "moves": [list(move) for move in best],
                    "notation": format_play(position, best),
                    "equity": round(found.equities[found.best], DIGITS),
                    "position_after": position_id(side.sees(apply_moves(position, best))),
                },
            }
        )
    for seat in people:
        errors = [p for p in plays if p["seat"] == seat and p["loss"] >= GameReview.MARK_LOSS]
        for play in sorted(errors, key=lambda p: -p["loss"])[: GameReview.MARKED]:
            play["marked"] = True
    return plays
