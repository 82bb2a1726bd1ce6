"""The lobby through the API: opening a table to anyone, the list and its filters, taking
a seat (and two taking it at once), quick pairing, a table's time in the lobby, the
records beside the hosts, and the limits on all of it."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from bansugoroku.api.lobby_views import LobbyPages
from bansugoroku.games import lobby, services
from bansugoroku.games.models import Player, Table, TableState
from bansugoroku.games.records import Record
from bansugoroku.games.records import records as records_of
from tests.client import Api, check
from tests.factories import GameFactory, PlayerFactory, TableFactory
from tests.races import Race, race_behind_lock


def opened(host: Api, **body: object) -> dict:
    answer = host.post("tables", {"open": True, **body})
    assert answer.status == 201, answer.body
    return answer.body


def listed(player: Api, query: str = "") -> list[dict]:
    answer = player.get(f"lobby{query}")
    assert answer.status == 200, answer.body
    return answer.body["results"]


def test_an_opened_table_is_listed_with_its_host_rules_and_clock(host, guest, openapi):
    state = opened(host, rules={"finish": "bear_off"}, clock_days=3)
    assert state["open_until"] is not None and state["state"] == "waiting"

    answer = guest.get("lobby")
    check(openapi, "/api/v1/lobby", "get", 200, answer)
    [row] = answer.body["results"]
    assert row["code"] == state["code"] and row["yours"] is False
    assert row["host"] == {
        "id": Player.objects.get(name="Aiko").pk,
        "name": "Aiko",
        "record": {"played": 0, "won": 0, "lost": 0},
        "rating": {"rating": 1500, "deviation": 350, "games": 0},
    }
    assert row["rated"] is True, "an open table is rated unless the host says not"
    assert row["rules"]["finish"] == "bear_off" and row["clock_days"] == 3
    assert [r["yours"] for r in listed(host)] == [True]
    assert Player.objects.get(name="Aiko").listed_at is not None
    assert Player.objects.get(name="Ben").listed_at is None, "looking lists nobody"


def test_tables_not_opened_are_not_in_the_lobby(host, guest):
    host.post("tables", {})
    host.post("tables", {"opponent": "cpu", "cpu_level": "easy"})
    assert listed(guest) == []
    assert Player.objects.get(name="Aiko").listed_at is None


def test_the_lobby_filters_by_house_rules_and_clock(host, guest, api):
    other = api.new_player("Chie")
    plain = opened(host)["code"]
    clocked = opened(host, rules={"muji": "off", "start": "roll"}, clock_days=7)["code"]
    bear_off = opened(other, rules={"finish": "bear_off"})["code"]

    def codes(query: str) -> list[str]:
        return [row["code"] for row in listed(guest, query)]

    assert codes("") == [plain, clocked, bear_off], "the longest waiting first"
    assert codes("?clock=none") == [plain, bear_off]
    assert codes("?clock=7") == [clocked]
    assert codes("?clock=3") == []
    assert codes("?finish=bear_off") == [bear_off]
    assert codes("?muji=off&start=roll") == [clocked]
    assert codes("?finish=iri&clock=any") == [plain, clocked]


@pytest.mark.parametrize(
    "query",
    ["?clock=4", "?clock=0", "?finish=all", "?muji=1", "?start=%00", "?colour=black", "?cursor=x"],
)
def test_malformed_filters_are_refused(guest, query):
    answer = guest.get(f"lobby{query}")
    assert 400 <= answer.status < 500 and answer.body["code"] in ("invalid_request", "not_found")


def test_the_lobby_needs_a_player(api):
    assert api.get("lobby").status == 401


def test_pages_follow_one_another_without_repeating_a_table(host, guest, api, monkeypatch):
    monkeypatch.setattr(LobbyPages, "page_size", 2)
    hosts = [host, api.new_player("Chie")]
    codes = [opened(hosts[i % 2])["code"] for i in range(5)]

    seen, path = [], "lobby"
    while path:
        answer = guest.get(path)
        assert answer.status == 200
        seen += [row["code"] for row in answer.body["results"]]
        following = answer.body["next"]
        path = following.split("/api/v1/", 1)[1] if following else ""
    assert seen == codes


def test_taking_the_seat_readies_the_table_and_takes_it_out_of_the_lobby(host, guest, openapi):
    code = opened(host)["code"]
    answer = guest.post(f"lobby/{code}/take", {"entropy": "mine"})
    check(openapi, "/api/v1/lobby/{code}/take", "post", 200, answer)
    assert answer.body["state"] == "ready" and answer.body["open_until"] is None
    assert [s["name"] for s in answer.body["seats"]] == ["Aiko", "Ben"]
    assert listed(host) == []
    assert Player.objects.get(name="Ben").listed_at is not None
    again = guest.post(f"lobby/{code}/take")
    assert again.status == 200 and again.body["version"] == answer.body["version"]
    start = host.post(f"tables/{code}/start", {"version": host.state(code)["version"]})
    assert start.status == 200 and start.body["state"] == "playing"


def test_a_late_taker_is_told_the_seat_is_taken(host, guest, api):
    code = opened(host)["code"]
    assert guest.post(f"lobby/{code}/take").status == 200
    late = api.new_player("Chie").post(f"lobby/{code}/take")
    assert (late.status, late.body["code"]) == (409, "seat_taken")


def test_a_table_never_opened_or_taken_out_cannot_be_taken(host, guest):
    code = host.post("tables", {}).body["code"]
    assert guest.post(f"lobby/{code}/take").body["code"] == "table_not_found"
    assert guest.post("lobby/NOSUCH/take").status == 404
    opened_code = opened(host)["code"]
    out = host.post(f"tables/{opened_code}/open", {"version": 1, "open": False})
    assert out.status == 200 and out.body["open_until"] is None
    assert guest.post(f"lobby/{opened_code}/take").status == 404
    assert Table.objects.get(code=opened_code).state == TableState.WAITING


def test_an_open_table_leaves_the_lobby_after_its_days(host, guest, settings):
    settings.OPEN_TABLE_DAYS = 2
    code = opened(host)["code"]
    with time_machine.travel(timezone.now() + timedelta(days=2, seconds=1)):
        assert listed(guest) == []
        late = guest.post(f"lobby/{code}/take")
        assert late.status == 404 and "no longer in the lobby" in late.body["detail"]
        assert guest.post(f"tables/{code}/join").status == 200, "its code still admits"


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_of_two_taking_the_last_seat_at_once_one_gets_it(transactional_db):
    host, ben, chie = (Api().new_player(name) for name in ("Aiko", "Ben", "Chie"))
    code = opened(host)["code"]
    answers = race_behind_lock(
        code,
        lambda: Api(ben.token).post(f"lobby/{code}/take"),
        lambda: Api(chie.token).post(f"lobby/{code}/take"),
    )
    assert sorted(a.status for a in answers) == [200, 409]
    assert [a.body["code"] for a in answers if a.status == 409] == ["seat_taken"]
    table = Table.objects.get(code=code)
    assert table.state == TableState.READY and table.last_event == 1, "one join, once"


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_two_quick_pairings_at_once_take_two_tables(transactional_db):
    hosts = [Api().new_player(f"Host {i}") for i in range(2)]
    codes = {opened(host)["code"] for host in hosts}
    seekers = [Api().new_player(f"Seeker {i}") for i in range(2)]
    answers = Race(*[lambda s=s: Api(s.token).post("lobby/quick-pairing") for s in seekers])
    taken = answers.start().answers()
    assert [a.status for a in taken] == [200, 200]
    assert {a.body["code"] for a in taken} == codes


def test_quick_pairing_takes_the_longest_waiting_match_of_someone_else(host, guest, api, openapi):
    chie = api.new_player("Chie")
    opened(guest, clock_days=3)  # the guest's own: never paired with themselves
    first = opened(host, clock_days=3)["code"]
    opened(chie, clock_days=3)
    opened(host, clock_days=1)

    answer = guest.post("lobby/quick-pairing", {"clock": 3})
    check(openapi, "/api/v1/lobby/quick-pairing", "post", 200, answer)
    assert answer.body["code"] == first and answer.body["state"] == "ready"


def test_quick_pairing_with_no_match_opens_a_table_and_then_answers_it(guest, openapi):
    answer = guest.post("lobby/quick-pairing", {"finish": "bear_off", "clock": "none"})
    check(openapi, "/api/v1/lobby/quick-pairing", "post", 201, answer)
    assert answer.body["rules"] == {"finish": "bear_off", "muji": "bigger", "start": "alternate"}
    assert answer.body["clock"] is None and answer.body["open_until"] is not None
    again = guest.post("lobby/quick-pairing", {"finish": "bear_off"})
    assert again.status == 200 and again.body["code"] == answer.body["code"]


@pytest.mark.parametrize(
    "body",
    [{"clock": 4}, {"clock": True}, {"finish": None}, {"entropy": 5}, {"seat": 1}, [], "x"],
)
def test_malformed_quick_pairings_are_refused(guest, body):
    answer = guest.post("lobby/quick-pairing", body)
    assert (answer.status, answer.body["code"]) == (400, "invalid_request")
    assert Table.objects.count() == 0


def test_only_the_host_opens_a_waiting_table(host, guest, table):
    code = host.post("tables", {}).body["code"]
    guest.post(f"tables/{code}/join")
    state = guest.state(code)
    by_guest = guest.post(f"tables/{code}/open", {"version": state["version"]})
    assert by_guest.body["code"] == "not_the_host"
    ready = host.post(f"tables/{code}/open", {"version": state["version"]})
    assert ready.body["code"] == "wrong_state"
    playing = host.post(f"tables/{table}/open", {"version": host.state(table)["version"]})
    assert playing.body["code"] == "wrong_state"
    stale = host.post(f"tables/{code}/open", {"version": 1})
    assert stale.body["code"] == "stale_state"


def test_opening_a_table_later_and_again_keeps_its_place(host, guest):
    code = host.post("tables", {}).body["code"]
    first = host.post(f"tables/{code}/open", {"version": 1})
    assert first.status == 200 and first.body["open_until"]
    again = host.post(f"tables/{code}/open", {"version": first.body["version"]})
    assert again.body["open_until"] == first.body["open_until"]
    assert again.body["version"] == first.body["version"], "nothing changed"
    assert [row["code"] for row in listed(guest)] == [code]


def test_a_host_has_few_tables_in_the_lobby_at_once(host, guest, settings):
    settings.LOBBY_TABLES_MAX = 2
    answers = [host.post("tables", {"open": True}) for _ in range(3)]
    assert [a.status for a in answers] == [201, 201, 409]
    assert answers[-1].body["code"] == "too_many_in_lobby" and answers[-1].body["limit"] == 2
    assert Table.objects.count() == 2, "the refused table was not made"
    later = host.post("tables", {}).body
    assert host.post(f"tables/{later['code']}/open", {"version": 1}).status == 409
    guest.post(f"lobby/{answers[0].body['code']}/take")
    assert host.post(f"tables/{later['code']}/open", {"version": 1}).status == 200


def test_a_table_with_the_cpu_is_not_opened(host):
    answer = host.post("tables", {"opponent": "cpu", "cpu_level": "easy", "open": True})
    assert (answer.status, answer.body["code"]) == (400, "invalid_request")


def test_seats_taken_from_the_lobby_are_limited(api, monkeypatch, throttle_clock):
    from bansugoroku.limits.throttles import TakeSeatThrottle

    monkeypatch.setattr(TakeSeatThrottle, "THROTTLE_RATES", {"take_seat": "2/hour"})
    taker = api.new_player("Ben")
    codes = [opened(api.new_player(f"Host {i}"))["code"] for i in range(3)]
    answers = [taker.post(f"lobby/{code}/take") for code in codes[:2]]
    answers += [taker.post("lobby/quick-pairing")]
    assert [a.status for a in answers] == [200, 200, 429]
    assert answers[-1].headers["Retry-After"]
    assert Table.objects.get(code=codes[2]).state == TableState.WAITING


def test_a_hosts_record_counts_games_against_people_with_a_winner(db):
    aiko, ben = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    won = GameFactory(host=aiko, guest=ben, finished=True)
    against_cpu = GameFactory(host=aiko, cpu="easy").table
    services.game_resign(player=aiko, code=against_cpu.code, version=against_cpu.version)
    GameFactory(host=aiko, guest=ben)  # still being played
    records = records_of([aiko.pk, ben.pk, PlayerFactory().pk])

    aiko_won = won.winner == 0
    kind = won.win_kind
    assert (records[aiko.pk].won, records[aiko.pk].lost) == (int(aiko_won), int(not aiko_won))
    assert (records[ben.pk].won, records[ben.pk].lost) == (int(not aiko_won), int(aiko_won))
    winner = aiko if aiko_won else ben
    assert records[winner.pk].wins == {kind: 1}, "by kind of win; the CPU's game not counted"
    assert list(records.values())[2] == Record()
    TableFactory(host=aiko, open=True)
    row = lobby.lobby_json(lobby.open_tables(timezone.now()).select_related("host"), None)
    assert row[0]["host"]["record"]["played"] == 1
