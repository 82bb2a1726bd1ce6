"""Benchmark of legal-play generation: `python -m engine.bench` (or `make bench`).

Measures `legal_plays` over a fixed, seeded set of middle-game positions (turns 10 to
60 of seeded random games, each with a seeded roll) and prints positions per second and
microseconds per position. Timing is the best of several rounds, the usual way to see
past a busy machine; the median is printed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.dice import SeededDice, roll
from engine.plays import legal_plays
from engine.position import Position
from engine.rules import Finish, Rules
from engine.selfplay import random_game
from engine.side import Side


def middle_game_positions(
    count: int, seed: int, rules: Rules
) -> list[tuple[Position, tuple[int, int]]]:
    """`count` positions from turns 10-60 of seeded random games, each with a fresh roll."""
    dice, choose = SeededDice(seed), random.Random(seed)
    sample: list[tuple[Position, tuple[int, int]]] = []
    while len(sample) < count:
        game = random_game(rules, dice, choose, Side(len(sample) % 2))
        sample += [(turn.position, roll(dice)) for turn in game.turns[10:60:5]]
    return sample[:count]


def measure(
    sample: list[tuple[Position, tuple[int, int]]], rules: Rules, rounds: int
) -> list[float]:
    """Seconds per round of generating every sample's plays."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for position, dice in sample:
            legal_plays(position, dice, rules)
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for rules in (Rules(), Rules(finish=Finish.BEAR_OFF)):
        sample = middle_game_positions(args.positions, args.seed, rules)
        plays = sum(len(legal_plays(p, d, rules)) for p, d in sample)
        times = measure(sample, rules, args.rounds)
        best, median = min(times) / len(sample), statistics.median(times) / len(sample)
        print(
            f"legal_plays finish={rules.finish}: {len(sample)} positions, "
            f"{plays / len(sample):.1f} plays each; "
            f"best {1 / best:,.0f} positions/s = {best * 1e6:.1f} µs/position; "
            f"median {median * 1e6:.1f} µs/position"
        )


if __name__ == "__main__":
    main()
