"""The browser tests' site, one per test module (their browser: tests/conftest.py), the
settings they play with and the pair of watched browsers at each size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.front.browsers import DESKTOP, PHONE, Watched


@pytest.fixture(scope="module")
def server(django_db_blocker: Any) -> Iterator[str]:
    """The site on 127.0.0.1, an ephemeral port, in a thread of this process. Its
    thread may use the database as long as it runs, also for tests that read committed
    rows (`played`, named before it so they outlive it) rather than take `db`."""
    from pytest_django.live_server_helper import LiveServer

    with django_db_blocker.unblock():
        live = LiveServer("127.0.0.1:0")
        yield live.url
        live.stop()


@pytest.fixture
def settings_for_play(settings: Any, transactional_db: None) -> Any:
    settings.PLAY_POLL_MS = 150  # the other browser sees a move within 0.15 s
    settings.DEBUG = True  # plain-HTTP cookies, as `make run` has them
    return settings


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: Any) -> dict[str, int]:
    return dict(request.param)


@pytest.fixture
def players(chromium: Any, viewport: dict[str, int]) -> Iterator[tuple[Watched, Watched]]:
    """Two browsers, closed before the database is emptied (their pages poll)."""
    pair = Watched(chromium, viewport), Watched(chromium, viewport)
    yield pair
    for watched in pair:
        watched.context.close()
