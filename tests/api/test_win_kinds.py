"""Each kind of win, from the engine's result to every answer that tells a game's end:
the table's state, the games list, the game's history, its JSON export and the
`game_ended` event all say the kind, as the schema documents it."""

from __future__ import annotations

import pytest

from tests.client import check
from tests.finished_games import won_table
from tests.wins import WINS, Win

TABLE = "/api/v1/tables/{code}"


@pytest.mark.parametrize("win", WINS, ids=[w.kind.value for w in WINS])
def test_every_answer_about_the_game_says_how_it_was_won(host, guest, win: Win, openapi):
    code, winner = won_table(host, guest, win)
    loser = guest if winner is host else host
    kind = win.kind.value
    for player in (winner, loser):
        state = player.get(f"tables/{code}")
        check(openapi, TABLE, "get", 200, state)
        result = state.body["game"]["result"]
        assert result["win_kind"] == kind and result["points"] == win.kind.points
        assert result["you_won"] is (player is winner)
    games = host.get(f"tables/{code}/games")
    check(openapi, TABLE + "/games", "get", 200, games)
    assert games.body[0]["win_kind"] == kind
    history = host.get(f"tables/{code}/games/1")
    check(openapi, TABLE + "/games/{number}", "get", 200, history)
    assert history.body["win_kind"] == kind
    export = host.get(f"tables/{code}/games/1/export.json")
    check(openapi, TABLE + "/games/{number}/export.json", "get", 200, export)
    assert export.body["result"]["win_kind"] == kind
    events = host.get(f"tables/{code}/events")
    check(openapi, TABLE + "/events", "get", 200, events)
    (ended,) = [e for e in events.body["events"] if e["kind"] == "game_ended"]
    assert ended["payload"]["win_kind"] == kind


def test_a_game_with_no_result_has_no_kind(host, guest, table):
    version = host.state(table)["version"]
    assert host.post(f"tables/{table}/leave", {"version": version}).status == 200
    result = guest.state(table)["game"]["result"]
    assert result["kind"] == "abandoned" and result["win_kind"] is None
    assert guest.get(f"tables/{table}/games/1").body["win_kind"] is None


def test_a_game_being_played_has_no_kind_yet(host, guest, table):
    assert host.state(table)["game"]["result"] is None
    assert host.get(f"tables/{table}/games/1").body["win_kind"] is None
