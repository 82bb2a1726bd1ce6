"""A turn in progress: moves sent one die at a time, checked against the allowed plays.

`engine.plays` answers "what may this roll do"; this module answers the questions of a
player part-way through a turn: which single moves are open now, is the turn over, and
when a move is refused, why, in words a player understands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import NamedTuple

from engine.names import point_name
from engine.plays import (
    Move,
    apply_moves,
    board_of,
    move_on_board,
    single_moves,
    win_kind,
    win_points,
)
from engine.position import BAR, OFF, Position
from engine.rules import Finish, Rules, WinKind


class Reason(StrEnum):
    """Why a move is refused; stable codes for clients to switch on."""

    BAD_MOVE = "bad_move"
    TURN_OVER = "turn_over"
    BAR_FIRST = "bar_first"
    NO_STONE = "no_stone"
    NO_DIE = "no_die"
    BLOCKED = "blocked"
    CANNOT_BEAR_OFF = "cannot_bear_off"
    MUST_USE_BOTH = "must_use_both"
    MUST_USE_HIGHER = "must_use_higher"


class IllegalMoveError(ValueError):
    """A move that is well formed but not allowed here; `reason` says which rule, and
    `index`, when several moves were sent at once, which of them was refused."""

    def __init__(self, reason: Reason, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.index = index


class OrderedPlay(NamedTuple):
    """One allowed play with the die each move uses (duplicates of outcome included)."""

    moves: tuple[Move, ...]
    dice: tuple[int, ...]


class MoveEffect(NamedTuple):
    """What sending one legal move does (`TurnInProgress.move_effects`)."""

    ends_turn: bool
    points: int


@lru_cache(maxsize=256)
def allowed_ordered_plays(
    position: Position, dice: tuple[int, int], rules: Rules
) -> tuple[OrderedPlay, ...]:
    """Every allowed play in every order, as rules 5-7 of docs/rules.md define them.

    Unlike `legal_plays` this keeps plays that reach the same outcome by another order
    or another path, because a player may send any of them one move at a time.
    Remembered for the last few turns: a server asks it again for the same turn with
    each move of the turn and again for the answer, and the arguments are immutable.
    """
    b = board_of(position)
    found = []
    orders = [(max(dice), min(dice))] + ([] if dice[0] == dice[1] else [(min(dice), max(dice))])
    for d1, d2 in orders:
        for m1 in single_moves(b, d1, _may_bear_off(b, rules)):
            after = b.copy()
            opponent_bar = position.bar[1] + move_on_board(after, m1)
            if win_points(after, opponent_bar, rules):
                found.append(OrderedPlay((m1,), (d1,)))
                continue
            found += [
                OrderedPlay((m1, m2), (d1, d2))
                for m2 in single_moves(after, d2, _may_bear_off(after, rules))
            ]
    if found:
        return tuple(found)
    for die in sorted(set(dice), reverse=True):
        singles = single_moves(b, die, _may_bear_off(b, rules))
        if singles:
            return tuple(OrderedPlay((m,), (die,)) for m in singles)
    return (OrderedPlay((), ()),)


def _may_bear_off(b: list[int], rules: Rules) -> bool:
    return rules.finish is Finish.BEAR_OFF and b[BAR] + sum(n for n in b[7:25] if n > 0) == 0


@dataclass(frozen=True)
class TurnInProgress:
    """The mover's turn: the position at its start, the dice, and the moves sent so far,
    one die at a time as rule 8 of docs/rules.md allows.

    >>> turn = TurnInProgress(Position.start(), (3, 1), Rules()).play((8, 5))
    >>> turn.complete, turn.remaining_dice
    (False, (1,))
    >>> turn.play((6, 5)).complete
    True
    """

    position: Position
    dice: tuple[int, int]
    rules: Rules
    played: tuple[Move, ...] = field(default=())

    @property
    def allowed(self) -> tuple[OrderedPlay, ...]:
        return allowed_ordered_plays(self.position, self.dice, self.rules)

    @cached_property
    def _matching(self) -> list[OrderedPlay]:
        n = len(self.played)
        return [s for s in self.allowed if s.moves[:n] == self.played]

    @cached_property
    def current(self) -> Position:
        """The position after the moves sent so far."""
        return apply_moves(self.position, self.played)

    @property
    def complete(self) -> bool:
        """True when no die is left or none can be used: the turn ends and cannot be undone."""
        return any(len(s.moves) == len(self.played) for s in self._matching)

    @property
    def remaining_dice(self) -> tuple[int, ...]:
        """Dice still to play (empty once the turn is complete)."""
        if self.complete:
            return ()
        left = sorted(self.dice, reverse=True)
        for used in self._matching[0].dice[: len(self.played)]:
            left.remove(used)
        return tuple(left)

    @property
    def win_kind(self) -> WinKind | None:
        """How the finished play wins for the mover (None: the game goes on)."""
        if not self.played or not self.complete:
            return None
        return win_kind(board_of(self.current), self.current.bar[1], self.rules)

    @property
    def points(self) -> int:
        """Points the finished play wins for the mover (0: the game goes on)."""
        kind = self.win_kind
        return 0 if kind is None else kind.points

    @cached_property
    def _legal(self) -> tuple[Move, ...]:
        """Worked out once per turn state: the server lists them, then plays each to say
        what it does, and every `play` checks against them."""
        n = len(self.played)
        return tuple(dict.fromkeys(s.moves[n] for s in self._matching if len(s.moves) > n))

    def legal_moves(self) -> list[Move]:
        """Single moves that continue some allowed play, in a stable order."""
        return list(self._legal)

    def move_effects(self) -> list[MoveEffect]:
        """What sending each of `legal_moves()` does, in the same order: whether the turn
        ends with it, and the points the finished play wins (0: the game goes on). The
        same as `play(m).complete` and `play(m).points` for each, worked out from the
        plays still open instead of a turn built for each move: a state lists every
        move's effect, and that took 70 of the 170 µs of building it (measured).

        >>> turn = TurnInProgress(Position.start(), (3, 1), Rules())
        >>> {effect.ends_turn for effect in turn.move_effects()}
        {False}
        >>> set(turn.play((8, 5)).move_effects())
        {MoveEffect(ends_turn=True, points=0)}
        """
        n = len(self.played)
        ends: dict[Move, bool] = dict.fromkeys(self._legal, False)
        for s in self._matching:
            if len(s.moves) == n + 1:
                ends[s.moves[n]] = True
        effects = []
        for move, ends_turn in ends.items():
            points = 0
            if ends_turn:
                after = apply_moves(self.current, [move])
                points = win_points(board_of(after), after.bar[1], self.rules)
            effects.append(MoveEffect(ends_turn, points))
        return effects

    def plays_left(self) -> list[OrderedPlay]:
        """Every way to finish the turn from here: the moves still to send, in order, each
        once, with the die each uses. A client can then draft a whole play and send it in
        one go, its next legal moves being those that continue a play it has begun."""
        n = len(self.played)
        plays: dict[tuple[Move, ...], OrderedPlay] = {}
        for s in self._matching:
            plays.setdefault(s.moves[n:], OrderedPlay(s.moves[n:], s.dice[n:]))
        return list(plays.values())

    def play(self, move: Move) -> TurnInProgress:
        """The turn with one more move, or IllegalMoveError saying why not."""
        move = (move[0], move[1])
        if move not in self._legal:
            raise self._why_illegal(move)
        return TurnInProgress(self.position, self.dice, self.rules, (*self.played, move))

    def play_all(self, moves: list[Move] | tuple[Move, ...]) -> TurnInProgress:
        turn = self
        for move in moves:
            turn = turn.play(move)
        return turn

    def _why_illegal(self, move: Move) -> IllegalMoveError:
        src, dst = move
        if self.complete:
            return IllegalMoveError(Reason.TURN_OVER, "this turn's play is already complete")
        if not (1 <= src <= BAR and OFF <= dst < src):
            return IllegalMoveError(
                Reason.BAD_MOVE, "a move goes from a point 1-25 (25 = bar) down to 0-24 (0 = off)"
            )
        b = board_of(self.current)
        if b[BAR] and src != BAR:
            return IllegalMoveError(
                Reason.BAR_FIRST, "you must enter your stone from the bar first"
            )
        if b[src] <= 0:
            return IllegalMoveError(Reason.NO_STONE, f"you have no stone on {point_name(src)}")
        left = self.remaining_dice
        if dst == OFF:
            reason = self._why_not_bear_off(b, src, left)
            if reason:
                return IllegalMoveError(Reason.CANNOT_BEAR_OFF, reason)
        elif src - dst not in left:
            shown = " and ".join(str(d) for d in left)
            return IllegalMoveError(
                Reason.NO_DIE, f"moving {src - dst} needs a die you do not have ({shown} left)"
            )
        elif b[dst] < -1:
            return IllegalMoveError(
                Reason.BLOCKED, f"{point_name(dst)} is blocked by two or more stones"
            )
        if any(len(s.moves) == 2 or s.moves and self._wins(s) for s in self.allowed):
            return IllegalMoveError(
                Reason.MUST_USE_BOTH, "that move would leave a die unplayed when both can be played"
            )
        return IllegalMoveError(
            Reason.MUST_USE_HIGHER, "only one die can be played, so it must be the higher one"
        )

    def _why_not_bear_off(self, b: list[int], src: int, left: tuple[int, ...]) -> str:
        if self.rules.finish is Finish.IRI:
            return "stones are not borne off in iri-gachi: the game ends when all 15 are home"
        if not _may_bear_off(b, self.rules):
            return "all your stones must be home before you bear off"
        higher = any(b[p] > 0 for p in range(src + 1, 7))
        if src not in left and (higher or max(left) < src):
            return f"no die bears off from {point_name(src)}"
        return ""

    def _wins(self, play: OrderedPlay) -> bool:
        after = apply_moves(self.position, play.moves)
        return win_points(board_of(after), after.bar[1], self.rules) > 0
