"""Legal plays: every distinct outcome a roll allows, under rules 5-7 of docs/rules.md.

This is the hot path of the whole product (the CPU opponent and every submitted move
call it), so it works on one mutable list per call and undoes each move instead of
copying positions, and it skips plays it can prove to be duplicates before building
them. `tests/engine/reference.py` holds a slow, obvious generator that the property
tests compare this one against.

Board list `b`, from the mover's side: `b[0]` borne off, `b[1..24]` the points (own
stones positive, the opponent's negative), `b[25]` the mover's bar.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.position import BAR, OFF, Position
from engine.rules import Finish, Muji, Rules, WinKind

Move = tuple[int, int]
"""One die's move `(from, to)`: from 1-25 (25 = bar), to 0-24 (0 = borne off)."""

_TRIPLE_HOMES = ((2, 2, 2, 3, 3, 3), (2, 3, 2, 3, 2, 3))
"""Home counts In 1..In 6 that make a mushi win a mujō win, worth 3."""


class Play(NamedTuple):
    """A complete play: its die moves in order and the points it wins (0: no win)."""

    moves: tuple[Move, ...]
    points: int = 0


class Outcome(NamedTuple):
    """A legal play with what it leaves: the mover's board list and the opponent's bar."""

    moves: tuple[Move, ...]
    points: int
    board: list[int]
    opponent_bar: int


def board_of(position: Position) -> list[int]:
    """The mutable board list of a position (see the module docstring)."""
    return [position.off[0], *position.points, position.bar[0]]


def single_moves(
    b: list[int], die: int, bear_off: bool, starts: Iterable[int] = range(24, 0, -1)
) -> list[Move]:
    """Every legal move of one die on board `b`, ignoring what the other die must do.

    `bear_off` says whether bearing off is allowed now (the rules allow it and no own
    stone is outside home); `starts` may narrow the points looked at to those that can
    hold own stones, which is what makes the generator fast.
    """
    if b[BAR]:
        entry = BAR - die
        return [(BAR, entry)] if b[entry] >= -1 else []
    moves = [(f, f - die) for f in starts if f > die and b[f] > 0 and b[f - die] >= -1]
    if bear_off:
        if b[die] > 0:
            moves.append((die, OFF))
        else:
            highest = next((p for p in range(6, 0, -1) if b[p] > 0), 0)
            if 0 < highest < die:
                moves.append((highest, OFF))
    return moves


def win_kind(b: list[int], opponent_bar: int, rules: Rules) -> WinKind | None:
    """How the mover wins in board `b` just after a move (None: no win), by rules 9-13
    of docs/rules.md. The one place that tells the kinds of win apart: the points, the
    game's result and every page's name of the win come from it."""
    home = b[1:7]
    shape = opponent_bar > 0 and min(home) >= 2
    if shape and rules.muji is _ON_THE_SPOT:
        return _MUJI
    if rules.finish is _BEAR_OFF_FINISH:
        return _BEAR_OFF if b[OFF] == 15 else None
    if sum(n for n in home if n > 0) != 15:
        return None
    if shape and rules.muji is _BIGGER:
        return _MUJO if tuple(home) in _TRIPLE_HOMES else _MUSHI
    return _IRI


# The enum members as module constants, and each kind's points in a dict: this runs for
# every move near the end of a game, and a member looked up on its class or a property
# called on it costs a third more than the rules themselves.
_ON_THE_SPOT, _BIGGER, _BEAR_OFF_FINISH = Muji.ON_THE_SPOT, Muji.BIGGER, Finish.BEAR_OFF
_IRI, _BEAR_OFF, _MUJI = WinKind.IRI, WinKind.BEAR_OFF, WinKind.MUJI
_MUSHI, _MUJO = WinKind.MUSHI, WinKind.MUJO
_POINTS: dict[WinKind | None, int] = {None: 0, **{kind: kind.points for kind in WinKind}}


def win_points(b: list[int], opponent_bar: int, rules: Rules) -> int:
    """Points won by the mover in board `b` just after a move (0 when no win)."""
    return _POINTS[win_kind(b, opponent_bar, rules)]


def legal_plays(position: Position, dice: tuple[int, int], rules: Rules) -> list[Play]:
    """Every legal complete play for the side to move, one per distinct outcome.

    The list is never empty: when nothing can move it holds the empty play (a pass).
    Order is stable: plays starting with the higher die first, then from the furthest
    stone.

    >>> plays = legal_plays(Position.start(), (1, 1), Rules())
    >>> len(plays), plays[0].moves
    (9, ((24, 23), (24, 23)))
    """
    b = board_of(position)
    return list(map(Play._make, _generate(b, position.bar[1], dice, rules)))


def legal_outcomes(position: Position, dice: tuple[int, int], rules: Rules) -> list[Outcome]:
    """`legal_plays` with the board each play leaves, for callers that show it.

    Each board (see the module docstring) is the starting board with the play's moves
    made on a copy. Nothing is checked again and no `Position` is built: a legal play
    from a valid position cannot break one, and building and validating a `Position`
    per play (`apply_moves`) cost the `legal` command more than generating the plays.
    The generator does not hand out its scratch board instead: that would cost the
    same copy and move inside the loop that every other caller runs too.

    >>> outcome = legal_outcomes(Position.start(), (1, 1), Rules())[-1]
    >>> outcome.moves, outcome.board[4:7]
    (((6, 5), (5, 4)), [1, 0, 4])
    """
    b = board_of(position)
    outcomes = []
    for moves, points in _generate(b, position.bar[1], dice, rules):
        after, ob = b.copy(), position.bar[1]
        for src, dst in moves:
            after[src] -= 1
            if after[dst] == -1:
                after[dst] = 1
                ob += 1
            else:
                after[dst] += 1
        outcomes.append(Outcome(moves, points, after, ob))
    return outcomes


def _generate(
    b: list[int], ob: int, dice: tuple[int, int], rules: Rules
) -> list[tuple[tuple[Move, ...], int]]:
    """The distinct plays as (moves, points); `b` is used as scratch and left unchanged."""
    hi, lo = max(dice), min(dice)
    doubles = hi == lo
    bear = rules.finish is Finish.BEAR_OFF
    outside = b[BAR] + sum(n for n in b[7:25] if n > 0)
    closed = sum(1 for n in b[1:7] if n >= 2)
    # Near the end a move can win, which stops the play and makes plays that the
    # shortcuts below would drop distinct; so those shortcuts only apply away from it.
    endgame = (b[OFF] >= 13 if bear else outside <= 2) or (
        rules.muji is Muji.ON_THE_SPOT and closed >= 4
    )
    # Away from the bar, the end and bearing off, two moves on different stones are
    # legal in either order, so the second dice order adds only chains of one stone,
    # and doubles need only one order of each pair.
    simple = not (b[BAR] or endgame or (bear and outside <= 1))
    occupied = [p for p in range(24, 0, -1) if b[p] > 0]
    found: dict[tuple[int, ...], tuple[tuple[Move, ...], int]] = {}
    for d1, d2 in ((hi, lo),) if simple or doubles else ((hi, lo), (lo, hi)):
        for m1 in single_moves(b, d1, bear and outside == 0, occupied):
            f1, t1 = m1
            b[f1] -= 1
            was = b[t1]
            hit1 = was == -1
            b[t1] = 1 if hit1 else was + 1
            ob1 = ob + hit1
            out1 = outside - (f1 > 6 and t1 <= 6)
            if endgame and (points := win_points(b, ob1, rules)):
                found.setdefault((f1, t1, -1), ((m1,), points))
            else:
                starts = occupied if was > 0 else [*occupied, t1]
                for m2 in single_moves(b, d2, bear and out1 == 0, starts):
                    f2, t2 = m2
                    if f2 == t1:
                        key: tuple[int, ...] = (f1, t2, t1 if hit1 else -1)
                    elif t2 == f1:
                        key = (f2, t1, -1)
                    elif simple and doubles and f2 > f1:
                        continue
                    elif f1 > f2 or (f1 == f2 and t1 >= t2):
                        key = (f1, t1, f2, t2)
                    else:
                        key = (f2, t2, f1, t1)
                    if key not in found:
                        points = _points_after(b, ob1, m2, rules) if endgame else 0
                        found[key] = ((m1, m2), points)
            b[t1] = was
            b[f1] += 1
    if simple and not doubles:
        # The second order adds only one stone moving lo then hi; no need to move it.
        for f1 in occupied:
            t1, t2 = f1 - lo, f1 - lo - hi
            if t2 > 0 and b[t1] >= -1 and b[t2] >= -1:
                found.setdefault((f1, t2, t1 if b[t1] == -1 else -1), (((f1, t1), (t1, t2)), 0))
    if found:
        return list(found.values())
    for die in (hi, lo):
        singles = single_moves(b, die, bear and outside == 0)
        if singles:
            return [((m,), 0) for m in singles]
    return [((), 0)]


def _points_after(b: list[int], ob: int, move: Move, rules: Rules) -> int:
    """Points won by one more move on `b`, which is left as it was."""
    after = b.copy()
    return win_points(after, ob + move_on_board(after, move), rules)


def position_after(outcome: Outcome, opponent_off: int) -> Position:
    """The position a play leaves, seen from the opponent's side (they roll next);
    `opponent_off` is their borne-off count, which no play of the mover changes."""
    b = outcome.board
    return Position(
        tuple(-n for n in reversed(b[1:BAR])),
        (outcome.opponent_bar, b[BAR]),
        (opponent_off, b[OFF]),
    )


def move_on_board(b: list[int], move: Move) -> bool:
    """Make one move on a board list; True when it hits a lone opponent stone."""
    src, dst = move
    b[src] -= 1
    hit = b[dst] == -1
    b[dst] = 1 if hit else b[dst] + 1
    return hit


def apply_moves(position: Position, moves: Iterable[Move]) -> Position:
    """The position after `moves`, seen from the same side; legality is not checked here.

    >>> apply_moves(Position.start(), [(8, 5), (6, 5)]).points[4]
    2
    """
    b = board_of(position)
    ob = position.bar[1] + sum(move_on_board(b, move) for move in moves)
    return Position(tuple(b[1:25]), (b[BAR], ob), (b[OFF], position.off[1]))


def hits(position: Position, moves: Iterable[Move]) -> list[bool]:
    """For each move in order, whether it hits a lone opponent stone."""
    b = board_of(position)
    return [move_on_board(b, move) for move in moves]
