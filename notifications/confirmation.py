"""Mailing an address's confirmation link, within limits per player and per address."""

from __future__ import annotations

import hashlib

from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.views import APIView

from bansugoroku.games.models import Player
from bansugoroku.throttles import WindowThrottle
from notifications import addresses


class ConfirmationMailThrottle(WindowThrottle):
    """Confirmation mails per player and per address (THROTTLE_CONFIRM_EMAIL), so no one
    can use the site to flood an inbox, even with many players; counted in this process
    while Redis is down rather than let through."""

    scope = "confirm_email"
    fail_open = False

    def __init__(self, ident: str) -> None:
        super().__init__()
        self.ident = ident

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


def mail_confirmation(request: Request, view: APIView, player: Player, address: str | None) -> None:
    """Set the player's address and mail its confirmation link, within the limits."""
    if address is not None:
        digest = hashlib.sha256(address.lower().encode()).hexdigest()
        for ident in (f"player:{player.pk}", f"address:{digest}"):
            throttle = ConfirmationMailThrottle(ident)
            if not throttle.allow_request(request, view):
                raise Throttled(throttle.wait())
    addresses.email_set(player=player, address=address)
