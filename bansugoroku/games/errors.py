"""Domain errors: each has a stable `code` a client can switch on and an HTTP status.

Services raise these; one exception handler (`bansugoroku.api.problems`) turns them into
`application/problem+json` responses, the same shape as every other API error. One
module per package: these are the games', the notices' are in `notifications.errors`.
The engine's refusals (`engine.game.Refusal`) are errors here with the refusal as their
code, and `refused` gives each its error.
"""

from __future__ import annotations

from typing import Any, assert_never

from engine.game import GameError, Refusal


class ServiceError(Exception):
    status = 400
    code = "invalid_request"
    title = "Invalid request"
    retry_after: int | None = None
    """Seconds for a Retry-After header, for errors that pass if tried again later."""

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class TableNotFound(ServiceError):
    """No table has the code, or the caller doesn't sit at it (nor may join it: both
    seats are taken): the same answer for all, so that join codes can't be told from
    guesses."""

    status, code, title = 404, "table_not_found", "No such table"


class NotTheHost(ServiceError):
    status, code, title = 403, "not_the_host", "Only the host can do this"


class StaleState(ServiceError):
    status, code, title = 409, "stale_state", "The table has changed since you last saw it"


class TableClosed(ServiceError):
    status, code, title = 409, "table_closed", "The table is closed"


class WrongState(ServiceError):
    status, code, title = 409, "wrong_state", "Not possible at this point of the table"


class NotYourTurn(ServiceError):
    status, code, title = 409, Refusal.NOT_YOUR_TURN, "It is not your turn"


class GameOver(ServiceError):
    status, code, title = 409, Refusal.GAME_OVER, "No game is being played"


class NothingToUndo(ServiceError):
    status, code, title = 409, Refusal.NOTHING_TO_UNDO, "No move of this turn to undo"


class TimeRanOut(ServiceError):
    """The move came after the mover's deadline: the game ended on time (or was
    cancelled, early on) instead, and the move was not played."""

    status, code, title = 409, "time_ran_out", "The time to move ran out"


class OnVacation(ServiceError):
    """A vacation was asked for during one: end it first."""

    status, code, title = 409, "on_vacation", "You are on vacation already"


class NotOnVacation(ServiceError):
    status, code, title = 409, "not_on_vacation", "You are not on vacation"


class NoVacationLeft(ServiceError):
    """More vacation days were asked for than the player has; `days_left` says how many."""

    status, code, title = 409, "no_vacation_left", "Not that much vacation left"


class IllegalMove(ServiceError):
    status, code, title = 422, "illegal_move", "That move is not allowed"


class GameNotFound(ServiceError):
    status, code, title = 404, "game_not_found", "No such game at this table"


class GameInProgress(ServiceError):
    status, code, title = 409, "game_in_progress", "The game is still being played"


class ReviewPending(ServiceError):
    """The game is over but the worker has not stored its review yet: a conflict with the
    game's state that passes, as `game_in_progress` does, so a client asks again."""

    status, code, title = 409, "review_pending", "The game's review is not ready yet"
    retry_after = 5


class NoReview(ServiceError):
    """A game the idle close abandoned: it is never reviewed (`outbox.game_reviews`)."""

    status, code, title = 404, "review_not_found", "This game has no review"


class TooManyOpenTables(ServiceError):
    """The player hosts OPEN_TABLES_MAX tables that wait for an opponent already."""

    status, code, title = 409, "too_many_open_tables", "Too many tables wait for an opponent"


class TooManyInLobby(ServiceError):
    """The player has LOBBY_TABLES_MAX tables in the lobby already."""

    status, code, title = 409, "too_many_in_lobby", "Too many of your tables are in the lobby"


class PlayerNotFound(ServiceError):
    """No listed player has the id: one who never came to the lobby is not shown."""

    status, code, title = 404, "player_not_found", "No such player"


class MessageNotFound(ServiceError):
    status, code, title = 404, "message_not_found", "No such message"


class SeatTaken(ServiceError):
    """The open table's free seat went to someone else first."""

    status, code, title = 409, "seat_taken", "Someone else took this seat first"


class OutcomeUnknown(ServiceError):
    """The connection to PostgreSQL was lost at COMMIT: the change may have been stored."""

    status, code, title = 503, "outcome_unknown", "The change may or may not have been made"
    retry_after = 2


def refused(error: GameError) -> ServiceError:
    """The API's error for the engine's refusal, with the engine's words as its detail;
    mypy checks that every refusal has one."""
    match error.refusal:
        case Refusal.GAME_OVER:
            return GameOver(error.message)
        case Refusal.NOT_YOUR_TURN:
            return NotYourTurn(error.message)
        case Refusal.NOTHING_TO_UNDO:
            return NothingToUndo(error.message)
        case unknown:
            assert_never(unknown)
