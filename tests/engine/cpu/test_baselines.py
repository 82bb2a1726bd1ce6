"""The match command's baselines play as their descriptions say."""

from __future__ import annotations

from engine.cpu.baselines import exposed, pipcount_play, pipsafe_play
from engine.plays import legal_outcomes, legal_plays
from engine.position import Position
from engine.rules import Finish, Muji, Rules
from tests.engine.helpers import make


def test_pipcount_moves_the_furthest_stone_first():
    play = pipcount_play(Position.start(), (6, 5), Rules())
    assert play.moves[0][0] == 24


def test_pipsafe_takes_the_winning_play_worth_most():
    position = Position((2, 2, 2, 3, 3, 2, 1) + (0,) * 16 + (-14,), (0, 1))
    assert pipsafe_play(position, (1, 2), Rules()).points == 3


def test_under_iri_pipsafe_counts_pips_to_home_only():
    position = make({13: 1, 6: 5, 1: 9}, {24: 15})
    play = pipsafe_play(position, (3, 1), Rules(Finish.IRI, Muji.OFF))
    assert all(src > 6 for src, _ in play.moves)


def test_pipsafe_breaks_ties_by_hits_then_by_exposed_blots():
    # Every play moves 3 pips; 13/11* hits. Of the hitting plays, 13/11* 13/12 leaves two
    # blots in reach of the stone entering from the bar, the others one.
    position = make({24: 2, 13: 13}, {11: 1, 1: 14})
    rules = Rules(Finish.BEAR_OFF)
    play = pipsafe_play(position, (2, 1), rules)
    outcome = next(o for o in legal_outcomes(position, (2, 1), rules) if o.moves == play.moves)
    assert outcome.opponent_bar == 1
    assert exposed(outcome) == 1
    assert play in legal_plays(position, (2, 1), rules)


def test_a_blot_is_exposed_only_to_stones_within_twelve_points_behind_it():
    outcomes = legal_outcomes(make({20: 1, 13: 1, 1: 13}, {7: 1, 2: 14}), (1, 1), Rules())
    kept_far = next(o for o in outcomes if o.moves == ((13, 12), (12, 11)))
    came_near = next(o for o in outcomes if o.moves == ((20, 19), (19, 18)))
    assert exposed(kept_far) == 1  # 20 is 13 points from the stone on 7, 11 is 4
    assert exposed(came_near) == 2  # 18 is 11 points from it, 13 is 6
