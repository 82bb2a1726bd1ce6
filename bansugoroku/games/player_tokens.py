"""A player's bearer token: how one is made, and the hash that is all the server keeps.

The token is shown once, when the player is created (`services.player_create`); every
request then finds its player by the hash (`queries.player_by_token_hash`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass


def new_token() -> str:
    """256 random bits, with a prefix that says what the string is."""
    return "bs_" + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Tokens are 256 random bits, so a plain SHA-256 is as strong as a slow hash here."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class TokenHolder:
    """Whoever holds the token with this hash, not looked up yet: a table's read or
    change finds their seat in the query that loads the table, a round trip fewer than
    finding the player first (`store.load_table`)."""

    token_hash: str
