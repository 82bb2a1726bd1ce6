"""Random self-play: whole games of random legal plays, for statistics, tests and benchmarks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from engine.dice import DiceSource, SeededDice, SystemDice, roll
from engine.game import GameValue
from engine.plays import Play, legal_plays
from engine.position import Position
from engine.rules import Rules
from engine.side import Side

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
    starter: Side
    turns: list[TurnRecord]
    winner: Side
    points: int


def random_game(
    rules: Rules, dice: DiceSource, choose: random.Random, previous: Side | None = None
) -> GameRecord:
    """Play one game choosing uniformly among the distinct legal plays of every roll;
    `previous` started the game before (who starts follows the house rule)."""

    def roller(label: str) -> tuple[int, int]:
        return roll(dice)

    game, finished = GameValue.start(rules, roller, previous)
    turns = [TurnRecord(t.side.sees(t.board_after), t.dice, Play(())) for t in finished]
    while len(turns) < MAX_TURNS:
        if game.result is not None:
            assert game.result.winner is not None, "a random game is never stuck"
            return GameRecord(game.starter, turns, game.result.winner, game.result.points)
        position = game.turn.position
        play = choose.choice(legal_plays(position, game.dice, rules))
        turns.append(TurnRecord(position, game.dice, play))
        game, finished = game.play(game.to_move, play.moves, roller)
        turns += [TurnRecord(t.side.sees(t.board_after), t.dice, Play(())) for t in finished[1:]]
    raise RuntimeError(f"no winner after {MAX_TURNS} turns")


@dataclass
class Summary:
    games: int = 0
    turns: int = 0
    passes: int = 0
    wins_by_seat: Counter[Side] = field(default_factory=Counter)
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
            "wins_by_seat": {
                "first": self.wins_by_seat[Side.BLACK],
                "second": self.wins_by_seat[Side.WHITE],
            },
            "wins_by_points": {str(p): self.wins_by_points[p] for p in (1, 2, 3)},
        }


def selfplay(rules: Rules, games: int, seed: int | None = None) -> Summary:
    """Play `games` random games at one table and count what happened; a seed replays
    the same games, no seed rolls with the system's CSPRNG."""
    dice: DiceSource = SystemDice() if seed is None else SeededDice(seed)
    choose = random.SystemRandom() if seed is None else random.Random(seed + 1)
    summary, previous = Summary(), None
    for _ in range(games):
        game = random_game(rules, dice, choose, previous)
        summary.add(game)
        previous = game.starter
    return summary
