"""What the browser tests share: Debian's chromium, found on PATH and driven by
Playwright (which downloads no browser of its own), and where screenshots go."""

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
def launched() -> Iterator[Any]:
    """A headless Chromium. Playwright's sync API keeps an event loop in this thread,
    and pytest-django's teardown writes to the database from it, so Django is told that
    is safe for as long as the browser runs."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        args = ["--no-sandbox"] if os.geteuid() == 0 else []  # Chromium's sandbox refuses root
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            yield browser
        finally:
            browser.close()


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
