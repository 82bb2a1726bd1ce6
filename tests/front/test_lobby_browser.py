"""Two strangers meet in the lobby, in a real Chromium at a phone's size and a desktop's:
one lists a new table from the home page, the other finds it among the open tables and
takes its seat, the host starts, and the game ends on both pages. Any console error or
failed request fails the test; the lobby's screenshots go to /tmp/lobby-*.png, the home
and table pages' to .screenshots/."""

from __future__ import annotations

import re

import pytest

from engine.rules import Finish, Rules
from tests.factories import GameFactory, PlayerFactory, TableFactory
from tests.front.browsers import DESKTOP, act, assert_fits, needs_chromium, shoot

pytestmark = [needs_chromium, pytest.mark.slow, pytest.mark.usefixtures("settings_for_play")]

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_a_stranger_takes_the_seat_from_the_lobby_and_they_play(server, viewport, players):
    size = "phone" if viewport == PHONE else "desktop"
    others()
    aiko, ben = players
    a, b = aiko.page, ben.page

    a.goto(server + "/")
    a.fill("#new_name", "Aiko")
    a.check("#new_open")
    shoot(a, f"lobby-{size}-home")
    a.click('[data-test="play-friend"]')
    a.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    code = a.url[-6:]
    assert "In the lobby until" in a.locator('[data-test="lobby-line"]').inner_text()
    shoot(a, f"lobby-{size}-table")

    b.goto(server + "/")
    b.click('[data-test="lobby-link"]')
    assert b.locator(".lobby-tables li").count() == 3
    b.screenshot(path=f"/tmp/lobby-{size}.png", full_page=True)
    assert_fits(b)
    b.select_option("#id_clock", "none")
    b.click('[data-test="lobby-show"]')
    assert b.locator(".lobby-tables li").count() == 2, "the table on a clock is left out"
    row = b.locator(f'[data-test="lobby-{code}"]')
    assert "Aiko" in row.inner_text() and "No games against people yet" in row.inner_text()
    b.fill("#seat_name", "Ben")
    row.locator('[data-test="take"]').click()
    b.wait_for_url(f"{server}/tables/{code}")

    a.locator('[data-test="start"]').wait_for(state="visible")  # the seat taken, by polling
    act(a, a.locator('[data-test="start"]'))
    b.locator('[data-test="dice"] svg').first.wait_for(timeout=5000)
    b.click('[data-test="resign"]')
    act(b, b.locator('[data-test="resign-confirm"]'))
    a.locator('[data-test="play-again"]').wait_for(state="visible", timeout=5000)
    assert "Ben resigned: you win the game" in a.locator("#status").inner_text()
    assert "You resigned" in b.locator("#status").inner_text()
    assert aiko.problems == [], aiko.problems[:5]
    assert ben.problems == [], ben.problems[:5]


def others() -> None:
    """Tables other strangers opened before, so the lobby looks as it will: one host
    with a record, one table on a clock."""
    chie = PlayerFactory(name="Chie")
    GameFactory(host=chie, guest=PlayerFactory(name="Dai"), finished=True)
    TableFactory(host=chie, open=True, rules=Rules(finish=Finish.BEAR_OFF))
    TableFactory(host=PlayerFactory(name="Emi"), open=True, clock_days=3)
