"""The shape of every JSON object the API answers, written once: the read functions
return these TypedDicts (plain dicts at run time) and the OpenAPI schema is generated
from them by `bansugoroku.api.schema.component`, with a key's `Annotated` metadata and
a class's docstring as descriptions. A shape named like a model or an engine value
takes the suffix "Json" (`TableStateJson`, not `TableState`), which the schema's
component names leave out.

No `from __future__ import annotations`: Python 3.11 misses `NotRequired` in a string.
"""

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from bansugoroku.games import models
from engine.rules import Finish, Muji, Start, WinKind


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
WinKindOut = Annotated[
    str | None,
    OneOf(WinKind),
    Doc(
        "How the game was won: `iri` (all 15 home), `bear_off` (all 15 borne off), `muji` "
        "(a closed home with the opponent on the bar, on the spot), `mushi` and `mujo` "
        "(an iri win made with that closed home, worth 2 or 3), `resigned` (the loser "
        "resigned), `time` (the loser's clock ran out); null when it is not over or ended "
        "with no result."
    ),
]


class PlayerJson(TypedDict):
    id: int
    name: str
    locale: str


class NewPlayer(TypedDict):
    token: Annotated[str, Doc("Send as `Authorization: Bearer <token>`. Shown once.")]
    player: PlayerJson


class RulesOut(TypedDict):
    finish: Annotated[str, OneOf(Finish)]
    muji: Annotated[str, OneOf(Muji)]
    start: Annotated[str, OneOf(Start)]


class You(TypedDict):
    seat: Annotated[int, Doc("0: first seat, Black; 1: second seat, White.")]
    color: Color
    is_host: NotRequired[bool]


class QuietHoursJson(TypedDict):
    """A player's time zone and quiet hours: the hours of each day and the days of each
    week when their clock does not run, in that zone's wall time."""

    time_zone: Annotated[
        str,
        Doc(
            "An IANA time zone (`Europe/Berlin`): the quiet hours are in it, and the mails "
            "give times in it. `UTC` until the player chooses one."
        ),
    ]
    start_hour: Annotated[
        int | None,
        Doc("The hour (0-23) a quiet night starts; null: no quiet night."),
    ]
    end_hour: Annotated[
        int | None,
        Doc(
            "The hour (0-23) it ends, the next morning when it is the earlier; a night "
            "is at most 12 hours."
        ),
    ]
    days_off: Annotated[
        list[int], Doc("Whole days off, as ISO weekdays (1 Monday to 7 Sunday); two at most.")
    ]


class RatingJson(TypedDict):
    """A player's Glicko-2 rating, 1500 to start with: it moves with each rated game they
    win or lose, less as the deviation shrinks with the games played."""

    rating: int
    deviation: Annotated[int, Doc("About 95% of players rated so are within twice this.")]
    games: Annotated[int, Doc("Rated games played.")]


class SeatJson(TypedDict):
    seat: int
    color: Color
    name: str | None
    cpu: Annotated[str | None, OneOf(models.CpuLevel)]
    free: bool
    you: bool
    vacation_until: Annotated[
        DateTime | None,
        Doc(
            "The end of the player's latest vacation: while it is ahead they are on "
            "vacation and their clock stands. Null if they never took one."
        ),
    ]
    quiet_hours: Annotated[
        QuietHoursJson | None,
        Doc("The player's quiet hours, when their clock does not run; null: none."),
    ]
    rating: Annotated[RatingJson | None, Doc("Null for the CPU and a free seat.")]


class Score(TypedDict):
    you: int
    opponent: int
    black: NotRequired[int]
    white: NotRequired[int]


class DiceName(TypedDict):
    kanji: str
    reading: str
    spoken: Annotated[str, Doc('For screen readers: "three and four, shisō".')]


class MoveEffectJson(TypedDict):
    """What sending one legal single move does."""

    ends_turn: Annotated[
        bool, Doc("The turn ends with it: no die is left, none can be used, or it wins.")
    ]
    wins: Annotated[int, Doc("Points it wins, ending the game (0: the game goes on).")]


class PlayLeft(TypedDict):
    """A way to finish the turn."""

    moves: list[Move]
    dice: Annotated[list[int], Doc("The die each of `moves` uses, in the same order.")]


class TurnJson(TypedDict):
    """The turn being played. Every key is always there: while it is the opponent's
    turn, the keys after `dice_name` are empty (their moves so far are not shown)."""

    number: int
    seat: int
    yours: bool
    dice: list[int]
    dice_name: DiceName
    pending: Annotated[list[Move], Doc("Your moves so far; [] on the opponent's turn.")]
    pending_notation: Annotated[str, Doc('Your moves so far, "13/10"; "" when none.')]
    remaining_dice: Annotated[list[int], Doc("Dice you have left; [] on the opponent's turn.")]
    legal_moves: Annotated[
        list[Move], Doc("Every single move you may send now; [] on the opponent's turn.")
    ]
    legal_move_effects: Annotated[
        list[MoveEffectJson], Doc("What each of `legal_moves` does, in the same order.")
    ]
    plays_left: Annotated[
        list[PlayLeft],
        Doc(
            "Every way to finish your turn from here: the moves still to send, in order. "
            "Send one whole (POST moves) to end the turn in one request; a draft's next "
            "legal moves are those that continue a play it has begun. [] on the "
            "opponent's turn."
        ),
    ]
    can_undo: bool


class PositionJson(TypedDict):
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


class ResultJson(TypedDict):
    kind: Annotated[str, OneOf(models.GameState)]
    winner_seat: int | None
    you_won: bool | None
    points: int
    win_kind: WinKindOut


class Play(TypedDict):
    turn: int
    seat: int
    dice: Dice
    moves: Annotated[
        list[Move], Doc("Numbered from your side: 0 is their bar and 25 off, moving upward.")
    ]
    notation: Annotated[str, Doc('"13/10 10/9*", in the mover\'s own numbering.')]
    hit: bool


class Pass(TypedDict):
    """A roll that could not be played."""

    turn: int
    seat: int
    dice: Dice


class TurnSince(TypedDict):
    """A finished turn, either seat's: a play or a pass."""

    turn: int
    seat: int
    yours: bool
    dice: Dice
    passed: Annotated[bool, Doc("No move was possible with the dice: the turn passed.")]
    moves: Annotated[
        list[Move],
        Doc("Numbered from your side, as `last_play`'s (the opponent's run upward); [] on a pass."),
    ]
    notation: Annotated[str, Doc('"13/10 10/9*", in the mover\'s own numbering; "" on a pass.')]
    hit: Annotated[bool, Doc("One of the moves hit.")]
    hits: Annotated[
        list[bool],
        Doc(
            "Whether each of `moves` hit, in the same order: a hit move's `to` is the point "
            "where a stone was hit. [] on a pass."
        ),
    ]


class Recent(TypedDict):
    last_play: Annotated[
        Play | None, Doc("The opponent's latest play in this game; null before they played.")
    ]
    passes_since: Annotated[
        list[Pass],
        Doc("Every pass, either seat's, since your latest play (the game's start if none)."),
    ]
    since_your_play: Annotated[
        list[TurnSince],
        Doc(
            "Every turn since your latest play in this game (its start if none), oldest "
            "first: the opponent's plays and both seats' passes, what happened while you "
            "were away."
        ),
    ]


class GameJson(Recent):
    number: int
    state: Annotated[str, OneOf(models.GameState)]
    starter: int
    opening_rolls: list[Dice]
    turn: TurnJson | None
    position: PositionJson
    board: list[Point]
    result: ResultJson | None
    seed_sha256: Annotated[str, Doc("Commitment to the dice seed, revealed at the end.")]


class NextGame(TypedDict):
    number: Annotated[int, Doc("The game these dice are for.")]
    seed_sha256: Annotated[
        str, Doc("SHA-256 of the next game's secret dice seed, committed before any entropy.")
    ]
    published_at_version: Annotated[
        int, Doc("The table version at which the commitment was first shown.")
    ]
    your_entropy_given: Annotated[
        bool, Doc("Whether you gave your entropy for it (join, start, play-again or entropy).")
    ]


class ClockJson(TypedDict):
    """The table's clock: days a move, with a time bank. Only the player to move has a
    running clock; it runs out at `deadline`, and stands in their quiet hours
    (`quiet_spans`). Nothing here changes with the time of the request (the ETag holds):
    time left now is, for the player to move, `deadline` less now less what of
    `quiet_spans` lies ahead; for the other, their bank in `banks`."""

    days: Annotated[int, Doc("Days a move: what each finished turn adds to the mover's bank.")]
    cap_days: Annotated[int, Doc("No bank holds more than this many days.")]
    day_seconds: Annotated[
        int, Doc("A day's length: 86400, or less on a server set up for trials.")
    ]
    banks: Annotated[
        list[float],
        Doc(
            "Seconds on each clock, [yours, theirs], when the current turn began (the "
            "player to move's is running since `turn_started_at`)."
        ),
    ]
    deadline: Annotated[
        DateTime | None,
        Doc(
            "When the player to move runs out: they lose the game (won on time, 1 point), "
            "or it is cancelled if each side has not yet finished two turns. Null while no "
            "game is being played."
        ),
    ]
    turn_started_at: DateTime | None
    quiet_spans: Annotated[
        list[list[DateTime]],
        Doc(
            "The player to move's quiet hours from `turn_started_at` to `deadline`, as "
            "[from, to] pairs in order: their clock does not run then."
        ),
    ]


class TableStateJson(TypedDict):
    """The whole table from your side."""

    code: str
    invite_url: Annotated[str, Format("uri")]
    version: Annotated[int, Doc("Send it back with every change.")]
    state: Annotated[str, OneOf(models.TableState)]
    closed_reason: Annotated[
        str | None,
        Doc(
            "Why the table is closed: `idle` (nobody acted at it for IDLE_CLOSE_DAYS) or "
            "`left` (a player left it); null while it is open."
        ),
    ]
    rules: RulesOut
    rated: Annotated[bool, Doc("Its games won and lost change both players' ratings.")]
    clock: Annotated[ClockJson | None, Doc("Null: no clock (only the idle close).")]
    you: You
    seats: list[SeatJson]
    score: Score
    can_start: Annotated[
        bool, Doc("You may start the first game now (POST start): you host, both seats taken.")
    ]
    can_play_again: Annotated[
        bool, Doc("You may start the next game now (POST play-again): the last one ended.")
    ]
    can_resign: Annotated[bool, Doc("You may resign now (POST resign): a game is being played.")]
    game: GameJson | None
    next_game: Annotated[
        NextGame | None, Doc("The next game's dice commitment; null while a game is played.")
    ]
    updated_at: DateTime
    active_at: Annotated[
        DateTime,
        Doc(
            "The table's last activity (a finished turn, a join, a game's start or end): "
            "the move awaited has waited since then, and the idle close counts from it."
        ),
    ]
    closes_at: Annotated[
        DateTime | None,
        Doc(
            "When the table closes if nobody plays before: `active_at` and IDLE_CLOSE_DAYS; "
            "null once it is closed."
        ),
    ]
    open_until: Annotated[
        DateTime | None,
        Doc(
            "While the table waits for an opponent and was opened to anyone: when it leaves "
            "the lobby if nobody takes its seat (a past time: it has left). Null when it was "
            "never opened, was taken out of the lobby, or its seat is taken."
        ),
    ]


class MessageJson(TypedDict):
    """A word from one seat to the other: plain text, to be shown as text (never as
    markup)."""

    id: Annotated[int, Doc("Read on after it with `?after=`.")]
    seat: int
    yours: bool
    text: str
    created_at: DateTime


class Messages(TypedDict):
    """The messages at a table you may read, the oldest first, 100 at most."""

    muting: Annotated[bool, Doc("You mute the other seat: their messages are not listed.")]
    messages: list[MessageJson]


class RecordJson(TypedDict):
    """A player's games against people that ended with a winner (not those against the
    CPU, nor those that ended with no result)."""

    played: int
    won: int
    lost: int


class FullRecordJson(RecordJson):
    wins: Annotated[dict[str, int], Doc("Games won, by kind of win (as a result's `win_kind`).")]
    losses: Annotated[dict[str, int], Doc("Games lost, by the opponent's kind of win.")]


class PlayerTableJson(TypedDict):
    """One of the player's tables being played, against another player of the lobby."""

    opponent: str
    opponent_id: Annotated[int, Doc("Their page: `GET /players/{id}`.")]
    state: Annotated[str, OneOf(models.TableState)]
    rules: RulesOut
    clock_days: int | None
    rated: bool
    score: Score


class PlayerGameJson(TypedDict):
    """One of the player's finished games against another player of the lobby."""

    table: Annotated[str, Doc("Its replay: `GET /players/{id}/games/{table}/{number}`.")]
    number: Annotated[int, Doc("The game's number at its table.")]
    opponent: str
    opponent_id: Annotated[int, Doc("Their page: `GET /players/{id}`.")]
    result: Annotated[str, OneOf(("won", "lost", "none"))]
    win_kind: WinKindOut
    points: int
    rated: bool
    ended_at: DateTime


class PlayerPage(TypedDict):
    """A player of the lobby as anyone may read them: their rating and record, and their
    tables and games against other players of the lobby (those against friends who never
    came there, or the CPU, count in the record but are not shown)."""

    id: int
    name: str
    rating: RatingJson
    record: FullRecordJson
    tables: list[PlayerTableJson]
    recent_games: Annotated[list[PlayerGameJson], Doc("The latest first, 10 at most.")]


class LobbyHost(TypedDict):
    id: Annotated[int, Doc("Their page: `GET /players/{id}`.")]
    name: str
    record: RecordJson
    rating: RatingJson


class LobbyTableJson(TypedDict):
    """A table in the lobby: its host waits for anyone to take the free seat."""

    code: Annotated[str, Doc("Take its seat with `POST /lobby/{code}/take`.")]
    host: LobbyHost
    rules: RulesOut
    clock_days: Annotated[int | None, Doc("Days a move; null: no clock.")]
    rated: Annotated[bool, Doc("Its games change both players' ratings.")]
    open_until: Annotated[
        DateTime,
        Doc("When it leaves the lobby if nobody takes its seat; the soonest come first."),
    ]
    yours: Annotated[bool, Doc("You host it: it waits for someone else.")]


class LobbyPage(TypedDict):
    """A page of the lobby, the soonest to leave it (the longest waiting) first."""

    next: Annotated[
        str | None, Doc("The next page's URL, with the same filters; null on the last page.")
    ]
    results: list[LobbyTableJson]


class TableSummary(TypedDict):
    """One of your tables, with what a list of them shows."""

    code: str
    state: Annotated[str, OneOf(models.TableState)]
    version: int
    rules: RulesOut
    you: You
    opponent: SeatJson | None
    score: Score
    your_turn: bool
    game_number: int | None
    turn_number: Annotated[
        int | None, Doc("The current game's turn (its last one once over); null before a game.")
    ]
    dice: Annotated[
        Dice | None, Doc("The dice of the turn being played; null when no game is playing.")
    ]
    deadline: Annotated[
        DateTime | None,
        Doc(
            "When the player to move runs out of time, at a table with a clock; null when "
            "no clock runs. Within your turns, and within theirs, the soonest come first."
        ),
    ]
    updated_at: Annotated[
        DateTime, Doc("The table's last change (a move, a join, a game's start or end).")
    ]


class DiceSecrets(TypedDict):
    opening_rolls: Annotated[
        list[Dice], Doc("Under the `roll` rule: [Black's die, White's die] until they differ.")
    ]
    seed_sha256: Annotated[str, Doc("SHA-256 of the dice seed, published when the game began.")]
    seed: Annotated[
        str | None, Doc("The dice seed in hex once the game is over; null while it is played.")
    ]


class GameSummary(TypedDict):
    number: int
    state: Annotated[str, OneOf(models.GameState)]
    starter: Annotated[int, Doc("The seat that moved first.")]
    winner_seat: int | None
    points: Annotated[int, Doc("What the win added to the score (0: none).")]
    win_kind: WinKindOut
    turn_count: Annotated[int, Doc("Turns recorded, passes included.")]
    started_at: DateTime
    ended_at: DateTime | None


class HistoryTurn(TypedDict):
    number: int
    seat: int
    color: Color
    dice: Dice
    dice_name: DiceName
    moves: Annotated[
        list[Move],
        Doc(
            "In order, numbered from your side as the table state is, whoever moved: the "
            "opponent's run upward, from 0 (their bar) to 25 (borne off). Empty for a pass."
        ),
    ]
    notation: Annotated[
        str, Doc('"13/10 10/9*" in the mover\'s own numbering, as backgammon writes it; "pass".')
    ]
    hit: bool
    position_after: Annotated[PositionJson, Doc("The position after the turn, from your side.")]
    position_after_id_black: Annotated[
        str, Doc("The same position's id from Black's side, as the server stores it.")
    ]
    points: Annotated[int, Doc("Points this play won (0: the game went on).")]
    created_at: DateTime


class GameHistory(GameSummary, DiceSecrets):
    """One game and every turn of it; the seed only once the game is over."""

    table: str
    turns: list[HistoryTurn]


Equity = Annotated[
    float,
    Doc(
        "What a play is worth to its mover in the estimate of the CPU's Hard level: the "
        "points they expect to win from there, -3 to 3, the bigger wins included."
    ),
]


class HardPlay(TypedDict):
    """The play the CPU's Hard level would have made instead."""

    moves: Annotated[list[Move], Doc("Numbered from your side, as a history turn's moves.")]
    notation: Annotated[str, Doc("In the mover's own numbering.")]
    equity: Equity
    position_after: Annotated[PositionJson, Doc("The position it leaves, from your side.")]


class ReviewedPlay(TypedDict):
    turn: int
    seat: int
    color: Color
    dice: Dice
    moves: Annotated[list[Move], Doc("The play made, numbered from your side.")]
    notation: Annotated[str, Doc("The play made, in the mover's own numbering.")]
    position_after: Annotated[PositionJson, Doc("The position it left, from your side.")]
    equity: Equity
    loss: Annotated[
        float, Doc("How much less the play was worth than Hard's: 0 when it is Hard's play.")
    ]
    marked: Annotated[
        bool, Doc("One of the player's worst few plays (at most 3, each losing `marked_loss`).")
    ]
    best: HardPlay


class GameReviewJson(TypedDict):
    """A finished game's plays beside the CPU's Hard level, computed once when it ended."""

    table: str
    game: int
    reviewed_at: DateTime
    marked_loss: Annotated[float, Doc("The least loss that marks a play.")]
    plays: Annotated[
        list[ReviewedPlay],
        Doc("Each play of a person in turn order; the CPU's plays and the passes are left out."),
    ]


class ExportSeat(TypedDict):
    seat: int
    color: Color
    name: str | None
    cpu: Annotated[str | None, OneOf(models.CpuLevel)]
    entropy: Annotated[str, Doc("The seat's contribution to every roll.")]


class ExportResult(TypedDict):
    kind: Annotated[str, OneOf(models.GameState)]
    winner_seat: int | None
    points: int
    win_kind: WinKindOut


class GameExport(DiceSecrets):
    """The whole event log of a game, enough to replay and verify it."""

    format: Literal["bansugoroku-game"]
    format_version: Annotated[int, Doc("2: turns numbered from the side of `seen_from`.")]
    table: str
    seen_from: Annotated[
        int, Doc("The seat of the player who downloaded it: the turns are from that side.")
    ]
    rules: RulesOut
    seats: list[ExportSeat]
    game: Annotated[int, Doc("The game's number at the table.")]
    state: Annotated[str, OneOf(models.GameState)]
    starter: int
    started_at: DateTime
    ended_at: DateTime | None
    turns: list[HistoryTurn]
    result: ExportResult | None


class RollCheck(TypedDict):
    label: Annotated[str, Doc('"1", "2", ... or "opening-1", "opening-2", ...')]
    turn: Annotated[int | None, Doc("null for an opening roll.")]
    recorded: Dice
    derived: Dice
    matches: bool


class GivenEntropy(TypedDict):
    value: Annotated[str, Doc('"" when none was given.')]
    given_at_version: Annotated[
        int | None, Doc("The table version when it was given; null: none given.")
    ]


class Entropy(TypedDict):
    black: GivenEntropy
    white: GivenEntropy


class DiceVerification(TypedDict):
    """Every roll of a finished game beside the roll its revealed seed gives."""

    table: str
    game: int
    seed: Annotated[str, Doc("The revealed dice seed, in hex.")]
    seed_sha256: str
    seed_published_at_version: Annotated[
        int, Doc("The table version at which seed_sha256 was first shown.")
    ]
    commitment_matches: Annotated[
        bool, Doc("Whether the SHA-256 of the seed is the commitment published at the start.")
    ]
    committed_before_entropy: Annotated[
        bool, Doc("Whether the commitment was published before either seat gave entropy.")
    ]
    entropy: Entropy
    recipe: Annotated[str, Doc("How to recompute every roll yourself.")]
    rolls: list[RollCheck]
    all_match: bool


class EventJson(TypedDict):
    sequence: Annotated[int, Doc("1, 2, 3, ... per table.")]
    kind: Annotated[str, OneOf(models.EventKind)]
    seat: Annotated[int | None, Doc("The seat it concerns.")]
    payload: Annotated[dict[str, Any], Doc("What happened; its keys depend on `kind`.")]
    created_at: DateTime


class Events(TypedDict):
    events: list[EventJson]
    last_sequence: Annotated[int, Doc("The table's newest event.")]
    more: Annotated[bool, Doc("More events follow: ask again with `after`.")]


class QuietHoursSetting(QuietHoursJson):
    """Your quiet hours, with what the settings may hold."""

    most_hours: Annotated[int, Doc("A quiet night's longest.")]
    most_days_off: int


class VacationJson(TypedDict):
    """A player's vacation: while one runs, none of their clocks runs."""

    until: Annotated[
        DateTime | None, Doc("The end of the vacation that runs now; null when none does.")
    ]
    days_left: Annotated[float, Doc("Vacation days left to take (they accrue).")]
    days_a_year: Annotated[int, Doc("How many days accrue in a year.")]
    cap_days: Annotated[int, Doc("No player has more days left than this.")]
    auto: Annotated[
        bool,
        Doc(
            "Auto-vacation: when a clock of yours would run out and vacation is left, a "
            "day of it starts at that deadline instead (on by default)."
        ),
    ]
