"""Rate limits: per player token, per address, and a tight one on join codes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

if TYPE_CHECKING:  # DRF imports the throttles while rest_framework.views loads
    from rest_framework.views import APIView


class WindowThrottle(SimpleRateThrottle):
    """DRF's rate throttle, counting requests in fixed windows instead of keeping a log.

    DRF keeps a timestamp per request in the window and copies the whole list through
    the cache on every request: a minute of 6,000 requests from one address is 6,000
    floats pickled both ways (and sent to Redis and back). With limits per minute, that
    cost 6% of a move's CPU even in process memory, measured. A counter is one `add` or
    `incr` (atomic on Redis), at the price of letting up to twice the rate through
    across a window boundary.
    """

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
        if self.cache.add(key, 1, self.duration):
            count = 1
        else:
            try:
                count = self.cache.incr(key)
            except ValueError:  # expired between add and incr
                self.cache.set(key, 1, self.duration)
                count = 1
        return count <= self.num_requests

    def wait(self) -> float:
        return max(0.0, self.window_ends - self.now)


class PlayerRateThrottle(WindowThrottle, UserRateThrottle):
    """Per token for players; per address for requests without one."""

    scope = "player"


class AddressRateThrottle(WindowThrottle):
    """Per client address whatever the token, so minting tokens buys nothing."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class JoinCodeThrottle(AddressRateThrottle):
    """Join codes are short; this makes guessing them slow."""

    scope = "join"
