"""The game value: who starts, turns, passes, the end, resigning, and what each step did."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import SeededDice, roll
from engine.game import Ending, FinishedTurn, GameError, GameValue, Refusal, Result
from engine.notation import position_id
from engine.plays import legal_plays
from engine.position import Position
from engine.rules import ALL_RULES, Rules, Start, WinKind
from engine.side import Side
from engine.turn import IllegalMoveError, Reason
from tests.engine.helpers import make
from tests.wins import WINS, Win

ROLL = Rules(start=Start.ROLL)


class Scripted:
    """A roller that gives the listed rolls in order and remembers the labels asked."""

    def __init__(self, *rolls: tuple[int, int]) -> None:
        self.rolls = list(rolls)
        self.labels: list[str] = []

    def __call__(self, label: str) -> tuple[int, int]:
        self.labels.append(label)
        return self.rolls.pop(0)


def at(board: Position, to_move: Side, dice: tuple[int, int]) -> GameValue:
    """A game in the middle: `board` from Black's side, `to_move` to play `dice`."""
    return GameValue(Rules(), Side.BLACK, board, 7, to_move, dice)


def test_black_starts_the_first_game_and_the_start_then_alternates():
    first = GameValue.start(Rules(), Scripted((3, 1))).game
    assert first.starter is Side.BLACK and first.to_move is Side.BLACK
    second = GameValue.start(Rules(), Scripted((3, 1)), previous=first.starter).game
    assert second.starter is Side.WHITE and second.to_move is Side.WHITE
    assert (
        GameValue.start(Rules(), Scripted((3, 1)), previous=Side.WHITE).game.starter is Side.BLACK
    )


def test_under_roll_ties_are_rolled_again_and_the_higher_die_starts():
    roller = Scripted((4, 4), (2, 2), (2, 5), (6, 1))
    game = GameValue.start(ROLL, roller, previous=Side.WHITE).game
    assert game.opening_rolls == ((4, 4), (2, 2), (2, 5))
    assert game.starter is Side.WHITE and game.to_move is Side.WHITE
    assert game.dice == (6, 1), "the starter rolls both dice afresh"
    assert roller.labels == ["opening-1", "opening-2", "opening-3", "1"]


def test_a_move_is_kept_pending_until_the_play_is_complete():
    roller = Scripted((3, 1), (5, 2))
    game = GameValue.start(Rules(), roller).game
    half, turns = game.play(Side.BLACK, [(8, 5)], roller)
    assert turns == () and half.pending == ((8, 5),) and half.turn_number == 1
    assert half.turn.remaining_dice == (1,)
    done, turns = half.play(Side.BLACK, [(6, 5)], roller)
    assert [t.notation for t in turns] == ["8/5 6/5"]
    assert turns[0].board_after == done.board and done.pending == ()
    assert done.to_move is Side.WHITE and done.turn_number == 2 and done.dice == (5, 2)
    assert roller.labels == ["1", "2"]


def test_a_refused_move_says_which_and_why_and_changes_nothing():
    game = GameValue.start(Rules(), Scripted((3, 1))).game
    with pytest.raises(IllegalMoveError) as refused:
        game.play(Side.BLACK, [(8, 5), (24, 20)], Scripted())
    assert refused.value.index == 1 and refused.value.reason is Reason.NO_DIE
    assert game.pending == ()
    with pytest.raises(GameError) as not_yours:
        game.play(Side.WHITE, [(8, 5)], Scripted())
    assert not_yours.value.refusal is Refusal.NOT_YOUR_TURN


def test_undo_takes_back_the_turns_moves_and_keeps_the_dice():
    game = GameValue.start(Rules(), Scripted((3, 1))).game
    with pytest.raises(GameError, match="no move") as nothing:
        game.undo(Side.BLACK)
    assert nothing.value.refusal is Refusal.NOTHING_TO_UNDO
    half = game.play(Side.BLACK, [(8, 5)], Scripted()).game
    with pytest.raises(GameError):
        half.undo(Side.WHITE)
    assert half.undo(Side.BLACK) == game


def test_a_roll_with_no_legal_move_is_a_pass_and_the_other_side_rolls():
    # White (to move after Black) has a stone on the bar; Black's home points 1-5 are
    # closed, so a roll of 1-5 cannot enter, and Black rolls again.
    black = make({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, {24: 1, 12: 13}, bar=(0, 1))
    game = at(black, Side.BLACK, (6, 6))
    after, turns = game.play(Side.BLACK, [(13, 7), (13, 7)], Scripted((5, 4), (2, 1)))
    played, passed = turns
    assert played.side is Side.BLACK and passed.side is Side.WHITE
    assert passed.is_pass and passed.notation == "pass" and passed.dice == (5, 4)
    assert passed.board_after == played.board_after
    assert after.to_move is Side.BLACK and after.turn_number == 9 and after.dice == (2, 1)


def test_when_neither_side_can_ever_move_the_game_ends_with_no_result():
    closed = {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2}
    board = make(closed, {25 - p: n for p, n in closed.items()}, bar=(1, 1))
    game = GameValue(Rules(), Side.BLACK, board, 0, Side.BLACK, (0, 0))
    after, turns = game._begin_turn(Side.BLACK, Scripted((3, 2)))
    assert after.result == Result(Ending.ABANDONED, None, 0, None)
    assert [t.is_pass for t in turns] == [True]


def test_a_winning_play_ends_the_game_with_its_value():
    home = make({1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 1, 7: 2}, {20: 15})
    game = at(home, Side.BLACK, (2, 1))
    over, turns = game.play(Side.BLACK, [(7, 5), (7, 6)], Scripted())
    assert over.result == Result(Ending.WON, Side.BLACK, 1, WinKind.IRI)
    assert turns[-1].points == 1 and over.is_over
    with pytest.raises(GameError) as done:
        over.play(Side.WHITE, [(24, 23)], Scripted())
    assert done.value.refusal is Refusal.GAME_OVER


def test_either_side_may_resign_at_any_moment_and_the_other_wins_one_point():
    game = GameValue.start(Rules(), Scripted((3, 1))).game
    resigned = WinKind.RESIGNED
    assert game.resign(Side.WHITE).result == Result(Ending.RESIGNED, Side.BLACK, 1, resigned)
    assert game.resign(Side.BLACK).result == Result(Ending.RESIGNED, Side.WHITE, 1, resigned)
    assert game.abandon().result == Result(Ending.ABANDONED, None, 0, None)
    with pytest.raises(GameError):
        game.abandon().resign(Side.BLACK)


def test_time_running_out_loses_once_each_side_has_finished_two_turns_and_cancels_before():
    """Turns alternate from the starter, passes included: during turn 5 each side has
    finished two."""
    game = GameValue.start(Rules(), Scripted((3, 1))).game
    for number, mover in ((1, Side.BLACK), (4, Side.WHITE)):
        early = replace(game, turn_number=number, to_move=mover)
        assert early.time_out().result == Result(Ending.CANCELLED, None, 0, None)
    for number, mover in ((5, Side.BLACK), (6, Side.WHITE), (40, Side.WHITE)):
        late = replace(game, turn_number=number, to_move=mover).time_out()
        assert late.result == Result(Ending.TIMED_OUT, mover.other, 1, WinKind.TIME)
    with pytest.raises(GameError):
        game.resign(Side.BLACK).time_out()


@pytest.mark.parametrize("win", WINS, ids=[w.kind.value for w in WINS])
def test_the_result_says_which_kind_of_win_it_was(win: Win):
    """The engine, which decides the points, names the kind: the pages only show it."""
    game = GameValue(win.rules, Side.WHITE, win.before.flipped(), 7, Side.WHITE, win.dice)
    if win.moves:
        over = game.play(Side.WHITE, win.moves, Scripted()).game
    else:
        over = game.resign(Side.BLACK)
    assert over.result == Result(
        Ending.RESIGNED if win.moves == () else Ending.WON, Side.WHITE, win.kind.points, win.kind
    )
    assert [win.kind.points for win in WINS] == [1, 2, 3, 1, 1, 1]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL_RULES), st.integers(0, 10_000))
def test_random_games_end_and_their_history_chains(rules: Rules, seed: int):
    dice, choose = SeededDice(seed), random.Random(seed)

    def roller(label: str) -> tuple[int, int]:
        return roll(dice)

    game, turns = GameValue.start(rules, roller, Side(seed % 2))
    history: list[FinishedTurn] = list(turns)
    while not game.is_over:
        assert game.turn_number == len(history) + 1
        play = choose.choice(legal_plays(game.turn.position, game.dice, rules))
        game, turns = game.play(game.to_move, play.moves, roller)
        history += turns
    assert [t.number for t in history] == list(range(1, len(history) + 1))
    assert all(b.side is a.side.other for a, b in zip(history, history[1:], strict=False))
    assert history[0].side is game.starter and history[-1].board_after == game.board
    assert game.result is not None and game.result.winner is history[-1].side
    assert game.result.points == history[-1].points > 0
    assert position_id(game.board)
