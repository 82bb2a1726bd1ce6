"""Writes `perft.txt`: position id + dice + rules -> number of distinct legal plays.

The counts come from the slow reference generator (`reference.py`), so the data file
pins the fast generator to numbers reached by a separate, obvious route, like chess
perft tables. The first lines are counted by hand. Regenerate with
`python -m tests.engine.perft` after a deliberate rules change, and review the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

from engine.cpu.selfplay import random_game
from engine.dice import SeededDice
from engine.notation import position_id
from engine.rules import Finish, Muji, Rules
from engine.side import Side
from tests.engine import reference

DATA = Path(__file__).with_name("perft.txt")
HEADER = """\
# position-id dice finish muji plays (distinct outcomes); the start position by hand:
# 1-1: 24, 8 and 6 move (13/12 is blocked) -> 9; 6-6: 24/18 twice, 13/7 twice, 8/2 twice
# in pairs -> 6.
b4E1C3eE3c1e4B/0-0/0-0 11 iri bigger 9
b4E1C3eE3c1e4B/0-0/0-0 66 iri bigger 6
"""


def lines() -> list[str]:
    found = []
    for finish in Finish:
        for muji in Muji:
            rules = Rules(finish, muji)
            for seed in range(5):
                dice, choose = SeededDice(seed), random.Random(seed)
                game = random_game(rules, dice, choose, Side(seed % 2))
                for turn in game.turns[::15]:
                    for _ in range(3):
                        roll = (dice.die(), dice.die())
                        count = len(reference.outcomes(turn.position, roll, rules))
                        found.append(
                            f"{position_id(turn.position)} {roll[0]}{roll[1]} "
                            f"{finish} {muji} {count}"
                        )
    return found


if __name__ == "__main__":
    DATA.write_text(HEADER + "\n".join(lines()) + "\n")
