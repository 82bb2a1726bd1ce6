"""Blocking a player of the lobby: neither meets the other again there or at a new
table, whoever blocked; tables they share play on."""

from __future__ import annotations

import pytest

from bansugoroku.games.models import Block


@pytest.fixture
def listed(host, guest):
    """Aiko (the host) and Ben (the guest) both came to the lobby: Ben took a seat."""
    code = host.post("tables", {"open": True}).body["code"]
    assert guest.post(f"lobby/{code}/take").status == 200
    return code


def test_a_blocked_players_tables_leave_the_lobby_both_ways(host, guest, listed):
    mine = host.post("tables", {"open": True}).body["code"]
    assert [row["code"] for row in guest.get("lobby").body["results"]] == [mine]

    assert host.post(f"players/{guest.player().pk}/block").status == 204
    assert host.post(f"players/{guest.player().pk}/block").status == 204, "twice: the same"
    assert Block.objects.count() == 1
    assert guest.get("lobby").body["results"] == [], "the blocked one no longer sees it"
    theirs = guest.post("tables", {"open": True}).body["code"]
    assert host.get("lobby").body["results"][0]["code"] == mine, "nor the blocker theirs"
    assert [r["code"] for r in host.get("lobby").body["results"]] == [mine]

    took = guest.post(f"lobby/{mine}/take")
    assert (took.status, took.body["code"]) == (404, "table_not_found")
    assert guest.post(f"tables/{mine}/join").status == 404, "nor by its code"
    assert host.post(f"lobby/{theirs}/take").status == 404
    paired = guest.post("lobby/quick-pairing")
    assert paired.status == 200 and paired.body["code"] == theirs, "their own, not the host's"
    assert host.state(listed)["state"] == "ready", "the table they share plays on"

    assert host.call("DELETE", f"players/{guest.player().pk}/block").status == 204
    assert guest.post(f"lobby/{mine}/take").status == 200


def test_only_a_player_of_the_lobby_is_blocked_and_not_oneself(host, guest, api, listed):
    stranger = api.new_player("Chie")
    answer = host.post(f"players/{stranger.player().pk}/block")
    assert (answer.status, answer.body["code"]) == (404, "player_not_found")
    myself = host.post(f"players/{host.player().pk}/block")
    assert (myself.status, myself.body["code"]) == (409, "wrong_state")
    assert host.post("players/0/block").status == 404
    assert Block.objects.count() == 0
