"""A word to the other player: messages at a table through the API, read only by the
two seats, muted, reported (and then listed in the admin), and limited."""

from __future__ import annotations

import pytest

from bansugoroku.games.models import Message, MessageReport, Table
from tests.client import Api, check, open_table
from tests.finished_games import to_move, whole_play
from tests.races import race_behind_lock


def said(player, code: str, text: str) -> dict:
    answer = player.post(f"tables/{code}/messages", {"text": text})
    assert answer.status == 201, answer.body
    return answer.body


def texts(player, code: str, after: int = 0) -> list[str]:
    answer = player.get(f"tables/{code}/messages?after={after}")
    assert answer.status == 200, answer.body
    return [m["text"] for m in answer.body["messages"]]


def test_both_seats_read_what_either_says_and_nobody_else(host, guest, api, table, openapi):
    sent = host.post(f"tables/{table}/messages", {"text": "  Good luck!\r\nHave fun  "})
    check(openapi, "/api/v1/tables/{code}/messages", "post", 201, sent)
    assert sent.body["text"] == "Good luck!\nHave fun" and sent.body["yours"] is True
    said(guest, table, "<b>Thanks</b> & you")

    answer = guest.get(f"tables/{table}/messages")
    check(openapi, "/api/v1/tables/{code}/messages", "get", 200, answer)
    assert [m["yours"] for m in answer.body["messages"]] == [False, True]
    assert texts(host, table) == ["Good luck!\nHave fun", "<b>Thanks</b> & you"], "as text"
    assert texts(host, table, after=sent.body["id"]) == ["<b>Thanks</b> & you"]
    outsider = api.new_player("Chie")
    assert outsider.get(f"tables/{table}/messages").body["code"] == "table_not_found"
    assert outsider.post(f"tables/{table}/messages", {"text": "hi"}).status == 404
    assert Message.objects.count() == 2


@pytest.mark.parametrize(
    "body",
    [
        {"text": ""},
        {"text": "   "},
        {"text": "x" * 301},
        {"text": 5},
        {"text": None},
        {"text": "bell\x07"},
        {"text": "right\u202eto left"},
        {"text": "hi", "seat": 1},
        ["hi"],
    ],
)
def test_malformed_messages_are_refused_and_nothing_is_kept(host, table, body):
    answer = host.post(f"tables/{table}/messages", body)
    assert (answer.status, answer.body["code"]) == (400, "invalid_request")
    assert Message.objects.count() == 0


def test_muting_hides_the_other_seats_messages_until_unmuted(host, guest, table):
    said(guest, table, "one")
    assert host.put(f"tables/{table}/mute", {"mute": True}).status == 204
    said(guest, table, "two")
    said(host, table, "mine")
    answer = host.get(f"tables/{table}/messages").body
    assert answer["muting"] is True and [m["text"] for m in answer["messages"]] == ["mine"]
    assert texts(guest, table) == ["one", "two", "mine"], "the other still reads all"
    assert host.put(f"tables/{table}/mute", {"mute": "maybe"}).status == 400
    host.put(f"tables/{table}/mute", {"mute": False})
    assert texts(host, table) == ["one", "two", "mine"]


def test_a_reported_message_is_hidden_for_the_reporter_and_in_the_admin(
    host, guest, table, admin_client
):
    rude = said(guest, table, "you play like a crab")
    said(guest, table, "sorry")
    mine = said(host, table, "hmm")
    assert host.post(f"tables/{table}/messages/{rude['id']}/report").status == 204
    assert host.post(f"tables/{table}/messages/{rude['id']}/report").status == 204, "again"
    assert MessageReport.objects.count() == 1
    assert texts(host, table) == ["sorry", "hmm"]
    assert texts(guest, table) == ["you play like a crab", "sorry", "hmm"]
    for wrong in (mine["id"], 0, 10**12):
        refused = host.post(f"tables/{table}/messages/{wrong}/report")
        assert (refused.status, refused.body["code"]) == (404, "message_not_found")

    page = admin_client.get("/admin/games/messagereport/")
    assert page.status_code == 200
    assert "you play like a crab" in page.content.decode() and table in page.content.decode()


def test_messages_are_limited_and_a_closed_table_takes_none(
    host, guest, table, monkeypatch, throttle_clock
):
    from bansugoroku.limits.throttles import MessageThrottle

    monkeypatch.setattr(MessageThrottle, "THROTTLE_RATES", {"message": "2/hour"})
    answers = [host.post(f"tables/{table}/messages", {"text": f"#{i}"}) for i in range(3)]
    assert [a.status for a in answers] == [201, 201, 429]
    assert said(guest, table, "my own count")["text"] == "my own count"
    host.post(f"tables/{table}/leave", {"version": host.state(table)["version"]})
    closed = guest.post(f"tables/{table}/messages", {"text": "bye"})
    assert (closed.status, closed.body["code"]) == (409, "table_closed")
    assert texts(guest, table) == ["#0", "#1", "my own count"], "kept after the close"


def message_events(player, code: str) -> list[dict]:
    answer = player.get(f"tables/{code}/events")
    assert answer.status == 200, answer.body
    return [e for e in answer.body["events"] if e["kind"] == "message"]


def test_the_events_feed_carries_messages_as_each_seat_reads_them(host, guest, table, openapi):
    version = host.state(table)["version"]
    first = said(guest, table, "<i>hi</i>")
    said(host, table, "hello")
    assert host.state(table)["version"] == version, "a message moves no version"

    answer = host.get(f"tables/{table}/events")
    check(openapi, "/api/v1/tables/{code}/events", "get", 200, answer)
    mine = [e["payload"] for e in message_events(host, table)]
    assert [(p["text"], p["yours"]) for p in mine] == [("<i>hi</i>", False), ("hello", True)]
    assert [e["seat"] for e in message_events(host, table)] == [1, 0]
    assert message_events(guest, table)[0]["payload"]["yours"] is True

    assert host.put(f"tables/{table}/mute", {"mute": True}).status == 204
    assert [e["payload"]["text"] for e in message_events(host, table)] == ["hello"]
    assert host.put(f"tables/{table}/mute", {"mute": False}).status == 204
    assert host.post(f"tables/{table}/messages/{first['id']}/report").status == 204
    assert [e["payload"]["text"] for e in message_events(host, table)] == ["hello"]
    assert len(message_events(guest, table)) == 2, "the writer still reads their own"


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_message_and_a_move_at_once_both_land_with_their_events_in_order(transactional_db):
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest)
    mover, waiting = to_move(code, host, guest)
    state = mover.state(code)
    move = {"version": state["version"], "moves": whole_play(code)}
    answers = race_behind_lock(
        code,
        lambda: Api(mover.token).post(f"tables/{code}/moves", move),
        lambda: Api(waiting.token).post(f"tables/{code}/messages", {"text": "your move"}),
    )
    assert sorted(a.status for a in answers) == [200, 201]
    table = Table.objects.get(code=code)
    sequences = list(table.events.order_by("sequence").values_list("sequence", "kind"))
    assert [s for s, _ in sequences] == list(range(1, table.last_event + 1))
    assert [k for _, k in sequences].count("message") == 1
    assert table.version == state["version"] + 1, "only the move moved it"
