"""The payload of each kind of event, as a `TypedDict`: what the rows of the outbox hold;
and, as plain JSON too, what a game's review keeps of each play (`ReviewedPlay`).

Written by `events` (the changes) and by `idle`'s SQL (`jsonb_build_object`, whose keys
a test holds to these), read by the outbox's readers (the CPU's turn, the notices).
An `Event.payload` read back from the database is plain JSON: a reader annotates it
with its kind's type, e.g. `payload: payloads.TurnStarted = event.payload`.
"""

from __future__ import annotations

from typing import Literal, TypedDict

How = Literal["normal", "resigned", "abandoned", "time", "cancelled"]
"""How a game ended, as `game_ended` says it."""


class PlayerJoined(TypedDict):
    name: str


class MessageWritten(TypedDict):
    """A message (`games.messages`): the feed gives it as the reader reads it."""

    id: int
    with_move: bool
    """Its writer was to move: the "your turn" notice their move brings tells it."""


class GameStarted(TypedDict):
    game: int
    starter: int
    opening_rolls: list[list[int]]
    seed_sha256: str


class Played(TypedDict):
    """A finished turn's play: also each seat's last play in `Game.recent`."""

    turn: int
    seat: int
    dice: list[int]
    moves: list[list[int]]
    notation: str
    hit: bool


class Passed(TypedDict):
    """A turn with no possible move: also in `Game.recent`'s passes."""

    turn: int
    seat: int
    dice: list[int]


class Lead(TypedDict):
    """What led to a turn or an end: the play just made and the passes after it."""

    game: int
    played: Played | None
    passes: list[Passed]


class TurnStarted(Lead):
    turn: int
    seat: int
    dice: list[int]


class GameEnded(Lead):
    winner: int | None
    points: int
    how: How
    win_kind: str | None
    """An `engine.rules.WinKind` value; None with no result."""
    score: list[int]


class TableClosing(TypedDict):
    closes_at: str
    """ISO 8601, as PostgreSQL writes a timestamp into JSON."""
    days_left: int


class ClockLow(TypedDict):
    """`clock_low` (`games.timeouts.remind`): the seat to move is near its deadline."""

    game: int
    deadline: str
    """ISO 8601, as PostgreSQL writes a timestamp into JSON."""
    hours: int
    """The threshold reminded: one of the player's `reminder_hours`."""


class AutoVacation(TypedDict):
    """`auto_vacation` (`games.vacations.start_auto`): the seat's time ran out here, and
    a day of their vacation started instead."""

    until: str
    """ISO 8601: when the vacation ends, and the clocks run again."""
    days_left: float


class TableLeft(TypedDict):
    """`table_closed` when a seated player left; the event's seat is theirs."""

    reason: Literal["left"]
    name: str
    game: int | None
    score: list[int]


class TableClosedIdle(TypedDict):
    """`table_closed` by the idle close (`games.idle`)."""

    reason: Literal["idle"]
    idle_days: int
    last_active_at: str
    game: int | None
    score: list[int]


TableClosed = TableLeft | TableClosedIdle
"""`table_closed`, one shape per `reason`."""


class HardPlay(TypedDict):
    """The play Hard would have made instead."""

    moves: list[list[int]]
    """From the mover's side."""
    notation: str
    equity: float
    position_after: str
    """Position id from Black's side, as `Turn.position_after`."""


class ReviewedPlay(TypedDict):
    """One play of a person in `GameReview.plays`, beside Hard's choice."""

    turn: int
    seat: int
    dice: list[int]
    moves: list[list[int]]
    notation: str
    position_after: str
    equity: float
    """What the play is worth to its mover in Hard's estimate (points, -3 to 3)."""
    loss: float
    """How much less than Hard's play; 0 when it is Hard's or as good."""
    marked: bool
    """One of the seat's worst few plays."""
    best: HardPlay
