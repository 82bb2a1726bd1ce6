"""Dice sources: randomness is passed in, never taken from a global.

Production rolls with the operating system's CSPRNG; tests and self-play use a seeded
source so every game can be replayed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
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


def derived_dice(seed: bytes, entropy: tuple[str, str], label: str, count: int = 2) -> list[int]:
    """Dice anyone can recompute once the seed is revealed: the verifiable-dice recipe.

    HMAC-SHA256 keyed with the seed, over the JSON array [label, first seat's entropy,
    second seat's entropy] written compactly; its bytes in order, skipping any of 252 or
    more so all six faces are equally likely, each give a die of byte % 6 + 1. A label
    is the turn number ("1", "2", ...) or "opening-1", "opening-2", ... for the rolls
    that decide who starts.

    >>> derived_dice(bytes(32), ("", ""), "1")
    [4, 5]
    """
    message = json.dumps([label, *entropy], separators=(",", ":")).encode()
    digest = hmac.new(seed, message, hashlib.sha256).digest()
    dice = [byte % 6 + 1 for byte in digest if byte < 252][:count]
    if len(dice) < count:  # 32 bytes all >= 252: about 1 in 10^45
        raise ValueError("the seed gives no fair die for this label")
    return dice


def seed_commitment(seed: bytes) -> str:
    """What a game publishes at its start: the SHA-256 of its secret seed, in hex."""
    return hashlib.sha256(seed).hexdigest()
