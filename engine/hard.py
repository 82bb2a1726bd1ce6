"""The Hard level: the play whose position the learned network likes best.

Each legal play's position is seen from the opponent, who rolls next, and the network
(`engine.net`, trained by `engine.train`) estimates the points they expect; Hard makes
the play that leaves them the least. A winning play is taken first, the one worth most.
The weights are `engine/weights/hard.npz`, loaded once; numpy is all it needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from engine.features import Features, encode, rows_after
from engine.net import Array, Net, equity
from engine.plays import Outcome, Play, legal_outcomes
from engine.position import Position
from engine.rules import Rules

WEIGHTS = Path(__file__).with_name("weights") / "hard.npz"


@cache
def stored_net() -> Net:
    """The weights in the repository."""
    return Net.load(WEIGHTS)


def hard_play(
    position: Position, dice: tuple[int, int], rules: Rules, net: Net | None = None
) -> Play:
    """Hard's play; `net` replaces the stored weights (training measures its own)."""
    outcomes = legal_outcomes(position, dice, rules)
    winning = max(outcomes, key=lambda o: o.points)
    if winning.points or len(outcomes) == 1:
        return Play(winning.moves, winning.points)
    _, values = play_values(outcomes, position.off[1], rules, net or stored_net())
    chosen = outcomes[int(np.argmax(values))]
    return Play(chosen.moves, chosen.points)


def play_values(
    outcomes: Sequence[Outcome], opponent_off: int, rules: Rules, net: Net
) -> tuple[Features, Array]:
    """The features of each play's position (from the opponent's side) and what the
    play is worth to the mover: minus the points the opponent expects from there."""
    features = encode(rows_after(outcomes, opponent_off), rules)
    return features, -equity(net.outputs(features))
