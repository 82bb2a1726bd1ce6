"""GET /tables/{code}/events: what every change did, in order, for a player who was away."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from bansugoroku.games import selectors
from bansugoroku.games.models import Event, Table, Turn
from tests.client import Api, check, mover

PATH = "/api/v1/tables/{code}/events"


def events(player: Api, code: str, after: int = 0) -> list[dict]:
    """Every event after `after`, page by page."""
    found: list[dict] = []
    while True:
        answer = player.get(f"tables/{code}/events?after={after}")
        assert answer.status == 200, answer.body
        found += answer.body["events"]
        if not answer.body["more"]:
            return found
        after = found[-1]["sequence"]


def test_joining_and_starting_are_events_with_the_seat_they_concern(host, guest, table, openapi):
    answer = host.get(f"tables/{table}/events")
    check(openapi, PATH, "get", 200, answer)
    joined, started, turn = answer.body["events"]
    assert joined["kind"] == "player_joined" and joined["seat"] == 1
    assert joined["payload"] == {"name": "Ben"}
    assert started["kind"] == "game_started" and started["payload"]["game"] == 1
    assert started["payload"]["seed_sha256"] == host.state(table)["game"]["seed_sha256"]
    state = host.state(table)["game"]
    assert turn["kind"] == "turn_started" and turn["seat"] == state["turn"]["seat"]
    assert turn["payload"]["dice"] == state["turn"]["dice"]
    assert turn["payload"]["played"] is None and turn["payload"]["passes"] == []
    assert [e["sequence"] for e in answer.body["events"]] == [1, 2, 3]
    assert answer.body["last_sequence"] == 3 and answer.body["more"] is False
    assert events(guest, table) == answer.body["events"], "both players read the same events"


def test_the_next_turn_says_what_the_opponent_played(host, guest, table):
    player, state = mover(table, host, guest)
    turn = state["game"]["turn"]
    first = turn["legal_moves"][0]
    half = player.post(f"tables/{table}/moves", {"version": state["version"], "moves": [first]})
    assert half.status == 200
    assert events(host, table, after=3) == [], "a move within a turn is no event"
    rest = half.body["game"]["turn"]["legal_moves"]
    done = player.post(
        f"tables/{table}/moves", {"version": half.body["version"], "moves": [rest[0]]}
    )
    assert done.status == 200
    new = events(host, table, after=3)
    assert [e["kind"] for e in new] == ["turn_started"]
    played = new[0]["payload"]["played"]
    stored = Turn.objects.get(game__table__code=table, number=1)
    assert played["notation"] == stored.notation and played["moves"] == [first, rest[0]]
    assert played["seat"] == turn["seat"] and new[0]["seat"] == 1 - turn["seat"]
    opponent = guest if player is host else host
    (seen,) = events(opponent, table, after=3)
    assert seen["payload"]["played"]["moves"] == [[25 - a, 25 - b] for a, b in (first, rest[0])]
    assert seen["payload"]["played"]["notation"] == stored.notation, "the mover's numbering"
    stored_event = Event.objects.get(table__code=table, sequence=seen["sequence"])
    assert stored_event.payload["played"]["moves"] == [first, rest[0]], "stored as played"
    assert new[0]["payload"]["turn"] == 2 + len(new[0]["payload"]["passes"])


def test_a_resignation_ends_the_game_with_how_and_the_score(host, guest, table):
    version = guest.state(table)["version"]
    assert guest.post(f"tables/{table}/resign", {"version": version}).status == 200
    (ended,) = events(host, table, after=3)
    assert ended["kind"] == "game_ended" and ended["seat"] == 0
    payload = ended["payload"]
    assert (payload["winner"], payload["points"], payload["how"]) == (0, 1, "resigned")
    assert payload["score"] == [1, 0]


def test_a_refused_change_writes_no_event(host, guest, table):
    player, state = mover(table, host, guest)
    refused = player.post(f"tables/{table}/moves", {"version": state["version"], "moves": [[3, 1]]})
    assert refused.status == 422
    assert Table.objects.get(code=table).last_event == 3 and len(events(host, table)) == 3


def test_a_finished_games_events_tell_every_turn_once(played, finished):
    """Each stored turn is in exactly one event: as the play before a turn or the end,
    or among the passes; the last event is the end."""
    feed = events(played.host, finished)
    told = []
    for event in feed[2:]:
        payload = event["payload"]
        assert event["kind"] in ("turn_started", "game_ended")
        if payload["played"]:
            told.append((payload["played"]["turn"], payload["played"]["notation"]))
        told += [(p["turn"], "pass") for p in payload["passes"]]
    stored = Turn.objects.filter(game__table__code=finished).order_by("number")
    assert told == [(t.number, t.notation) for t in stored]
    assert feed[-1]["kind"] == "game_ended" and feed[-1]["payload"]["how"] == "normal"


def test_events_come_a_page_at_a_time(played, finished, monkeypatch):
    monkeypatch.setattr(selectors, "EVENTS_PAGE", 2)
    page = played.guest.get(f"tables/{finished}/events?after=1").body
    assert [e["sequence"] for e in page["events"]] == [2, 3] and page["more"] is True
    last = page["last_sequence"]
    end = played.guest.get(f"tables/{finished}/events?after={last - 1}").body
    assert [e["sequence"] for e in end["events"]] == [last] and end["more"] is False


@pytest.mark.parametrize("after", ["x", "-1", "1.5", "99999999999"])
def test_a_bad_after_is_a_400(host, table, after, openapi):
    answer = host.get(f"tables/{table}/events?after={after}")
    check(openapi, PATH, "get", 400, answer)
    assert answer.body["code"] == "invalid_request" and "after" in answer.body["errors"]


def test_only_the_players_read_a_tables_events(api, host, table):
    stranger = api.new_player("Chika")
    assert stranger.get(f"tables/{table}/events").body["code"] == "table_not_found"
    assert host.get("tables/ZZZZZZ/events").status == 404
    assert api.get(f"tables/{table}/events").status == 401


def test_an_event_number_is_written_once_per_table(host, table):
    event = Event.objects.filter(table__code=table).first()
    assert event is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(
            table=event.table, sequence=event.sequence, kind=event.kind, payload={}
        )
