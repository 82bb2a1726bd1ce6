"""Who a browser is: the player's bearer token, kept in an HttpOnly cookie.

The web page plays through the same REST API as the apps. A browser has no safe place
for a bearer token that page scripts can read, so the token lives in a cookie that
scripts cannot read (HttpOnly, SameSite=Lax, Secure in production), and the API accepts
it with Django's CSRF check (`CookieTokenAuthentication`, after the bearer token in
`REST_FRAMEWORK`), because a browser sends the cookie with requests other sites make.

A token is a player's only credential, and the browser may hold the only copy. So when
the browser switches to another player (a "use on another device" link), the player it
played as is kept, with those kept before, in a second cookie of the same kind
(`KEPT_COOKIE`, at most `KEPT` of them, newest first), and the settings page switches
back (`switch`).

A player may hold more than one token: a browser that signs in with a mailed link
(`sign_in_pages`) gets one of its own (`games.models.SignedInToken`), as the server
keeps no token it could hand out. So one person may play in any browser, and one
browser may hold several players (two invitations, two names) and choose which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from bansugoroku.games.models import Player, SignedInToken
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.games.queries import player_by_token_hash

COOKIE = "player"
"""The cookie holding the player's token."""

KEPT_COOKIE = "other_players"
"""The tokens of the other players this browser played as, newest first, joined by ":"
(a token is "bs_" and base64url: it holds none)."""

KEPT = 10
"""Other players a browser keeps to switch back to: ten tokens make a cookie of about
470 bytes, sent with every request."""

MAX_AGE = 400 * 24 * 3600
"""As long as browsers keep a cookie (RFC 6265bis caps it at 400 days); each visit renews it."""


def token_of(request: HttpRequest) -> str | None:
    return request.COOKIES.get(COOKIE) or None


def current_player(request: HttpRequest) -> Player | None:
    """The player this browser plays as, or None before it has one (or a stale cookie)."""
    token = token_of(request)
    return None if token is None else player_by_token_hash(token_hash(token))


def remember(response: HttpResponse, token: str) -> None:
    """Make the browser play as the player with `token` from now on."""
    _set(response, COOKIE, token)


def forget(response: HttpResponse) -> None:
    """Make the browser drop the player it plays as and those it keeps."""
    for name in (COOKIE, KEPT_COOKIE):
        response.delete_cookie(name, samesite="Lax")


def _set(response: HttpResponse, name: str, value: str) -> None:
    response.set_cookie(
        name, value, max_age=MAX_AGE, httponly=True, samesite="Lax", secure=not settings.DEBUG
    )


@dataclass(frozen=True)
class Switch:
    """What switching the browser to another player does to the players it holds."""

    kept: list[tuple[str, Player]]
    """The players kept to switch back to afterwards, newest first, with their tokens."""
    forgotten: list[Player]
    """Those that no longer fit (`KEPT`): the browser forgets them."""


def kept_players(request: HttpRequest) -> list[tuple[str, Player]]:
    """The other players this browser played as and still holds, newest first; tokens
    that name nobody any more (purged players) are left out."""
    return _living(_kept_tokens(request))


def _kept_tokens(request: HttpRequest) -> list[str]:
    return request.COOKIES.get(KEPT_COOKIE, "").split(":")


def _living(tokens: list[str]) -> list[tuple[str, Player]]:
    hashes = {token_hash(token): token for token in dict.fromkeys(tokens) if token}
    players = {p.token_hash: p for p in Player.objects.filter(token_hash__in=hashes)}
    signed_in = SignedInToken.objects.select_related("player").filter(token_hash__in=hashes)
    players.update((k.token_hash, k.player) for k in signed_in)
    return [(token, players[key]) for key, token in hashes.items() if key in players]


def held_token(request: HttpRequest, player: Player) -> str | None:
    """The token this browser holds for `player`, as the one it plays as or one it
    keeps, if any."""
    held = _living([token_of(request) or "", *_kept_tokens(request)])
    return next((token for token, found in held if found.pk == player.pk), None)


def switch_of(request: HttpRequest, token: str) -> Switch:
    """What `switch` to the player with `token` would keep and forget."""
    held = _living([token_of(request) or "", *_kept_tokens(request)])
    others = [(kept, player) for kept, player in held if kept != token]
    return Switch(others[:KEPT], [player for _, player in others[KEPT:]])


def switch(request: HttpRequest, response: HttpResponse, token: str) -> None:
    """Make the browser play as the player with `token`, keeping the one it played as
    (and those kept before) to switch back to."""
    remember(response, token)
    kept = ":".join(kept for kept, _ in switch_of(request, token).kept)
    if kept:
        _set(response, KEPT_COOKIE, kept)
    else:
        response.delete_cookie(KEPT_COOKIE, samesite="Lax")


class CookieTokenAuthentication(SessionAuthentication):
    """The web page's API requests: the player from the cookie, with the CSRF check DRF
    gives session logins (`SessionAuthentication.enforce_csrf`)."""

    def authenticate(self, request: Request) -> tuple[Player, str] | None:
        token = token_of(request._request)
        if token is None:
            return None
        player = player_by_token_hash(token_hash(token))
        if player is None:
            return None  # a stale cookie names nobody: 401, and the page offers a new player
        self.enforce_csrf(request)
        return player, token


# drf-spectacular's extensions register themselves in an __init_subclass__ without types.
class CookieTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The schema names the cookie too, for the web page; apps use the bearer token."""

    target_class = CookieTokenAuthentication
    name = "browserCookie"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": COOKIE,
            "description": "The web page's HttpOnly cookie; unsafe methods need X-CSRFToken.",
        }
