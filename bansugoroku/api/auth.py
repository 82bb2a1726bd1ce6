"""Bearer-token authentication: `Authorization: Bearer <token>` names a player."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.request import Request

from bansugoroku.games.models import Player
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.games.queries import player_by_token_hash


class BearerTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Player, str] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].decode(errors="replace").lower() != self.keyword.lower():
            return None
        if len(parts) != 2:
            raise AuthenticationFailed("write the header as: Authorization: Bearer <token>")
        token = parts[1].decode(errors="replace")
        player = player_by_token_hash(token_hash(token))
        if player is None:
            raise AuthenticationFailed("unknown player token")
        return player, token

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) to a request without a token.
        return self.keyword


def player_of(request: Request) -> Player:
    """The player whose token the request carries: for views that require one, as all do
    but a few (IsAuthenticated by default)."""
    user = request.user
    if not isinstance(user, Player):
        raise NotAuthenticated()
    return user


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
