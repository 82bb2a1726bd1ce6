"""Bearer-token authentication: `Authorization: Bearer <token>` names a player."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from bansugoroku.games.models import Player
from bansugoroku.games.player_tokens import TokenHolder, token_hash
from bansugoroku.games.queries import player_by_token_hash
from bansugoroku.games.store import Caller


class BearerToken:
    """`request.user` of a request with a bearer token: the player is looked up when a
    view asks for them (`player_of`), which every view does but the table's read and
    changes. Those find the caller's seat by the token in the query that loads the
    table (`caller_of`): a round trip fewer, 7% of a move's CPU (measured). Until looked
    up, it is neither a player nor authenticated: code that asks fails loudly."""

    def __init__(self, token: str) -> None:
        self.token_hash = token_hash(token)
        self._looked_up = False
        self._player: Player | None = None

    def player(self) -> Player:
        """The player holding the token, looked up once; AuthenticationFailed (401) for a
        token nobody holds."""
        if not self._looked_up:
            self._player, self._looked_up = player_by_token_hash(self.token_hash), True
        if self._player is None:
            raise AuthenticationFailed("unknown player token")
        return self._player


class BearerTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[BearerToken, str] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].decode(errors="replace").lower() != self.keyword.lower():
            return None
        if len(parts) != 2:
            raise AuthenticationFailed("write the header as: Authorization: Bearer <token>")
        token = parts[1].decode(errors="replace")
        return BearerToken(token), token

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) to a request without a token.
        return self.keyword


def player_of(request: Request) -> Player:
    """The player whose token the request carries: for views that require one, as all do
    but a few (`HasPlayer` by default)."""
    user = request.user
    if isinstance(user, BearerToken):
        return user.player()
    if not isinstance(user, Player):
        raise NotAuthenticated()
    return user


def caller_of(request: Request) -> Caller:
    """The caller of a table's read or change, for a view that `finds_caller_by_token`:
    whoever holds the request's bearer token, whose seat the table's query finds, or
    the player of the web page's cookie. A view that asks for it answers 401 for an
    unknown token where it would answer 404 (`unknown_token_first`)."""
    user = request.user
    if isinstance(user, BearerToken):
        return TokenHolder(user.token_hash)
    return player_of(request)


def unknown_token_first(request: Request, exc: Exception) -> Exception:
    """`exc`, or a 401 when the request's bearer token names nobody: a view that finds
    the caller by the token (`caller_of`) only learns that the token is unknown when it
    finds no seat holding it, and then answers as if it had looked it up first."""
    user = getattr(request, "_user", None)  # not request.user: it may be what failed
    if isinstance(user, BearerToken) and not isinstance(exc, NotAuthenticated):
        try:
            user.player()
        except AuthenticationFailed as unknown:
            # The challenge DRF's handle_exception adds to an AuthenticationFailed it sees.
            unknown.auth_header = BearerTokenAuthentication.keyword  # type: ignore[attr-defined]
            return unknown
    return exc


class HasPlayer(BasePermission):
    """DRF's IsAuthenticated, which also looks the bearer token up, but for a view that
    `finds_caller_by_token` (the table's read and changes): that one finds the caller's
    seat by the token, and answers 401 if no seat and no player holds it."""

    def has_permission(self, request: Request, view: Any) -> bool:
        by_token = getattr(view, "finds_caller_by_token", False)
        if not (by_token and isinstance(request.user, BearerToken)):
            player_of(request)  # NotAuthenticated, or AuthenticationFailed for an unknown token
        return True


# drf-spectacular's extensions register themselves in an __init_subclass__ without types.
class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Tells the OpenAPI schema how to authenticate: an HTTP bearer token."""

    target_class = BearerTokenAuthentication
    name = "playerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The token from POST /api/v1/players.",
        }
