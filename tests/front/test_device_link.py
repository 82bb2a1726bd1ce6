"""The "use on another device" link: it carries the token once, for a short while, and
never in the clear."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from bansugoroku.front import devices
from bansugoroku.front.identity import COOKIE, KEPT, KEPT_COOKIE, MAX_AGE
from tests.factories import PlayerFactory, TableFactory
from tests.races import Race


def make_link(client: Client) -> str:
    page = client.post("/device")
    assert page.status_code == 200
    return re.search(r'href="http://testserver(/device/[^"]+)"', page.content.decode()).group(1)


@pytest.fixture
def phone(db: None) -> tuple[Client, str]:
    token = PlayerFactory(name="Aiko").token
    client = Client()
    client.cookies[COOKIE] = token
    return client, token


def test_the_link_plays_as_the_player_on_another_device_once(phone):
    client, token = phone
    link = make_link(client)
    assert token not in link, "the token is not readable in the link"
    other = Client()
    asked = other.get(link)
    assert asked.status_code == 200 and "play as Aiko" in asked.content.decode()
    assert COOKIE not in asked.cookies, "opening the link only asks"
    used = other.post(link)
    assert used.status_code == 302 and used.cookies[COOKIE].value == token
    assert used.cookies[COOKIE]["httponly"]
    assert Client().post(link).status_code == 410
    assert Client().get(link).status_code == 410


def test_an_expired_link_does_nothing(phone):
    client, _ = phone
    link = make_link(client)
    with time_machine.travel(timedelta(minutes=16)):
        answer = Client().post(link)
    assert answer.status_code == 410 and COOKIE not in answer.cookies


@pytest.mark.parametrize(
    "link",
    ["nonsense", "gAAAAA" + "A" * 120, "%00", "é" * 40],
    ids=["text", "forged", "nul", "utf8"],
)
def test_a_damaged_or_forged_link_does_nothing(db, link):
    assert Client().get(f"/device/{link}").status_code == 410
    answer = Client().post(f"/device/{link}")
    assert answer.status_code == 410 and COOKIE not in answer.cookies


def test_a_link_made_with_another_key_does_nothing(phone, settings):
    client, _ = phone
    link = make_link(client)
    settings.SECRET_KEY = "another-key-" * 5
    assert Client().post(link).status_code == 410


def test_a_browser_without_a_player_makes_no_link(db):
    assert Client().post("/device")["Location"] == "/"
    assert Client().get("/device").status_code == 405


@pytest.mark.django_db(transaction=True)
def test_two_devices_racing_for_one_link_get_it_once():
    """Two connections use the same link at the same moment: the nonce's primary key
    lets exactly one of them through."""
    token = PlayerFactory(name="Aiko").token
    link = devices.make_link(token)

    def use() -> str:
        try:
            return devices.use_link(link)
        except devices.LinkUnusable:
            return "refused"

    results = Race(use, use).start().answers()
    assert sorted(results) == sorted([token, "refused"])


# --- A browser that already plays as someone ------------------------------------------


def use(client: Client, link: str) -> None:
    used = client.post(link)
    assert used.status_code == 302
    for name in (COOKIE, KEPT_COOKIE):
        client.cookies[name] = used.cookies[name].value  # as a browser keeps them


def test_the_link_says_who_this_browser_plays_as_now_and_what_leaves_it(db):
    victim = PlayerFactory(name="Victim")
    TableFactory(host=victim), TableFactory(host=victim)
    mallory = PlayerFactory(name="Mallory")
    browser = Client()
    browser.cookies[COOKIE] = victim.token

    page = browser.get("/device/" + devices.make_link(mallory.token)).content.decode()

    assert "This browser will play as Mallory" in page
    assert "This browser plays as Victim now, at 2 tables." in page
    assert "Victim's tables are no longer shown in this browser, but it keeps Victim" in page


def test_a_link_for_the_player_this_browser_plays_as_warns_of_nothing(phone):
    client, _ = phone
    page = client.get(make_link(client)).content.decode()
    assert "play as Aiko" in page and 'data-test="device-replaces"' not in page


def test_after_the_switch_the_old_player_is_kept_and_settings_switch_back(db):
    victim, mallory = PlayerFactory(name="Victim"), PlayerFactory(name="Mallory")
    code = TableFactory(host=victim).code
    browser = Client()
    browser.cookies[COOKIE] = victim.token

    used = browser.post("/device/" + devices.make_link(mallory.token))

    assert used.cookies[COOKIE].value == mallory.token
    kept = used.cookies[KEPT_COOKIE]
    assert kept.value == victim.token
    assert kept["httponly"] and kept["samesite"] == "Lax" and kept["max-age"] == MAX_AGE
    settings_page = browser.get("/settings").content.decode()
    assert "Play as Victim" in settings_page

    back = browser.post("/settings/player", {"player": victim.pk})

    assert back.status_code == 302 and back["Location"] == "/me/tables"
    assert back.cookies[COOKIE].value == victim.token
    assert back.cookies[KEPT_COOKIE].value == mallory.token, "and Mallory is kept in turn"
    assert code in browser.get("/me/tables").content.decode()


def test_only_a_player_the_browser_holds_can_be_switched_to(db):
    victim, mallory, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    browser = Client()
    browser.cookies[COOKIE] = victim.token
    use(browser, "/device/" + devices.make_link(mallory.token))
    for chosen in (stranger.pk, mallory.pk, "", "x" * 50):
        answer = browser.post("/settings/player", {"player": chosen})
        assert answer.status_code == 400 and COOKIE not in answer.cookies
    assert Client().post("/settings/player", {"player": victim.pk}).status_code == 400
    assert browser.get("/settings/player").status_code == 405


def test_the_kept_cookie_is_secure_outside_development(db, settings):
    settings.DEBUG = False
    victim, mallory = PlayerFactory(), PlayerFactory()
    browser = Client()
    browser.cookies[COOKIE] = victim.token
    used = browser.post("/device/" + devices.make_link(mallory.token), secure=True)
    assert used.cookies[KEPT_COOKIE]["secure"] and used.cookies[COOKIE]["secure"]


def test_players_chain_newest_first_and_the_page_names_one_that_no_longer_fits(db):
    players = [PlayerFactory(name=f"P{n}") for n in range(KEPT + 2)]
    browser = Client()
    browser.cookies[COOKIE] = players[0].token
    for player in players[1 : KEPT + 1]:
        use(browser, "/device/" + devices.make_link(player.token))
    held = browser.cookies[KEPT_COOKIE].value.split(":")
    assert held == [p.token for p in reversed(players[:KEPT])]

    last = "/device/" + devices.make_link(players[-1].token)
    page = browser.get(last).content.decode()

    assert f"keeps at most {KEPT} other players, so it then forgets P0." in page
    use(browser, last)
    assert browser.cookies[KEPT_COOKIE].value.split(":") == [
        p.token for p in reversed(players[1 : KEPT + 1])
    ]


def test_a_purged_player_is_no_longer_kept(db):
    victim, mallory = PlayerFactory(name="Victim"), PlayerFactory(name="Mallory")
    browser = Client()
    browser.cookies[COOKIE] = victim.token
    use(browser, "/device/" + devices.make_link(mallory.token))
    victim_id = victim.pk
    victim.delete()
    assert "Victim" not in browser.get("/settings").content.decode()
    assert browser.post("/settings/player", {"player": victim_id}).status_code == 400
