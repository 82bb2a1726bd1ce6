"""A whole game as one immutable value: everything a game does, and what each step did.

`GameValue` carries the rules, who started, the position at the start of the turn, whose
turn it is, the dice, the moves sent so far and, once it is over, the result. Each
action (start, play, undo, resign, time_out, abandon) returns a new value; one that finishes
turns also returns them as `FinishedTurn` records, the history a server stores and a
client is told about.

Dice come from a `Roller`, asked for each roll by its label: the turn number ("1",
"2", ...) or "opening-1", "opening-2", ... for the rolls that decide who starts. A
server rolls from a committed seed (`engine.dice.derived_dice`), self-play from any
source; the game itself never takes randomness from a global.

>>> from engine.dice import SeededDice, roll
>>> dice = SeededDice(3)
>>> game, _ = GameValue.start(Rules(), lambda label: roll(dice))
>>> game.to_move, game.turn_number
(<Side.BLACK: 0>, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from engine.notation import format_play
from engine.plays import Move, hits, legal_plays
from engine.position import Position
from engine.rules import Rules, Start, WinKind
from engine.side import Side
from engine.turn import IllegalMoveError, TurnInProgress

Roller = Callable[[str], tuple[int, int]]
"""Two dice for a roll's label: "1", "2", ... for turns, "opening-N" for who starts."""

MAX_OPENING_ROLLS = 100
"""Tied opening rolls repeat; a fair roller ties this often with odds of about 10^-78."""

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


TURNS_BEFORE_A_TIME_WIN = 2
"""Turns each side must have finished before running out of time loses the game."""


class Ending(StrEnum):
    """How a game ended; the values are the API's and the database's."""

    WON = "won"
    RESIGNED = "resigned"
    ABANDONED = "abandoned"
    """No result: the table closed, or neither side could ever move again."""
    TIMED_OUT = "timed_out"
    """The side to move ran out of time: the other won."""
    CANCELLED = "cancelled"
    """No result: time ran out before each side had finished two turns."""


class Refusal(StrEnum):
    """Why the game refuses an action whatever the move; the values are the API's codes."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOTHING_TO_UNDO = "nothing_to_undo"


class GameError(ValueError):
    """An action the game refuses whatever the move: `refusal` says which, for clients."""

    def __init__(self, refusal: Refusal, message: str) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.message = message


@dataclass(frozen=True, slots=True)
class Result:
    ending: Ending
    winner: Side | None
    points: int
    """What the game adds to the winner's score: 1, 2 or 3; 0 when abandoned."""
    win_kind: WinKind | None
    """How it was won; None when abandoned."""


@dataclass(frozen=True, slots=True)
class FinishedTurn:
    """One turn of the history: a roll and its play, or a pass (no moves)."""

    number: int
    side: Side
    dice: tuple[int, int]
    moves: tuple[Move, ...]
    """From the mover's side, in the order played; empty for a pass."""
    notation: str
    hit: bool
    points: int
    """What the play won (0: the game went on)."""
    board_after: Position
    """From Black's side."""

    @property
    def is_pass(self) -> bool:
        return not self.moves


class Step(NamedTuple):
    """What an action gives back: the game after it and the turns it finished, in order."""

    game: GameValue
    turns: tuple[FinishedTurn, ...] = ()


@dataclass(frozen=True)
class GameValue:
    """A game between Black and White; see the module docstring.

    `board` is from Black's side and stands as it was when the current turn began:
    the moves sent so far (`pending`, from the mover's side) are not yet in it.
    """

    rules: Rules
    starter: Side
    board: Position
    turn_number: int
    to_move: Side
    dice: tuple[int, int]
    pending: tuple[Move, ...] = ()
    opening_rolls: tuple[tuple[int, int], ...] = ()
    """Under the `roll` rule: (Black's die, White's die) until they differ."""
    result: Result | None = None

    @classmethod
    def start(cls, rules: Rules, roll: Roller, previous: Side | None = None) -> Step:
        """A new game and its first roll; `previous` is who started the table's last game.

        Under `alternate` Black starts the first game and the start then passes to the
        other side; under `roll` each side rolls one die until they differ, the higher
        starts, and the first turn rolls both dice afresh.
        """
        opening: list[tuple[int, int]] = []
        if rules.start is Start.ROLL:
            while not opening or opening[-1][0] == opening[-1][1]:
                if len(opening) == MAX_OPENING_ROLLS:
                    raise RuntimeError("the opening rolls never differ: the roller is broken")
                opening.append(roll(f"opening-{len(opening) + 1}"))
            starter = Side.BLACK if opening[-1][0] > opening[-1][1] else Side.WHITE
        else:
            starter = Side.BLACK if previous is None else previous.other
        before = cls(rules, starter, Position.start(), 0, starter, (0, 0), (), tuple(opening))
        return before._begin_turn(starter, roll)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @cached_property
    def turn(self) -> TurnInProgress:
        """The turn being played, from the mover's side, with the moves sent so far."""
        if self.result is not None:
            raise GameError(Refusal.GAME_OVER, "this game is over")
        return TurnInProgress(self.to_move.sees(self.board), self.dice, self.rules, self.pending)

    def play(self, side: Side, moves: Iterable[Move], roll: Roller) -> Step:
        """Send one or more die moves of `side`'s turn. A complete play ends the turn
        and rolls for the next (passing any roll with no legal move), or ends the game.

        A refused move raises IllegalMoveError, with `index` the position of the refused
        move among `moves`, and nothing of the call is applied.
        """
        self._check_mover(side, "wait for your opponent's move")
        turn = self.turn
        for index, move in enumerate(moves):
            try:
                turn = turn.play(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(exc.reason, exc.message, index=index) from None
        if not turn.complete:
            return Step(replace(self, pending=turn.played))
        played = self._finished(turn)
        kind = turn.win_kind
        if kind is not None:
            won = Result(Ending.WON, side, kind.points, kind)
            return Step(replace(self, board=played.board_after, pending=(), result=won), (played,))
        after = replace(self, board=played.board_after, pending=())
        step = after._begin_turn(side.other, roll)
        return Step(step.game, (played, *step.turns))

    def undo(self, side: Side) -> GameValue:
        """Take back the moves sent this turn; the dice stay as rolled."""
        self._check_mover(side, "only the player to move can undo")
        if not self.pending:
            raise GameError(Refusal.NOTHING_TO_UNDO, "no move of this turn to take back")
        return replace(self, pending=())

    def resign(self, side: Side) -> GameValue:
        """`side` gives up, on its turn or not: the other side wins the game, worth 1."""
        self._check_playing()
        kind = WinKind.RESIGNED
        return replace(self, result=Result(Ending.RESIGNED, side.other, kind.points, kind))

    def time_out(self) -> GameValue:
        """The side to move ran out of time: the other side wins, worth 1. Before each
        side has finished two turns (turns alternate, passes included) the game is
        cancelled instead, with no result: a game that never got going is nobody's win."""
        self._check_playing()
        if self.turn_number <= 2 * TURNS_BEFORE_A_TIME_WIN:
            return replace(self, result=Result(Ending.CANCELLED, None, 0, None))
        kind = WinKind.TIME
        return replace(self, result=Result(Ending.TIMED_OUT, self.to_move.other, kind.points, kind))

    def abandon(self) -> GameValue:
        """The game ends with no result (its table closed)."""
        self._check_playing()
        return replace(self, result=Result(Ending.ABANDONED, None, 0, None))

    def _check_playing(self) -> None:
        if self.result is not None:
            raise GameError(Refusal.GAME_OVER, "this game is over")

    def _check_mover(self, side: Side, message: str) -> None:
        self._check_playing()
        if side is not self.to_move:
            raise GameError(Refusal.NOT_YOUR_TURN, message)

    def _finished(self, turn: TurnInProgress) -> FinishedTurn:
        return FinishedTurn(
            number=self.turn_number,
            side=self.to_move,
            dice=self.dice,
            moves=turn.played,
            notation=format_play(turn.position, turn.played),
            hit=any(hits(turn.position, turn.played)),
            points=turn.points,
            board_after=self.to_move.sees(turn.current),
        )

    def _begin_turn(self, side: Side, roll: Roller) -> Step:
        """Roll for `side`. A roll with no legal move is a pass and the other side rolls;
        when neither side could move with any roll, the game ends with no result."""
        game, passes = self, list[FinishedTurn]()
        while True:
            number = game.turn_number + 1
            game = replace(game, turn_number=number, to_move=side, dice=roll(str(number)))
            seen = side.sees(game.board)
            if legal_plays(seen, game.dice, game.rules)[0].moves:
                return Step(game, tuple(passes))
            passes.append(
                FinishedTurn(
                    number, side, game.dice, (), format_play(seen, ()), False, 0, game.board
                )
            )
            if _stuck(seen, game.rules):
                none = Result(Ending.ABANDONED, None, 0, None)
                return Step(replace(game, result=none), tuple(passes))
            side = side.other


def _stuck(seen: Position, rules: Rules) -> bool:
    """Neither side can move with any roll: both have a stone on the bar facing a closed home."""
    return all(
        not legal_plays(position, roll, rules)[0].moves
        for position in (seen, seen.flipped())
        for roll in _ROLLS
    )
