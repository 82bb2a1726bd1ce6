"""Signing in from any browser: a link mailed to a player's confirmed address.

A player's token may live in one browser only; a mail opened on a phone, or a lost
cookie, left them out. Anyone may ask for a link to any address, so the answer must not
say whether a player has it, neither by its words nor by how long it took: the request
only queues `send_sign_in` with the address (`queue_sign_in`), and the worker looks for
the players who confirmed it and mails them, unless its mailbox is suppressed. Several
players may share an address (one person, two invitations): the mail has one link per
player, named, and the browser plays as the one whose link it follows.

A link is 256 random bits, of which only the hash is kept; it works once, for
SIGN_IN_LINK_MINUTES. Opening it changes nothing (mail scanners fetch links): the page
asks, and its button uses it (`use_link`); the web pages then give the browser a token
of its own (`games.services.player_token_add`) and go on to the page it was asked from,
kept on the link (`next_path`, a local path the pages checked). A used or expired link
is deleted by the hourly purge (`notifications.retention`).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bansugoroku.games.models import Player
from bansugoroku.games.outbox import send_quietly
from bansugoroku.games.player_tokens import token_hash
from notifications.consent.addresses import is_suppressed
from notifications.errors import InvalidToken
from notifications.mails.messages import sign_in_email
from notifications.models import EmailAddress, ReplyToken, SignInLink

SEND_SIGN_IN = "notifications.send_sign_in"

log = logging.getLogger(__name__)


def queue_sign_in(address: str, next_path: str = "") -> None:
    """Queue the sign-in mail to `address` (canonical), its links to land on `next_path`
    (a local path, or "" for home); a broker that is away loses it, and whoever asked
    may ask again."""
    send_quietly(SEND_SIGN_IN, (address, next_path), "a sign-in mail was not queued")


def send_sign_in(address: str, next_path: str = "") -> str:
    """The worker's part: mail a link for each player who confirmed `address`, if any
    and its mailbox is not suppressed. Returns what was done, for the worker's log."""
    confirmed = EmailAddress.objects.filter(address__iexact=address, confirmed_at__isnull=False)
    emails = list(confirmed.select_related("player").order_by("-player_id"))
    if not emails:
        return "nothing to send: no player confirmed this address"
    if is_suppressed(address):
        return "not sent: the mailbox is suppressed"
    minutes = settings.SIGN_IN_LINK_MINUTES
    expires_at = timezone.now() + timedelta(minutes=minutes)
    links = [(email.player, _new_link(email.player, expires_at, next_path)) for email in emails]
    try:
        sign_in_email(emails[0].address, links, minutes).send()
    except Exception:  # the provider is down, or refused it: whoever asked may ask again
        log.warning("a sign-in mail failed", exc_info=True)
        return "failed"
    return "sent"


def _new_link(player: Player, expires_at: datetime, next_path: str) -> str:
    link = secrets.token_urlsafe(32)
    SignInLink.objects.create(
        player=player, link_hash=token_hash(link), expires_at=expires_at, next_path=next_path
    )
    return link


def _usable(link: str) -> SignInLink:
    found = (
        SignInLink.objects.select_related("player")
        .filter(link_hash=token_hash(link), used_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if found is None:
        raise InvalidToken("this sign-in link is damaged, expired or used already")
    return found


def link_player(link: str) -> Player:
    """The player a link signs in as, without using it; InvalidToken if it can't be used."""
    return _usable(link).player


def use_link(link: str) -> SignInLink:
    """The link, used up, with its player; InvalidToken if it can't be used. The row is
    locked, so of two taps racing one gets the link and the other the error."""
    with transaction.atomic():
        locked = SignInLink.objects.select_for_update(of=("self",)).select_related("player")
        found = locked.filter(link_hash=token_hash(link)).first()
        if found is None or found.used_at is not None or found.expires_at <= timezone.now():
            raise InvalidToken("this sign-in link is damaged, expired or used already")
        found.used_at = timezone.now()
        found.save(update_fields=["used_at"])
        return found


def mailed_links_revoke(*, player: Player) -> int:
    """End every link mailed to the player that still works, for "sign out other
    browsers": sign-in links, and the reply addresses of "your turn" mails, which answer
    as expired from now on. How many."""
    now = timezone.now()
    unused = {"player": player, "used_at__isnull": True, "expires_at__gt": now}
    links = SignInLink.objects.filter(**unused).update(expires_at=now)
    return links + ReplyToken.objects.filter(**unused).update(expires_at=now)
