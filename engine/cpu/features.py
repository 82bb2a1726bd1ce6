"""What the Hard level's network sees of a position: numbers computed for many at once.

A position is given as a row of 28 integers from the side about to roll ("own"):
`row[0:24]` own points 1-24 (own stones positive, the opponent's negative), then own
bar, opponent bar, own borne off, opponent borne off. Rows are stacked into an array
so that all the positions a roll allows are encoded and evaluated in a few numpy calls.

The features, scaled to about 0-1:

- the raw board as TD-Gammon saw it: for each side and point, whether it holds at
  least 1, 2 and 3 stones and how many past 3 (halved); each side's bar and borne off;
- the race: each side's pips still to go under the table's finish (to home under
  `iri`, where nothing is borne off, else off the board), and stones still outside home;
- each side's closed home points and longest prime;
- each side's blots within 6 and within 7-12 points of an enemy stone behind them (the
  bar behind every point), the shots the other side may get;
- whether any contact is left;
- the house rules: the finish and the muji rule (the start rule changes no position).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.plays import Outcome
from engine.position import BAR, OFF, Position
from engine.rules import Finish, Muji, Rules

Rows = npt.NDArray[np.int64]
Features = npt.NDArray[np.float64]

RAW = 4 * 24 * 2 + 4
COUNT = RAW + 2 + 2 + 2 + 2 + 4 + 1 + 3
"""Features per position."""

_POINTS = np.arange(1, 25)
_BITS = np.int64(1) << np.arange(24, dtype=np.int64)


def position_row(position: Position) -> Rows:
    """The row of a position seen from its side to roll, as a (1, 28) array."""
    return np.array([[*position.points, *position.bar, *position.off]], dtype=np.int64)


def rows_after(outcomes: Sequence[Outcome], opponent_off: int) -> Rows:
    """The rows the opponent rolls from after each play: the boards flipped to their side."""
    b = np.array([o.board for o in outcomes], dtype=np.int64)
    rows = np.empty((len(outcomes), 28), dtype=np.int64)
    rows[:, :24] = -b[:, 24:0:-1]
    rows[:, 24] = [o.opponent_bar for o in outcomes]
    rows[:, 25] = b[:, BAR]
    rows[:, 26] = opponent_off
    rows[:, 27] = b[:, OFF]
    return rows


def encode(rows: Rows, rules: Rules) -> Features:
    """The (n, COUNT) features of `rows` under `rules`."""
    n = len(rows)
    own = np.maximum(rows[:, :24], 0)
    # The opponent's stones on the points numbered from their side, so both sides'
    # features read alike.
    opp = np.maximum(-rows[:, 23::-1], 0)
    own_bar, opp_bar = rows[:, 24], rows[:, 25]
    out = np.empty((n, COUNT))
    col = 0
    for stones in (own, opp):
        out[:, col : col + 24] = stones >= 1
        out[:, col + 24 : col + 48] = stones >= 2
        out[:, col + 48 : col + 72] = stones >= 3
        out[:, col + 72 : col + 96] = np.maximum(stones - 3, 0) / 2.0
        col += 96
    out[:, col] = own_bar / 2.0
    out[:, col + 1] = opp_bar / 2.0
    out[:, col + 2] = rows[:, 26] / 15.0
    out[:, col + 3] = rows[:, 27] / 15.0
    col += 4

    iri = rules.finish is Finish.IRI
    for stones, bar in ((own, own_bar), (opp, opp_bar)):
        if iri:
            pips = (stones * np.maximum(_POINTS - 6, 0)).sum(axis=1) + 19 * bar
        else:
            pips = (stones * _POINTS).sum(axis=1) + 25 * bar
        out[:, col] = pips / 100.0
        out[:, col + 2] = (stones[:, 6:].sum(axis=1) + bar) / 15.0
        out[:, col + 4] = (stones[:, :6] >= 2).sum(axis=1) / 6.0
        out[:, col + 6] = _longest_run(stones >= 2) / 6.0
        col += 1
    col += 6

    # Blots and the enemy stones behind them, both in own numbering: an opponent stone
    # at own point q hits an own blot at p > q; an own stone at q hits theirs at p < q.
    own_blot = rows[:, :24] == 1
    opp_blot = rows[:, :24] == -1
    opp_at = np.zeros((n, 26), dtype=bool)  # own points 0-25; their bar is own point 0
    opp_at[:, 1:25] = rows[:, :24] < 0
    opp_at[:, 0] = opp_bar > 0
    own_at = np.zeros((n, 26), dtype=bool)
    own_at[:, 1:25] = rows[:, :24] > 0
    own_at[:, 25] = own_bar > 0
    for near, far in ((0, 6), (6, 12)):
        own_hit = np.zeros((n, 24), dtype=bool)
        opp_hit = np.zeros((n, 24), dtype=bool)
        for d in range(near + 1, far + 1):
            own_hit[:, d - 1 :] |= opp_at[:, : 25 - d]  # own point p=i+1, enemy at p-d
            opp_hit[:, : 25 - d] |= own_at[:, 1 + d : 26]  # their blot at p, own at p+d
        out[:, col] = (own_blot & own_hit).sum(axis=1) / 3.0
        out[:, col + 1] = (opp_blot & opp_hit).sum(axis=1) / 3.0
        col += 2

    # Contact: an own stone (or the bar) still behind an opponent stone.
    own_back = np.where(own_bar > 0, 25, np.where(own_at[:, 1:25], _POINTS, 0).max(axis=1))
    opp_back = np.where(opp_bar > 0, 0, np.where(opp_at[:, 1:25], _POINTS, 25).min(axis=1))
    out[:, col] = own_back > opp_back
    col += 1
    out[:, col] = iri
    out[:, col + 1] = rules.muji is Muji.BIGGER
    out[:, col + 2] = rules.muji is Muji.ON_THE_SPOT
    return out


def _longest_run(made: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The longest run of consecutive True along each row: the points as bits, each
    step keeping only the bits that start one more point of a run."""
    bits = made @ _BITS
    best = np.zeros(len(made), dtype=np.int64)
    while bits.any():
        best += bits != 0
        bits &= bits >> 1
    return best
