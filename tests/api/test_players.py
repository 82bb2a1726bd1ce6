"""Players: created on first use, known by a bearer token that is stored hashed."""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("Eve\x1b[2J", "U+001B (a control character) is not allowed"),
        ("Eve\x07", "U+0007 (a control character) is not allowed"),
        ("Eve\u202egnp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE is not allowed"),
        ("A\u200bdmin", "U+200B ZERO WIDTH SPACE is not allowed"),
        ("Ai\u200dko", "U+200D ZERO WIDTH JOINER is not allowed"),
        ("\U000e0041iko", "U+E0041 TAG LATIN CAPITAL LETTER A is not allowed"),
        ("   ", "This field may not be blank."),
    ],
)
def test_names_refuse_control_and_format_characters(api, host, name, error):
    created = api.post("players", {"name": name})
    assert created.status == 400 and created.body["code"] == "invalid_request"
    assert created.body["errors"] == {"name": [error]}
    renamed = host.call("PATCH", "players/me", {"name": name})
    assert renamed.status == 400 and renamed.body["errors"] == {"name": [error]}


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("  Aiko  ", "Aiko"),
        ("Zoe\u0301", "Zo\u00e9"),  # NFC: e and a combining acute become one letter
        ("愛子", "愛子"),
        ("עִבְרִית", "עִבְרִית"),
        ("नमस्ते", "नमस्ते"),
        ("Ben 👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈", "Ben 👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈"),
        ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f 1\ufe0f\u20e3 👍🏽",) * 2,
    ],
)
def test_names_keep_every_script_and_emoji(api, sent, kept):
    created = api.post("players", {"name": sent})
    assert created.status == 201, created.body
    assert created.body["player"]["name"] == kept


@pytest.mark.parametrize("locale", ["en", "de", "fr", "ru", "ja"])
def test_a_player_chooses_a_supported_locale(api, locale):
    answer = api.post("players", {"name": "Aiko", "locale": locale}, **{"Accept-Language": "fr"})
    assert answer.status == 201 and answer.body["player"]["locale"] == locale


@pytest.mark.parametrize("locale", ["pt-BR", "es", "EN", "en-US", "", 5, None])
def test_another_locale_given_explicitly_is_400(api, host, locale):
    answer = api.post("players", {"name": "Aiko", "locale": locale})
    assert answer.status == 400 and answer.body["code"] == "invalid_request"
    assert "locale" in answer.body["errors"]
    assert host.call("PATCH", "players/me", {"locale": locale}).status == 400


@pytest.mark.parametrize(
    ("header", "locale"),
    [
        ("ja", "ja"),
        ("de-AT,de;q=0.9,en;q=0.8", "de"),
        ("pt-BR,pt;q=0.9,fr;q=0.5,en;q=0.4", "fr"),
        ("en;q=0.5, ru", "ru"),
        ("FR-ca", "fr"),
        ("es, it", "en"),
        ("ru;q=0, ja;q=0.1", "ja"),
        ("*", "en"),
        ("de;q=bad, ja", "ja"),
        ("", "en"),
    ],
)
def test_a_new_player_without_a_locale_gets_the_best_of_accept_language(api, header, locale):
    headers = {"Accept-Language": header} if header else {}
    answer = api.post("players", {"name": "Aiko"}, **headers)
    assert answer.status == 201 and answer.body["player"]["locale"] == locale
