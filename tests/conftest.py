"""Shared pytest fixtures. pytest-django provides `client`, `db`, `settings`, ..."""

import subprocess
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import redis
from django.core.cache import cache, caches

from tests.caches import REDIS_URL
from tests.client import Api, open_table
from tests.finished_games import Played, played_once

SLOW_FIXTURES = {"chromium", "live_server", "server", "worker", "two_workers"}
"""Fixtures that start a browser, a server or a Celery worker: their tests are slow."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `slow` the tests that use a process-starting fixture, before `-m` selects."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def processes_only_in_slow_tests(request: pytest.FixtureRequest, monkeypatch) -> None:
    """A test that starts a process or a worker (Chromium, gunicorn, a script, Celery)
    without the `slow` mark fails: `make test-fast` stays fast and leaves none out by
    chance."""
    if request.node.get_closest_marker("slow"):
        return
    from celery.contrib.testing import worker

    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{request.node.nodeid} starts a process: mark it slow")

    class Refused(subprocess.Popen):  # type: ignore[type-arg]
        __init__ = refused

    monkeypatch.setattr(subprocess, "Popen", Refused)
    monkeypatch.setattr(worker, "_start_worker_thread", refused)  # a worker in a thread


@pytest.fixture(autouse=True)
def fresh_rate_limits(monkeypatch):
    """Rate-limit counters live in the cache (and in the process while Redis is down),
    with what the process took of them in its leases; each test starts with none spent,
    and with Redis not left alone after a failure."""
    from bansugoroku.limits import throttles
    from bansugoroku.limits.throttles import process_counters

    monkeypatch.setattr(throttles, "redis_breaker", throttles.RedisBreaker())
    monkeypatch.setattr(throttles, "leases", throttles.Leases())
    cache.clear()
    process_counters.clear()
    yield
    cache.clear()
    process_counters.clear()


@pytest.fixture(params=["memory", "redis"])
def counters(request, settings):
    """Where the counters live: the test runs once for each cache backend."""
    if request.param == "redis":
        try:
            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping()
        except redis.ConnectionError:
            pytest.skip(f"no Redis at {REDIS_URL}")
        prefix = f"test-{uuid.uuid4().hex}"
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": REDIS_URL,
                "KEY_PREFIX": prefix,
            }
        }
        yield caches["default"]
        # The test's own keys only: `clear()` would flush the whole database, and with it
        # the counters of a test run beside this one.
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.delete(key)
    else:
        yield caches["default"]
        caches["default"].clear()


@pytest.fixture
def throttle_clock(monkeypatch, counters):
    """Rate limits count in fixed windows; the test sets their clock, so that no window
    turns over in the middle of a test."""
    from bansugoroku.limits.throttles import WindowThrottle

    clock = SimpleNamespace(now=6000.0 + 15)  # 15 s into a minute
    monkeypatch.setattr(WindowThrottle, "timer", lambda self: clock.now)
    return clock


@pytest.fixture
def api(db: None) -> Api:
    return Api()


@pytest.fixture
def host(api: Api) -> Api:
    return api.new_player("Aiko")


@pytest.fixture
def guest(api: Api) -> Api:
    return api.new_player("Ben")


@pytest.fixture
def table(host: Api, guest: Api) -> str:
    return open_table(host, guest)


@pytest.fixture(scope="module")
def played(django_db_setup: None, django_db_blocker: Any) -> Iterator[Played]:
    with played_once(django_db_blocker) as played:
        yield played


@pytest.fixture
def finished(db: None, played: Played) -> str:
    return played.code


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless (`tests.front.browsers.launched`), one per module."""
    from tests.front.browsers import launched

    with launched() as browser:
        yield browser


@pytest.fixture(scope="session")
def openapi(django_db_blocker) -> dict[str, Any]:
    from django.test import Client

    with django_db_blocker.unblock():
        answer = Client().get(
            "/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}
        )
    assert answer.status_code == 200
    return answer.json()
