"""The Hard level: its features, its network and the stored weights it plays with."""

from __future__ import annotations

import numpy as np

from engine.cpu.features import COUNT, encode, position_row, rows_after
from engine.cpu.hard import CANDIDATES, hard_play, play_values, reply_value, stored_net
from engine.cpu.net import equity, swap
from engine.plays import Outcome, board_of, legal_outcomes, legal_plays, position_after
from engine.position import Position
from engine.rules import ALL_RULES, Finish, Muji, Rules
from tests.engine.helpers import make


def test_the_start_reads_the_same_from_both_sides():
    features = encode(position_row(Position.start()), Rules())[0]
    assert features.shape == (COUNT,)
    assert np.array_equal(features[:96], features[96:192])


def test_rows_after_a_play_are_the_position_the_opponent_rolls_from():
    position = make({13: 2, 6: 13}, {10: 1, 1: 14})
    outcomes = legal_outcomes(position, (3, 1), Rules())
    rows = rows_after(outcomes, position.off[1])
    for row, outcome in zip(rows, outcomes, strict=True):
        assert np.array_equal(row, position_row(position_after(outcome, 0))[0])


def test_blots_count_only_with_an_enemy_stone_in_reach_behind_them():
    rules = Rules(Finish.BEAR_OFF)
    columns = slice(COUNT - 8, COUNT - 4)  # own within 6, theirs within 6, then 7-12
    # Own blots on 9 (their stones on 3 and 1 are 6 and 8 behind) and on 20 (out of
    # reach); their blot on 3, 3 points from own stones on 6.
    near = encode(position_row(make({9: 1, 20: 1, 6: 13}, {3: 1, 1: 14})), rules)[0]
    assert list(near[columns] * 3) == [1, 1, 1, 0]
    # Own blot on 15: 12 from their stone on 3 (which it may hit back), 14 from those on 1.
    far = encode(position_row(make({15: 1, 20: 1, 6: 13}, {3: 1, 1: 14})), rules)[0]
    assert list(far[columns] * 3) == [0, 1, 1, 1]
    # From the bar their stone hits an own blot up to 12 points in.
    barred = encode(position_row(make({12: 1, 6: 14}, {24: 14}, bar=(0, 1))), rules)[0]
    assert list(barred[columns] * 3) == [0, 0, 1, 0]


def test_the_estimates_seen_from_the_other_side_add_up():
    outputs = np.array([[0.7, 0.2, 0.05, 0.1, 0.01]])
    assert np.allclose(swap(swap(outputs)), outputs)
    assert np.allclose(equity(swap(outputs)), -equity(outputs))


def test_the_stored_net_knows_who_is_ahead_in_the_race():
    # No contact left; own stones 45 pips nearer the end under either finish.
    ahead = make({7: 5, 8: 5, 9: 5}, {13: 5, 14: 5, 15: 5})
    for rules in (Rules(Finish.IRI), Rules(Finish.BEAR_OFF)):
        to_roll = equity(stored_net().outputs(encode(position_row(ahead), rules)))[0]
        behind = equity(stored_net().outputs(encode(position_row(ahead.flipped()), rules)))[0]
        assert to_roll > 0 > behind


def test_hard_plays_a_legal_play_under_every_rule():
    for rules in ALL_RULES:
        play = hard_play(Position.start(), (5, 2), rules)
        assert play in legal_plays(Position.start(), (5, 2), rules)


def test_without_lookahead_hard_takes_the_play_the_network_values_most():
    position, rules = Position.start(), Rules()
    outcomes = legal_outcomes(position, (6, 4), rules)
    _, values = play_values(outcomes, 0, rules, stored_net())
    chosen = hard_play(position, (6, 4), rules, lookahead=False).moves
    assert chosen == outcomes[int(np.argmax(values))].moves


def test_the_lookahead_sees_the_opponent_win_with_every_roll():
    # After the play the opponent has 14 stones home and one on their 7: any die wins.
    left = Outcome((), 0, board_of(make({12: 15}, {19: 14, 18: 1})), 0)
    assert reply_value(left, 0, Rules(Finish.IRI, Muji.OFF), stored_net()) == -1.0
    # With one more stone outside their home they win only with the rolls that bring
    # in both: not every roll, so the value lies between a sure loss and a sure win.
    left = Outcome((), 0, board_of(make({12: 15}, {19: 13, 18: 1, 17: 1})), 0)
    assert -1.0 < reply_value(left, 0, Rules(Finish.IRI, Muji.OFF), stored_net()) < 1.0


def test_hard_plays_one_of_the_plays_the_network_likes_best():
    position, rules = Position.start(), Rules(Finish.BEAR_OFF)
    outcomes = legal_outcomes(position, (6, 2), rules)
    _, values = play_values(outcomes, 0, rules, stored_net())
    best = {outcomes[i].moves for i in np.argsort(-values)[:CANDIDATES]}
    assert hard_play(position, (6, 2), rules).moves in best
