"""Signed tokens in links sent by mail (django.core.signing, keyed by SECRET_KEY).

A confirmation token names the player and the address and expires after
NOTICE_CONFIRM_MAX_AGE; an unsubscribe token names the player and the kind of e-mail and
never expires, since a List-Unsubscribe link in an old mail must still work.
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing

from notifications.refusals import InvalidToken

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


def unsubscribe_token(player_id: int, kind: str) -> str:
    return signing.dumps({"p": player_id, "k": kind}, salt=_UNSUBSCRIBE, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The player and the kind of e-mail to turn off; an empty kind is every kind."""
    try:
        data = signing.loads(token, salt=_UNSUBSCRIBE)
    except signing.BadSignature:
        raise InvalidToken("not an unsubscribe token of this site") from None
    return int(data["p"]), str(data["k"])
