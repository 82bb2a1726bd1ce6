"""The CPU opponent: always a legal play, and the plays this variant rewards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cpu.levels import Level, best_play, choose, evaluate
from engine.plays import board_of, legal_plays
from engine.position import Position
from engine.rules import ALL_RULES, Finish, Muji, Rules
from tests.engine.strategies import game_positions


@settings(max_examples=300, deadline=None)
@given(game_positions(), st.sampled_from(list(Level)), st.integers(0, 2**32))
@pytest.mark.slow
def test_choose_always_returns_the_moves_of_a_legal_play(case, level, seed):
    position, dice, rules = case
    moves = choose(position, dice, rules, level, random.Random(seed))
    assert moves in {play.moves for play in legal_plays(position, dice, rules)}


@pytest.mark.parametrize("rules", ALL_RULES)
@pytest.mark.parametrize("level", list(Level))
def test_every_rule_combination_and_level_answers_from_the_start(rules, level):
    for dice in ((3, 1), (6, 6), (6, 5)):
        moves = choose(Position.start(), dice, rules, level, random.Random(1))
        assert moves in {play.moves for play in legal_plays(Position.start(), dice, rules)}


def test_a_pass_is_the_empty_play():
    position = Position((14,) + (0,) * 17 + (-2, -2, -2, -2, -2, -5), (1, 0))
    for level in Level:
        assert choose(position, (6, 3), Rules(), level, random.Random(0)) == ()


def test_the_winning_play_worth_most_is_taken():
    # Mover: 2,2,2,3,3,2 on In 1-6 and one stone on point 7; the opponent is on the bar.
    position = Position((2, 2, 2, 3, 3, 2, 1) + (0,) * 16 + (-14,), (0, 1))
    plays = legal_plays(position, (1, 2), Rules())
    assert max(p.points for p in plays) == 3
    for level in Level:
        moves = choose(position, (1, 2), Rules(), level, random.Random(0))
        assert next(p for p in plays if p.moves == moves).points == 3


def test_normal_makes_the_opening_points_backgammon_players_make():
    assert set(choose(Position.start(), (3, 1), Rules(), Level.NORMAL, random.Random(0))) == {
        (8, 5),
        (6, 5),
    }


def test_evaluation_prefers_the_closed_home_with_the_opponent_on_the_bar():
    open_home = Position((2, 2, 2, 2, 2, 1, 4) + (0,) * 16 + (-14,), (0, 1))
    closed = Position((2, 2, 2, 2, 2, 2, 3) + (0,) * 16 + (-14,), (0, 1))
    rules = Rules(Finish.IRI, Muji.BIGGER)
    assert evaluate(board_of(closed), 1, 0, rules) > evaluate(board_of(open_home), 1, 0, rules)


def test_without_lookahead_normal_is_still_legal():
    position = Position.start()
    play = best_play(position, (4, 2), Rules(), lookahead=False)
    assert play in legal_plays(position, (4, 2), Rules())
