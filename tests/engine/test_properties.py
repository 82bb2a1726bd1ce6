"""Properties of the generator over positions from random self-play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.notation import format_play, parse_play, parse_position_id, position_id
from engine.plays import apply_moves, board_of, legal_plays, single_moves
from engine.position import BAR
from engine.rules import Finish
from engine.turn import IllegalMoveError, TurnInProgress
from tests.engine import reference
from tests.engine.strategies import game_positions

pytestmark = pytest.mark.slow

EXAMPLES = settings(max_examples=300, deadline=None)


@EXAMPLES
@given(game_positions())
def test_the_fast_generator_agrees_with_the_obvious_one(case):
    position, dice, rules = case
    plays = legal_plays(position, dice, rules)
    outcomes = {(apply_moves(position, p.moves), p.points) for p in plays}
    assert len(outcomes) == len(plays), "one play per distinct outcome"
    assert outcomes == reference.outcomes(position, dice, rules)


@EXAMPLES
@given(game_positions())
def test_every_play_keeps_fifteen_stones_a_side_and_lands_on_open_points(case):
    position, dice, rules = case
    for play in legal_plays(position, dice, rules):
        current = position
        for src, dst in play.moves:
            assert dst == 0 or current.count(dst) >= -1, "landed on a blocked point"
            current = apply_moves(current, [(src, dst)])
        own = sum(n for n in current.points if n > 0) + current.bar[0] + current.off[0]
        theirs = -sum(n for n in current.points if n < 0) + current.bar[1] + current.off[1]
        assert own == theirs == 15


@EXAMPLES
@given(game_positions())
def test_every_listed_play_is_maximal(case):
    position, dice, rules = case
    plays = legal_plays(position, dice, rules)
    full = [p for p in plays if len(p.moves) == 2 or p.points]
    if full:
        assert full == plays, "a short play is listed although both dice can be used"
    elif plays[0].moves:
        b = board_of(position)
        bear = rules.finish is Finish.BEAR_OFF and all(n <= 0 for n in position.points[6:])
        if single_moves(b, max(dice), bear and not b[BAR]):
            assert all(p.moves[0][0] - max(p.moves[0][1], 0) <= max(dice) for p in plays)
            assert {p.moves[0] for p in plays} == set(
                single_moves(b, max(dice), bear and not b[BAR])
            )
    else:
        assert plays[0].points == 0


@EXAMPLES
@given(game_positions(), st.integers(0, 1))
def test_each_moves_effect_is_what_playing_it_does(case, sent):
    position, dice, rules = case
    turn = TurnInProgress(position, dice, rules)
    for _ in range(sent):  # part-way through the turn as well as at its start
        if turn.complete:
            break
        turn = turn.play(turn.legal_moves()[0])
    played = [turn.play(m) for m in turn.legal_moves()]
    expected = [(after.complete, after.points) for after in played]
    assert [(e.ends_turn, e.points) for e in turn.move_effects()] == expected


@EXAMPLES
@given(game_positions())
def test_single_move_checks_agree_with_the_play_list(case):
    position, dice, rules = case
    turn = TurnInProgress(position, dice, rules)
    every = reference.all_plays(position, dice, rules)
    assert set(turn.legal_moves()) == {moves[0] for moves, _, _ in every if moves}
    for moves, after, points in every:
        finished = turn.play_all(moves)
        assert finished.complete and finished.current == after and finished.points == points
    legal = set(turn.legal_moves())
    for src in range(1, 26):
        for dst in range(0, src):
            if (src, dst) not in legal:
                try:
                    turn.play((src, dst))
                except IllegalMoveError:
                    continue
                raise AssertionError(f"{src}/{dst} accepted but not legal")


@EXAMPLES
@given(game_positions())
def test_notation_and_position_ids_round_trip(case):
    position, dice, rules = case
    assert parse_position_id(position_id(position)) == position
    assert position.flipped().flipped() == position
    for play in legal_plays(position, dice, rules):
        assert parse_play(format_play(position, play.moves)) == play.moves
