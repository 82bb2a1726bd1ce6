"""Hypothesis strategies that draw real game positions from seeded random self-play."""

from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import strategies as st

from engine.cpu.selfplay import GameRecord, random_game
from engine.dice import SeededDice
from engine.position import Position
from engine.rules import ALL_RULES, Rules
from engine.side import Side

rules = st.sampled_from(ALL_RULES)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@lru_cache(maxsize=256)
def _game(rules: Rules, seed: int) -> GameRecord:
    return random_game(rules, SeededDice(seed), random.Random(seed), Side(seed % 2))


@st.composite
def game_positions(draw: st.DrawFn) -> tuple[Position, tuple[int, int], Rules]:
    """A position some random game reached under some rules, with a fresh roll."""
    chosen = draw(rules)
    game = _game(chosen, draw(st.integers(0, 200)))
    turn = game.turns[draw(st.integers(0, len(game.turns) - 1))]
    return turn.position, draw(dice), chosen
