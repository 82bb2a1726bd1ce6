"""The "use on another device" link: it carries the token once, for a short while, and
never in the clear."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client

from bansugoroku.front import devices
from bansugoroku.front.identity import COOKIE
from bansugoroku.games import services


def make_link(client: Client) -> str:
    page = client.post("/device")
    assert page.status_code == 200
    return re.search(r'href="http://testserver(/device/[^"]+)"', page.content.decode()).group(1)


@pytest.fixture
def phone(db: None) -> tuple[Client, str]:
    _, token = services.player_create(name="Aiko")
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
    _, token = services.player_create(name="Aiko")
    link = devices.make_link(token)
    start = threading.Barrier(2)
    results: list[str] = []

    def use() -> None:
        try:
            start.wait()
            results.append(devices.use_link(link))
        except devices.LinkUnusable:
            results.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=use) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == sorted([token, "refused"])
