"""A table's games: the list, one game's turns, the JSON and .mat exports, the dice check."""

from __future__ import annotations

import hashlib
import hmac
import re

import pytest

from bansugoroku.games.models import Game, Turn
from engine.names import roll_name
from engine.notation import parse_position_id, position_id
from engine.side import Side
from tests.client import Api, check, mover, open_table

ENDPOINTS = (
    "games",
    "games/1",
    "games/1/export.json",
    "games/1/export.mat",
    "games/1/dice",
    "games/1/review",
)


def test_the_games_list_shows_every_game_and_its_result(
    played, finished, django_assert_num_queries
):
    host, guest = played.host, played.guest
    version = host.state(finished)["version"]
    assert host.post(f"tables/{finished}/play-again", {"version": version}).status == 200
    with django_assert_num_queries(3):  # the player, the table with its seats, the games
        answer = guest.get(f"tables/{finished}/games")
    assert answer.status == 200
    first, second = answer.body
    game = Game.objects.get(table__code=finished, number=1)
    assert first["number"] == 1 and first["state"] == "won"
    assert (first["winner_seat"], first["points"]) == (game.winner, game.points)
    assert first["points"] in (1, 2, 3) and first["ended_at"] is not None
    assert first["turn_count"] == Turn.objects.filter(game=game).count() > 10
    assert second["number"] == 2 and second["state"] == "playing"
    assert second["winner_seat"] is None and second["ended_at"] is None
    assert second["starter"] == 1 - first["starter"]
    with django_assert_num_queries(4):  # ... and one game with its turns
        assert guest.get(f"tables/{finished}/games/1").status == 200
    assert answer.headers["Cache-Control"] == "private, no-cache"


def test_a_game_in_play_shows_its_turns_but_keeps_the_seed_secret(host, guest, table):
    for _ in range(3):
        player, state = mover(table, host, guest)
        moves = state["game"]["turn"]["legal_moves"][:1]
        sent = player.post(f"tables/{table}/moves", {"version": state["version"], "moves": moves})
        assert sent.status == 200, sent.body
    state = host.state(table)
    history = host.get(f"tables/{table}/games/1")
    assert history.status == 200
    body = history.body
    stored = list(Turn.objects.filter(game__table__code=table).order_by("number"))
    assert len(body["turns"]) == len(stored) >= 1
    for shown, turn in zip(body["turns"], stored, strict=True):
        name = roll_name((turn.dice[0], turn.dice[1]))
        assert shown["number"] == turn.number and shown["dice"] == turn.dice
        assert shown["color"] == ("black", "white")[turn.seat]
        assert shown["dice_name"]["kanji"] == name.kanji
        assert shown["notation"] == turn.notation
        assert shown["position_after_id_black"] == turn.position_after
    assert body["state"] == "playing" and body["table"] == table
    assert body["seed"] is None and body["seed_sha256"] == state["game"]["seed_sha256"]
    exported = host.get(f"tables/{table}/games/1/export.json").body
    assert exported["seed"] is None and exported["result"] is None
    mat = host.get(f"tables/{table}/games/1/export.mat").body.decode()
    assert f'; [Seed SHA-256 "{body["seed_sha256"]}"]' in mat
    assert '; [Seed "' not in mat and "Wins" not in mat
    refused = host.get(f"tables/{table}/games/1/dice")
    assert refused.status == 409 and refused.body["code"] == "game_in_progress"
    assert refused.headers["Content-Type"] == "application/problem+json"


def test_after_the_game_the_seed_is_shown_and_every_roll_checks_out(played, finished):
    guest = played.guest
    history = guest.get(f"tables/{finished}/games/1").body
    seed = bytes.fromhex(history["seed"])
    assert hashlib.sha256(seed).hexdigest() == history["seed_sha256"]
    answer = guest.get(f"tables/{finished}/games/1/dice")
    assert answer.status == 200
    check = answer.body
    assert check["all_match"] is True and check["commitment_matches"] is True
    black, white = check["entropy"]["black"], check["entropy"]["white"]
    assert (black["value"], white["value"]) == ("aiko's dice", "ben ü")
    published = check["seed_published_at_version"]
    assert published < white["given_at_version"] < black["given_at_version"]
    assert check["committed_before_entropy"] is True
    assert [r["turn"] for r in check["rolls"]] == [t["number"] for t in history["turns"]]
    assert all(r["recorded"] == r["derived"] and r["matches"] for r in check["rolls"])
    assert "HMAC-SHA256" in check["recipe"] and "252" in check["recipe"]
    # Follow the recipe without the engine: the published dice come out.
    for roll in check["rolls"]:
        parts = [text.encode() for text in (roll["label"], "aiko's dice", "ben ü")]
        message = b"".join(len(part).to_bytes(4, "big") + part for part in parts)
        digest = hmac.new(seed, message, hashlib.sha256).digest()
        assert [b % 6 + 1 for b in digest if b < 252][:2] == roll["recorded"]


def test_a_tampered_roll_does_not_check_out(played, finished):
    host = played.host
    turn = Turn.objects.get(game__table__code=finished, number=2)
    turn.dice = [turn.dice[0] % 6 + 1, turn.dice[1]]
    turn.save()
    check = host.get(f"tables/{finished}/games/1/dice").body
    assert check["all_match"] is False
    assert [r["label"] for r in check["rolls"] if not r["matches"]] == ["2"]


def test_the_opening_rolls_are_checked_with_their_own_labels(host, guest):
    code = open_table(host, guest, {"start": "roll"})
    state = host.state(code)
    assert host.post(f"tables/{code}/resign", {"version": state["version"]}).status == 200
    check = guest.get(f"tables/{code}/games/1/dice").body
    openings = [r for r in check["rolls"] if r["turn"] is None]
    assert [r["label"] for r in openings] == [
        f"opening-{i}" for i in range(1, len(state["game"]["opening_rolls"]) + 1)
    ]
    assert [r["recorded"] for r in openings] == state["game"]["opening_rolls"]
    assert check["all_match"] is True


def test_the_json_export_is_the_whole_event_log(played, finished):
    host = played.host
    answer = host.get(f"tables/{finished}/games/1/export.json")
    assert answer.status == 200
    assert answer.headers["Content-Disposition"] == (
        f'attachment; filename="bansugoroku-{finished}-game-1.json"'
    )
    log = answer.body
    game = Game.objects.get(table__code=finished, number=1)
    assert log["format"] == "bansugoroku-game" and log["format_version"] == 2
    assert log["table"] == finished and log["game"] == 1
    assert log["rules"] == {"finish": "iri", "muji": "bigger", "start": "alternate"}
    assert [(s["name"], s["cpu"], s["entropy"]) for s in log["seats"]] == [
        ("Aiko", None, "aiko's dice"),
        ("Ben", None, "ben ü"),
    ]
    assert log["seed"] == bytes(game.seed).hex() and log["seed_sha256"] == game.seed_hash
    assert log["result"] == {
        "kind": "won",
        "winner_seat": game.winner,
        "points": game.points,
        "win_kind": game.win_kind,
    }
    assert [t["notation"] for t in log["turns"]] == list(
        game.turns.values_list("notation", flat=True)
    )
    assert log["turns"][-1]["points"] == game.points


def mat_columns(text: str) -> tuple[list[str], dict[int, tuple[str, str]]]:
    """The header lines of a .mat text and its numbered lines as (left, right) columns."""
    lines = text.splitlines()
    header = [line for line in lines if line.startswith("; [")]
    numbered = {}
    for line in lines:
        match = re.match(r"^ *(\d+)\) ", line)
        if match:
            numbered[int(match[1])] = (line[5:37].strip(), line[37:].strip())
    return header, numbered


def mirrored(moves: list[list[int]]) -> list[list[int]]:
    return [[25 - src, 25 - dst] for src, dst in moves]


def test_every_move_and_position_of_the_history_is_from_the_callers_side(played, finished):
    stored = list(Turn.objects.filter(game__table__code=finished).order_by("number"))
    for seat, player in enumerate((played.host, played.guest)):
        me = Side(seat)
        history = player.get(f"tables/{finished}/games/1").body
        exported = player.get(f"tables/{finished}/games/1/export.json").body
        assert exported["seen_from"] == seat and exported["turns"] == history["turns"]
        for shown, turn in zip(history["turns"], stored, strict=True):
            mine = turn.seat == seat
            assert shown["moves"] == (turn.moves if mine else mirrored(turn.moves))
            after = me.sees(parse_position_id(turn.position_after))
            assert shown["position_after"]["id"] == position_id(after)
            assert shown["position_after"]["points"] == list(after.points)
            assert shown["position_after_id_black"] == turn.position_after
        assert history["turns"][-1]["position_after"] == player.state(finished)["game"]["position"]
    black = played.host.get(f"tables/{finished}/games/1").body["turns"]
    white = played.guest.get(f"tables/{finished}/games/1").body["turns"]
    white_turn = next(i for i, t in enumerate(stored) if t.seat == 1 and t.moves)
    assert white[white_turn]["moves"] == stored[white_turn].moves
    assert black[white_turn]["moves"] == mirrored(stored[white_turn].moves)


def test_the_mat_export_reads_like_a_jellyfish_match(played, finished):
    host = played.host
    answer = host.get(f"tables/{finished}/games/1/export.mat")
    assert answer.status == 200
    assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert answer.headers["Content-Disposition"] == (
        f'attachment; filename="bansugoroku-{finished}-game-1.mat"'
    )
    text = answer.body.decode()
    game = Game.objects.get(table__code=finished, number=1)
    header, numbered = mat_columns(text)
    assert '; [Variation "Ban-sugoroku"]' in header
    assert '; [Player 1 "Aiko"]' in header and '; [Player 2 "Ben"]' in header
    assert f'; [Seed "{bytes(game.seed).hex()}"]' in header
    assert " 0 point match\n\n Game 1\n Aiko : 0" in text
    assert re.search(r"^ Aiko : 0 +Ben : 0$", text, re.M)
    turns = list(game.turns.all())
    assert sorted(numbered) == list(range(1, len(numbered) + 1))
    for turn in turns:
        slot = turn.number - 1 + game.starter
        shown = numbered[slot // 2 + 1][turn.seat]
        notation = turn.notation.replace("bar", "25").replace("off", "0")
        written = f"{turn.dice[0]}{turn.dice[1]}:"
        assert shown == (f"{written} {notation}" if turn.moves else written)
    hit = next(t for t in turns if t.hit)
    assert "*" in numbered[(hit.number - 1 + game.starter) // 2 + 1][hit.seat]
    last_line = text.rstrip("\n").splitlines()[-1]
    wins = f"Wins {game.points} point{'s' if game.points > 1 else ''}"
    assert last_line.strip() == wins
    assert last_line.index("Wins") == (6 if game.winner == 0 else 38)


def test_a_resignation_is_written_in_the_losers_column(host, guest, table):
    state = host.state(table)
    assert guest.post(f"tables/{table}/resign", {"version": state["version"]}).status == 200
    text = host.get(f"tables/{table}/games/1/export.mat").body.decode()
    assert text.splitlines()[-1] == "      Wins 1 point" + " " * 20 + "Resigns"


def test_only_players_at_the_table_read_its_games(api, host, table):
    stranger = api.new_player("Chie")
    for path in ENDPOINTS:
        answer = stranger.get(f"tables/{table}/{path}")
        assert answer.status == 404 and answer.body["code"] == "table_not_found", path
        assert Api().get(f"tables/{table}/{path}").status == 401, path
        missing = host.get(f"tables/ZZZZZZ/{path}")
        assert missing.status == 404 and missing.body["code"] == "table_not_found", path


@pytest.mark.parametrize("path", ENDPOINTS[1:])
def test_an_unknown_game_number_is_404(host, table, path):
    answer = host.get(f"tables/{table}/{path.replace('/1', '/7')}")
    assert answer.status == 404 and answer.body["code"] == "game_not_found"
    assert answer.headers["Content-Type"] == "application/problem+json"


def test_history_answers_match_the_schema(openapi, played, finished):  # noqa: F811
    host = played.host
    base = "/api/v1/tables/{code}/games"
    check(openapi, base, "get", 200, host.get(f"tables/{finished}/games"))
    for suffix, path in [
        ("", "/{number}"),
        ("/export.json", "/{number}/export.json"),
        ("/dice", "/{number}/dice"),
    ]:
        check(openapi, base + path, "get", 200, host.get(f"tables/{finished}/games/1{suffix}"))
    missing = host.get(f"tables/{finished}/games/9")
    check(openapi, base + "/{number}", "get", 404, missing)
    mat = openapi["paths"][base + "/{number}/export.mat"]["get"]["responses"]["200"]
    assert list(mat["content"]) == ["text/plain"]
