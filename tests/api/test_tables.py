"""Tables: create, join by code, start, play again, resign, and "my tables"."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from bansugoroku.games.models import Game, Table, Turn
from bansugoroku.games.store import CODE_ALPHABET
from tests.client import check, mover, open_table


def test_a_new_table_waits_for_a_friend_with_a_readable_code(host):
    answer = host.post("tables", {"rules": {"finish": "bear_off", "muji": "off"}})
    assert answer.status == 201
    state = answer.body
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", state["code"])
    assert not set(state["code"]) & set("0O1IL")
    assert state["invite_url"].endswith(f"/t/{state['code']}")
    assert state["state"] == "waiting"
    assert state["rules"] == {"finish": "bear_off", "muji": "off", "start": "alternate"}
    assert state["you"] == {"seat": 0, "color": "black", "is_host": True}
    assert [s["free"] for s in state["seats"]] == [False, True]
    assert answer.headers["ETag"] == f'"v{state["version"]}"'


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_cpu_table_is_ready_at_once_and_stores_the_level(host, level):
    state = host.post("tables", {"opponent": "cpu", "cpu_level": level}).body
    assert state["state"] == "ready"
    assert state["seats"][1]["cpu"] == level


def test_a_cpu_table_can_start_with_its_creation(host):
    state = host.post("tables", {"opponent": "cpu", "cpu_level": "easy", "start": True}).body
    assert state["state"] == "playing" and state["game"]["number"] == 1
    assert not state["can_start"]
    table = Table.objects.get(code=state["code"])
    assert table.current_game is not None and table.current_game.black_entropy == ""
    again = host.post(f"tables/{state['code']}/start", {"version": state["version"]})
    assert again.status == 409


@pytest.mark.parametrize(
    "body",
    [
        {"opponent": "cpu"},
        {"opponent": "friend", "start": True},
        {"start": True},
        {"opponent": "cpu", "cpu_level": "easy", "start": "soon"},
        {"opponent": "friend", "cpu_level": "easy"},
        {"opponent": "robot"},
        {"rules": {"finish": "sideways"}},
        {"rules": {"clock": "fast"}},
        {"rules": "iri"},
        {"entropy": "given before the seed is committed"},
    ],
)
def test_bad_table_options_are_400_and_create_nothing(host, body):
    answer = host.post("tables", body)
    assert answer.status == 400 and answer.body["code"] == "invalid_request"
    assert Table.objects.count() == 0


def test_a_friend_joins_by_code_then_the_host_starts(host, guest):
    code = host.post("tables", {}).body["code"]
    joined = guest.post(f"tables/{code.lower()}/join", {"entropy": "ben's dice"})
    assert joined.status == 200
    assert joined.body["you"]["color"] == "white" and joined.body["state"] == "ready"
    assert guest.post(f"tables/{code}/join").status == 200, "joining twice changes nothing"
    version = host.state(code)["version"]
    assert guest.post(f"tables/{code}/start", {"version": version}).body["code"] == "not_the_host"
    started = host.post(f"tables/{code}/start", {"version": version})
    assert started.status == 200 and started.body["state"] == "playing"
    game = started.body["game"]
    assert game["number"] == 1 and game["starter"] == 0 and len(game["seed_sha256"]) == 64
    assert game["turn"]["number"] >= 1 and len(game["turn"]["dice"]) == 2


def test_a_full_table_answers_a_stranger_as_a_code_with_no_table(api, host, guest, table, openapi):
    """Byte for byte, headers and body, apart from the code itself: a different answer
    would tell whoever guesses codes that a table has this one."""
    third = api.new_player("Chie")
    unknown = "ZZZZZZ" if table != "ZZZZZZ" else "YYYYYY"
    full = third.post(f"tables/{table}/join")
    missing = third.post(f"tables/{unknown}/join")
    check(openapi, "/api/v1/tables/{code}/join", "post", 404, full)
    assert full.headers.content.replace(table.encode(), unknown.encode()) == (
        missing.headers.content
    )
    assert full.body["code"] == "table_not_found"
    assert dict(full.headers.items()) == dict(missing.headers.items())
    assert third.get(f"tables/{table}").body["code"] == "table_not_found"
    again = guest.post(f"tables/{table}/join")
    assert again.status == 200 and again.body["you"]["seat"] == 1, "a seated player's answer"


STRANGER_CALLS = [
    ("GET", "", None),
    ("GET", "/events", None),
    ("GET", "/games", None),
    ("GET", "/games/1", None),
    ("GET", "/games/1/export.json", None),
    ("GET", "/games/1/export.mat", None),
    ("GET", "/games/1/dice", None),
    ("POST", "/start", {"version": 1}),
    ("POST", "/moves", {"version": 1, "moves": [[13, 10]]}),
    ("POST", "/undo", {"version": 1}),
    ("POST", "/play-again", {"version": 1}),
    ("POST", "/entropy", {"version": 1, "entropy": "x"}),
    ("POST", "/resign", {"version": 1}),
    ("POST", "/leave", {"version": 1}),
]


@pytest.mark.parametrize(("method", "path", "body"), STRANGER_CALLS)
def test_a_stranger_cannot_tell_a_real_table_from_none(api, table, method, path, body):
    """Join codes can't be enumerated: a real table the caller doesn't sit at answers
    exactly as a code with no table, with no version, stale or not."""
    stranger = api.new_player("Eve")
    missing = next(c for c in ("ZZZZZZ", "YYYYYY") if c != table)
    real = stranger.call(method, f"tables/{table}{path}", body, **{"If-None-Match": '"v1"'})
    none = stranger.call(method, f"tables/{missing}{path}", body, **{"If-None-Match": '"v1"'})
    assert none.status == 404 and none.body["code"] == "table_not_found"
    assert real.status == none.status
    assert real.body == {**none.body, "detail": none.body["detail"].replace(missing, table)}
    assert "version" not in real.body


def test_unknown_codes_are_404(host):
    for code in ["ZZZZZZ", "abc", "A" * 200, "%00"]:
        answer = host.post(f"tables/{code}/join")
        assert answer.status == 404 and answer.body["code"] == "table_not_found", code
    for path in ["tables/../../x/join", "tables/ABCDEF/fly", "nothing"]:
        answer = host.post(path)
        assert answer.status == 404 and answer.body["code"] == "not_found", path


def test_starting_twice_or_before_the_friend_comes_is_refused(host, guest):
    code = host.post("tables", {}).body["code"]
    early = host.post(f"tables/{code}/start", {"version": host.state(code)["version"]})
    assert early.status == 409 and early.body["code"] == "wrong_state"
    code = open_table(host, guest)
    again = host.post(f"tables/{code}/start", {"version": host.state(code)["version"]})
    assert again.body["code"] == "wrong_state"


def test_resigning_gives_the_other_seat_one_point_then_play_again_alternates(host, guest, table):
    state = guest.state(table)
    resigned = guest.post(f"tables/{table}/resign", {"version": state["version"]})
    assert resigned.status == 200
    result = resigned.body["game"]["result"]
    assert result == {
        "kind": "resigned",
        "winner_seat": 0,
        "you_won": False,
        "points": 1,
        "win_kind": "resigned",
    }
    assert resigned.body["score"] == {"you": 0, "opponent": 1, "black": 1, "white": 0}
    assert resigned.body["state"] == "between_games"
    moved = guest.post(
        f"tables/{table}/moves", {"version": resigned.body["version"], "moves": [[24, 23]]}
    )
    assert moved.body["code"] == "game_over"
    again = host.post(f"tables/{table}/play-again", {"version": resigned.body["version"]})
    assert again.status == 200
    assert again.body["game"]["number"] == 2 and again.body["game"]["starter"] == 1
    assert again.body["score"]["you"] == 1, "the score carries over"
    assert Game.objects.filter(table__code=table).count() == 2


def test_play_again_while_a_game_runs_is_refused(host, table):
    answer = host.post(f"tables/{table}/play-again", {"version": host.state(table)["version"]})
    assert answer.status == 409 and answer.body["code"] == "wrong_state"


def test_roll_to_start_records_the_opening_rolls(host, guest):
    code = open_table(host, guest, {"start": "roll"})
    game = host.state(code)["game"]
    rolls = game["opening_rolls"]
    assert rolls and all(a == b for a, b in rolls[:-1]) and rolls[-1][0] != rolls[-1][1]
    assert game["starter"] == (0 if rolls[-1][0] > rolls[-1][1] else 1)


def test_my_tables_lists_those_waiting_for_my_move_first(api, host, guest):
    codes = [open_table(host, guest) for _ in range(3)]
    waiting = host.post("tables", {}).body["code"]
    listed = host.get("tables").body
    assert {t["code"] for t in listed} == {*codes, waiting}
    flags = [t["your_turn"] for t in listed]
    assert flags == sorted(flags, reverse=True), "my turn first"
    mine = [t["code"] for t in listed if t["your_turn"]]
    for code in mine:
        player, _ = mover(code, host, guest)
        assert player.token == host.token
    for group in (True, False):
        waited = [t["updated_at"] for t in listed if t["your_turn"] is group]
        assert waited == sorted(waited), "then the longest waiting first"
    opponents = {t["code"]: t["opponent"] for t in listed}
    assert opponents[waiting]["free"] and opponents[waiting]["name"] is None
    assert all(opponents[code]["name"] == "Ben" for code in codes), opponents
    assert {t["you"]["seat"] for t in listed} == {0}
    assert api.new_player("Chie").get("tables").body == []


def test_my_tables_carry_what_a_list_screen_shows(host, guest):
    playing = open_table(host, guest, {"finish": "bear_off", "start": "roll"})
    waiting = host.post("tables", {}).body["code"]
    rows = {t["code"]: t for t in host.get("tables").body}
    state = host.state(playing)
    row = rows[playing]
    rules = {"finish": "bear_off", "muji": "bigger", "start": "roll"}
    assert row["rules"] == state["rules"] == rules
    assert row["dice"] == state["game"]["turn"]["dice"]
    assert row["turn_number"] == state["game"]["turn"]["number"]
    assert row["updated_at"] == state["updated_at"]
    idle = rows[waiting]
    assert (idle["dice"], idle["turn_number"], idle["game_number"]) == (None, None, None)
    assert idle["rules"]["finish"] == "iri"
    resigned = host.post(f"tables/{playing}/resign", {"version": state["version"]}).body
    row = next(t for t in host.get("tables").body if t["code"] == playing)
    assert row["dice"] is None and row["turn_number"] == state["game"]["turn"]["number"]
    assert row["updated_at"] == resigned["updated_at"]
    assert datetime.fromisoformat(row["updated_at"]) > datetime.fromisoformat(state["updated_at"])


def test_every_turn_is_a_history_row(host, guest, table):
    player, state = mover(table, host, guest)
    number = state["game"]["turn"]["number"]
    turn = state["game"]["turn"]
    move = turn["legal_moves"][0]
    answer = player.post(f"tables/{table}/moves", {"version": state["version"], "moves": [move]})
    second = answer.body["game"]["turn"]
    assert second["yours"] and second["number"] == number, "one die is left"
    assert not Turn.objects.filter(game__table__code=table, number=number).exists()
    answer = player.post(
        f"tables/{table}/moves",
        {"version": answer.body["version"], "moves": [second["legal_moves"][0]]},
    )
    row = Turn.objects.get(game__table__code=table, number=number)
    assert row.seat == turn["seat"] and row.dice == turn["dice"]
    assert row.moves[0] == move and row.notation.startswith(f"{move[0]}/")


def test_a_wrong_method_is_405_in_the_problem_shape(host, table):
    answer = host.get(f"tables/{table}/moves")
    assert answer.status == 405 and answer.body["code"] == "method_not_allowed"
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert host.call("DELETE", f"tables/{table}").status == 405


def test_the_state_says_since_when_the_move_waits_and_when_the_table_closes(host, guest, settings):
    settings.IDLE_CLOSE_DAYS = 45
    code = open_table(host, guest)
    player, state = mover(code, host, guest)
    active = Table.objects.get(code=code).active_at
    assert datetime.fromisoformat(state["active_at"]) == active
    assert datetime.fromisoformat(state["closes_at"]) == active + timedelta(days=45)
    left = player.post(f"tables/{code}/leave", {"version": state["version"]}).body
    assert left["closes_at"] is None, "a closed table closes no more"
