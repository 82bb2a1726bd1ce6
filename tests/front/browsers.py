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
