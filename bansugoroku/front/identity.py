"""Who a browser is: the player's bearer token, kept in an HttpOnly cookie.

The web page plays through the same REST API as the apps. A browser has no safe place
for a bearer token that page scripts can read, so the token lives in a cookie that
scripts cannot read (HttpOnly, SameSite=Lax, Secure in production), and the API accepts
it with Django's CSRF check (`CookieTokenAuthentication`, after the bearer token in
`REST_FRAMEWORK`), because a browser sends the cookie with requests other sites make.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from bansugoroku.games.models import Player
from bansugoroku.games.queries import player_by_token_hash
from bansugoroku.games.store import token_hash

COOKIE = "player"
"""The cookie holding the player's token."""

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
    response.set_cookie(
        COOKIE, token, max_age=MAX_AGE, httponly=True, samesite="Lax", secure=not settings.DEBUG
    )


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
