"""The position value: where every stone stands, seen from one player's side.

A position is always read from one side, "own": `points[i]` is own point `i + 1`, a
positive count is own stones and a negative count the opponent's, exactly as in the JSON
interchange format of docs/rules.md. `flipped()` gives the same position from the other
side, so one stored value serves both seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STONES = 15
BAR = 25
"""The bar counts as point 25: a stone enters from there."""
OFF = 0
"""Borne off counts as point 0."""

_START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


class PositionError(ValueError):
    """The position is malformed or impossible (not 15 stones a side, bad counts)."""


@dataclass(frozen=True, slots=True)
class Position:
    """Immutable stone counts seen from the `own` side; compare and hash by value."""

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise PositionError("points must list 24 counts")
        if min(self.bar) < 0 or min(self.off) < 0:
            raise PositionError("bar and off counts cannot be negative")
        own = sum(n for n in self.points if n > 0) + self.bar[0] + self.off[0]
        theirs = -sum(n for n in self.points if n < 0) + self.bar[1] + self.off[1]
        if own != STONES or theirs != STONES:
            raise PositionError(
                f"each side needs 15 stones counting bar and borne off, not {own} and {theirs}"
            )

    @classmethod
    def start(cls) -> Position:
        """The starting position, the same from either side.

        >>> Position.start() == Position.start().flipped()
        True
        """
        return cls(_START)

    def flipped(self) -> Position:
        """The same position seen from the other side: my point p is their 25 - p."""
        return Position(
            tuple(-n for n in reversed(self.points)),
            (self.bar[1], self.bar[0]),
            (self.off[1], self.off[0]),
        )

    def count(self, point: int) -> int:
        """Signed count on a point 1-24; own bar stones at 25 and borne-off ones at 0."""
        if point == BAR:
            return self.bar[0]
        if point == OFF:
            return self.off[0]
        return self.points[point - 1]

    def pip_count(self) -> tuple[int, int]:
        """Pips each side still has to travel (own, opponent), bar stones at 25."""
        own = sum(n * (i + 1) for i, n in enumerate(self.points) if n > 0)
        theirs = sum(-n * (24 - i) for i, n in enumerate(self.points) if n < 0)
        return own + BAR * self.bar[0], theirs + BAR * self.bar[1]

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read `{"points": [...24], "bar": [own, opp], "off": [own, opp]}` strictly."""
        if not isinstance(data, dict):
            raise PositionError("position must be an object")
        unknown = set(data) - {"points", "bar", "off"}
        if unknown:
            raise PositionError(f"unknown position field {sorted(unknown)[0]!r}")
        points = _int_list(data.get("points"), 24, "points")
        bar = _int_list(data.get("bar", [0, 0]), 2, "bar")
        off = _int_list(data.get("off", [0, 0]), 2, "off")
        return cls(tuple(points), (bar[0], bar[1]), (off[0], off[1]))

    def to_json(self) -> dict[str, list[int]]:
        return {"points": list(self.points), "bar": list(self.bar), "off": list(self.off)}


def _int_list(value: Any, length: int, name: str) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != length
        or not all(type(n) is int for n in value)
    ):
        raise PositionError(f"{name} must be a list of {length} integers")
    return value
