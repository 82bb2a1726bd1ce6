"""The state says what just happened: the opponent's last play and the passes since
yours, so a client opened from a notice can tell its player without reading events."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from django.apps import apps

from bansugoroku.games import events
from bansugoroku.games.models import Game
from engine.game import FinishedTurn
from engine.position import Position
from engine.side import Side
from tests.client import Api, mover, open_table


def hits_by_position(before: list[int], moves: list[list[int]]) -> list[bool]:
    """Which of the opponent's `moves` (numbered from the reader's side, running upward)
    land on a single stone of the reader's, made one after the other from `before`."""
    points = list(before)
    hits = []
    for start, end in moves:
        if start >= 1:
            points[start - 1] += 1
        hits.append(end <= 24 and points[end - 1] == 1)
        if end <= 24:
            points[end - 1] = min(points[end - 1], 0) - 1
    return hits


def told_by_history(player: Api, code: str, seat: int) -> dict[str, Any]:
    """What `last_play`, `passes_since` and `since_your_play` must be, worked out from
    the game's history (which move hit, from the positions)."""
    turns = player.get(f"tables/{code}/games/1").body["turns"]
    start = Side(seat).sees(Position.start()).points
    points = [list(start)] + [t["position_after"]["points"] for t in turns]
    before = {t["number"]: points[i] for i, t in enumerate(turns)}
    theirs = [t for t in turns if t["seat"] != seat and t["moves"]]
    mine = [t["number"] for t in turns if t["seat"] == seat and t["moves"]]
    keys = ("turn", "seat", "dice", "moves", "notation", "hit")
    last = {k: theirs[-1]["number" if k == "turn" else k] for k in keys} if theirs else None
    since = [t for t in turns if t["number"] > max(mine, default=0)]
    passes = [
        {"turn": t["number"], "seat": t["seat"], "dice": t["dice"]} for t in since if not t["moves"]
    ]
    told = [
        {
            "turn": t["number"],
            "seat": t["seat"],
            "yours": t["seat"] == seat,
            "dice": t["dice"],
            "passed": not t["moves"],
            "moves": t["moves"],
            "notation": t["notation"] if t["moves"] else "",
            "hit": t["hit"],
            "hits": hits_by_position(before[t["number"]], t["moves"]) if t["moves"] else [],
        }
        for t in since
    ]
    return {"last_play": last, "passes_since": passes, "since_your_play": told}


def test_a_new_game_has_nothing_to_tell(host, guest, table):
    for player in (host, guest):
        game = player.state(table)["game"]
        assert (game["last_play"], game["passes_since"], game["since_your_play"]) == (None, [], [])


def test_the_opponents_play_is_told_from_your_side(host, guest, table):
    player, state = mover(table, host, guest)
    other = guest if player is host else host
    turn = state["game"]["turn"]
    first = turn["legal_moves"][0]
    half = player.post(f"tables/{table}/moves", {"version": state["version"], "moves": [first]})
    second = half.body["game"]["turn"]["legal_moves"][0]
    done = player.post(
        f"tables/{table}/moves", {"version": half.body["version"], "moves": [second]}
    )
    assert done.body["game"]["last_play"] is None, "the opponent has not played yet"
    told = other.state(table)["game"]["last_play"]
    assert told["turn"] == turn["number"] and told["seat"] == turn["seat"]
    assert told["dice"] == turn["dice"]
    assert told["moves"] == [[25 - a, 25 - b] for a, b in (first, second)]
    assert told["notation"].startswith(f"{first[0]}/{first[1]}")


@pytest.mark.slow
def test_every_state_of_a_game_tells_what_its_history_does(host, guest, monkeypatch):
    # A long game reads the state and the history of both seats after every turn: more
    # than THROTTLE_PLAYER a minute on a fast machine, which this test is not about.
    from bansugoroku.limits.throttles import PlayerRateThrottle

    monkeypatch.setattr(PlayerRateThrottle, "THROTTLE_RATES", {"player": "100000/min"})
    code = open_table(host, guest, {"finish": "bear_off", "muji": "on_the_spot"})
    rng = random.Random(code)
    players = (host, guest)
    for _ in range(3000):
        player, state = mover(code, *players)
        if state["game"]["state"] != "playing":
            break
        move = rng.choice(state["game"]["turn"]["legal_moves"])
        answer = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": [move]})
        assert answer.status == 200, answer.body
        if answer.body["game"]["turn"] and answer.body["game"]["turn"]["yours"]:
            continue
        for seat, reader in enumerate(players):
            game = reader.state(code)["game"]
            expected = told_by_history(reader, code, seat)
            assert {k: game[k] for k in expected} == expected
        if answer.body["game"]["state"] != "playing":
            break
    else:
        raise AssertionError("the game did not end")


def turn_of(number: int, side: Side, moves: tuple = ()) -> FinishedTurn:
    notation = " ".join(f"{a}/{b}" for a, b in moves) or "pass"
    return FinishedTurn(number, side, (6, 5), moves, notation, False, 0, Position.start())


def test_a_play_starts_its_seats_list_over_and_a_pass_counts_for_both():
    game = Game()
    events.note_turns(game, [turn_of(1, Side.BLACK, ((13, 7), (13, 8)))])
    events.note_turns(game, [turn_of(2, Side.WHITE), turn_of(3, Side.BLACK, ((8, 2),))])
    events.note_turns(game, [turn_of(4, Side.WHITE), turn_of(5, Side.BLACK)])
    plays, since = game.recent["plays"], game.recent["since"]
    assert plays[0]["turn"] == 3 and plays[0]["moves"] == [[8, 2]] and plays[1] is None
    assert [t["turn"] for t in since[0]] == [4, 5], "since Black's play of turn 3"
    assert [t["turn"] for t in since[1]] == [1, 2, 3, 4, 5], "White never played"
    assert since[1][1] == {"turn": 2, "seat": 1, "dice": [6, 5]}
    assert since[1][2]["moves"] == [[8, 2]]


def test_the_away_summary_tells_the_hit_the_passes_and_the_plays_between(host, guest):
    """Black plays, then White hits and Black passes, then White plays again: Black's
    state lists White's two plays, the hit and the pass between, from Black's side."""
    code = open_table(host, guest)
    game = Game.objects.get(table__code=code)
    hit = FinishedTurn(
        2, Side.WHITE, (3, 2), ((6, 3), (5, 3)), "6/3* 5/3", True, 0, Position.start()
    )
    again = turn_of(4, Side.WHITE, ((13, 7),))
    events.note_turns(
        game, [turn_of(1, Side.BLACK, ((13, 7),)), hit, turn_of(3, Side.BLACK), again]
    )
    game.save(update_fields=["recent"])
    for player in (host, guest):
        state = player.state(code)
        if state["you"]["seat"] == 0:
            told = state["game"]["since_your_play"]
    assert [(t["turn"], t["yours"], t["passed"], t["hit"]) for t in told] == [
        (2, False, False, True),
        (3, True, True, False),
        (4, False, False, False),
    ]
    assert told[0]["moves"] == [[19, 22], [20, 22]] and told[0]["notation"] == "6/3* 5/3"
    assert told[0]["hits"] == [True, False], "the first move hit, on Black's 22"
    assert told[1] == {
        "turn": 3,
        "seat": 0,
        "yours": True,
        "dice": [6, 5],
        "passed": True,
        "moves": [],
        "notation": "",
        "hit": False,
        "hits": [],
    }


def test_the_migration_fills_recent_from_the_history(played, finished):
    game = Game.objects.get(table__code=finished, number=1)
    kept = game.recent
    assert kept["plays"][0] and kept["plays"][1]
    Game.objects.filter(pk=game.pk).update(recent={})
    migration = importlib.import_module("bansugoroku.games.migrations.0011_game_recent_since")
    migration.fill_since(apps, None)
    assert Game.objects.get(pk=game.pk).recent == kept
