"""Matches between players, to measure the CPU levels: `python -m engine match`.

Two players play whole games through `GameValue`, the starter alternating (or rolled,
under the `roll` rule), with seeded dice so a match can be replayed. It reports each
player's wins with a 95% confidence interval, the points won, and how long each
player took to choose a play (mean and 95th percentile).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.cpu import PLAYERS
from engine.cpu.baselines import pipcount_play, pipsafe_play
from engine.cpu.levels import Level, best_play, choose
from engine.dice import SeededDice, roll
from engine.game import Ending, GameValue
from engine.plays import Move, legal_plays
from engine.position import Position
from engine.rules import Rules
from engine.side import Side

Chooser = Callable[[Position, tuple[int, int], Rules, random.Random], tuple[Move, ...]]
MAX_TURNS = 10_000


def player(name: str, lookahead: bool = True) -> Chooser:
    """The chooser of a named player; `lookahead` applies to `normal` only."""
    if name == "random":
        return lambda pos, dice, rules, rng: rng.choice(legal_plays(pos, dice, rules)).moves
    if name == "easy":
        return lambda pos, dice, rules, rng: choose(pos, dice, rules, Level.EASY, rng)
    if name == "normal" and lookahead:
        return lambda pos, dice, rules, rng: choose(pos, dice, rules, Level.NORMAL, rng)
    if name == "normal":
        return lambda pos, dice, rules, rng: best_play(pos, dice, rules, lookahead=False).moves
    if name == "hard":
        return lambda pos, dice, rules, rng: choose(pos, dice, rules, Level.HARD, rng)
    if name == "pipcount":
        return lambda pos, dice, rules, rng: pipcount_play(pos, dice, rules).moves
    if name == "pipsafe":
        return lambda pos, dice, rules, rng: pipsafe_play(pos, dice, rules).moves
    raise ValueError(f"unknown player {name!r}: it is one of {', '.join(PLAYERS)}")


@dataclass
class Tally:
    name: str
    wins: int = 0
    points: int = 0
    times: list[float] = field(default_factory=list)

    def time_summary(self) -> tuple[float, float]:
        """Mean and 95th percentile of the time to choose, in milliseconds."""
        if not self.times:
            return 0.0, 0.0
        ordered = sorted(self.times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return 1000 * sum(ordered) / len(ordered), 1000 * p95


@dataclass
class MatchResult:
    games: int
    a: Tally
    b: Tally
    abandoned: int = 0


def play_match(
    a: tuple[str, Chooser], b: tuple[str, Chooser], rules: Rules, games: int, seed: int
) -> MatchResult:
    """Play `games` games, A in the first seat (Black); who starts follows `rules`."""
    dice = SeededDice(seed)
    rng = random.Random(seed + 1)
    tallies = {Side.BLACK: Tally(a[0]), Side.WHITE: Tally(b[0])}
    choosers = {Side.BLACK: a[1], Side.WHITE: b[1]}
    result = MatchResult(games, tallies[Side.BLACK], tallies[Side.WHITE])

    def roller(label: str) -> tuple[int, int]:
        return roll(dice)

    previous: Side | None = None
    for _ in range(games):
        game, _turns = GameValue.start(rules, roller, previous)
        previous = game.starter
        for _turn in range(MAX_TURNS):
            if game.result is not None:
                break
            side = game.to_move
            started = time.perf_counter()
            moves = choosers[side](game.turn.position, game.dice, rules, rng)
            tallies[side].times.append(time.perf_counter() - started)
            game, _turns = game.play(side, moves, roller)
        if game.result is None or game.result.ending is not Ending.WON:
            result.abandoned += 1
            continue
        assert game.result.winner is not None
        tallies[game.result.winner].wins += 1
        tallies[game.result.winner].points += game.result.points
    return result


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(result: MatchResult, rules: Rules) -> str:
    lines = [
        f"rules: finish={rules.finish} muji={rules.muji} start={rules.start}; "
        f"games: {result.games}, no result: {result.abandoned}"
    ]
    decided = result.a.wins + result.b.wins
    for tally in (result.a, result.b):
        low, high = wilson(tally.wins, decided)
        mean, p95 = tally.time_summary()
        rate = tally.wins / decided if decided else 0.0
        lines.append(
            f"{tally.name:>20}: wins {tally.wins:5d} ({100 * rate:5.1f}%, 95% CI "
            f"{100 * low:5.1f}-{100 * high:5.1f}%), points {tally.points:5d}, "
            f"choose {mean:6.2f} ms mean, {p95:6.2f} ms p95"
        )
    return "\n".join(lines)
