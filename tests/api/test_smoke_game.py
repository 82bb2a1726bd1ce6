"""A whole game through the API, each move taken from the state's own legal-move list."""

from __future__ import annotations

import random

import pytest

from engine.rules import Finish, Muji, Start
from tests.client import Api, mover, open_table

pytestmark = pytest.mark.slow

RULES = [
    {"finish": f.value, "muji": m.value, "start": s.value}
    for f in Finish
    for m in Muji
    for s in Start
]


def play_to_the_end(code: str, players: tuple[Api, Api], rng: random.Random) -> dict:
    """Random legal moves, taken from each answer's own list, until the game ends."""
    player, state = mover(code, *players)
    for _ in range(3000):
        if state["game"]["state"] != "playing":
            return state
        turn = state["game"]["turn"]
        if not turn["yours"]:
            player = players[1] if player is players[0] else players[0]
            state = player.state(code)
            continue
        move = rng.choice(turn["legal_moves"])
        answer = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": [move]})
        assert answer.status == 200, answer.body
        state = answer.body
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "-".join(r.values()))
def test_two_players_play_a_whole_game_to_the_end(host, guest, rules):
    code = open_table(host, guest, rules)
    end = play_to_the_end(code, (host, guest), random.Random(str(rules)))
    result = end["game"]["result"]
    assert result["kind"] == "won" and result["points"] in (1, 2, 3)
    assert end["state"] == "between_games"
    assert sum(end["score"][c] for c in ("black", "white")) == result["points"]
    assert end["rules"] == rules
