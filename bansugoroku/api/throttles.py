"""Rate limits: per player token, per address, and a tight one on join codes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

if TYPE_CHECKING:  # DRF imports the throttles while rest_framework.views loads
    from rest_framework.views import APIView


class PlayerRateThrottle(UserRateThrottle):
    """Per token for players; per address for requests without one."""

    scope = "player"


class AddressRateThrottle(SimpleRateThrottle):
    """Per client address whatever the token, so minting tokens buys nothing."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class JoinCodeThrottle(AddressRateThrottle):
    """Join codes are short; this makes guessing them slow."""

    scope = "join"
