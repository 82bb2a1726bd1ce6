"""The table page fits the screen, in a real Chromium at a phone's size (touch) and a
desktop's, in every language: mid-game, with a draft made, the whole board, the dice and
the Play button stand in the first screen without scrolling, every label on the board
reads at 11 px or more and none lies under a stone."""

from __future__ import annotations

from typing import Any

import pytest

from bansugoroku.front.identity import COOKIE
from tests.client import Api, mover, open_table
from tests.finished_games import whole_play
from tests.front.browsers import DESKTOP, PHONE, Watched, assert_fits, shoot

pytestmark = pytest.mark.usefixtures("settings_for_play")

TURNS_BEFORE = 9
"""Plays made before the page opens: stones spread over the board, some stacks tall."""

LANGUAGES = ["en", "de", "fr", "ru", "ja"]


def mid_game(host: Api, guest: Api) -> tuple[Api, str]:
    """A table some turns in, its player to move holding a roll."""
    code = open_table(host, guest, {"finish": "bear_off", "muji": "off"})
    for _ in range(TURNS_BEFORE):
        player, state = mover(code, host, guest)
        body = {"version": state["version"], "moves": whole_play(code)}
        assert player.post(f"tables/{code}/moves", body).status == 200
    return mover(code, host, guest)[0], code


def draft_a_play(page: Any) -> None:
    """Tap a movable stone and where it goes until the draft is a whole play and Play
    shows, nothing sent."""
    play = page.locator('[data-test="play"]')
    for _ in range(4):
        if play.is_visible():
            return
        page.locator("[data-movable]").first.click()
        page.locator("[data-legal]").first.click()
    assert play.is_visible(), "a whole play drafted shows Play"


OUTSIDE = """([selector]) => [...document.querySelectorAll(selector)].map(e => {
    const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            width: innerWidth, height: innerHeight};
})"""

LABELS = """() => {
    const stones = [...document.querySelectorAll('#board .stone')]
        .map(s => s.getBoundingClientRect());
    return [...document.querySelectorAll('#board .label')].map(label => {
        const r = label.getBoundingClientRect();
        const size = parseFloat(getComputedStyle(label).fontSize) * label.getScreenCTM().a;
        const under = stones.some(s => r.left < s.right && s.left < r.right
            && r.top < s.bottom && s.top < r.bottom);
        return {text: label.textContent, size, under};
    });
}"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_board_dice_and_play_fit_the_first_screen(
    chromium, server, host, guest, size, language
):
    player, code = mid_game(host, guest)
    watched = Watched(chromium, size, has_touch=size == PHONE, is_mobile=size == PHONE)
    try:
        cookies = [{"name": COOKIE, "value": player.token, "url": server}]
        cookies.append({"name": "django_language", "value": language, "url": server})
        watched.context.add_cookies(cookies)
        page = watched.page
        page.goto(f"{server}/tables/{code}")
        draft_a_play(page)
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, f"fit-{size['width']}x{size['height']}-{language}")
        for selector in ("#board", '[data-test="dice"]', '[data-test="play"]'):
            for box in page.evaluate(OUTSIDE, [selector]):
                inside = box["top"] >= 0 and box["bottom"] <= box["height"]
                inside = inside and box["left"] >= 0 and box["right"] <= box["width"]
                assert inside, f"{selector} at {box}"
        labels = page.evaluate(LABELS)
        assert len(labels) == 28
        small = [(label["text"], round(label["size"], 1)) for label in labels if label["size"] < 11]
        assert not small, f"labels under 11 px: {small}"
        hidden = [label["text"] for label in labels if label["under"]]
        assert not hidden, f"labels under a stone: {hidden}"
        assert_fits(page)
        assert watched.problems == []
    finally:
        watched.context.close()
