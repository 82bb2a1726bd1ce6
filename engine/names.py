"""Names shown to players: the old names of the 21 rolls and the points as each side sees them.

The roll names come from the table in docs/rules.md (kanji with a Latin reading); a
screen reader gets the spoken form, "three and four, shisō".
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from engine.position import BAR, OFF


class RollName(NamedTuple):
    kanji: str
    reading: str


_ROLL_NAMES: dict[tuple[int, int], RollName] = {
    (1, 1): RollName("重一", "detchi"),
    (2, 2): RollName("重二", "jūni"),
    (3, 3): RollName("朱三", "shusan"),
    (4, 4): RollName("朱四", "shushi"),
    (5, 5): RollName("重五", "deku"),
    (6, 6): RollName("重六", "jūroku"),
    (1, 2): RollName("一二", "ichini"),
    (1, 3): RollName("三一", "sanmichi"),
    (1, 4): RollName("四一", "shiichi"),
    (1, 5): RollName("五一", "guichi"),
    (1, 6): RollName("一六", "ichiroku"),
    (2, 3): RollName("三二", "sani"),
    (2, 4): RollName("四二", "shini"),
    (2, 5): RollName("五二", "guni"),
    (2, 6): RollName("二六", "niroku"),
    (3, 4): RollName("四三", "shisō"),
    (3, 5): RollName("五三", "gusan"),
    (3, 6): RollName("三六", "saburoku"),
    (4, 5): RollName("五四", "gushi"),
    (4, 6): RollName("四六", "shiroku"),
    (5, 6): RollName("五六", "goroku"),
}

_SPOKEN = ("one", "two", "three", "four", "five", "six")


def roll_name(dice: tuple[int, int]) -> RollName:
    """The traditional name of a roll, in either order of the dice.

    >>> roll_name((4, 3))
    RollName(kanji='四三', reading='shisō')
    """
    a, b = sorted(dice)
    if not 1 <= a <= b <= 6:
        raise ValueError(f"not a roll of two dice: {dice}")
    return _ROLL_NAMES[(a, b)]


def spoken_roll(dice: tuple[int, int]) -> str:
    """The roll for a screen reader.

    >>> spoken_roll((4, 3))
    'three and four, shisō'
    """
    a, b = sorted(dice)
    return f"{_SPOKEN[a - 1]} and {_SPOKEN[b - 1]}, {roll_name(dice).reading}"


PointKind = Literal["In", "Out", "their Out", "their In"]


def point_place(point: int) -> tuple[PointKind, int]:
    """A point 1-24 as its owner names it: the kind of point and its number. The engine's
    messages write it in English (`point_name`); the pages translate the kind
    (`bansugoroku.games.vocabulary`), so the numbering lives here alone.

    >>> [point_place(p) for p in (3, 8, 13, 24)]
    [('In', 3), ('Out', 5), ('their Out', 1), ('their In', 1)]
    """
    if not 1 <= point <= 24:
        raise ValueError(f"no point {point}")
    if point <= 6:
        return "In", point
    if point <= 12:
        return "Out", 13 - point
    if point <= 18:
        return "their Out", point - 12
    return "their In", 25 - point


def point_name(point: int) -> str:
    """A point as its owner sees it: In 1-6 home, Out 6-1, then the opponent's side.

    >>> [point_name(p) for p in (3, 8, 13, 24, 25, 0)]
    ['In 3', 'Out 5', 'their Out 1', 'their In 1', 'the bar', 'off']
    """
    if point == BAR:
        return "the bar"
    if point == OFF:
        return "off"
    kind, number = point_place(point)
    return f"{kind} {number}"
