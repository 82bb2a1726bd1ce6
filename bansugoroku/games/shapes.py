"""The shape of every JSON object the API answers, written once: the read functions
return these TypedDicts (plain dicts at run time) and the OpenAPI schema is generated
from them by `bansugoroku.api.schema.component`, with a key's `Annotated` metadata and
a class's docstring as descriptions.

No `from __future__ import annotations`: Python 3.11 misses `NotRequired` in a string.
"""

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, NotRequired, TypedDict

from bansugoroku.games import models
from engine.rules import Finish, Muji, Start


@dataclass(frozen=True)
class Doc:
    """What a key means, for the API's documentation."""

    text: str


@dataclass(frozen=True)
class OneOf:
    """The only strings a key takes: an enum (Django choices with their labels), or them."""

    choices: type[Enum] | tuple[str, ...]


@dataclass(frozen=True)
class Format:
    """An OpenAPI string format: "date-time", "uri"."""

    name: str


DateTime = Annotated[str, Format("date-time")]
"""ISO 8601 with the offset, as `datetime.isoformat()` writes it."""
Color = Annotated[str, OneOf(models.SEAT_COLORS)]
Move = Annotated[list[int], Doc("[from, to]")]
Dice = Annotated[list[int], Doc("[die, die]")]
Pair = Annotated[list[int], Doc("[yours, theirs]")]


class Player(TypedDict):
    id: int
    name: str
    locale: str


class NewPlayer(TypedDict):
    token: Annotated[str, Doc("Send as `Authorization: Bearer <token>`. Shown once.")]
    player: Player


class RulesOut(TypedDict):
    finish: Annotated[str, OneOf(Finish)]
    muji: Annotated[str, OneOf(Muji)]
    start: Annotated[str, OneOf(Start)]


class You(TypedDict):
    seat: Annotated[int, Doc("0: first seat, Black; 1: second seat, White.")]
    color: Color
    is_host: NotRequired[bool]


class Seat(TypedDict):
    seat: int
    color: Color
    name: str | None
    cpu: Annotated[str | None, OneOf(models.CpuLevel)]
    free: bool
    you: bool


class Score(TypedDict):
    you: int
    opponent: int
    black: NotRequired[int]
    white: NotRequired[int]


class DiceName(TypedDict):
    kanji: str
    reading: str
    spoken: Annotated[str, Doc('For screen readers: "three and four, shisō".')]


class Turn(TypedDict):
    """The turn being played; the keys after `dice_name` only when it is yours."""

    number: int
    seat: int
    yours: bool
    dice: list[int]
    dice_name: DiceName
    pending: NotRequired[Annotated[list[Move], Doc("Your moves so far.")]]
    pending_notation: NotRequired[str]
    remaining_dice: NotRequired[list[int]]
    legal_moves: NotRequired[Annotated[list[Move], Doc("Every single move you may send now.")]]
    can_undo: NotRequired[bool]


class Position(TypedDict):
    points: Annotated[
        list[int], Doc("Your point 1..24: positive your stones, negative the opponent's.")
    ]
    bar: Pair
    off: Pair
    id: Annotated[str, Doc("One-line position id, from your side.")]
    pips: Pair


class Point(TypedDict):
    point: int
    name: Annotated[str, Doc('"In 3", "Out 5", "their In 1", ...')]
    mine: int
    theirs: int


class Result(TypedDict):
    kind: Annotated[str, OneOf(models.GameState)]
    winner_seat: int | None
    you_won: bool | None
    points: int


class Game(TypedDict):
    number: int
    state: Annotated[str, OneOf(models.GameState)]
    starter: int
    opening_rolls: list[Dice]
    turn: Turn | None
    position: Position
    board: list[Point]
    result: Result | None
    seed_sha256: Annotated[str, Doc("Commitment to the dice seed, revealed at the end.")]


class TableState(TypedDict):
    """The whole table from your side."""

    code: str
    invite_url: Annotated[str, Format("uri")]
    version: Annotated[int, Doc("Send it back with every change.")]
    state: Annotated[str, OneOf(models.TableState)]
    rules: RulesOut
    you: You
    seats: list[Seat]
    score: Score
    game: Game | None
    updated_at: DateTime


class TableSummary(TypedDict):
    code: str
    state: Annotated[str, OneOf(models.TableState)]
    version: int
    you: You
    opponent: Seat | None
    score: Score
    your_turn: bool
    game_number: int | None
    updated_at: DateTime
