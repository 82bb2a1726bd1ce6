"""Rate limits: per player token, per address, a tight one on join codes, and those on
making players and tables.

Beside the settings rather than in the API, because a page outside the API (the
invitation page) counts against the join-code limit too.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import TYPE_CHECKING, Any, ClassVar

from django.core.cache import BaseCache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from redis import RedisError
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

if TYPE_CHECKING:  # DRF imports the throttles while rest_framework.views loads
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

process_counters = LocMemCache("rate-limits-while-redis-is-down", {})
"""Where the limits that must not fail open count while Redis is unreachable: in this
process only, so each web process lets through its own share."""


class RedisBreaker:
    """A circuit breaker on Redis for the rate limits, in each process: after a failure,
    no request asks Redis for `pause` seconds, and the limits count as while it is
    unreachable; the first request after that asks it again.

    A Redis that accepted connections but never answered made every request wait for
    its timeout once per limit, two 0.5 s timeouts (1.0-2.1 s a request, measured): a web
    process served about one request a second. Now one request in `pause` waits.
    """

    pause: ClassVar[float] = 30.0

    def __init__(self) -> None:
        self.closed_at = 0.0
        """When (time.monotonic) Redis may be asked again."""

    @property
    def open(self) -> bool:
        return time.monotonic() < self.closed_at

    def trip(self) -> None:
        self.closed_at = time.monotonic() + self.pause


redis_breaker = RedisBreaker()


class WindowThrottle(SimpleRateThrottle):
    """DRF's rate throttle, counting requests in fixed windows instead of keeping a log.

    DRF keeps a timestamp per request in the window and copies the whole list through
    the cache on every request: a minute of 6,000 requests from one address is 6,000
    floats pickled both ways (and sent to Redis and back). With limits per minute, that
    cost 6% of a move's CPU even in process memory, measured. A counter per window is
    cheaper, at the price of letting up to twice the rate through across a window
    boundary.
    """

    # num_requests and duration are set by SimpleRateThrottle.__init__ from the rate (its
    # stubs leave them out); window_ends by allow_request.
    num_requests: int
    duration: int
    window_ends: float
    fail_open: ClassVar[bool] = True
    """While Redis is unreachable: let every request through (True), or count in this
    process instead (False)."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends = (window + 1) * self.duration
        key = f"{key}:{window}"
        if not redis_breaker.open:
            try:
                return self.hit(key) <= self.num_requests
            except RedisError as exc:
                redis_breaker.trip()
                logger.warning(
                    "Redis failed: for %s s the rate limits leave it alone, those that must "
                    "not fail open counting in this process, the others off: %s",
                    redis_breaker.pause,
                    exc,
                )
        if self.fail_open:
            return True  # while Redis is away, games go on without rate limits
        return self.hit(key, process_counters) <= self.num_requests

    def hit(self, key: str, cache: BaseCache | None = None) -> int:
        """Count this request against the limit in the window's `key`; the count so far."""
        return self.count(key, cache)

    def count(self, key: str, cache: BaseCache | None = None) -> int:
        """Count this request in its window; the window's count so far."""
        if cache is None:
            cache = caches["default"]  # the backend itself; DRF's `self.cache` is a proxy
        if isinstance(cache, RedisCache):
            # Django's `add` then `incr` takes three round trips to Redis (incr checks that
            # the key exists first); one MULTI takes one: a limit is checked in 0.17 ms
            # instead of 0.37, measured.
            full_key = cache.make_and_validate_key(key)
            pipe = _writer(cache._cache).pipeline(transaction=True)
            pipe.set(full_key, 0, ex=self.duration, nx=True)
            pipe.incr(full_key)
            _, count = pipe.execute()
            return int(count)
        if cache.add(key, 1, self.duration):
            return 1
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, self.duration)
            return 1

    def wait(self) -> float:
        return max(0.0, self.window_ends - self.now)


@functools.lru_cache(maxsize=4)
def _writer(backend: Any) -> Any:
    """The Redis client that writes to `backend` (Django's RedisCacheClient). Django
    builds a new client object for every call, 60 µs each, twice a request; one per
    process will do, as its connection pool is the backend's own (and fork-safe)."""
    return backend.get_client(write=True)


class PlayerRateThrottle(WindowThrottle, UserRateThrottle):
    """Per token for players; per address for requests without one."""

    scope = "player"


class AddressRateThrottle(WindowThrottle):
    """Per client address whatever the token, so minting tokens buys nothing."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class JoinCodeThrottle(AddressRateThrottle):
    """Join codes are short; this makes guessing them slow, even while Redis is down."""

    scope = "join"
    fail_open = False


class NewPlayerThrottle(AddressRateThrottle):
    """Players made per client address (THROTTLE_NEW_PLAYER), through the API or the
    home page's forms: each new player is a fresh token with limits of its own."""

    scope = "new_player"
    fail_open = False


class KeyedThrottle(WindowThrottle):
    """A limit on what `ident` names (a player, a mailbox) rather than on whoever sends
    the request; counted in this process while Redis is down rather than let through."""

    fail_open = False

    def __init__(self, ident: str) -> None:
        super().__init__()
        self.ident = ident

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


class NewTableThrottle(KeyedThrottle):
    """Tables a player creates (THROTTLE_NEW_TABLE), whatever the address; pass the
    player's id."""

    scope = "new_table"


def limit_wait(throttle: WindowThrottle, request: HttpRequest | Request) -> int | None:
    """Count the request against the throttle: None while under the limit, else the
    whole seconds to wait before the next. For checks a view makes itself: outside the
    API, or for one method or one field only."""
    from rest_framework.views import APIView

    drf_request = request if isinstance(request, Request) else Request(request)
    if throttle.allow_request(drf_request, APIView()):
        return None
    return retry_after(throttle.wait())


def join_guess_wait(request: HttpRequest) -> int | None:
    """Count a request outside the API that tells whether a code is a table (the
    invitation page) as a join guess from its address."""
    return limit_wait(JoinCodeThrottle(), request)


def retry_after(wait: float) -> int:
    """A wait as the whole seconds of a Retry-After header: rounded up, at least 1."""
    return max(1, int(wait + 0.999))


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the rate limits see it: REMOTE_ADDR, or the entry that
    the last NUM_PROXIES proxies added to X-Forwarded-For. Admin login lockouts use it
    too (django-axes' AXES_CLIENT_IP_CALLABLE). None for a request made in process
    with no address (a test client's force_login)."""
    ident = JoinCodeThrottle().get_ident(Request(request))
    return str(ident) if ident else None
