"""Players: created on first use, known by a bearer token that is stored hashed."""

from __future__ import annotations

from bansugoroku.games.models import Player


def test_creating_a_player_returns_a_token_once_and_stores_only_its_hash(api):
    answer = api.post("players", {"name": "Aiko", "locale": "ja"})
    assert answer.status == 201
    token = answer.body["token"]
    assert token.startswith("bs_") and len(token) > 40
    player = Player.objects.get(pk=answer.body["player"]["id"])
    assert token not in player.token_hash and len(player.token_hash) == 64
    me = api.as_(token).get("players/me")
    assert me.status == 200 and me.body == {"id": player.pk, "name": "Aiko", "locale": "ja"}


def test_a_player_renames_themselves(host):
    assert host.call("PATCH", "players/me", {"name": "Aiko S."}).body["name"] == "Aiko S."
    assert host.get("players/me").body["name"] == "Aiko S."


def test_no_token_or_a_bad_token_is_401_with_a_bearer_challenge(api):
    missing = api.get("players/me")
    assert missing.status == 401 and missing.body["code"] == "not_authenticated"
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    wrong = api.as_("bs_not-a-real-token").get("players/me")
    assert wrong.status == 401 and wrong.body["code"] == "not_authenticated"
    malformed = api.get("players/me", Authorization="Bearer two words")
    assert malformed.status == 401


def test_bad_player_fields_are_400(api):
    for body in [{}, {"name": ""}, {"name": "x" * 41}, {"name": "A", "locale": "not a locale"},
                 {"name": "A", "admin": True}, {"name": 5}, ["Aiko"]]:  # fmt: skip
        answer = api.post("players", body)
        assert answer.status == 400, body
        assert answer.body["code"] == "invalid_request"
        assert answer.headers["Content-Type"] == "application/problem+json"
    assert Player.objects.count() == 0
