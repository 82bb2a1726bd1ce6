"""The reply address of a "your turn" e-mail: `play+<token>@INBOUND_DOMAIN`, one per
table the mail lists, so that a reply plays that table's turn (`notifications.replies.play`).

The token is 120 random bits in lower-case base 32, which survives mail systems that
fold the case of addresses; only its SHA-256 is stored (`ReplyToken`), so a copy of the
database plays nobody's turn. Playing by reply is on when the site receives mail: an
inbound domain, a provider whose inbound webhook anymail has, and the webhook secret
that guards it (`inbound_provider`).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterable

from django.conf import settings
from django.utils import timezone

from bansugoroku.games.models import Game, Player, Seat, Table
from notifications.models import Preferences, ReplyToken
from notifications.providers import INBOUND_VIEWS, webhook_secret_set

LOCAL_PART = "play"
"""The reply address's local part before the `+`: the rest is the token."""


def inbound_provider() -> str | None:
    """The provider whose inbound webhook takes replies, while the site receives mail:
    INBOUND_DOMAIN and ANYMAIL_WEBHOOK_SECRET set and INBOUND_PROVIDER (by default the
    one mail is sent through) one anymail knows. Else None: no reply address is given
    and the webhook's route does not exist."""
    esp = settings.INBOUND_PROVIDER
    if not (settings.INBOUND_DOMAIN and webhook_secret_set()):
        return None
    return esp if esp in INBOUND_VIEWS else None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.lower().encode()).hexdigest()


def plays_by_reply(prefs: Preferences, seats: Iterable[Seat]) -> bool:
    """Whether the player plays a table with these seats by replying to its mails: the
    site receives mail, and they turned it on, and on for the CPU's tables too if it is
    one."""
    against_cpu = any(seat.cpu for seat in seats)
    return (
        inbound_provider() is not None
        and prefs.play_by_reply
        and (prefs.play_by_reply_cpu or not against_cpu)
    )


def issue(player: Player, table: Table, game: Game) -> str:
    """A new reply address for the player's turn in `game`, at the table as it is now."""
    token = base64.b32encode(secrets.token_bytes(15)).decode().lower()
    ReplyToken.objects.create(
        token_hash=token_hash(token),
        player=player,
        table=table,
        game_number=game.number,
        turn_number=game.turn_number,
        table_version=table.version,
        expires_at=timezone.now() + settings.REPLY_TOKEN_MAX_AGE,
    )
    return f"{LOCAL_PART}+{token}@{settings.INBOUND_DOMAIN}"


def token_in(addresses: Iterable[str]) -> str | None:
    """The token of the first of `addresses` that is a reply address of this site: the
    envelope's recipient first, then the headers' (a mail may be sent on to the reply
    address by a rule that keeps the original To)."""
    domain = (settings.INBOUND_DOMAIN or "").lower()
    for address in addresses:
        local, _, host = address.strip().lower().rpartition("@")
        name, plus, token = local.partition("+")
        if host == domain and name == LOCAL_PART and plus and token.isalnum():
            return token
    return None
