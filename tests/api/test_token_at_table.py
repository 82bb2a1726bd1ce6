"""The table's read and changes find the caller's seat by the bearer token in the query
that loads the table: the same answers as looking the player up first."""

from __future__ import annotations

import pytest

from bansugoroku.games import services
from tests.client import Api, mover

UNKNOWN = "bs_not-a-real-token"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "tables/{code}", None),
        ("GET", "tables/ABCDEF", None),  # no such table
        ("POST", "tables/{code}/moves", {"version": 1, "moves": [[24, 23]]}),
        ("POST", "tables/{code}/moves", {"moves": "not a move"}),  # malformed too
        ("POST", "tables/{code}/undo", {"version": 1}),
        ("POST", "tables/ABCDEF/resign", {"version": 1}),
    ],
)
def test_an_unknown_token_is_401_at_a_table_whatever_else_is_wrong(api, table, method, path, body):
    answer = api.as_(UNKNOWN).call(method, path.format(code=table), body)

    assert answer.status == 401, answer.body
    assert answer.body["code"] == "not_authenticated"
    assert answer.headers["WWW-Authenticate"] == "Bearer"


def test_a_player_who_does_not_sit_at_the_table_gets_404(api, table):
    stranger = api.new_player("Eve")

    assert stranger.get(f"tables/{table}").status == 404
    moved = stranger.post(f"tables/{table}/moves", {"version": 1, "moves": [[24, 23]]})
    assert moved.status == 404 and moved.body["code"] == "table_not_found"


def test_a_signed_in_token_reads_and_plays_at_its_players_seat(host, guest, table):
    player, state = mover(table, host, guest)
    browser = Api(services.player_token_add(player=player.player()))

    seen = browser.get(f"tables/{table}")
    assert seen.status == 200 and seen.body["you"] == state["you"]
    move = state["game"]["turn"]["legal_moves"][0]
    moved = browser.post(f"tables/{table}/moves", {"version": state["version"], "moves": [move]})
    assert moved.status == 200, moved.body
    assert moved.body["version"] == state["version"] + 1


def test_each_token_acts_at_its_own_seat_only(host, guest, table):
    player, state = mover(table, host, guest)
    waiting = guest if player is host else host
    move = state["game"]["turn"]["legal_moves"][0]

    refused = waiting.post(f"tables/{table}/moves", {"version": state["version"], "moves": [move]})

    assert refused.status == 409 and refused.body["code"] == "not_your_turn"
    assert waiting.get(f"tables/{table}").body["you"]["seat"] != state["you"]["seat"]
