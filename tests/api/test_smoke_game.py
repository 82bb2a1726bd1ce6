"""A whole game through the API, each move taken from the state's own legal-move list."""

from __future__ import annotations

import random

import pytest

from engine.rules import Finish, Muji, Start
from tests.api.conftest import Api, mover, open_table

RULES = [
    {"finish": f.value, "muji": m.value, "start": s.value}
    for f in Finish
    for m in Muji
    for s in Start
]


def play_to_the_end(code: str, players: tuple[Api, Api], rng: random.Random) -> dict:
    for _ in range(3000):
        state = players[0].state(code)
        if state["game"]["state"] != "playing":
            return state
        player, state = mover(code, *players)
        move = rng.choice(state["game"]["turn"]["legal_moves"])
        answer = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": [move]})
        assert answer.status == 200, answer.body
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
