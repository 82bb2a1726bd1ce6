"""The lobby's pages without a browser: the list and its filters, taking a seat (and
coming too late for it), quick pairing either way, the home page's box that lists a new
table, the table page's button that lists it or takes it out, and the answers to bad
input and to too many seats."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from bansugoroku.front.identity import COOKIE
from bansugoroku.games.models import Player, Table, TableState
from engine.rules import Finish, Muji, Rules, Start
from tests.factories import GameFactory, PlayerFactory, SeatFactory, TableFactory
from tests.front.pages import NEW_TABLE, browser, page

pytestmark = pytest.mark.django_db


def opened(host_name: str = "Aiko", **table: object) -> Table:
    return TableFactory(host=PlayerFactory(name=host_name), open=True, **table)


def rows(html: str) -> list[str]:
    """The codes of the tables the lobby page lists, in its order."""
    return re.findall(r'data-test="lobby-([A-Z0-9]+)"', html)


def take(client: Client, code: str, **fields: str) -> object:
    return client.post(f"/lobby/{code}/take", fields)


def test_a_visitor_sees_the_open_tables_with_their_hosts_rules_and_clocks():
    aiko = PlayerFactory(name="Aiko")
    GameFactory(host=aiko, guest=PlayerFactory(name="Ben"), finished=True)
    first = TableFactory(host=aiko, open=True)
    clocked = opened("Chie", rules=Rules(Finish.BEAR_OFF, Muji.OFF, Start.ROLL), clock_days=3)
    TableFactory(host=PlayerFactory(name="Dai"))  # not opened: only its code admits

    html = page(browser(), "/lobby")
    assert rows(html) == [first.code, clocked.code], "the longest waiting first"
    assert re.search(r"Aiko</strong>\s*<span[^>]*>1 played, \d won, \d lost<", html)
    assert "Chie</strong>" in html and "No games against people yet" in html
    assert "Dai" not in html
    assert "Finish: bearing off." in html and "Muji: no effect." in html
    assert "Start: rolled." in html and "3 days a move." in html and "No clock." in html
    assert html.count("In the lobby until ") == 2
    assert f'formaction="/lobby/{first.code}/take"' in html
    assert 'name="name"' in html, "a browser without a player names itself to take a seat"


@pytest.mark.parametrize(
    ("query", "listed"),
    [
        ("", ["plain", "bear_off", "clocked"]),
        ("?finish=bear_off", ["bear_off"]),
        ("?finish=iri&muji=bigger&start=alternate", ["plain", "clocked"]),
        ("?clock=none", ["plain", "bear_off"]),
        ("?clock=3", ["clocked"]),
        ("?clock=7", []),
        ("?finish=&muji=&start=&clock=any", ["plain", "bear_off", "clocked"]),
    ],
)
def test_the_filters_pick_the_tables(query, listed):
    tables = {
        "plain": opened("Aiko"),
        "bear_off": opened("Ben", rules=Rules(finish=Finish.BEAR_OFF)),
        "clocked": opened("Chie", clock_days=3),
    }
    html = page(browser(), f"/lobby{query}")
    assert rows(html) == [tables[name].code for name in listed]
    assert ('data-test="lobby-empty"' in html) is not listed


def test_the_hosts_own_table_links_to_its_page_instead_of_a_button():
    mine = opened("Aiko")
    html = page(browser(mine.host.token), "/lobby")
    assert f'href="/tables/{mine.code}" data-test="yours"' in html
    assert 'data-test="take"' not in html and 'name="name"' not in html


def test_a_visitor_takes_a_seat_with_a_name_and_keeps_the_player():
    table = opened("Aiko")
    client = browser()
    answer = take(client, table.code, name="Ben", entropy="ab")
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.code}"
    assert answer.cookies[COOKIE]["httponly"]
    table.refresh_from_db()
    guest = table.seats.get(number=1)
    assert table.state == TableState.READY and guest.player.name == "Ben"
    assert guest.entropy == "ab"
    assert client.get(answer["Location"]).status_code == 200
    assert rows(page(client, "/lobby")) == [], "a taken table leaves the lobby"


def test_the_late_taker_reads_that_someone_else_took_the_seat_first():
    table = opened("Aiko")
    assert take(browser(PlayerFactory(name="Ben").token), table.code).status_code == 302
    late = take(browser(PlayerFactory(name="Chie").token), table.code)
    assert late.status_code == 409
    html = late.content.decode()
    assert "Someone else took this seat first" in html
    assert 'href="/lobby" data-test="back"' in html


def test_a_seat_taken_by_its_code_or_a_table_gone_from_the_lobby_is_refused():
    joined = opened("Aiko")
    SeatFactory(table=joined)  # its code admitted a guest first
    withdrawn = opened("Chie")
    browser(withdrawn.host.token).post(
        f"/tables/{withdrawn.code}/open", {"version": withdrawn.version, "open": "false"}
    )
    never = TableFactory()
    dai = browser(PlayerFactory(name="Dai").token)
    assert take(dai, joined.code).status_code == 409
    gone = take(dai, withdrawn.code)
    assert gone.status_code == 404 and "not in the lobby any more" in gone.content.decode()
    assert take(dai, never.code).status_code == 404


def test_quick_pairing_takes_the_longest_waiting_match():
    opened("Aiko", clock_days=3)
    wanted = opened("Ben", rules=Rules(finish=Finish.BEAR_OFF))
    opened("Chie", rules=Rules(finish=Finish.BEAR_OFF))
    client = browser()
    answer = client.post("/lobby/quick-pairing", {"name": "Dai", "finish": "bear_off"})
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{wanted.code}"
    wanted.refresh_from_db()
    assert wanted.seats.get(number=1).player.name == "Dai"
    assert client.cookies[COOKIE].value


def test_quick_pairing_with_no_match_opens_a_table_for_what_was_looked_for():
    opened("Aiko")  # no clock: not what Ben looks for
    ben = PlayerFactory(name="Ben")
    client = browser(ben.token)
    sent = {"muji": "on_the_spot", "clock": "5"}
    answer = client.post("/lobby/quick-pairing", sent)
    assert answer.status_code == 302
    table = Table.objects.get(code=answer["Location"].removeprefix("/tables/"))
    assert table.host == ben and table.state == TableState.WAITING
    assert (table.muji, table.finish, table.clock_days) == ("on_the_spot", "iri", 5)
    assert table.open_until is not None
    again = client.post("/lobby/quick-pairing", sent)
    assert again["Location"] == answer["Location"], "their own open match, not another"
    chie = browser(PlayerFactory(name="Chie").token)
    assert chie.post("/lobby/quick-pairing", sent)["Location"] == answer["Location"]


def test_quick_pairing_keeps_to_the_limits_on_new_tables(settings):
    settings.OPEN_TABLES_MAX = 1
    ben = PlayerFactory(name="Ben")
    TableFactory(host=ben)
    answer = browser(ben.token).post("/lobby/quick-pairing", {})
    assert answer.status_code == 409 and Table.objects.count() == 1
    assert "You host 1 table that waits for an opponent" in answer.content.decode()


def test_the_home_page_links_to_the_lobby_and_lists_a_friends_table_if_asked(client):
    html = page(client, "/")
    assert 'href="/lobby" data-test="lobby-link"' in html
    assert 'name="open"' in html and "Also list it in the lobby for anyone to take" in html
    listed = client.post("/new", NEW_TABLE | {"open": "on"})
    table = Table.objects.get(code=listed["Location"].removeprefix("/tables/"))
    assert table.open_until is not None
    assert rows(page(client, "/lobby")) == [table.code]
    unlisted = client.post("/new", NEW_TABLE)
    assert Table.objects.get(code=unlisted["Location"][-6:]).open_until is None


def test_the_box_means_nothing_for_a_table_with_the_cpu(client):
    answer = client.post("/new", NEW_TABLE | {"opponent": "easy", "open": "on"})
    assert answer.status_code == 302
    table = Table.objects.get(code=answer["Location"].removeprefix("/tables/"))
    assert table.open_until is None and table.state == TableState.READY


def test_listing_more_tables_than_the_lobby_holds_says_why(settings):
    settings.LOBBY_TABLES_MAX = 1
    aiko = opened("Aiko").host
    answer = browser(aiko.token).post("/new", NEW_TABLE | {"open": "on"})
    assert answer.status_code == 409 and Table.objects.count() == 1
    assert "You have 1 table in the lobby already" in answer.content.decode()


def test_the_host_takes_the_table_out_of_the_lobby_and_back_in():
    table = opened("Aiko")
    host = browser(table.host.token)
    html = page(host, f"/tables/{table.code}")
    assert re.search(r"In the lobby until [^<]+ UTC: anyone may take the seat", html)
    assert 'data-test="lobby-out"' in html
    out = host.post(f"/tables/{table.code}/open", {"version": table.version, "open": "false"})
    assert out.status_code == 302 and out["Location"] == f"/tables/{table.code}"
    html = page(host, f"/tables/{table.code}")
    assert "Not in the lobby" in html and 'data-test="lobby-in"' in html
    assert rows(page(browser(), "/lobby")) == []
    table.refresh_from_db()
    back = host.post(f"/tables/{table.code}/open", {"version": table.version, "open": "true"})
    assert back.status_code == 302 and rows(page(browser(), "/lobby")) == [table.code]


def test_only_the_host_of_a_waiting_table_sees_the_lobby_line():
    table = opened("Aiko")
    guest = PlayerFactory(name="Ben")
    assert take(browser(guest.token), table.code).status_code == 302
    for token in (table.host.token, guest.token):
        assert 'data-test="lobby-line"' not in page(browser(token), f"/tables/{table.code}")
    cpu = TableFactory(cpu="easy")
    assert 'data-test="lobby-line"' not in page(browser(cpu.host.token), f"/tables/{cpu.code}")


def test_a_stale_or_refused_lobby_button_says_why_and_leads_back():
    table = opened("Aiko")
    stale = browser(table.host.token).post(
        f"/tables/{table.code}/open", {"version": table.version - 1, "open": "false"}
    )
    assert stale.status_code == 409
    assert f'href="/tables/{table.code}" data-test="back"' in stale.content.decode()
    stranger = browser(PlayerFactory().token).post(
        f"/tables/{table.code}/open", {"version": table.version, "open": "false"}
    )
    assert stranger.status_code == 404
    visitor = browser().post(f"/tables/{table.code}/open", {"version": 1, "open": "false"})
    assert visitor.status_code == 302 and visitor["Location"] == f"/t/{table.code}"


@pytest.mark.parametrize(
    "query", ["?finish=sudden_death", "?muji=x", "?start=1", "?clock=4", "?clock=never"]
)
def test_unknown_filters_are_400_with_why(query):
    html = page(browser(), f"/lobby{query}", status=400)
    assert 'class="errorlist' in html and 'data-test="quick-pairing"' not in html


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/lobby/quick-pairing", {"name": "   "}),
        ("/lobby/quick-pairing", {"name": "Ben", "clock": "4"}),
        ("/lobby/quick-pairing", {"name": "Ben", "entropy": "x" * 65}),
        ("/lobby/{code}/take", {"name": "Ai\u202eko"}),
        ("/lobby/{code}/take", {}),
    ],
    ids=["blank-name", "bad-clock", "long-entropy", "bidi-name", "no-name"],
)
def test_a_bad_seat_form_is_400_and_takes_nothing(path, fields):
    table = opened("Aiko")
    answer = browser().post(path.format(code=table.code), fields)
    assert answer.status_code == 400 and 'class="errorlist' in answer.content.decode()
    table.refresh_from_db()
    assert table.state == TableState.WAITING and Player.objects.count() == 1


@pytest.mark.parametrize("code", ["nope", "ÄÖÜ", "x" * 300, "abcdef"])
def test_a_bad_code_is_404(code):
    assert take(browser(PlayerFactory().token), code).status_code == 404


@pytest.mark.parametrize(
    "fields", [{}, {"version": "x", "open": "true"}, {"version": 1, "open": "yes"}]
)
def test_a_bad_lobby_button_is_400(fields):
    table = opened("Aiko")
    answer = browser(table.host.token).post(f"/tables/{table.code}/open", fields)
    assert answer.status_code == 400


def test_the_lobby_forms_only_take_post_with_the_csrf_token():
    table = opened("Aiko")
    for path in (f"/lobby/{table.code}/take", "/lobby/quick-pairing", f"/tables/{table.code}/open"):
        assert browser().get(path).status_code == 405
        guarded = Client(enforce_csrf_checks=True).post(path, {"name": "Ben"})
        assert guarded.status_code == 403


def test_seats_taken_are_limited_per_player(monkeypatch):
    from bansugoroku.limits.throttles import TakeSeatThrottle

    monkeypatch.setattr(TakeSeatThrottle, "THROTTLE_RATES", {"take_seat": "2/hour"})
    codes = [opened(f"Host {i}").code for i in range(3)]
    ben = browser(PlayerFactory(name="Ben").token)
    answers = [take(ben, code) for code in codes[:2]] + [ben.post("/lobby/quick-pairing", {})]
    assert [a.status_code for a in answers] == [302, 302, 429]
    assert int(answers[-1]["Retry-After"]) >= 1
    assert "You took many seats" in answers[-1].content.decode()
    assert Table.objects.get(code=codes[2]).state == TableState.WAITING


def test_new_players_from_the_lobby_are_limited_per_address(monkeypatch):
    from bansugoroku.limits.throttles import NewPlayerThrottle

    monkeypatch.setattr(NewPlayerThrottle, "THROTTLE_RATES", {"new_player": "1/hour"})
    codes = [opened(f"Host {i}").code for i in range(2)]  # made in process, not counted
    assert take(browser(), codes[0], name="Ben").status_code == 302
    refused = take(browser(), codes[1], name="Chie")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert not Player.objects.filter(name="Chie").exists()
