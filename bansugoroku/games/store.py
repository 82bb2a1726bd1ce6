"""Finding and holding tables: a table loaded with its seats and game in one query, or
locked for a change; the caller's seat at it; and the small helpers the reads and the
writes share (join codes, token hashes, a position seen from a seat).
"""

from __future__ import annotations

import hashlib

from django.db import connection

from bansugoroku.games import queries
from bansugoroku.games.errors import NotAPlayer, StaleState, TableNotFound
from bansugoroku.games.models import Player, Seat, Table
from engine.position import Position

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I/L: a code read aloud or from a screen cannot be mistaken."""
CODE_LENGTH = 6


def clean_code(code: str) -> str:
    """A join code as stored (upper case), or TableNotFound for what cannot be one."""
    code = code.upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        raise TableNotFound(f"no table with code {code[:12]!r}")
    return code


def token_hash(token: str) -> str:
    """Tokens are 256 random bits, so a plain SHA-256 is as strong as a slow hash here."""
    return hashlib.sha256(token.encode()).hexdigest()


def load_table(code: str, *, lock: bool = False) -> Table:
    """The table with its game and both seats with their players, in one query.

    With `lock` it takes the table row FOR UPDATE. The seats are handed to the table's
    prefetch cache, so `table.seats.all()` costs nothing after.
    """
    rows = queries.table_rows(clean_code(code), lock=lock)
    if not rows:
        raise TableNotFound(f"no table with code {code}")
    table, game = rows[0][2], rows[0][3]
    table.current_game = game
    seats = []
    for seat, player, _, _ in rows:
        seat.player, seat.table = player, table
        seats.append(seat)
    # What prefetch_related_objects itself does with the rows it fetched; Django has no
    # public way to hand it rows already in hand. Its stubs leave out these private names.
    cached = table.seats.all()
    cached._result_cache = seats
    cached._prefetch_done = True  # type: ignore[attr-defined]
    table._prefetched_objects_cache = {"seats": cached}  # type: ignore[attr-defined]
    return table


def lock_table(code: str, version: int | None = None) -> Table:
    """The table, its row held FOR UPDATE until the transaction ends; StaleState unless
    `version` (when given) is the one the table is at."""
    if not connection.in_atomic_block:
        raise RuntimeError("a table is locked only inside a transaction")
    table = load_table(code, lock=True)
    if version is not None and version != table.version:
        raise StaleState(
            f"you saw version {version}, the table is at {table.version}: fetch it again",
            version=table.version,
        )
    return table


def seat_of(table: Table, player: Player) -> Seat:
    """The caller's seat at the table; NotAPlayer unless `player` sits at it."""
    for seat in table.seats.all():
        if seat.player_id == player.pk:
            return seat
    raise NotAPlayer("you do not sit at this table; join it with its code first")


def view(board: Position, seat: int) -> Position:
    """A position stored from Black's side, seen from `seat` (and back: it is its own inverse)."""
    return board if seat == 0 else board.flipped()
