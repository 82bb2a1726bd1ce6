"""Dice sources: randomness is passed in, never taken from a global.

Production rolls with the operating system's CSPRNG; tests and self-play use a seeded
source so every game can be replayed.
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol


class DiceSource(Protocol):
    def die(self) -> int:
        """One die, 1 to 6."""
        ...


class SystemDice:
    """A CSPRNG die, for real games."""

    def die(self) -> int:
        return secrets.randbelow(6) + 1


class SeededDice:
    """A reproducible die for tests and self-play.

    >>> a, b = SeededDice(7), SeededDice(7)
    >>> [a.die() for _ in range(5)] == [b.die() for _ in range(5)]
    True
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def die(self) -> int:
        return self._random.randint(1, 6)


def roll(source: DiceSource) -> tuple[int, int]:
    """Two dice for a turn."""
    return source.die(), source.die()


def roll_for_start(source: DiceSource) -> list[tuple[int, int]]:
    """The `roll` house rule: each seat rolls one die until they differ; all rolls kept.

    Each pair is (first seat, second seat); the last pair decides, higher starts.
    """
    rolls = [roll(source)]
    while rolls[-1][0] == rolls[-1][1]:
        rolls.append(roll(source))
    return rolls
