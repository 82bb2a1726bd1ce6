"""What a seat may do at its table now, each written once: the change refuses with the
error one of these returns, and the table's state tells the client the same answer
(`can_start`, `can_play_again`, `can_resign`), so no client keeps a rule of its own.

Each returns the refusal, or None when the seat may go ahead; the table is the one the
change locked or the read loaded, with its current game."""

from __future__ import annotations

from bansugoroku.games.errors import (
    GameOver,
    NotTheHost,
    ServiceError,
    TableClosed,
    WrongState,
)
from bansugoroku.games.models import Seat, Table, TableState


def start_refusal(table: Table, seat: Seat) -> ServiceError | None:
    """The host starts the first game, once both seats are taken."""
    if table.host_id != seat.player_id:
        return NotTheHost("only the host starts the first game")
    if table.state != TableState.READY:
        return WrongState(f"the table is {table.get_state_display()}, not ready to start")
    return None


def play_again_refusal(table: Table) -> ServiceError | None:
    """Either seat starts the next game, once the last one has ended."""
    if table.state != TableState.BETWEEN_GAMES:
        return WrongState("a new game starts only after one has ended")
    return None


def game_refusal(table: Table) -> ServiceError | None:
    """A change to the game being played (a move, an undo, a resignation) needs one."""
    game = table.current_game
    if table.state == TableState.CLOSED:
        return TableClosed("this table is closed")
    if game is None or game.is_over:
        return GameOver("no game is being played at this table")
    return None
