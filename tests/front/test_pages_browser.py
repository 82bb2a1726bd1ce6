"""The history, my tables, settings, rules and data pages in a real headless Chromium
(Debian's, driven by Playwright), at a phone's size and a desktop's: no console error,
no failed request, no horizontal scroll, touch targets of 44 px, and the replay slider
and the language switch work. Screenshots go to the git-ignored .screenshots/ folder."""

from __future__ import annotations

from typing import Any

import pytest

from bansugoroku.front import devices
from tests.front.browsers import DESKTOP, PHONE, SHOTS, Watched, needs_chromium

# django_db: the committed game (`played`) needs the test database, which pytest-django
# sets up only when some collected test asks for it: run alone, this module would not.
pytestmark = [needs_chromium, pytest.mark.django_db]

SIZES = {"phone": PHONE, "desktop": DESKTOP}
TARGETS = ".page a.button, .page button, .page select, .page input, .row-link, .crumbs a"
"""The controls a finger taps; links inside running text are exempt, as WCAG has it."""


class Visit(Watched):
    """A browser context as the host of the played table, whose pages record every
    console error, page error and failed request (`Watched`)."""

    def __init__(self, chromium: Any, server: str, token: str, size: dict[str, int]) -> None:
        super().__init__(chromium, size)
        self.server = server
        self.context.add_cookies([{"name": "player", "value": token, "url": server}])

    def open(self, path: str) -> Any:
        self.page.goto(self.server + path)
        self.page.wait_for_load_state("load")
        return self.page

    def check_layout(self, path: str) -> None:
        page = self.page
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= page.viewport_size["width"], f"{path} scrolls sideways: {wide}px"
        small = page.locator(TARGETS).evaluate_all(
            """els => els.filter(e => e.getClientRects().length)
                 .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
                 .filter(([_, h]) => h < 44)"""
        )
        assert not small, f"{path}: touch targets under 44 px: {small}"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_pages_at_a_phones_size_and_a_desktops(played, server, chromium, size):
    visit = Visit(chromium, server, played.host.token, SIZES[size])
    SHOTS.mkdir(exist_ok=True)
    pages = {
        "my-tables": "/me/tables",
        "games": f"/tables/{played.code}/games",
        "history": f"/tables/{played.code}/games/1",
        "settings": "/settings",
        "rules": "/rules",
        "data": "/data",
    }
    for name, path in pages.items():
        page = visit.open(path)
        visit.check_layout(path)
        page.screenshot(path=str(SHOTS / f"pages-{name}-{size}.png"), full_page=True)
        page.screenshot(path=str(SHOTS / f"pages-{name}-{size}-top.png"))
    assert not visit.problems, visit.problems
    visit.context.close()


def test_the_replay_slider_steps_through_the_turns_by_keyboard(played, server, chromium):
    visit = Visit(chromium, server, played.host.token, SIZES["phone"])
    page = visit.open(f"/tables/{played.code}/games/1")
    title = page.locator("[data-frame-title]")
    slider = page.locator("#replay-slider")
    last = int(slider.get_attribute("max"))
    assert last > 10 and title.inner_text().startswith(f"Turn {last}:")
    slider.focus()
    page.keyboard.press("Home")
    assert title.inner_text() == "The start"
    # Each side: 2 + 3 stones drawn, and two stacks of five drawn as four and a count.
    assert page.locator(".replay .stone").count() == 2 * (2 + 3 + 4 + 4)
    counts = page.locator(".replay .count").evaluate_all("els => els.map(e => e.textContent)")
    assert counts == ["5"] * 4
    page.keyboard.press("ArrowRight")
    assert title.inner_text().startswith("Turn 1:")
    assert page.locator('.turns li[aria-current="step"]').get_attribute("data-turn") == "1"
    page.locator('[data-step="-1"]').click()
    assert title.inner_text() == "The start"
    page.screenshot(path=str(SHOTS / "pages-history-start-phone.png"), full_page=True)
    assert not visit.problems, visit.problems
    visit.context.close()


def test_a_turn_in_the_list_opens_the_replay_at_that_turn(played, server, chromium):
    visit = Visit(chromium, server, played.host.token, SIZES["phone"])
    page = visit.open(f"/tables/{played.code}/games/1#turn-3")
    title = page.locator("[data-frame-title]")
    assert title.inner_text().startswith("Turn 3:")
    assert page.locator("#replay-slider").input_value() == "3"
    page.locator('.turns a[href="#turn-5"]').click()
    assert title.inner_text().startswith("Turn 5:")
    assert page.locator('.turns li[aria-current="step"]').get_attribute("data-turn") == "5"
    assert page.locator(".replay").evaluate("e => e.getBoundingClientRect().top") < 50
    assert not visit.problems, visit.problems
    visit.context.close()


def test_the_language_switch_and_the_name_form(played, server, chromium):
    visit = Visit(chromium, server, played.guest.token, SIZES["phone"])
    page = visit.open("/settings")
    page.locator('[data-test="language"]').select_option("ja")
    with page.expect_navigation():  # back to the same address, so wait for the load
        page.locator('[data-test="language-form"] button').click()
    assert page.locator("h1").inner_text() == "設定"
    page.locator('[data-test="name"]').fill("Ben \u202e")
    page.locator('[data-test="save-name"]').click()
    message = page.locator("[data-message]")
    message.filter(has_text="U+202E").wait_for(timeout=5000)  # the API's own refusal
    page.locator('[data-test="name"]').fill("Benjamin")
    page.locator('[data-test="save-name"]').click()
    message.filter(has_text="保存しました").wait_for(timeout=5000)
    page.screenshot(path=str(SHOTS / "pages-settings-ja-phone.png"), full_page=True)
    assert visit.open("/rules").locator("text=入勝").count() > 0
    page.screenshot(path=str(SHOTS / "pages-rules-ja-phone.png"))
    # The refused name was a 400 the page expected and showed; nothing else failed.
    assert [p for p in visit.problems if "400" not in p] == []
    assert len(visit.problems) == 2  # that answer, and the console's note of it
    visit.context.close()


def test_a_device_link_names_who_it_replaces_and_settings_switch_back(played, server, chromium):
    """The host's browser opens the guest's "use on another device" link: the page says
    who plays here now and what leaves; after the switch, settings switch back."""
    visit = Visit(chromium, server, played.host.token, SIZES["phone"])
    page = visit.open("/device/" + devices.make_link(played.guest.token))
    replaces = page.locator('[data-test="device-replaces"]')
    assert "plays as Aiko now, at 1 table." in replaces.inner_text()
    assert "This browser will play as Ben" in page.locator("main").inner_text()
    page.screenshot(path=str(SHOTS / "pages-device-replaces-phone.png"), full_page=True)
    with page.expect_navigation():
        page.locator('[data-test="use-device"]').click()
    page = visit.open("/settings")
    visit.check_layout("/settings")
    page.screenshot(path=str(SHOTS / "pages-settings-players-phone.png"), full_page=True)
    with page.expect_navigation():
        page.locator('[data-test="switch-player"]', has_text="Aiko").click()
    assert page.url == server + "/me/tables"
    assert page.locator(f'a[href="/tables/{played.code}"]').count() == 1
    assert not visit.problems, visit.problems
    visit.context.close()
