"""Text forms that round-trip: a play like `13/10 10/9*`, and a one-line position id.

Both read from the mover's side. Plays follow backgammon's notation: one `from/to` per
die in the order played, `bar` and `off` for 25 and 0, `*` after a move that hits, and
`pass` for a turn with no move. Position ids are FEN-like, for test cases, bug reports
and the stored game state:

    b4E1C3eE3c1e4B/0-0/0-0

reads points 1 to 24: a capital letter is that many own stones (A = 1 ... O = 15), a
small one that many of the opponent's, a digit that many empty points; then the bars
and the borne-off counts, own first.
"""

from __future__ import annotations

import re
import string

from engine.plays import Move, hits
from engine.position import BAR, OFF, Position, PositionError

PASS = "pass"
_MOVE = re.compile(r"(bar|[1-9]|1[0-9]|2[0-4])/(off|[1-9]|1[0-9]|2[0-4])(\*?)")
_ID = re.compile(r"([A-Oa-o1-9]+)/(\d{1,2})-(\d{1,2})/(\d{1,2})-(\d{1,2})")


class NotationError(ValueError):
    """The text is not a play or a position id."""


def format_play(position: Position, moves: tuple[Move, ...] | list[Move]) -> str:
    """Write a play made from `position`, marking hits.

    >>> format_play(Position.start(), [(24, 18), (18, 13)])
    '24/18 18/13'
    >>> format_play(Position.start(), [])
    'pass'
    """
    if not moves:
        return PASS
    return " ".join(
        f"{_point(src)}/{_point(dst)}{'*' if hit else ''}"
        for (src, dst), hit in zip(moves, hits(position, moves), strict=True)
    )


def marked_hits(text: str) -> tuple[bool, ...]:
    """Which moves of a play `format_play` wrote hit, in order: those it marked `*`.

    >>> marked_hits("bar/22* 13/9 9/5*")
    (True, False, True)
    >>> marked_hits("pass")
    ()
    """
    return () if text.strip() == PASS else tuple(token.endswith("*") for token in text.split())


def parse_play(text: str) -> tuple[Move, ...]:
    """Read a play; hit marks are accepted and ignored (the position decides hits).

    >>> parse_play("bar/22* 6/off")
    ((25, 22), (6, 0))
    """
    text = text.strip()
    if text == PASS:
        return ()
    moves = []
    for token in text.split():
        match = _MOVE.fullmatch(token)
        if not match:
            raise NotationError(f"not a move: {token!r} (write it like 13/10, bar/22 or 6/off)")
        src, dst = (_number(match[1]), _number(match[2]))
        if dst >= src:
            raise NotationError(f"not a move: {token!r} (stones move to lower points)")
        moves.append((src, dst))
    if not moves:
        raise NotationError("an empty play is written 'pass'")
    return tuple(moves)


def mirror_play(text: str) -> str:
    """A play as the other side numbers the points (25 - n), as the opponent reads it;
    the bar, off and the hit marks stay.

    >>> mirror_play("bar/22* 13/7 6/off")
    'bar/3* 12/18 19/off'
    """
    if text.strip() == PASS:
        return PASS
    moves = []
    for token in text.split():
        match = _MOVE.fullmatch(token)
        if not match:
            raise NotationError(f"not a move: {token!r}")
        moves.append(f"{_mirror(match[1])}/{_mirror(match[2])}{match[3]}")
    return " ".join(moves)


def position_id(position: Position) -> str:
    """The one-line id of a position.

    >>> position_id(Position.start())
    'b4E1C3eE3c1e4B/0-0/0-0'
    """
    parts: list[str] = []
    empty = 0
    for n in position.points:
        if n == 0:
            empty += 1
            continue
        while empty:
            parts.append(str(min(empty, 9)))
            empty -= min(empty, 9)
        parts.append(string.ascii_uppercase[n - 1] if n > 0 else string.ascii_lowercase[-n - 1])
    while empty:
        parts.append(str(min(empty, 9)))
        empty -= min(empty, 9)
    bar, off = position.bar, position.off
    return f"{''.join(parts)}/{bar[0]}-{bar[1]}/{off[0]}-{off[1]}"


def parse_position_id(text: str) -> Position:
    """Read a position id back; an impossible position raises NotationError too."""
    match = _ID.fullmatch(text.strip())
    if not match:
        raise NotationError(f"not a position id: {text!r}")
    points: list[int] = []
    for char in match[1]:
        if char.isdigit():
            points += [0] * int(char)
        elif char.isupper():
            points.append(ord(char) - ord("A") + 1)
        else:
            points.append(-(ord(char) - ord("a") + 1))
    if len(points) != 24:
        raise NotationError(f"a position id lists 24 points, not {len(points)}")
    try:
        return Position(
            tuple(points), (int(match[2]), int(match[3])), (int(match[4]), int(match[5]))
        )
    except PositionError as exc:
        raise NotationError(str(exc)) from None


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _mirror(text: str) -> str:
    return text if text in ("bar", "off") else str(25 - int(text))


def _number(text: str) -> int:
    return BAR if text == "bar" else OFF if text == "off" else int(text)
