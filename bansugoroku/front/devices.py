"""The "use on another device" link: it carries the player's token to a second browser
once, within `DEVICE_LINK_MINUTES`, while the token it carries still works.

The token is the player's only credential and never leaves the server in the clear in
a link: the link is the token and a nonce encrypted and authenticated with a key derived
from SECRET_KEY (Fernet, which also stamps the time). A link in a browser history or a
chat log is useless once used or expired; using it records the nonce, so it works once.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import IntegrityError, transaction

from bansugoroku.front.models import UsedDeviceLink
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.games.queries import player_by_token_hash


class LinkUnusable(Exception):
    """The link is damaged, forged, expired or used already."""


def _fernet() -> Fernet:
    key = hashlib.sha256(f"device-link:{settings.SECRET_KEY}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def make_link(token: str) -> str:
    """The path segment of a new link for the player with `token`."""
    nonce = secrets.token_hex(16)
    sealed = _fernet().encrypt(json.dumps({"n": nonce, "t": token}).encode())
    return sealed.decode()


def _open(link: str) -> tuple[str, str]:
    """The link's nonce and token; LinkUnusable when it is damaged, expired, or its
    token works no more ("sign out other browsers" replaced it since)."""
    try:
        content = json.loads(_fernet().decrypt(link, ttl=settings.DEVICE_LINK_MINUTES * 60))
        nonce, token = str(content["n"]), str(content["t"])
    except (InvalidToken, ValueError, KeyError, TypeError) as error:
        raise LinkUnusable("this link is damaged or expired") from error
    if player_by_token_hash(token_hash(token)) is None:
        raise LinkUnusable("the player signed out the browsers this link was made for")
    return nonce, token


def check_link(link: str) -> str:
    """The token a link carries, without using it up; LinkUnusable if it can't be used."""
    nonce, token = _open(link)
    if UsedDeviceLink.objects.filter(nonce=nonce).exists():
        raise LinkUnusable("this link was used already")
    return token


def use_link(link: str) -> str:
    """The token a link carries, using the link up; LinkUnusable if it can't be used."""
    nonce, token = _open(link)
    try:
        with transaction.atomic():
            UsedDeviceLink.objects.create(nonce=nonce)
    except IntegrityError:
        raise LinkUnusable("this link was used already") from None
    return token
