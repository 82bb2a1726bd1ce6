"""Baseline players for the match command: simple rules a level must beat, not levels.

- `pipcount_play` moves its furthest-behind stones first.
- `pipsafe_play` is a one-move player that races and looks after itself: it takes the
  winning play worth most when it can, else the play leaving the fewest pips still to go
  (to home, point 6, under `iri`, where nothing is borne off; off the board under
  `bear_off`), then the most hits, then the fewest own blots exposed to an opponent
  stone within 12 points behind them (a stone on the opponent's bar enters at own
  point 0's side, so it is behind every point). It is the yardstick the product is
  measured against outside the project, so it is built as strong as that description.
"""

from __future__ import annotations

from engine.plays import Outcome, Play, legal_outcomes, legal_plays
from engine.position import BAR, Position
from engine.rules import Finish, Rules


def pipcount_play(position: Position, dice: tuple[int, int], rules: Rules) -> Play:
    """Move the furthest-behind stones first (a winning play first, the one worth most)."""
    plays = legal_plays(position, dice, rules)
    return max(plays, key=lambda p: (p.points, sorted((f for f, _ in p.moves), reverse=True)))


def pipsafe_play(position: Position, dice: tuple[int, int], rules: Rules) -> Play:
    """The winning play worth most, else the fewest pips to go, most hits, fewest
    exposed blots; the first such play in `legal_plays` order."""
    outcomes = legal_outcomes(position, dice, rules)
    iri = rules.finish is Finish.IRI
    before = position.bar[1]

    def key(o: Outcome) -> tuple[int, int, int, int]:
        return (o.points, -pips_to_go(o.board, iri), o.opponent_bar - before, -exposed(o))

    best = max(outcomes, key=key)
    return Play(best.moves, best.points)


def pips_to_go(b: list[int], iri: bool) -> int:
    """The mover's pips still to travel on board list `b`: to point 6 under `iri`, where
    every stone must end in home, else off the board; a bar stone stands at 25."""
    if iri:
        return sum(n * (p - 6) for p, n in enumerate(b[7:], start=7) if n > 0)
    return sum(p * n for p, n in enumerate(b[1:], start=1) if n > 0)


def exposed(o: Outcome) -> int:
    """Own blots with an opponent stone at most 12 points behind them (on the bar: at
    most 12 points in, where it enters)."""
    b = o.board
    behind = 0 if o.opponent_bar else -99  # the latest opponent stone seen, own numbering
    count = 0
    for p in range(1, BAR):
        if b[p] == 1 and p - behind <= 12:
            count += 1
        elif b[p] < 0:
            behind = p
    return count
