"""Loading and locking a table, and the one translation between its rows and the engine.

Below the services and the reads: a table is loaded with its game, seats and players in
one query (`load_table`), locked for a change (`lock_table`), and its game row read as
an engine `Game` (`game_value`) and written back from one (`write_game`). Who is to
move, how a turn is built from what is stored, and how the dice are derived all live
in the engine value, so this is the only place that maps columns to it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone

from bansugoroku.games import queries
from bansugoroku.games.errors import StaleState, TableClosed, TableNotFound
from bansugoroku.games.models import Game, GameState, Player, Seat, Table, TableState
from bansugoroku.games.player_tokens import TokenHolder
from engine.dice import derived_dice
from engine.game import Ending, GameValue, Result, Roller
from engine.notation import position_id
from engine.rules import WinKind
from engine.side import Side

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I/L: a code read aloud or from a screen cannot be mistaken."""
CODE_LENGTH = 6


def clean_code(code: str) -> str:
    """A join code as stored (upper case), or TableNotFound for what cannot be one."""
    code = code.upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        raise TableNotFound(f"no table with code {code[:12]!r}")
    return code


Caller = Player | TokenHolder
"""Who reads or changes a table: a player already looked up, or whoever holds a token,
whose seat the table's own query finds (`seat_of`)."""


def load_table(code: str, *, lock: bool = False, caller: Caller | None = None) -> Table:
    """The table with its game and both seats with their players, in one query, which
    also finds the seat of a `caller` known by their token.

    With `lock` it takes the table row FOR UPDATE. The seats are handed to the table's
    prefetch cache, so `table.seats.all()` costs nothing after.
    """
    code = clean_code(code)
    held = caller.token_hash if isinstance(caller, TokenHolder) else None
    rows = queries.table_rows(code, lock=lock, token_hash=held)
    if not rows:
        raise not_found(code)
    table, game = rows[0][2], rows[0][3]
    table.current_game = game
    seats = []
    for seat, player, _, _, holds in rows:
        seat.player, seat.table = player, table
        if holds and held is not None:
            table.token_seat = (held, seat.number)
        seats.append(seat)
    # What prefetch_related_objects itself does with the rows it fetched; Django has no
    # public way to hand it rows already in hand. Its stubs leave out these private names.
    cached = table.seats.all()
    cached._result_cache = seats
    cached._prefetch_done = True  # type: ignore[attr-defined]
    table._prefetched_objects_cache = {"seats": cached}  # type: ignore[attr-defined]
    return table


def not_found(code: str) -> TableNotFound:
    """The one answer for a code with no table, and for a table the caller doesn't sit
    at: the same words, so that neither tells a real code from a guess."""
    return TableNotFound(f"no table with code {code}")


def lock_table(code: str, caller: Caller | None = None) -> Table:
    """The table locked FOR UPDATE for a change."""
    if not connection.in_atomic_block:
        raise RuntimeError("a table is locked only inside a transaction")
    return load_table(code, lock=True, caller=caller)


def lock_table_unversioned(code: str) -> Table:
    """The table locked FOR UPDATE, then read again whole, for a change that sends no
    version (a join, the CPU's move). A change that waited for the lock reads the table
    row as the change before it committed it, but the seats and the game joined to it as
    they were (PostgreSQL's READ COMMITTED re-reads only the rows it locks): without a
    version to be found stale, it would act on them, giving a seat away twice or playing
    a turn twice. A versioned change needs no second read: its version no longer matches."""
    lock_table(code)
    return load_table(code)


def lock_seat(
    code: str, caller: Caller, version: int, now: datetime, *, looking: bool = True
) -> tuple[Table, Seat]:
    """The table locked FOR UPDATE and the caller's seat at it, if the client saw its
    latest `version` (`checked_seat`). A change that waited for the lock is checked
    against the table as the change before it left it: a move that waited while the idle
    sweep closed the table is told why, not just "stale"."""
    return checked_seat(lock_table(code, caller), caller, version, now, looking=looking)


def checked_seat(
    table: Table, caller: Caller, version: int, now: datetime, *, looking: bool = True
) -> tuple[Table, Seat]:
    """The caller's seat at the table, if a change by them may go ahead. The seat is
    checked first: a stranger gets TableNotFound, never a StaleState that would tell
    them the table exists and its version. A closed table refuses every change as
    TableClosed whatever the version. The seat is marked seen `now`, the change's time,
    unless the caller is not `looking` at the table (a move replied by mail); the change
    writes it with the rest."""
    seat = seat_of(table, caller)
    if table.state == TableState.CLOSED:
        raise TableClosed("this table is closed")
    if looking:
        seat.last_seen_at = now
    if version != table.version:
        raise StaleState(
            f"you saw version {version}, the table is at {table.version}: fetch it again",
            version=table.version,
        )
    return table, seat


def seat_of(table: Table, caller: Caller) -> Seat:
    """The caller's seat at the table. A player who doesn't sit at it gets the same
    TableNotFound as for a code with no table, so join codes can't be enumerated. A
    caller known by their token sits where the table's query found the token held
    (`load_table`): at no seat of a table loaded without it."""
    for seat in table.seats.all():
        if isinstance(caller, TokenHolder):
            if table.token_seat == (caller.token_hash, seat.number):
                return seat
        elif seat.player_id == caller.pk:
            return seat
    raise not_found(table.code)


SEEN_PRECISION = timedelta(minutes=1)
"""How stale a seat's `last_seen_at` may be before a read writes it again: a player
polling every few seconds costs one UPDATE a minute, not one per request."""


def note_seen(seat_id: int, last_seen_at: datetime | None) -> datetime:
    """Record that the seat's player is looking at the table, read with the seat in the
    query that loaded it; written only when older than `SEEN_PRECISION`. A change
    writes it in its own statement instead (`services._commit`)."""
    now = timezone.now()
    if last_seen_at is not None and now - last_seen_at < SEEN_PRECISION:
        return last_seen_at
    Seat.objects.filter(pk=seat_id).update(last_seen_at=now)
    return now


def game_value(table: Table, game: Game) -> GameValue:
    """The stored game as the engine's value."""
    result = None
    if game.is_over:
        winner = None if game.winner is None else Side(game.winner)
        kind = WinKind(game.win_kind) if game.win_kind else None
        result = Result(Ending(game.state), winner, game.points, kind)
    return GameValue(
        rules=table.rules,
        starter=Side(game.starter),
        board=game.board(),
        turn_number=game.turn_number,
        to_move=Side(game.turn_seat),
        dice=(game.dice[0], game.dice[1]) if game.dice else (0, 0),
        pending=tuple((m[0], m[1]) for m in game.pending),
        opening_rolls=tuple((r[0], r[1]) for r in game.opening_rolls),
        result=result,
    )


def write_game(table: Table, game: Game, value: GameValue, now: datetime) -> None:
    """Copy the engine value onto the game row, and a new result onto the table's score;
    a game that ends now ended at `now`, the change's time. Nothing is saved here: the
    change writes the rows in one statement."""
    game.position = position_id(value.board)
    game.turn_number, game.turn_seat = value.turn_number, value.to_move
    game.dice, game.pending = list(value.dice), [list(m) for m in value.pending]
    game.starter = value.starter
    game.opening_rolls = [list(r) for r in value.opening_rolls]
    if value.result is not None and not game.is_over:
        result = value.result
        game.state = GameState(result.ending.value)
        game.winner, game.points = result.winner, result.points
        game.win_kind = result.win_kind or ""
        game.ended_at = now
        if result.winner is Side.BLACK:
            table.score_black += result.points
        elif result.winner is Side.WHITE:
            table.score_white += result.points


def roller(game: Game) -> Roller:
    """The game's dice: HMAC-SHA256 of its committed seed over the roll's label and
    both seats' entropy (`engine.dice.derived_dice`)."""
    seed, entropy = bytes(game.seed), game.entropy

    def roll(label: str) -> tuple[int, int]:
        first, second = derived_dice(seed, entropy, label)
        return first, second

    return roll
