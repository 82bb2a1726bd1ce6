"""Sending moves: one die at a time or a whole play, undo, refusals that say why."""

from __future__ import annotations

import pytest

from bansugoroku.games.models import Game, Table, Turn
from engine.notation import parse_position_id, position_id
from engine.position import Position
from engine.side import Side
from engine.turn import TurnInProgress as EngineTurn
from tests.client import mover


def post_moves(player, code, state, moves):
    return player.post(f"tables/{code}/moves", {"version": state["version"], "moves": moves})


def test_a_move_at_a_time_keeps_the_turn_open_until_the_dice_are_used(host, guest, table):
    player, state = mover(table, host, guest)
    turn = state["game"]["turn"]
    first = turn["legal_moves"][0]
    after_one = post_moves(player, table, state, [first])
    assert after_one.status == 200
    body = after_one.body
    assert body["version"] == state["version"] + 1
    # Every roll from the start can use both dice, so one move leaves the turn open.
    after = body["game"]["turn"]
    assert after["yours"] and after["number"] == turn["number"]
    assert after["pending"] == [first] and after["can_undo"] is True
    assert len(after["remaining_dice"]) == 1


def test_both_seats_get_the_same_turn_keys_the_waiting_one_empty(host, guest, table):
    player, state = mover(table, host, guest)
    waiting = (guest if player is host else host).state(table)["game"]["turn"]
    assert set(waiting) == set(state["game"]["turn"])
    assert waiting["yours"] is False
    assert (waiting["pending"], waiting["pending_notation"]) == ([], "")
    assert (waiting["remaining_dice"], waiting["legal_moves"]) == ([], [])
    assert waiting["can_undo"] is False


def test_the_legal_moves_are_exactly_the_engines(host, guest, table):
    player, state = mover(table, host, guest)
    game = Game.objects.get(table__code=table)
    turn = state["game"]["turn"]
    position = parse_position_id(state["game"]["position"]["id"])
    engine_turn = EngineTurn(position, tuple(turn["dice"]), Table.objects.get(code=table).rules)
    assert [list(m) for m in engine_turn.legal_moves()] == turn["legal_moves"]
    assert game.turn_seat == turn["seat"]


def test_each_legal_move_says_whether_it_ends_the_turn_and_what_it_wins(host, guest, table):
    player, state = mover(table, host, guest)
    turn = state["game"]["turn"]
    assert turn["legal_move_effects"] == [{"ends_turn": False, "wins": 0}] * len(
        turn["legal_moves"]
    ), "from the start, every roll uses both dice"
    # Iri-gachi: 14 stones home and one on point 8; the 2 brings it home and wins, the 1
    # leaves the 2 to play.
    points = [3, 3, 2, 2, 2, 2, 0, 1] + [0] * 10 + [-3, -3, -3, -2, -2, -2]
    seen = Position(tuple(points), (0, 0), (0, 0))
    stored = Side(turn["seat"]).sees(seen)
    Game.objects.filter(table__code=table).update(position=position_id(stored), dice=[2, 1])
    turn = player.state(table)["game"]["turn"]
    effects = dict(zip(map(tuple, turn["legal_moves"]), turn["legal_move_effects"], strict=True))
    assert effects[(8, 6)] == {"ends_turn": True, "wins": 1}
    assert effects[(8, 7)] == {"ends_turn": False, "wins": 0}
    assert effects[(6, 4)] == {"ends_turn": False, "wins": 0}
    assert (guest if player is host else host).state(table)["game"]["turn"][
        "legal_move_effects"
    ] == []


def test_a_whole_play_in_one_request_ends_the_turn(host, guest, table):
    player, state = mover(table, host, guest)
    turn = state["game"]["turn"]
    position = parse_position_id(state["game"]["position"]["id"])
    rules = Table.objects.get(code=table).rules
    from engine.plays import legal_plays

    play = legal_plays(position, tuple(turn["dice"]), rules)[0].moves
    answer = post_moves(player, table, state, [list(m) for m in play])
    assert answer.status == 200
    assert answer.body["game"]["turn"]["number"] > turn["number"]
    row = Turn.objects.get(game__table__code=table, number=turn["number"])
    assert row.moves == [list(m) for m in play]


def test_the_plays_left_continue_the_moves_sent_and_each_ends_the_turn_whole(host, guest, table):
    """A client drafts a whole play from `plays_left` and sends it at once: its first
    moves are the legal moves, after a move sent the plays continue it, and the last
    play listed, sent whole, ends the turn (what the table page's Play button does)."""
    player, state = mover(table, host, guest)
    turn = state["game"]["turn"]
    plays = turn["plays_left"]
    assert sorted({tuple(p["moves"][0]) for p in plays}) == sorted(map(tuple, turn["legal_moves"]))
    assert all(len(p["dice"]) == len(p["moves"]) == 2 for p in plays), "the start uses both"
    assert len({tuple(map(tuple, p["moves"])) for p in plays}) == len(plays), "each once"
    first = plays[-1]["moves"][0]
    half = post_moves(player, table, state, [first]).body
    left = half["game"]["turn"]["plays_left"]
    wanted = [p["moves"][1:] for p in plays if p["moves"][0] == first]
    assert [p["moves"] for p in left] == wanted
    done = post_moves(player, table, half, left[-1]["moves"])
    assert done.status == 200 and done.body["game"]["turn"]["number"] > turn["number"]
    assert done.body["game"]["turn"]["plays_left"] == [], "the opponent's turn now"


def test_undo_returns_to_the_start_of_the_turn_with_the_same_dice(host, guest, table):
    code = table
    player, state = mover(code, host, guest)
    turn = state["game"]["turn"]
    moved = post_moves(player, code, state, [turn["legal_moves"][0]])
    assert moved.body["game"]["turn"]["pending"], "the first move of the game leaves a die"
    undone = player.post(f"tables/{code}/undo", {"version": moved.body["version"]})
    assert undone.status == 200
    back = undone.body["game"]["turn"]
    assert back["dice"] == turn["dice"] and back["pending"] == []
    assert back["legal_moves"] == turn["legal_moves"]
    assert undone.body["game"]["position"] == state["game"]["position"]
    again = player.post(f"tables/{code}/undo", {"version": undone.body["version"]})
    assert again.status == 409 and again.body["code"] == "nothing_to_undo"


def test_moving_out_of_turn_is_409_not_your_turn(host, guest, table):
    player, state = mover(table, host, guest)
    other = guest if player is host else host
    answer = post_moves(other, table, other.state(table), [[24, 23]])
    assert answer.status == 409 and answer.body["code"] == "not_your_turn"
    undo = other.post(f"tables/{table}/undo", {"version": state["version"]})
    assert undo.body["code"] == "not_your_turn"


def test_a_stale_version_gets_409_with_the_current_version(host, guest, table):
    player, state = mover(table, host, guest)
    move = state["game"]["turn"]["legal_moves"][0]
    stale = player.post(f"tables/{table}/moves", {"version": state["version"] - 1, "moves": [move]})
    assert stale.status == 409 and stale.body["code"] == "stale_state"
    assert stale.body["version"] == state["version"]
    assert player.state(table)["version"] == state["version"], "nothing changed"


def test_the_same_move_sent_twice_after_a_retry_is_applied_once(host, guest, table):
    player, state = mover(table, host, guest)
    move = state["game"]["turn"]["legal_moves"][0]
    assert post_moves(player, table, state, [move]).status == 200
    retry = post_moves(player, table, state, [move])
    assert retry.status == 409 and retry.body["code"] == "stale_state"
    assert player.state(table)["version"] == state["version"] + 1


@pytest.mark.parametrize(
    ("move", "reason"),
    [([13, 12], None), ([20, 3], "no_stone"), ([6, 0], "cannot_bear_off"), ([3, 9], "bad_move")],
)
def test_an_illegal_move_is_422_and_says_why(host, guest, table, move, reason):
    player, state = mover(table, host, guest)  # each move is illegal from the start
    answer = post_moves(player, table, state, [move])
    assert answer.status == 422 and answer.body["code"] == "illegal_move"
    assert answer.body["move"] == move and answer.body["index"] == 0
    assert answer.body["detail"]
    if reason:
        assert answer.body["reason"] == reason
    assert player.state(table)["version"] == state["version"]


def test_a_refused_second_move_loses_the_first_too(host, guest, table):
    player, state = mover(table, host, guest)
    first = state["game"]["turn"]["legal_moves"][0]
    answer = post_moves(player, table, state, [first, [3, 9]])
    assert answer.status == 422 and answer.body["index"] == 1
    assert player.state(table)["game"]["turn"].get("pending") == []


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        "[]",
        '"moves"',
        "{}",
        '{"version": 1}',
        '{"moves": [[24, 23]]}',
        '{"version": "1", "moves": [[24, 23]]}',
        '{"version": 1.5, "moves": [[24, 23]]}',
        '{"version": true, "moves": [[24, 23]]}',
        '{"version": 0, "moves": [[24, 23]]}',
        '{"version": 99999999999999999999, "moves": [[24, 23]]}',
        '{"version": 2, "moves": []}',
        '{"version": 2, "moves": [[24, 23], [23, 22], [22, 21]]}',
        '{"version": 2, "moves": [[24]]}',
        '{"version": 2, "moves": [[24, 23, 22]]}',
        '{"version": 2, "moves": [[26, 20]]}',
        '{"version": 2, "moves": [[24, -1]]}',
        '{"version": 2, "moves": [["24", "23"]]}',
        '{"version": 2, "moves": "24/23"}',
        '{"version": 2, "moves": [[24, 23]], "force": true}',
        '{"version": 2, "moves": [[null, 23]]}',
    ],
)
def test_malformed_bodies_are_400_and_lose_nothing(host, guest, table, raw):
    player, state = mover(table, host, guest)
    answer = player.call("POST", f"tables/{table}/moves", raw=raw)
    assert answer.status == 400, answer.body
    assert answer.body["code"] == "invalid_request"
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert player.state(table)["version"] == state["version"]


def test_a_body_that_is_not_json_is_415(host, table):
    answer = host.client.post(
        f"/api/v1/tables/{table}/moves",
        data="version=1",
        content_type="application/x-www-form-urlencoded",
        headers={"Authorization": f"Bearer {host.token}"},
    )
    assert answer.status_code == 415 and answer.json()["code"] == "unsupported_media_type"


def test_polling_with_the_etag_answers_304_until_something_changes(host, guest, table):
    first = host.get(f"tables/{table}")
    tag = first.headers["ETag"]
    unchanged = host.get(f"tables/{table}", **{"If-None-Match": tag})
    assert unchanged.status == 304 and unchanged.body == b""
    assert host.get(f"tables/{table}", **{"If-None-Match": '"v0", W/' + tag}).status == 304
    player, state = mover(table, host, guest)
    post_moves(player, table, state, [state["game"]["turn"]["legal_moves"][0]])
    changed = host.get(f"tables/{table}", **{"If-None-Match": tag})
    assert changed.status == 200 and changed.headers["ETag"] != tag


def test_an_etag_does_not_open_someone_elses_table(api, table, host):
    tag = host.get(f"tables/{table}").headers["ETag"]
    stranger = api.new_player("Chie").get(f"tables/{table}", **{"If-None-Match": tag})
    assert stranger.status == 404 and stranger.body["code"] == "table_not_found"


def test_the_answer_to_a_change_is_the_state_read_fresh(host, guest, table):
    """A change answers from the engine value it made, not from the rows read back: the
    two agree, through moves that keep the turn open and moves that end it, a
    resignation and the next game."""
    for _ in range(30):
        player, state = mover(table, host, guest)
        answer = post_moves(player, table, state, [state["game"]["turn"]["legal_moves"][-1]])
        assert answer.status == 200, answer.body
        assert answer.body == player.state(table)
    player, state = mover(table, host, guest)
    resigned = player.post(f"tables/{table}/resign", {"version": state["version"]})
    assert resigned.status == 200 and resigned.body["state"] == "between_games"
    assert resigned.body == player.state(table)
    again = player.post(f"tables/{table}/play-again", {"version": resigned.body["version"]})
    assert again.status == 200 and again.body["game"]["number"] == 2
    assert again.body == player.state(table)
