"""The Hard level: the play whose position the learned network likes best.

Each legal play's position is seen from the opponent, who rolls next, and the network
(`engine.cpu.net`, trained by `engine.cpu.train`) estimates the points they expect from there.
Hard then looks one roll ahead for the few plays the network likes best, as Normal does:
for each of the opponent's 21 rolls it finds the reply the network likes best for them,
and makes the play whose average over the rolls leaves them the least. A winning play
is taken first, the one worth most. The weights are `engine/cpu/weights/hard.npz`, loaded
once; numpy is all it needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from engine.cpu.features import Features, encode, rows_after
from engine.cpu.net import Array, Net, equity
from engine.dice import ROLLS
from engine.plays import Outcome, Play, legal_outcomes, position_after
from engine.position import Position
from engine.rules import Rules

WEIGHTS = Path(__file__).with_name("weights") / "hard.npz"
CANDIDATES = 8
"""How many of the plays the network likes best the lookahead compares."""


@cache
def stored_net() -> Net:
    """The weights in the repository."""
    return Net.load(WEIGHTS)


def hard_play(
    position: Position,
    dice: tuple[int, int],
    rules: Rules,
    net: Net | None = None,
    *,
    lookahead: bool = True,
) -> Play:
    """Hard's play; `net` replaces the stored weights, `lookahead=False` keeps to the
    network's first estimate (training measures the network itself that way)."""
    net = net or stored_net()
    outcomes = legal_outcomes(position, dice, rules)
    winning = max(outcomes, key=lambda o: o.points)
    if winning.points or len(outcomes) == 1:
        return Play(winning.moves, winning.points)
    values, compared = estimates(outcomes, position.off[1], rules, net, lookahead=lookahead)
    chosen = max(compared, key=lambda i: values[i])
    return Play(outcomes[chosen].moves, 0)


def estimates(
    outcomes: Sequence[Outcome],
    opponent_off: int,
    rules: Rules,
    net: Net,
    *,
    lookahead: bool = True,
    also: Sequence[int] = (),
) -> tuple[Array, list[int]]:
    """What each play is worth to its mover in Hard's estimate, and the plays Hard
    chooses among (the first of equal ones wins). Every play has the network's first
    estimate; with the lookahead, the plays it likes best (CANDIDATES) are the ones
    compared, and they and the plays in `also` (a game review's played one) have the
    average after the opponent's best reply instead."""
    _, values = play_values(outcomes, opponent_off, rules, net)
    if not lookahead:
        return values, list(range(len(outcomes)))
    compared = [int(i) for i in np.argsort(-values)[:CANDIDATES]]
    for i in {*compared, *also}:
        values[i] = reply_value(outcomes[i], opponent_off, rules, net)
    return values, compared


def play_values(
    outcomes: Sequence[Outcome], opponent_off: int, rules: Rules, net: Net
) -> tuple[Features, Array]:
    """The features of each play's position (from the opponent's side) and what the
    play is worth to the mover: minus the points the opponent expects from there."""
    features = encode(rows_after(outcomes, opponent_off), rules)
    return features, -equity(net.outputs(features))


def reply_value(outcome: Outcome, opponent_off: int, rules: Rules, net: Net) -> float:
    """What a play is worth to its mover after the opponent's best reply to each roll,
    averaged over the rolls. All the replies are estimated in one batch."""
    seen = position_after(outcome, opponent_off)
    replies: list[Outcome] = []
    starts, wins = [], np.zeros(len(ROLLS))
    for i, (roll, _) in enumerate(ROLLS):
        found = legal_outcomes(seen, roll, rules)
        wins[i] = max(o.points for o in found)
        starts.append(len(replies))
        replies += found
    _, theirs = play_values(replies, seen.off[1], rules, net)
    best = np.where(wins > 0, wins, np.maximum.reduceat(theirs, starts))
    weights = np.array([weight for _, weight in ROLLS])
    return -float(best @ weights) / 36.0
