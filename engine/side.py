"""The two sides of a table: Black in the first seat, White in the second.

A side is an `IntEnum`, so it is stored and sent as the seat number (0, 1) that the
API and the database already use, while code says `side.other` instead of `1 - seat`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

from engine.position import BAR, Position


class Side(IntEnum):
    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Side:
        """The opponent's side.

        >>> Side.BLACK.other
        <Side.WHITE: 1>
        """
        return Side.WHITE if self is Side.BLACK else Side.BLACK

    @property
    def color(self) -> str:
        return self.name.lower()

    def sees(self, board: Position) -> Position:
        """A position stored from Black's side as this side sees it, numbered from its
        own side; and back again, since seeing is its own inverse.

        >>> board = Position.start().flipped()
        >>> Side.WHITE.sees(Side.WHITE.sees(board)) == board
        True
        """
        return board if self is Side.BLACK else board.flipped()

    def sees_moves(self, mover: Side, moves: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
        """Moves that `mover` made, numbered from the mover's side, as this side numbers
        them. The other side's point p is this side's 25 - p, so its bar (25) becomes 0
        and its off (0) becomes 25: the opponent's moves run upward.

        >>> Side.WHITE.sees_moves(Side.BLACK, [(13, 10), (25, 22), (3, 0)])
        [(12, 15), (0, 3), (22, 25)]
        >>> Side.BLACK.sees_moves(Side.BLACK, [(13, 10)])
        [(13, 10)]
        """
        if mover is self:
            return [(src, dst) for src, dst in moves]
        return [(BAR - src, BAR - dst) for src, dst in moves]
