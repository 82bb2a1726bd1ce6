"""The limits on the mails anyone may ask for: an address's confirmation link and a
sign-in link, counted together per mailbox and per client address.

The mailbox (`notifications.consent.mailboxes.mailbox`) is what is counted, not the address as
typed: every spelling of one inbox, and every `+tag` of it, shares one count. Its hourly
limit bounds a burst, its daily cap a slow drip from many players; the limit per client
address bounds how many inboxes one sender can reach at all, whatever players it makes.
The two kinds of mail share the counts, so asking for one kind buys no more of the
other. Each is counted in this process while Redis is down rather than let through.

Beside the throttles rather than in the API, as the sign-in page outside it counts too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.core.cache import BaseCache, caches
from django.http import HttpRequest
from rest_framework.request import Request

from bansugoroku.limits.throttles import (
    AddressRateThrottle,
    KeyedThrottle,
    WindowThrottle,
    limit_wait,
)
from notifications.consent.mailboxes import mailbox


class ConfirmationMailThrottle(KeyedThrottle):
    """Mails per player and per mailbox in an hour (THROTTLE_CONFIRM_EMAIL)."""

    scope = "confirm_email"


class DailyConfirmationMailThrottle(KeyedThrottle):
    """Mails per mailbox in a day (THROTTLE_CONFIRM_EMAIL_DAILY)."""

    scope = "confirm_email_daily"


class MailedAddressesThrottle(AddressRateThrottle):
    """Mailboxes a client address had mailed in a day (THROTTLE_CONFIRM_EMAIL_ADDRESSES):
    a mailbox it mailed before in the window does not count again, but is refused too
    once the limit was passed."""

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


def mailbox_throttles(address: str) -> list[WindowThrottle]:
    """The limits a mail to `address` counts against, whoever asks for it."""
    digest = hashlib.sha256(mailbox(address).encode()).hexdigest()
    return [
        ConfirmationMailThrottle(f"mailbox:{digest}"),
        DailyConfirmationMailThrottle(f"mailbox:{digest}"),
        MailedAddressesThrottle(digest),
    ]


def mail_wait(request: HttpRequest | Request, throttles: Sequence[WindowThrottle]) -> int | None:
    """Count the mail against each limit in turn: None while under all of them, else the
    whole seconds to wait, from the first that refuses (those after it count nothing)."""
    for throttle in throttles:
        wait = limit_wait(throttle, request)
        if wait is not None:
            return wait
    return None
