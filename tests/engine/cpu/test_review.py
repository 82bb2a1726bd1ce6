"""The game review's measure of a play: its worth in Hard's estimate against Hard's play."""

from __future__ import annotations

import pytest

from engine.cpu.hard import hard_play, reply_value, stored_net
from engine.cpu.review import NotAPlay, review_play
from engine.plays import legal_outcomes
from engine.position import Position
from engine.rules import ALL_RULES, Finish, Muji, Rules
from tests.engine.helpers import make

MIDGAME = make({6: 4, 8: 3, 13: 4, 20: 2, 22: 1, 24: 1}, {1: 2, 3: 1, 12: 4, 17: 3, 19: 5})


@pytest.mark.parametrize("rules", ALL_RULES[::2])
@pytest.mark.parametrize("dice", [(3, 1), (6, 5), (2, 2)])
def test_hards_own_play_is_the_best_and_costs_nothing(rules, dice):
    chosen = hard_play(MIDGAME, dice, rules).moves
    review = review_play(MIDGAME, dice, rules, chosen)
    assert review.plays[review.best].moves == chosen
    assert review.played == review.best and review.loss == 0.0


def test_every_other_play_costs_what_hard_estimates_it_is_worth_less():
    rules = Rules()
    review = review_play(MIDGAME, (6, 4), rules, hard_play(MIDGAME, (6, 4), rules).moves)
    outcomes = legal_outcomes(MIDGAME, (6, 4), rules)
    worst = min(range(len(outcomes)), key=lambda i: review.equities[i])
    again = review_play(MIDGAME, (6, 4), rules, outcomes[worst].moves)
    # The played play is measured as Hard's own: one roll ahead, the opponent replying.
    ahead = reply_value(outcomes[worst], MIDGAME.off[1], rules, stored_net())
    assert again.equities[worst] == pytest.approx(ahead)
    assert again.loss == pytest.approx(again.equities[again.best] - ahead) and again.loss > 0
    assert min(again.equities) >= -3.0 and max(again.equities) <= 3.0


def test_a_missed_win_costs_the_win():
    # The last stone outside home, on 8, and a double 1 (moved twice): 8/7/6 wins.
    position = make({8: 1, 6: 2, 5: 3, 4: 3, 3: 3, 2: 3}, {24: 15})
    rules = Rules(Finish.IRI, Muji.OFF)
    won = review_play(position, (1, 1), rules, [(8, 7), (7, 6)])
    assert won.loss == 0.0 and won.equities[won.best] == 1.0
    missed = review_play(position, (1, 1), rules, [(8, 7), (3, 2)])
    assert missed.best == won.best and missed.equities[missed.played] < 1.0
    assert missed.loss == pytest.approx(1.0 - missed.equities[missed.played])


def test_the_order_of_the_moves_does_not_matter():
    one = review_play(Position.start(), (3, 1), Rules(), [(8, 5), (6, 5)])
    other = review_play(Position.start(), (3, 1), Rules(), [(6, 5), (8, 5)])
    assert one.played == other.played and one.loss == other.loss


@pytest.mark.parametrize("moves", [[(8, 5)], [(8, 4), (6, 5)], [(30, 27), (6, 5)], [(7, 4)]])
def test_moves_that_are_no_legal_play_are_refused(moves):
    with pytest.raises(NotAPlay):
        review_play(Position.start(), (3, 1), Rules(), moves)
