"""Dice sources: randomness is passed in, never taken from a global.

Production rolls with the operating system's CSPRNG; tests and self-play use a seeded
source so every game can be replayed.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Protocol

ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls with how many of the 36 ordered rolls each stands for, for
the CPU levels that look a roll ahead."""


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

    HMAC-SHA256 keyed with the seed, over `dice_message(label, entropy)`; its bytes in
    order, skipping any of 252 or more so all six faces are equally likely, each give a
    die of byte % 6 + 1. A label is the turn number ("1", "2", ...) or "opening-1",
    "opening-2", ... for the rolls that decide who starts.

    >>> derived_dice(bytes(32), ("", ""), "1")
    [4, 2]
    """
    digest = hmac.new(seed, dice_message(label, entropy), hashlib.sha256).digest()
    dice = [byte % 6 + 1 for byte in digest if byte < 252][:count]
    if len(dice) < count:  # 32 bytes all >= 252: about 1 in 10^45
        raise ValueError("the seed gives no fair die for this label")
    return dice


def dice_message(label: str, entropy: tuple[str, str]) -> bytes:
    """The bytes a roll's HMAC is taken over: the label, Black's entropy and White's,
    each as its UTF-8 bytes preceded by their count in 4 bytes, big-endian. Defined in
    bytes so a verifier in any language writes the same message, whatever the text.

    >>> dice_message("1", ("dé", ""))
    b'\\x00\\x00\\x00\\x011\\x00\\x00\\x00\\x03d\\xc3\\xa9\\x00\\x00\\x00\\x00'
    """
    parts = [part.encode() for part in (label, *entropy)]
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def seed_commitment(seed: bytes) -> str:
    """What a game publishes at its start: the SHA-256 of its secret seed, in hex."""
    return hashlib.sha256(seed).hexdigest()
