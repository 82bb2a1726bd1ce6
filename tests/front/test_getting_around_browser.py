"""Getting around in a real Chromium: the home page's first screen on a phone, a pasted
invitation link in the code field, and the count of tables waiting for the player's
move, which follows the game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.front.browsers import (
    DESKTOP,
    PHONE,
    Watched,
    act,
    assert_fits,
    my_turn,
    needs_chromium,
    play_one_move,
    shoot,
)

pytestmark = needs_chromium


@pytest.fixture
def browsers(chromium: Any, transactional_db: None, settings: Any) -> Iterator[Any]:
    settings.PLAY_POLL_MS = 150
    settings.DEBUG = True  # plain-HTTP cookies
    opened: list[Watched] = []

    def open_one(viewport: dict[str, int]) -> Watched:
        watched = Watched(chromium, viewport, has_touch=viewport == PHONE)
        opened.append(watched)
        return watched

    yield open_one
    for watched in opened:
        watched.context.close()


def in_first_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


def test_the_home_page_offers_both_games_in_a_phones_first_screen(server, browsers):
    phone = browsers(PHONE)
    page = phone.page
    page.goto(server + "/")
    shoot(page, "360x740-home-first-screen")
    assert in_first_screen(page, '[data-test="play-friend"]')
    assert in_first_screen(page, '[data-test="play-cpu"]')
    assert not page.locator("input[name=muji]").first.is_visible(), "the house rules fold"
    assert "iri-gachi" in page.locator("details.house-rules summary").inner_text()
    assert_fits(page)
    page.locator("details.house-rules summary").click()
    page.check("input[name=start][value=roll]")
    page.select_option("select[name=level]", "easy")
    page.click('[data-test="play-cpu"]')
    page.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    opening = re.compile(r"Opening roll: you \d, CPU \(Easy\) \d\.")
    page.locator("#news", has_text=opening).wait_for()
    assert not page.locator('[data-test="start"]').is_visible(), "no Start to press"
    assert phone.problems == []


def test_a_pasted_invitation_link_joins_the_table(server, browsers):
    aiko, ben = browsers(DESKTOP), browsers(PHONE)
    aiko.page.goto(server + "/")
    aiko.page.fill("#new_name", "Aiko")
    aiko.page.click('[data-test="play-friend"]')
    aiko.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    link = aiko.page.locator('[data-test="invite-link"]').inner_text()
    code = link.rsplit("/", 1)[1]
    ben.page.goto(server + "/")
    ben.page.fill("#join_name", "Ben")
    ben.page.fill("#join_code", f"  {link}  ")
    ben.page.click('[data-test="join-code"]')
    ben.page.wait_for_url(f"{server}/tables/{code}")
    assert aiko.problems == [] and ben.problems == []


def test_the_count_of_tables_waiting_follows_the_game(server, browsers):
    aiko, ben = browsers(PHONE), browsers(PHONE)
    a, b = aiko.page, ben.page
    codes = []
    for _ in range(2):
        a.goto(server + "/")
        if a.locator("#new_name").count():
            a.fill("#new_name", "Aiko")
        a.click('[data-test="play-friend"]')
        a.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
        codes.append(a.url.rsplit("/", 1)[1])
        b.goto(a.locator('[data-test="invite-link"]').get_attribute("href"))
        if b.locator("#join_name").count():
            b.fill("#join_name", "Ben")
        b.click('[data-test="join"]')
        b.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
        a.goto(f"{server}/tables/{codes[-1]}")
        act(a, a.locator('[data-test="start"]'))
    # Aiko starts both games (Black, taking turns): both wait for her.
    a.goto(f"{server}/me/tables")
    assert a.locator('[data-test="waiting-count"]').inner_text() == "2"
    b.goto(f"{server}/me/tables")
    assert b.locator('[data-test="waiting-count"]').count() == 0
    a.goto(f"{server}/tables/{codes[0]}")
    assert my_turn(a)
    while my_turn(a):
        play_one_move(a)
    nxt = a.locator('[data-test="next-table"]')
    nxt.wait_for(state="visible")
    assert a.locator('[data-test="waiting-count"]').inner_text() == "1"
    name = "My tables (1 table waits for your move)"  # what a screen reader reads
    assert a.get_by_role("link", name=name, exact=True).count() == 1
    assert a.locator('[data-test="waiting-count"]').get_attribute("title") == (
        "1 table waits for your move"
    )
    shoot(a, "360x740-next-table")
    nxt.click()
    a.wait_for_url(f"{server}/tables/{codes[1]}")
    assert a.locator('[data-test="waiting-count"]').inner_text() == "1"
    assert aiko.problems == [] and ben.problems == []
