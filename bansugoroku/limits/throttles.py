"""Rate limits: per player token, per address, a tight one on join codes, and those on
making players and tables.

Beside the settings rather than in the API, because a page outside the API (the
invitation page) counts against the join-code limit too.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from redis import RedisError
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from bansugoroku.games.player_tokens import token_hash

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

    def get_ident(self, request: Request) -> str:
        """The client's address as every limit per address counts it (`address_key`)."""
        return address_key(super().get_ident(request))

    def allow_request(self, request: Request, view: APIView) -> bool:
        key = self.window_key(request, view)
        if key is None:
            return True
        counts = redis_counts(lambda: [self.hit(key)])
        return self.allows(key, None if counts is None else counts[0])

    def window_key(self, request: Request, view: APIView) -> str | None:
        """The key of the request's window, None when this limit does not apply to it;
        notes the time and when the window ends."""
        if self.rate is None:
            return None
        key = self.get_cache_key(request, view)
        if key is None:
            return None
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends = (window + 1) * self.duration
        return f"{key}:{window}"

    def allows(self, key: str, count: int | None, taken: int = 1) -> bool:
        """Whether the request is under the limit, given the window's `count` in the
        cache after this process took `taken` requests of it, or None while Redis is
        unavailable. What it took beyond this request, and the limit leaves it, is kept
        in `leases`."""
        if count is not None:
            granted = min(taken, self.num_requests - (count - taken))
            if granted > 1:
                leases.keep(key, granted - 1, self.window_ends, self.now)
            return granted > 0
        if self.fail_open:
            return True  # while Redis is away, games go on without rate limits
        return self.hit(key, process_counters) <= self.num_requests

    def hit(self, key: str, cache: BaseCache | None = None) -> int:
        """Count this request against the limit in the window's `key`; the count so far."""
        return self.count(key, cache)

    def count(self, key: str, cache: BaseCache | None = None) -> int:
        """Count this request in its window; the window's count so far."""
        return count_windows([(key, self.duration, 1)], cache)[0]

    def lease_size(self) -> int:
        """How many requests of a window this process takes from the cache at a time."""
        return max(1, self.num_requests // LEASE_PARTS)

    def wait(self) -> float:
        return max(0.0, self.window_ends - self.now)


def redis_counts(count: Callable[[], list[int]]) -> list[int] | None:
    """What `count` counted in the cache, or None while Redis is unavailable: when the
    breaker is open, or when Redis fails now (which trips it)."""
    if redis_breaker.open:
        return None
    try:
        return count()
    except RedisError as exc:
        redis_breaker.trip()
        logger.warning(
            "Redis failed: for %s s the rate limits leave it alone, those that must "
            "not fail open counting in this process, the others off: %s",
            redis_breaker.pause,
            exc,
        )
        return None


LEASE_PARTS = 100
"""A limit every request counts against is taken from the cache a hundredth at a time."""


class Leases:
    """The requests this process took from busy windows and has not let through yet.

    Every web process counts its requests in the same windows in Redis, so that a limit
    holds across them; asking Redis once per request cost 12% of a move's CPU in the web
    process (measured, beside what Redis itself spends). For the limits every API
    request counts against (`RequestRateThrottle`), a process takes a hundredth of the
    limit at a time (12 of a player's 1,200 a minute), lets that many through, then asks
    again. The window's count in Redis counts what the processes took, so no more than
    the limit is ever let through. What a process took and did not spend is lost with
    the window: a client can be refused up to 11 requests a process early, under 1% of
    the limit per process. A client sending one request a minute still costs a round
    trip each; a busy one, a round trip every twelfth request.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()  # the development server runs requests in threads
        self.left: dict[str, tuple[float, int]] = {}
        """Requests left by window key, with when the window ends (the throttles' clock)."""
        self.kept_after_pruning = 0

    def spend(self, key: str) -> bool:
        """Let a request through on what this process holds of the window `key`."""
        with self.lock:
            ends, left = self.left.get(key, (0.0, 0))
            if left == 0:
                return False
            self.left[key] = (ends, left - 1)
            return True

    def keep(self, key: str, left: int, ends: float, now: float) -> None:
        """Hold `left` requests of the window `key`, which ends at `ends`; the windows
        ended by `now` are forgotten whenever the table has doubled since the last time."""
        with self.lock:
            self.left[key] = (ends, left)
            if len(self.left) > 2 * self.kept_after_pruning + 100:
                self.left = {k: (e, n) for k, (e, n) in self.left.items() if e > now and n}
                self.kept_after_pruning = len(self.left)


leases = Leases()


COUNT_WINDOWS = """
local counts = {}
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[2 * i - 1], 'NX')
    counts[i] = redis.call('INCRBY', key, ARGV[2 * i])
end
return counts
"""
"""Count ARGV[2i] requests in each window KEYS[i], made to expire ARGV[2i-1] seconds
after its first count; the windows' counts."""


def count_windows(
    windows: Sequence[tuple[str, int, int]], cache: BaseCache | None = None
) -> list[int]:
    """Count `taken` requests in each (key, seconds, taken) window, a window expiring
    `seconds` after its first count; each window's count so far."""
    if cache is None:
        cache = caches["default"]  # the backend itself; DRF's `self.cache` is a proxy
    if isinstance(cache, RedisCache):
        # Django's `add` then `incr` takes three round trips to Redis a window (incr checks
        # that the key exists first), a MULTI of SET and INCR one a window (and four
        # replies to read); this script one for all the windows, with one reply.
        keys = [cache.make_and_validate_key(key) for key, _, _ in windows]
        arguments = [n for _, seconds, taken in windows for n in (seconds, taken)]
        counts = _counting_script(cache._cache)(keys, arguments)
        return [int(count) for count in counts]
    return [_count_in(cache, key, seconds, taken) for key, seconds, taken in windows]


def _count_in(cache: BaseCache, key: str, seconds: int, taken: int) -> int:
    if cache.add(key, taken, seconds):
        return taken
    try:
        return cache.incr(key, taken)
    except ValueError:  # expired between add and incr
        cache.set(key, taken, seconds)
        return taken


@functools.lru_cache(maxsize=4)
def _counting_script(backend: Any) -> Any:
    """`COUNT_WINDOWS` on the Redis client that writes to `backend` (Django's
    RedisCacheClient). Django builds a new client object for every call, 60 µs each;
    one per process will do, as its connection pool is the backend's own (and
    fork-safe). The script is sent by its digest, and loaded when Redis lacks it."""
    return backend.get_client(write=True).register_script(COUNT_WINDOWS)


class PlayerRateThrottle(WindowThrottle):
    """Per token for players; per address for requests without one. Keyed by the token's
    hash rather than the player: a table's read or change finds its caller without
    looking the player up (`bansugoroku.api.auth.BearerToken`)."""

    scope = "player"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        token = request.auth  # the token, for either way of authenticating
        ident = token_hash(token) if isinstance(token, str) else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AddressRateThrottle(WindowThrottle):
    """Per client address whatever the token, so minting tokens buys nothing."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RequestRateThrottle(BaseThrottle):
    """The limits every API request counts against, per player (`PlayerRateThrottle`) and
    per address (`AddressRateThrottle`), counted in one round trip to Redis: with one
    each they took 13% of a move request's CPU, together 7% (sampled, measured). Each
    process takes them from Redis in `Leases`, so a busy client's requests mostly need
    no round trip at all. Each limit keeps its own rate, window and behaviour while
    Redis is unavailable; the wait is the longest of those refusing."""

    limits: ClassVar[tuple[type[WindowThrottle], ...]] = (PlayerRateThrottle, AddressRateThrottle)

    def __init__(self) -> None:
        self.refused: list[WindowThrottle] = []

    def allow_request(self, request: Request, view: APIView) -> bool:
        throttles = [limit() for limit in self.limits]
        keyed = [(t, key) for t in throttles if (key := t.window_key(request, view)) is not None]
        asking = [(t, key, t.lease_size()) for t, key in keyed if not leases.spend(key)]
        if not asking:
            return True
        counts = redis_counts(
            lambda: count_windows([(key, t.duration, taken) for t, key, taken in asking])
        )
        self.refused = [
            throttle
            for i, (throttle, key, taken) in enumerate(asking)
            if not throttle.allows(key, None if counts is None else counts[i], taken)
        ]
        return not self.refused

    def wait(self) -> float:
        return max(throttle.wait() for throttle in self.refused)


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


class TakeSeatThrottle(KeyedThrottle):
    """Seats a player takes from the lobby, by a tap or by quick pairing
    (THROTTLE_TAKE_SEAT), whatever the address; pass the player's id."""

    scope = "take_seat"


class MessageThrottle(KeyedThrottle):
    """Messages a player writes at their tables (THROTTLE_MESSAGE); pass the player's id."""

    scope = "message"


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


def address_key(address: str) -> str:
    """What the limits per address count an address as: an IPv4 address as it is (an
    IPv4-mapped IPv6 address too), an IPv6 address as its network of IPV6_LIMIT_PREFIX
    bits (the first address of that network). A single IPv6 subscriber is handed a
    whole /64, so counting each of its addresses gave one person 2**64 budgets. What
    is not an address (a proxy's odd entry) is counted as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    prefix = settings.IPV6_LIMIT_PREFIX
    mask = ((1 << prefix) - 1) << (128 - prefix)
    return str(ipaddress.IPv6Address(int(ip) & mask))


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the rate limits see it (`address_key`): REMOTE_ADDR, or
    the entry that the last NUM_PROXIES proxies added to X-Forwarded-For. Admin login
    lockouts use it too (django-axes' AXES_CLIENT_IP_CALLABLE), so they hold for a
    whole IPv6 network as well. None for a request made in process with no address (a
    test client's force_login)."""
    return JoinCodeThrottle().get_ident(Request(request)) or None
