"""A slow, obvious generator of legal plays, written straight from docs/rules.md.

It copies the position for every move and compares whole positions, which makes it
10-100x slower than `engine.plays` and easy to check by reading. The property tests hold
the fast generator to it.
"""

from __future__ import annotations

from engine.position import Position
from engine.rules import Finish, Muji, Rules

Move = tuple[int, int]


def apply(position: Position, move: Move) -> Position:
    """Move one own stone; a lone opponent stone on the landing point goes to the bar."""
    src, dst = move
    points = list(position.points)
    bar, off = list(position.bar), list(position.off)
    if src == 25:
        bar[0] -= 1
    else:
        points[src - 1] -= 1
    if dst == 0:
        off[0] += 1
    elif points[dst - 1] == -1:
        points[dst - 1] = 1
        bar[1] += 1
    else:
        points[dst - 1] += 1
    return Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]))


def own(position: Position, point: int) -> int:
    return max(position.points[point - 1], 0)


def is_open(position: Position, point: int) -> bool:
    return position.points[point - 1] >= -1


def moves_for_die(position: Position, die: int, rules: Rules) -> list[Move]:
    if position.bar[0] > 0:
        return [(25, 25 - die)] if is_open(position, 25 - die) else []
    moves = []
    for src in range(1, 25):
        if own(position, src) == 0:
            continue
        dst = src - die
        if dst >= 1:
            if is_open(position, dst):
                moves.append((src, dst))
            continue
        all_home = all(own(position, p) == 0 for p in range(7, 25))
        if rules.finish is not Finish.BEAR_OFF or not all_home:
            continue
        higher = any(own(position, p) > 0 for p in range(src + 1, 7))
        if dst == 0 or not higher:
            moves.append((src, 0))
    return moves


def points_won(position: Position, rules: Rules) -> int:
    home = [own(position, p) for p in range(1, 7)]
    shape = position.bar[1] > 0 and all(n >= 2 for n in home)
    if rules.muji is Muji.ON_THE_SPOT and shape:
        return 1
    if rules.finish is Finish.BEAR_OFF:
        return 1 if position.off[0] == 15 else 0
    if sum(home) < 15:
        return 0
    if rules.muji is Muji.BIGGER and shape:
        if home in ([2, 2, 2, 3, 3, 3], [2, 3, 2, 3, 2, 3]):
            return 3
        return 2
    return 1


def all_plays(
    position: Position, dice: tuple[int, int], rules: Rules
) -> list[tuple[tuple[Move, ...], Position, int]]:
    """Every allowed play with its outcome and points, duplicates of outcome included."""
    full = []
    orders = {(dice[0], dice[1]), (dice[1], dice[0])}
    for first, second in sorted(orders, reverse=True):
        for m1 in moves_for_die(position, first, rules):
            p1 = apply(position, m1)
            won = points_won(p1, rules)
            if won:
                full.append(((m1,), p1, won))
                continue
            for m2 in moves_for_die(p1, second, rules):
                p2 = apply(p1, m2)
                full.append(((m1, m2), p2, points_won(p2, rules)))
    if full:
        return full
    for die in sorted(set(dice), reverse=True):
        singles = moves_for_die(position, die, rules)
        if singles:
            return [((m,), apply(position, m), 0) for m in singles]
    return [((), position, 0)]


def outcomes(position: Position, dice: tuple[int, int], rules: Rules) -> set[tuple[Position, int]]:
    """The distinct outcomes (position after the play, points won) a roll allows."""
    return {(after, won) for _, after, won in all_plays(position, dice, rules)}
