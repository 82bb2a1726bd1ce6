"""What the browser tests share: Debian's chromium, found on PATH and driven by
Playwright (which downloads no browser of its own), where screenshots go, and a
watched context with the moves of a game played by tapping."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"
)
"""Every browser test's mark: skipped, with the reason, on a machine without it."""

SHOTS = Path(__file__).resolve().parents[2] / ".screenshots"
"""Screenshots, git-ignored: look at them after a run."""

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@contextmanager
def launched(*args: str) -> Iterator[Any]:
    """A headless Chromium. Playwright's sync API keeps an event loop in this thread,
    and pytest-django's teardown writes to the database from it, so Django is told that
    is safe for as long as the browser runs. `args` go to Chromium after its own."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*chromium_args(), *args]
        )
        try:
            yield browser
        finally:
            browser.close()


def chromium_args() -> list[str]:
    return ["--no-sandbox"] if os.geteuid() == 0 else []  # Chromium's sandbox refuses root


class Watched:
    """A browser context whose pages fail the test on a console error or a failed
    request (a 4xx or 5xx answer counts)."""

    def __init__(self, chromium: Any, viewport: dict[str, int], **options: Any) -> None:
        self.context = chromium.new_context(viewport=viewport, **options)
        self.problems: list[str] = []
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)
        # What the network answered (the page sees a revalidated 304 as its cached 200).
        self.network_statuses: list[int] = []
        devtools = self.context.new_cdp_session(self.page)
        devtools.on(
            "Network.responseReceivedExtraInfo",
            lambda event: self.network_statuses.append(event["statusCode"]),
        )
        devtools.send("Network.enable")

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")

    def _failed(self, request: Any) -> None:
        # A request the browser itself cancelled, because the page navigated away before
        # it finished (a form sent while a script still loads), is no failure.
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"{request.failure}: {request.url}")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.problems.append(f"{response.status}: {response.url}")


def play_one_move(page: Any) -> None:
    """Tap the movable stone farthest from home, then its farthest legal point, not
    hitting when it can help it (hits make the game long); and Play once that makes the
    turn's draft a whole play."""
    page.locator(f'[data-point="{max(points(page, "data-movable"))}"]').click()
    legal = page.locator("[data-legal]").evaluate_all(
        "els => els.map(e => [Number(e.dataset.point), e.getAttribute('aria-label')])"
    )
    assert legal, "a movable stone lights up where it can go"
    quiet = [point for point, label in legal if "of theirs" not in label]
    page.locator(f'[data-point="{min(quiet or [p for p, _ in legal])}"]').click()
    play_if_drafted(page)


def play_if_drafted(page: Any) -> None:
    """Press Play when the draft is a whole play: only then is the turn sent."""
    if page.locator('[data-test="play"]').is_visible():
        act(page, page.locator('[data-test="play"]'))


def my_turn(page: Any) -> bool:
    return page.locator("[data-movable]").count() > 0


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.screenshot(path=str(SHOTS / f"{name}-screen.png"))


def assert_fits(page: Any) -> None:
    """No horizontal scroll, and every control at least 44 px in both directions."""
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{overflow} px of horizontal scroll"
    small = page.evaluate(
        """() => [...document.querySelectorAll('main button:not([hidden]), main a, .pt')]
        .filter(e => e.offsetParent !== null || e instanceof SVGElement)
        .map(e => [e.dataset.test || e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.width && (r.width < 43.5 || r.height < 43.5))
        .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert not small, f"touch targets under 44 px: {small}"


def version(page: Any) -> str:
    return str(page.locator("#board").get_attribute("data-version"))


def act(page: Any, locator: Any) -> None:
    """Click and wait for the answer to be drawn: the board shows the new version."""
    before = version(page)
    locator.click()
    page.locator(f'#board:not([data-version="{before}"])').wait_for(timeout=5000)


def points(page: Any, marked: str) -> list[int]:
    found = page.locator(f"[{marked}]").evaluate_all("els => els.map(e => e.dataset.point)")
    return [int(point) for point in found]


def as_player(chromium: Any, server: str, token: str, **options: Any) -> Watched:
    watched = Watched(chromium, PHONE, **options)
    watched.context.add_cookies([{"name": "player", "value": token, "url": server}])
    return watched


CONTROLLED = """new Promise(done => navigator.serviceWorker.controller ? done(true)
  : navigator.serviceWorker.addEventListener("controllerchange", () => done(true)))"""
"""Resolves once the service worker app.js registered controls the page (a promise, not
`wait_for_function`, which evaluates a string: the pages' policy forbids that)."""


def controlled(page: Any) -> None:
    assert page.evaluate(CONTROLLED)
