"""One hand-made position for every rule in docs/rules.md, with the plays it must allow."""

from __future__ import annotations

import pytest

from engine.plays import legal_plays
from engine.position import Position
from engine.rules import Finish, Muji, Rules
from engine.turn import IllegalMoveError, Reason, TurnInProgress
from tests.engine.helpers import make

IRI = Rules()
BEAR_OFF = Rules(finish=Finish.BEAR_OFF)


def moves_of(position: Position, dice: tuple[int, int], rules: Rules = IRI) -> set[tuple]:
    return {play.moves for play in legal_plays(position, dice, rules)}


def points_by_moves(position: Position, dice: tuple[int, int], rules: Rules = IRI) -> dict:
    """Points of each play, keyed by its moves sorted, so the order they came in is moot."""
    return {tuple(sorted(p.moves)): p.points for p in legal_plays(position, dice, rules)}


def refusal(turn: TurnInProgress, move: tuple[int, int]) -> Reason:
    with pytest.raises(IllegalMoveError) as caught:
        turn.play(move)
    return caught.value.reason


def test_doubles_move_twice_not_four_times():
    plays = legal_plays(Position.start(), (6, 6), IRI)
    assert {len(play.moves) for play in plays} == {2}
    assert ((24, 18), (24, 18)) in {play.moves for play in plays}


def test_the_start_with_one_one_has_nine_outcomes():
    # 24, 8 and 6 can move; 13/12 is blocked by five stones.
    assert moves_of(Position.start(), (1, 1)) == {
        ((24, 23), (24, 23)),
        ((24, 23), (8, 7)),
        ((24, 23), (6, 5)),
        ((24, 23), (23, 22)),
        ((8, 7), (8, 7)),
        ((8, 7), (6, 5)),
        ((8, 7), (7, 6)),
        ((6, 5), (6, 5)),
        ((6, 5), (5, 4)),
    }


def test_both_dice_must_be_used_when_one_order_allows_it():
    # Entering with the 6 leaves no 2 to play (17 and 8 are blocked); entering with the 2
    # lets 10/4 use the 6. So entering with the 6 is not a legal play.
    position = make({1: 13, 10: 1}, {17: 2, 8: 2, 24: 11}, bar=(1, 0))
    assert moves_of(position, (6, 2)) == {((25, 23), (10, 4))}
    turn = TurnInProgress(position, (6, 2), IRI)
    assert refusal(turn, (25, 19)) is Reason.MUST_USE_BOTH


def test_when_only_one_die_can_be_used_it_must_be_the_higher():
    # 13/8 or 13/10 alone, but 13/5 is blocked whichever die goes first.
    position = make({1: 14, 13: 1}, {5: 2, 24: 13})
    assert moves_of(position, (5, 3)) == {((13, 8),)}
    assert refusal(TurnInProgress(position, (5, 3), IRI), (13, 10)) is Reason.MUST_USE_HIGHER


def test_the_lower_die_is_played_when_the_higher_cannot_be():
    position = make({1: 14, 13: 1}, {8: 2, 5: 2, 24: 11})
    assert moves_of(position, (5, 3)) == {((13, 10),)}


def test_a_stone_on_the_bar_enters_before_anything_else_moves():
    position = make({1: 13, 10: 1}, {24: 15}, bar=(1, 0))
    plays = moves_of(position, (3, 1))
    assert plays and all(play[0][0] == 25 or play[1][0] == 25 for play in plays)
    assert all(play[0][0] == 25 for play in plays)
    assert refusal(TurnInProgress(position, (3, 1), IRI), (10, 7)) is Reason.BAR_FIRST


def test_a_die_that_cannot_enter_is_lost():
    position = make({1: 13}, {24: 15}, bar=(2, 0))
    assert moves_of(position, (6, 1)) == {((25, 19),)}
    assert TurnInProgress(position, (6, 1), IRI).play((25, 19)).complete


def test_no_entry_at_all_is_a_pass():
    position = make({1: 14}, {19: 2, 22: 2, 24: 11}, bar=(1, 0))
    plays = legal_plays(position, (6, 3), IRI)
    assert [play.moves for play in plays] == [()]
    assert TurnInProgress(position, (6, 3), IRI).complete


def test_a_win_ends_the_play_at_once_and_is_never_forced():
    position = make({1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3, 8: 1}, {24: 15})
    plays = points_by_moves(position, (2, 1))
    assert plays[((8, 6),)] == 1  # wins with the 2; the 1 is not played
    assert plays[((7, 5), (8, 7))] == 1  # wins with the second die
    assert plays[((6, 4), (8, 7))] == 0  # both dice, no win: just as legal
    assert all(len(moves) == 1 for moves in moves_of(position, (2, 1)) if moves[0] == (8, 6))
    turn = TurnInProgress(position, (2, 1), IRI).play((8, 6))
    assert turn.complete and turn.points == 1


@pytest.mark.parametrize(
    ("home_before", "points"),
    [
        ((2, 2, 2, 2, 3, 3), 2),  # mushi-gachi: closed home, a stone on their bar
        ((2, 2, 2, 3, 3, 2), 3),  # ends 2-2-2-3-3-3: mujō-gachi
        ((2, 3, 2, 3, 2, 2), 3),  # ends 2-3-2-3-2-3: mujō-gachi
        ((3, 3, 3, 2, 2, 1), 2),  # ends 3-3-3-2-2-2, reversed: only mushi
        ((3, 2, 3, 2, 3, 1), 2),  # ends 3-2-3-2-3-2, reversed: only mushi
    ],
)
def test_bigger_wins_count_by_the_shape_of_the_home(home_before, points):
    own = {p: n for p, n in enumerate(home_before, start=1)} | {7: 1}
    position = make(own, {24: 14}, bar=(0, 1))
    won = {play.moves: play.points for play in legal_plays(position, (1, 1), IRI)}
    assert won[((7, 6),)] == points
    off = Rules(muji=Muji.OFF)
    assert {p.moves: p.points for p in legal_plays(position, (1, 1), off)}[((7, 6),)] == 1


def test_a_win_without_a_stone_on_their_bar_counts_one():
    position = make({1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3, 7: 1}, {24: 15})
    won = {play.moves: play.points for play in legal_plays(position, (1, 1), IRI)}
    assert won[((7, 6),)] == 1


def test_on_the_spot_wins_when_the_shape_is_made_with_stones_outside():
    position = make({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 7: 1, 13: 3}, {24: 14}, bar=(0, 1))
    spot = Rules(muji=Muji.ON_THE_SPOT)
    won = {play.moves: play.points for play in legal_plays(position, (6, 1), spot)}
    assert won[((7, 6),)] == 1
    bigger = {play.moves: play.points for play in legal_plays(position, (6, 1), IRI)}
    assert ((7, 6),) not in bigger  # no win under "bigger": the 6 must be played too


def test_on_the_spot_a_hit_can_make_the_shape():
    home = {p: 2 for p in range(1, 7)}
    position = make(home | {10: 2, 13: 1}, {9: 1, 24: 14})
    spot = Rules(muji=Muji.ON_THE_SPOT)
    won = {play.moves: play.points for play in legal_plays(position, (1, 5), spot)}
    assert won[((10, 9),)] == 1
    assert all(len(moves) == 2 for moves in moves_of(position, (1, 5), IRI))


def test_bear_off_exactly_by_the_die():
    position = make({6: 2, 3: 3}, {24: 15}, off=(10, 0))
    plays = moves_of(position, (6, 3), BEAR_OFF)
    assert ((6, 0), (6, 3)) in plays
    assert ((6, 0), (3, 0)) in plays


def test_a_higher_die_bears_off_from_the_highest_point_only():
    position = make({5: 1, 3: 1}, {24: 15}, off=(13, 0))
    turn = TurnInProgress(position, (6, 4), BEAR_OFF)
    assert refusal(turn, (3, 0)) is Reason.CANNOT_BEAR_OFF  # 5 is higher and the 4 is not exact
    won = {play.moves: play.points for play in legal_plays(position, (6, 4), BEAR_OFF)}
    assert won[((5, 0), (3, 0))] == 1


def test_moves_inside_home_stay_allowed_while_bearing_off():
    position = make({5: 1, 3: 1}, {24: 15}, off=(13, 0))
    assert ((5, 3), (3, 2)) in moves_of(position, (2, 1), BEAR_OFF)


def test_a_hit_stone_must_come_home_before_bearing_off_resumes():
    position = make({3: 2}, {24: 15}, bar=(1, 0), off=(12, 0))
    plays = moves_of(position, (6, 5), BEAR_OFF)
    assert plays and all(move[1] != 0 for play in plays for move in play)


def test_iri_never_bears_off():
    position = make({5: 8, 3: 7}, {24: 15})
    assert all(move[1] != 0 for play in moves_of(position, (6, 6)) for move in play)
    assert refusal(TurnInProgress(position, (5, 2), IRI), (5, 0)) is Reason.CANNOT_BEAR_OFF


def test_a_hit_sends_the_lone_stone_to_the_bar():
    from engine.plays import apply_moves

    position = make({13: 15}, {10: 1, 24: 14})
    after = apply_moves(position, [(13, 10)])
    assert after.count(10) == 1 and after.bar == (0, 1)


def test_refusals_say_why():
    turn = TurnInProgress(Position.start(), (3, 1), IRI)
    assert refusal(turn, (13, 12)) is Reason.BLOCKED
    assert refusal(turn, (20, 17)) is Reason.NO_STONE
    assert refusal(turn, (8, 4)) is Reason.NO_DIE
    assert refusal(turn, (3, 5)) is Reason.BAD_MOVE
    assert refusal(turn.play((8, 5)).play((6, 5)), (24, 23)) is Reason.TURN_OVER
