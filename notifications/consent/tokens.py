"""Signed tokens in links sent by mail (django.core.signing, keyed by SECRET_KEY).

A confirmation token names the player and the address and expires after
NOTICE_CONFIRM_MAX_AGE. An unsubscribe token names the player, the kind of e-mail and
the address it was mailed to (a keyed hash of it, so that the link does not carry the
address), and does not expire, since a List-Unsubscribe link in an old mail must still
work; it works only while that address is the player's confirmed one
(`preferences.unsubscribe_request`): whoever had a mail for an address the player has
left since can no longer turn the player's mail off.
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.utils.crypto import salted_hmac

from notifications.errors import InvalidToken

_CONFIRM = "notifications.confirm"
_UNSUBSCRIBE = "notifications.unsubscribe"


def confirm_token(player_id: int, address: str) -> str:
    return signing.dumps({"p": player_id, "a": address}, salt=_CONFIRM, compress=True)


def read_confirm_token(token: str, max_age: timedelta) -> tuple[int, str]:
    try:
        data = signing.loads(token, salt=_CONFIRM, max_age=max_age)
    except signing.SignatureExpired:
        raise InvalidToken("the confirmation link has expired: set the address again") from None
    except signing.BadSignature:
        raise InvalidToken("not a confirmation token of this site") from None
    return int(data["p"]), str(data["a"])


def address_tag(address: str) -> str:
    """Which address an unsubscribe token was mailed to, without naming it."""
    return salted_hmac(_UNSUBSCRIBE, address).hexdigest()[:16]


def unsubscribe_token(player_id: int, kind: str, address: str) -> str:
    data = {"p": player_id, "k": kind, "a": address_tag(address)}
    return signing.dumps(data, salt=_UNSUBSCRIBE, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str, str]:
    """The player, the kind of e-mail to turn off (an empty kind is every kind) and the
    tag of the address the token was mailed to."""
    try:
        data = signing.loads(token, salt=_UNSUBSCRIBE)
        return int(data["p"]), str(data["k"]), str(data["a"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        # A token of this site's from before tokens named the address has no "a".
        raise InvalidToken("not an unsubscribe token of this site") from None
