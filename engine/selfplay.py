"""Random self-play: whole games of random legal plays, for statistics, tests and benchmarks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from engine.dice import DiceSource, SeededDice, SystemDice, roll, roll_for_start
from engine.plays import Play, apply_moves, legal_plays
from engine.position import Position
from engine.rules import Rules, Start

MAX_TURNS = 10_000
"""A random game ends with probability 1; this only turns a bug into an error."""


@dataclass(frozen=True)
class TurnRecord:
    position: Position
    """Before the play, from the mover's side."""
    dice: tuple[int, int]
    play: Play


@dataclass(frozen=True)
class GameRecord:
    starter: int
    """0 for the first seat, 1 for the second."""
    turns: list[TurnRecord]
    winner: int
    points: int


def random_game(rules: Rules, dice: DiceSource, choose: random.Random, starter: int) -> GameRecord:
    """Play one game choosing uniformly among the distinct legal plays of every roll."""
    position, mover = Position.start(), starter
    turns: list[TurnRecord] = []
    while len(turns) < MAX_TURNS:
        rolled = roll(dice)
        play = choose.choice(legal_plays(position, rolled, rules))
        turns.append(TurnRecord(position, rolled, play))
        if play.points:
            return GameRecord(starter, turns, mover, play.points)
        position = apply_moves(position, play.moves).flipped()
        mover = 1 - mover
    raise RuntimeError(f"no winner after {MAX_TURNS} turns")


def starter_for(rules: Rules, game_number: int, dice: DiceSource) -> int:
    """Who starts game `game_number` (0-based) of a table under the house rule."""
    if rules.start is Start.ALTERNATE:
        return game_number % 2
    first, second = roll_for_start(dice)[-1]
    return 0 if first > second else 1


@dataclass
class Summary:
    games: int = 0
    turns: int = 0
    passes: int = 0
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    wins_by_points: Counter[int] = field(default_factory=Counter)

    def add(self, game: GameRecord) -> None:
        self.games += 1
        self.turns += len(game.turns)
        self.passes += sum(1 for t in game.turns if not t.play.moves)
        self.wins_by_seat[game.winner] += 1
        self.wins_by_points[game.points] += 1

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "turns": self.turns,
            "passes": self.passes,
            "wins_by_seat": {"first": self.wins_by_seat[0], "second": self.wins_by_seat[1]},
            "wins_by_points": {str(p): self.wins_by_points[p] for p in (1, 2, 3)},
        }


def selfplay(rules: Rules, games: int, seed: int | None = None) -> Summary:
    """Play `games` random games at one table and count what happened; a seed replays
    the same games, no seed rolls with the system's CSPRNG."""
    dice: DiceSource = SystemDice() if seed is None else SeededDice(seed)
    choose = random.SystemRandom() if seed is None else random.Random(seed + 1)
    summary = Summary()
    for number in range(games):
        summary.add(random_game(rules, dice, choose, starter_for(rules, number, dice)))
    return summary
