"""Hand-made positions for engine tests, written as a player would describe them."""

from __future__ import annotations

from engine.position import Position


def make(
    own: dict[int, int],
    theirs: dict[int, int],
    bar: tuple[int, int] = (0, 0),
    off: tuple[int, int] = (0, 0),
) -> Position:
    """A position from the mover's side; `theirs` is keyed by the mover's point numbers."""
    points = [0] * 24
    for point, count in own.items():
        points[point - 1] = count
    for point, count in theirs.items():
        assert points[point - 1] == 0, f"point {point} given to both sides"
        points[point - 1] = -count
    return Position(tuple(points), bar, off)
