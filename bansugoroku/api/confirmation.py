"""Mailing an address's confirmation link, within the limits per mailbox and per client
address that every mail anyone may ask for counts against (`bansugoroku.limits.mail_limits`),
and one per player."""

from __future__ import annotations

from rest_framework.exceptions import Throttled
from rest_framework.request import Request

from bansugoroku.games.models import Player
from bansugoroku.limits.mail_limits import ConfirmationMailThrottle, mail_wait, mailbox_throttles
from notifications.consent import addresses


def mail_confirmation(request: Request, player: Player, address: str | None) -> None:
    """Set the player's address and mail its confirmation link, within the limits."""
    if address is not None:
        throttles = [ConfirmationMailThrottle(f"player:{player.pk}"), *mailbox_throttles(address)]
        wait = mail_wait(request, throttles)
        if wait is not None:
            raise Throttled(wait)
    addresses.email_set(player=player, address=address)
