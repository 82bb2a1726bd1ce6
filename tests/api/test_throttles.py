"""Rate limits: 429 with Retry-After, per token, per address and on join codes, counted
in process memory (the default) and in Redis (production)."""

from __future__ import annotations

import socket
import uuid
from types import SimpleNamespace

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

REDIS_URL = "redis://127.0.0.1:6379/15"


@pytest.fixture(params=["memory", "redis"])
def counters(request, settings):
    """Where the counters live: the test runs once for each cache backend."""
    if request.param == "redis":
        try:
            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping()
        except redis.ConnectionError:
            pytest.skip(f"no Redis at {REDIS_URL}")
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": REDIS_URL,
                "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
            }
        }
    yield caches["default"]
    caches["default"].clear()


@pytest.fixture
def throttle_clock(monkeypatch, counters):
    """Rate limits count in fixed windows; the test sets their clock, so that no window
    turns over in the middle of a test."""
    from bansugoroku.throttles import WindowThrottle

    clock = SimpleNamespace(now=6000.0 + 15)  # 15 s into a minute
    monkeypatch.setattr(WindowThrottle, "timer", lambda self: clock.now)
    return clock


def test_rate_limits_answer_429_with_retry_after(host, monkeypatch, throttle_clock):
    from bansugoroku.throttles import PlayerRateThrottle

    monkeypatch.setattr(PlayerRateThrottle, "THROTTLE_RATES", {"player": "3/min"})
    answers = [host.get("players/me") for _ in range(4)]
    assert [a.status for a in answers] == [200, 200, 200, 429]
    assert answers[-1].body["code"] == "throttled"
    assert answers[-1].headers["Retry-After"] == "45"

    throttle_clock.now += 45  # the next minute counts afresh
    assert host.get("players/me").status == 200


def test_guessing_join_codes_is_throttled_per_address(api, monkeypatch, throttle_clock):
    from bansugoroku.throttles import JoinCodeThrottle

    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "5/min"})
    guesses = [api.new_player(f"G{i}").post("tables/ABCDEF/join") for i in range(7)]
    assert [g.status for g in guesses][:5] == [404] * 5
    assert guesses[-1].status == 429, "a new token per guess does not help"


def test_a_forged_forwarded_for_header_does_not_escape_the_address_limit(
    api, monkeypatch, throttle_clock
):
    from bansugoroku.throttles import JoinCodeThrottle

    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "3/min"})
    player = api.new_player("Eve")
    guesses = [
        player.post("tables/ABCDEF/join", **{"X-Forwarded-For": f"10.0.0.{i}"}) for i in range(4)
    ]
    assert [g.status for g in guesses] == [404, 404, 404, 429]


def test_a_window_counter_counts_and_expires_with_its_window(host, counters, throttle_clock):
    from bansugoroku.throttles import PlayerRateThrottle

    throttle = PlayerRateThrottle()
    counts = [throttle.count("probe") for _ in range(3)]
    assert counts == [1, 2, 3]
    assert counters.get("probe") == 3
    if isinstance(counters, RedisCache):
        client = redis.Redis.from_url(REDIS_URL)
        ttl = client.ttl(counters.make_and_validate_key("probe"))
        assert 0 < ttl <= throttle.duration


@pytest.fixture
def redis_down(settings):
    """The cache pointed at a loopback port with nothing listening."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5},
        }
    }


def test_rate_limits_fail_open_while_redis_is_unreachable(host, redis_down, caplog):
    answer = host.get("players/me")
    assert answer.status == 200, answer.body
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(m.startswith("rate limit player not counted") for m in warnings), warnings


def test_join_guesses_count_in_the_process_while_redis_is_unreachable(
    api, monkeypatch, redis_down, caplog
):
    from bansugoroku.throttles import JoinCodeThrottle, WindowThrottle

    monkeypatch.setattr(WindowThrottle, "timer", lambda self: 6000.0 + 15)
    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "3/min"})
    player = api.new_player("Eve")
    guesses = [player.post(f"tables/ABCDE{c}/join") for c in "FGHJ"]
    assert [g.status for g in guesses] == [404, 404, 404, 429]
    assert guesses[-1].headers["Retry-After"] == "45"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(m.startswith("rate limit join counted in this process") for m in warnings)
