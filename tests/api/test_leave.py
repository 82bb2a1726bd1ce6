"""Leaving a table: it closes for both seats with no result, the other seat is told,
and nothing more can change there."""

from __future__ import annotations

import pytest

from bansugoroku.games.models import Event, EventKind, Game, GameState, Table, TableState
from tests.client import check, mover, open_table

pytestmark = pytest.mark.django_db


def test_leaving_during_a_game_closes_the_table_and_ends_the_game_with_no_result(
    openapi, host, guest
):
    code = open_table(host, guest)
    player, state = mover(code, host, guest)
    move = state["game"]["turn"]["legal_moves"][0]
    moved = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": [move]})
    version = moved.body["version"]

    answer = guest.post(f"tables/{code}/leave", {"version": version})

    check(openapi, "/api/v1/tables/{code}/leave", "post", 200, answer)
    assert answer.body["state"] == "closed" and answer.body["closed_reason"] == "left"
    assert answer.body["version"] == version + 1
    assert answer.body["game"]["result"]["kind"] == "abandoned"
    table = Table.objects.get(code=code)
    assert (table.state, table.closed_reason, table.score) == (TableState.CLOSED, "left", (0, 0))
    game = Game.objects.get(table=table)
    assert (game.state, game.winner, game.points) == (GameState.ABANDONED, None, 0)
    assert game.ended_at is not None
    closed = Event.objects.get(table=table, kind=EventKind.TABLE_CLOSED)
    assert (closed.sequence, closed.seat, closed.game_id) == (table.last_event, 1, game.pk)
    assert closed.payload == {"reason": "left", "name": "Ben", "game": 1, "score": [0, 0]}
    assert host.state(code)["closed_reason"] == "left"
    feed = host.get(f"tables/{code}/events?after={closed.sequence - 1}")
    check(openapi, "/api/v1/tables/{code}/events", "get", 200, feed)
    assert [e["kind"] for e in feed.body["events"]] == ["table_closed"]


def test_leaving_between_games_keeps_the_score_and_the_finished_game(host, guest):
    code = open_table(host, guest)
    resigned = host.post(f"tables/{code}/resign", {"version": host.state(code)["version"]})

    answer = host.post(f"tables/{code}/leave", {"version": resigned.body["version"]})

    assert answer.status == 200 and answer.body["score"] == {
        "you": 0,
        "opponent": 1,
        "black": 0,
        "white": 1,
    }
    assert Game.objects.get(table__code=code).state == GameState.RESIGNED
    closed = Event.objects.get(table__code=code, kind=EventKind.TABLE_CLOSED)
    assert (closed.seat, closed.game_id, closed.payload["game"]) == (0, None, None)
    assert closed.payload["score"] == [0, 1]


def test_a_host_waiting_for_a_guest_can_leave_and_nobody_can_join_after(api, host):
    code = host.post("tables", {}).body["code"]
    assert host.post(f"tables/{code}/leave", {"version": 1}).status == 200
    joined = api.new_player("Chie").post(f"tables/{code}/join")
    assert (joined.status, joined.body["code"]) == (409, "table_closed")


def test_a_closed_table_refuses_every_change_whatever_the_version(host, guest):
    code = open_table(host, guest)
    version = host.state(code)["version"]
    assert host.post(f"tables/{code}/leave", {"version": version}).status == 200
    for seat in (host, guest):
        for action, body in [
            ("moves", {"moves": [[13, 10]]}),
            ("undo", {}),
            ("resign", {}),
            ("play-again", {}),
            ("entropy", {"entropy": "x"}),
            ("start", {}),
            ("leave", {}),
        ]:
            for sent in (version, version + 1, 10**6):
                answer = seat.post(f"tables/{code}/{action}", body | {"version": sent})
                assert (answer.status, answer.body["code"]) == (409, "table_closed"), action
    assert Table.objects.get(code=code).version == version + 1
    assert Event.objects.filter(table__code=code, kind=EventKind.TABLE_CLOSED).count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "invalid_request"),
        ({"version": "one"}, 400, "invalid_request"),
        ({"version": 1, "extra": True}, 400, "invalid_request"),
        ({"version": 1}, 409, "stale_state"),
    ],
)
def test_a_bad_or_stale_leave_changes_nothing(host, guest, body, status, code):
    table = open_table(host, guest)
    answer = guest.post(f"tables/{table}/leave", body)
    assert (answer.status, answer.body["code"]) == (status, code)
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert Table.objects.get(code=table).state == TableState.PLAYING
