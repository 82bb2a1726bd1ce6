"""A player's page through the API: only for players who came to the lobby, and of their
tables and games only those against others who did."""

from __future__ import annotations

import random

from tests.client import check
from tests.finished_games import play_out


def test_a_player_of_the_lobby_has_a_page_with_rating_record_and_games(host, guest, openapi):
    code = host.post("tables", {"open": True}).body["code"]
    assert guest.post(f"lobby/{code}/take").status == 200
    assert host.post(f"tables/{code}/start", {"version": host.state(code)["version"]}).status == 200
    game = play_out(code, random.Random(code))
    answer = guest.get(f"players/{host.player().pk}")
    check(openapi, "/api/v1/players/{player_id}", "get", 200, answer)
    page = answer.body
    host_won = game.winner == 0
    assert page["name"] == "Aiko" and page["record"]["played"] == 1
    assert page["record"]["won"] == int(host_won)
    assert sum(page["record"]["wins"].values()) == int(host_won)
    assert (page["rating"]["rating"] > 1500) == host_won and page["rating"]["games"] == 1
    [shown] = page["recent_games"]
    assert shown["opponent"] == "Ben" and shown["result"] == ("won" if host_won else "lost")
    assert shown["rated"] is True and shown["win_kind"] == game.win_kind
    [table] = page["tables"]
    assert table["opponent"] == "Ben" and table["state"] == "between_games"


def test_a_player_who_never_came_to_the_lobby_has_no_page(host, guest, api):
    code = host.post("tables", {"open": True}).body["code"]
    friend = api.new_player("Chie")
    assert friend.post(f"tables/{code}/join").status == 200, "by the code, not the lobby"

    for player in (friend, guest):
        answer = host.get(f"players/{player.player().pk}")
        assert (answer.status, answer.body["code"]) == (404, "player_not_found")
    assert host.get("players/999999999").status == 404
    page = guest.get(f"players/{host.player().pk}").body
    assert page["tables"] == [], "the friend who joined by code is not shown"


def test_malformed_player_ids_are_refused(guest):
    for path in ("players/-1", "players/1.5", "players/%00", "players/1e9"):
        assert guest.get(path).status == 404
    assert guest.get("players/99999999999999999999").status == 404


def lobby_game(host, guest) -> str:
    """A table the host opened in the lobby and the guest took there, its first game
    started."""
    code = host.post("tables", {"open": True}).body["code"]
    assert guest.post(f"lobby/{code}/take").status == 200
    assert host.post(f"tables/{code}/start", {"version": host.state(code)["version"]}).status == 200
    return code


def test_a_public_game_replays_for_anyone_as_the_players_own_history(host, guest, api, openapi):
    code = lobby_game(host, guest)
    play_out(code, random.Random(code))
    stranger = api.new_player("Eve")
    page = stranger.get(f"players/{host.player().pk}").body
    [shown] = page["recent_games"]
    assert (shown["table"], shown["number"]) == (code, 1)
    assert shown["opponent_id"] == page["tables"][0]["opponent_id"] == guest.player().pk

    for player in (host, guest):
        answer = stranger.get(f"players/{player.player().pk}/games/{code}/1")
        check(openapi, "/api/v1/players/{player_id}/games/{code}/{number}", "get", 200, answer)
        assert answer.body == player.get(f"tables/{code}/games/1").body, "from their side"
        assert answer.headers["Cache-Control"] == "private, no-cache"


def test_a_game_that_is_not_public_is_404_as_a_missing_game(host, guest, api):
    playing = lobby_game(host, guest)
    friend = api.new_player("Chie")
    by_code = host.post("tables", {}).body["code"]
    assert friend.post(f"tables/{by_code}/join").status == 200
    start = {"version": host.state(by_code)["version"]}
    assert host.post(f"tables/{by_code}/start", start).status == 200
    play_out(by_code, random.Random(by_code))
    aiko = host.player().pk

    for path in (
        f"players/{aiko}/games/{playing}/1",  # not over yet
        f"players/{aiko}/games/{by_code}/1",  # Chie never came to the lobby
        f"players/{aiko}/games/{playing}/2",
        f"players/{aiko}/games/ZZZZZZ/1",
        f"players/{guest.player().pk}/games/{by_code}/1",  # not Ben's game
    ):
        answer = guest.get(path)
        assert (answer.status, answer.body["code"]) == (404, "game_not_found"), path
    answer = guest.get(f"players/{friend.player().pk}/games/{by_code}/1")
    assert (answer.status, answer.body["code"]) == (404, "player_not_found")
    assert guest.get(f"players/{aiko}/games/{playing}/99999999999999999999").status == 404
