"""Mailing an address's confirmation link, within limits per player, per mailbox and per
client address.

The mailbox (`notifications.mailboxes.mailbox`) is what is counted, not the address as
typed: every spelling of one inbox, and every `+tag` of it, shares one count. Its hourly
limit bounds a burst, its daily cap a slow drip from many players; the limit per client
address bounds how many inboxes one sender can reach at all, whatever players it makes.
Each is counted in this process while Redis is down rather than let through.
"""

from __future__ import annotations

import hashlib

from django.core.cache import BaseCache, caches
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.views import APIView

from bansugoroku.games.models import Player
from bansugoroku.throttles import AddressRateThrottle, KeyedThrottle
from notifications import addresses
from notifications.mailboxes import mailbox


class ConfirmationMailThrottle(KeyedThrottle):
    """Confirmation mails per player and per mailbox in an hour (THROTTLE_CONFIRM_EMAIL)."""

    scope = "confirm_email"


class DailyConfirmationMailThrottle(KeyedThrottle):
    """Confirmation mails per mailbox in a day (THROTTLE_CONFIRM_EMAIL_DAILY)."""

    scope = "confirm_email_daily"


class MailedAddressesThrottle(AddressRateThrottle):
    """Mailboxes a client address had mailed a confirmation in a day
    (THROTTLE_CONFIRM_EMAIL_ADDRESSES): a mailbox it mailed before in the window does
    not count again, but is refused too once the limit was passed."""

    scope = "confirm_email_addresses"
    fail_open = False

    def __init__(self, mailbox_digest: str) -> None:
        super().__init__()
        self.mailbox_digest = mailbox_digest

    def hit(self, key: str, cache: BaseCache | None = None) -> int:
        if self.count(f"{key}:{self.mailbox_digest}", cache) == 1:
            return self.count(key, cache)  # a mailbox new to this client
        found = (cache if cache is not None else caches["default"]).get(key, 0)
        return int(found)


def mail_confirmation(request: Request, view: APIView, player: Player, address: str | None) -> None:
    """Set the player's address and mail its confirmation link, within the limits."""
    if address is not None:
        digest = hashlib.sha256(mailbox(address).encode()).hexdigest()
        throttles = [
            ConfirmationMailThrottle(f"player:{player.pk}"),
            ConfirmationMailThrottle(f"mailbox:{digest}"),
            DailyConfirmationMailThrottle(f"mailbox:{digest}"),
            MailedAddressesThrottle(digest),
        ]
        for throttle in throttles:
            if not throttle.allow_request(request, view):
                raise Throttled(throttle.wait())
    addresses.email_set(player=player, address=address)
