"""Rate limits: 429 with Retry-After, per token, per address and on join codes, counted
in process memory (the default) and in Redis (production)."""

from __future__ import annotations

import random
import selectors
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from django.core.cache.backends.redis import RedisCache
from django.test import Client

from bansugoroku.games.models import Player
from bansugoroku.games.player_tokens import token_hash
from tests.caches import REDIS_URL
from tests.client import Api
from tests.front.pages import NEW_TABLE, seated_client


def test_rate_limits_answer_429_with_retry_after(host, monkeypatch, throttle_clock):
    from bansugoroku.limits.throttles import PlayerRateThrottle

    monkeypatch.setattr(PlayerRateThrottle, "THROTTLE_RATES", {"player": "3/min"})
    answers = [host.get("players/me") for _ in range(4)]
    assert [a.status for a in answers] == [200, 200, 200, 429]
    assert answers[-1].body["code"] == "throttled"
    assert answers[-1].headers["Retry-After"] == "45"

    throttle_clock.now += 45  # the next minute counts afresh
    assert host.get("players/me").status == 200


def test_a_request_counts_against_its_player_and_its_address_at_once(
    host, guest, monkeypatch, throttle_clock
):
    """Both limits count every request, each in its own window; a request one of them
    refuses is refused, with the longest wait of those that refuse it."""
    from bansugoroku.limits.throttles import AddressRateThrottle, PlayerRateThrottle

    monkeypatch.setattr(PlayerRateThrottle, "THROTTLE_RATES", {"player": "3/min"})
    monkeypatch.setattr(AddressRateThrottle, "THROTTLE_RATES", {"address": "5/hour"})
    answers = [host.get("players/me") for _ in range(4)]
    assert [a.status for a in answers] == [200, 200, 200, 429]
    assert answers[-1].headers["Retry-After"] == "45", "the player's minute"

    assert guest.get("players/me").status == 200, "the fifth request from the address"
    refused = guest.get("players/me")
    assert refused.status == 429 and refused.headers["Retry-After"] == str(7200 - 6015)
    both = host.get("players/me")
    assert both.status == 429 and both.headers["Retry-After"] == str(7200 - 6015)

    throttle_clock.now += 45  # the player's next minute, the address's same hour
    assert host.get("players/me").status == 429


def test_each_process_takes_a_hundredth_of_a_busy_limit_at_a_time(
    host, monkeypatch, counters, throttle_clock
):
    from bansugoroku.limits.throttles import PlayerRateThrottle

    monkeypatch.setattr(PlayerRateThrottle, "THROTTLE_RATES", {"player": "1000/min"})
    window = f"throttle_player_{token_hash(host.token)}:{int(throttle_clock.now // 60)}"
    taken = []
    for _ in range(11):
        assert host.get("players/me").status == 200
        taken.append(counters.get(window))

    assert taken == [10] * 10 + [20], "the cache asked on the 1st and the 11th request only"


def test_processes_taking_a_limit_in_leases_never_let_more_through(
    host, monkeypatch, counters, throttle_clock
):
    """Two web processes, each with its own leases, take turns at random: together they
    let through at most the limit, and at least the limit less what each may hold
    unspent (2 of each lease of 3)."""
    from bansugoroku.limits import throttles
    from bansugoroku.limits.throttles import Leases, PlayerRateThrottle

    monkeypatch.setattr(PlayerRateThrottle, "THROTTLE_RATES", {"player": "300/min"})
    processes, rng = [Leases(), Leases()], random.Random(7)
    statuses = []
    for _ in range(320):
        monkeypatch.setattr(throttles, "leases", rng.choice(processes))
        statuses.append(host.get("players/me").status)

    allowed = statuses.count(200)
    assert 300 - 2 * 2 <= allowed <= 300
    assert statuses[allowed:] == [429] * (320 - allowed), "refused once spent, not before"


def test_leases_of_ended_windows_are_forgotten():
    from bansugoroku.limits.throttles import Leases

    leases = Leases()
    for i in range(100):
        leases.keep(f"ended {i}", 5, ends=60.0, now=30.0)
    leases.keep("current", 5, ends=120.0, now=90.0)

    assert list(leases.left) == ["current"]
    assert leases.spend("current") and not leases.spend("ended 1")


def test_guessing_join_codes_is_throttled_per_address(api, monkeypatch, throttle_clock):
    from bansugoroku.limits.throttles import JoinCodeThrottle

    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "5/min"})
    guesses = [api.new_player(f"G{i}").post("tables/ABCDEF/join") for i in range(7)]
    assert [g.status for g in guesses][:5] == [404] * 5
    assert guesses[-1].status == 429, "a new token per guess does not help"


def test_a_forged_forwarded_for_header_does_not_escape_the_address_limit(
    api, monkeypatch, throttle_clock
):
    from bansugoroku.limits.throttles import JoinCodeThrottle

    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "3/min"})
    player = api.new_player("Eve")
    guesses = [
        player.post("tables/ABCDEF/join", **{"X-Forwarded-For": f"10.0.0.{i}"}) for i in range(4)
    ]
    assert [g.status for g in guesses] == [404, 404, 404, 429]


def test_a_window_counter_counts_and_expires_with_its_window(host, counters, throttle_clock):
    from bansugoroku.limits.throttles import PlayerRateThrottle

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
    assert any(m.startswith("Redis failed: for 30.0 s") for m in warnings), warnings


def test_join_guesses_count_in_the_process_while_redis_is_unreachable(
    api, monkeypatch, redis_down, caplog
):
    from bansugoroku.limits.throttles import JoinCodeThrottle, WindowThrottle

    monkeypatch.setattr(WindowThrottle, "timer", lambda self: 6000.0 + 15)
    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "3/min"})
    player = api.new_player("Eve")
    guesses = [player.post(f"tables/ABCDE{c}/join") for c in "FGHJ"]
    assert [g.status for g in guesses] == [404, 404, 404, 429]
    assert guesses[-1].headers["Retry-After"] == "45"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(m.startswith("Redis failed: for 30.0 s") for m in warnings)


class HangingRedis:
    """A server that accepts connections and reads what it is sent but never answers, as
    a Redis that is stuck; it counts the bytes it got."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}/0"
        self.received = 0
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.stopped.is_set():
            for key, _ in self.selector.select(timeout=0.1):
                if key.fileobj is self.listener:
                    connection, _ = self.listener.accept()
                    self.selector.register(connection, selectors.EVENT_READ)
                    continue
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                self.received += len(data)
                if not data:
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()  # type: ignore[union-attr]

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


@pytest.fixture
def redis_hangs(settings) -> Iterator[HangingRedis]:
    """The cache pointed at a Redis that never answers, with the production timeouts."""
    server = HangingRedis()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    yield server
    server.close()


@pytest.mark.slow
def test_after_a_redis_timeout_requests_leave_redis_alone_for_a_while(
    api, monkeypatch, redis_hangs
):
    """One request waits for Redis's timeout; those after it answer in milliseconds
    (each used to wait for two timeouts), and join guesses still count in the process,
    until the pause is over and Redis is asked again."""
    from bansugoroku.limits.throttles import JoinCodeThrottle, RedisBreaker, WindowThrottle

    monkeypatch.setattr(WindowThrottle, "timer", lambda self: 6000.0 + 15)
    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "3/min"})
    monkeypatch.setattr(RedisBreaker, "pause", 2.0)
    player = api.new_player("Eve")  # waits for Redis once
    asked = redis_hangs.received
    assert asked > 0

    started = time.perf_counter()
    answers = [player.get("players/me") for _ in range(20)]
    took = time.perf_counter() - started
    assert [a.status for a in answers] == [200] * 20
    assert took < 1.0, f"20 requests took {took:.2f} s"
    guesses = [player.post(f"tables/ABCDE{c}/join") for c in "FGHJ"]
    assert [g.status for g in guesses] == [404, 404, 404, 429]
    assert redis_hangs.received == asked, "Redis was asked during the pause"

    time.sleep(RedisBreaker.pause)
    assert player.get("players/me").status == 200
    assert redis_hangs.received > asked, "Redis was not asked again after the pause"


def test_players_made_from_one_address_are_limited(api, monkeypatch, throttle_clock):
    """A new token per player buys nothing: the address is counted, through the API and
    the home page's form alike."""
    from bansugoroku.limits.throttles import NewPlayerThrottle

    monkeypatch.setattr(NewPlayerThrottle, "THROTTLE_RATES", {"new_player": "3/hour"})
    answers = [Api().post("players", {"name": f"P{n}"}) for n in range(4)]

    assert [a.status for a in answers] == [201, 201, 201, 429]
    refused = answers[-1]
    assert refused.body["code"] == "throttled"
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.headers["Retry-After"] == str(7200 - 6015)  # the hour's window ends
    page = Client().post("/new", NEW_TABLE)
    assert page.status_code == 429 and page["Retry-After"] == str(7200 - 6015)
    assert Player.objects.count() == 3


def test_tables_created_by_one_player_are_limited(host, guest, monkeypatch, throttle_clock):
    from bansugoroku.limits.throttles import NewTableThrottle

    monkeypatch.setattr(NewTableThrottle, "THROTTLE_RATES", {"new_table": "3/hour"})
    cpu = {"opponent": "cpu", "cpu_level": "easy"}
    answers = [host.post("tables", cpu) for _ in range(4)]

    assert [a.status for a in answers] == [201, 201, 201, 429]
    assert answers[-1].body["code"] == "throttled" and answers[-1].headers["Retry-After"]
    assert guest.post("tables", cpu).status == 201, "another player has a count of their own"
    throttle_clock.now += 3600
    assert host.post("tables", cpu).status == 201


def test_tables_waiting_for_an_opponent_are_capped_per_player(host, guest, settings):
    settings.OPEN_TABLES_MAX = 2
    answers = [host.post("tables", {}) for _ in range(3)]

    assert [a.status for a in answers] == [201, 201, 409]
    refused = answers[-1].body
    assert refused["code"] == "too_many_open_tables" and refused["limit"] == 2
    assert host.post("tables", {"opponent": "cpu", "cpu_level": "easy"}).status == 201
    page = seated_client(host.token).post("/new", NEW_TABLE)
    assert page.status_code == 409 and "2 tables that wait" in page.content.decode()

    assert guest.post(f"tables/{answers[0].body['code']}/join").status == 200
    assert host.post("tables", {}).status == 201, "a table joined waits no more"
    codes = {p["code"] for p in Api().get("problems").body["problems"]}
    assert "too_many_open_tables" in codes
