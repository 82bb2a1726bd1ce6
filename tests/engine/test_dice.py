"""Dice sources and the verifiable-dice recipe."""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter

from engine.dice import SystemDice, derived_dice, roll, seed_commitment


def test_derived_dice_follow_the_published_recipe():
    """The message is defined in bytes: each part's UTF-8 after its length in 4 bytes,
    so an entropy like "dé🎲" is hashed as its 7 UTF-8 bytes, not as JSON escapes."""
    seed = bytes(range(32))
    parts = [b"7", "dé🎲".encode(), b""]
    assert len(parts[1]) == 7
    message = b"".join(struct.pack(">I", len(part)) + part for part in parts)
    digest = hmac.new(seed, message, hashlib.sha256).digest()
    expected = [b % 6 + 1 for b in digest if b < 252][:2]
    assert derived_dice(seed, ("dé🎲", ""), "7") == expected


def test_derived_dice_depend_on_seed_entropy_and_turn():
    seed = bytes(32)
    base = [derived_dice(seed, ("a", "b"), str(n)) for n in range(1, 40)]
    assert base != [derived_dice(seed, ("a", "c"), str(n)) for n in range(1, 40)]
    assert base != [derived_dice(bytes([1]) * 32, ("a", "b"), str(n)) for n in range(1, 40)]
    assert len({tuple(d) for d in base}) > 10


def test_derived_dice_are_fair():
    faces = Counter(die for n in range(6000) for die in derived_dice(b"seed" * 8, ("", ""), str(n)))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(1800 < count < 2200 for count in faces.values())


def test_the_commitment_is_the_sha256_of_the_seed():
    assert seed_commitment(b"x" * 32) == hashlib.sha256(b"x" * 32).hexdigest()


def test_system_dice_roll_one_to_six():
    assert {d for _ in range(500) for d in roll(SystemDice())} == {1, 2, 3, 4, 5, 6}
