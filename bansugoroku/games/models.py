"""Players, tables, seats, games and the turn-by-turn history, all in PostgreSQL.

The history (`Turn` rows) is the truth; the position, dice and pending moves on `Game`
are a cache of it that every request reads, and `manage.py replay_games` checks the two
agree. Positions are stored as engine position ids seen from the first seat (Black).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from engine.notation import parse_position_id
from engine.position import Position
from engine.rules import Finish, Muji, Rules, Start, WinKind
from engine.side import Side

SEAT_COLORS = ("black", "white")


def default_reminder_hours() -> list[int]:
    return [24, 2]


class Player(models.Model):
    """Someone playing, with no account: a bearer token (stored hashed) is all they hold."""

    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    name = models.CharField(max_length=40)
    locale = models.CharField(max_length=16, default="en")
    created_at = models.DateTimeField(auto_now_add=True)
    reminder_hours = models.JSONField(default=default_reminder_hours)
    """How many hours before a deadline of theirs the player is reminded, largest first
    (`games.clocks.REMINDER_HOURS`); empty: never."""
    vacation_until = models.DateTimeField(null=True, blank=True)
    """The end of the player's latest vacation (`games.vacations`): while it is ahead,
    none of their clocks runs."""
    vacation_banked = models.DurationField(null=True, blank=True)
    """The vacation the player had at `vacation_banked_at`, which accrues from there;
    none: the starting allowance, accruing since they were created."""
    vacation_banked_at = models.DateTimeField(null=True, blank=True)
    auto_vacation = models.BooleanField(default=True)
    """When a clock of theirs would run out and vacation is left, a day of it starts
    instead."""
    time_zone = models.CharField(max_length=64, blank=True, default="", db_default="")
    """The player's IANA time zone, in which their quiet hours lie and their mails give
    times; blank until they choose one (UTC meanwhile)."""
    quiet_from = models.PositiveSmallIntegerField(null=True, blank=True)
    """The hour of the player's day their quiet hours start (`lib.quiet_hours`); none:
    no quiet night."""
    quiet_to = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.FloatField(default=1500.0, db_default=1500.0)
    """The player's Glicko-2 rating (`games.ratings`), with its deviation and volatility;
    a new player's are Glicko's defaults."""
    rating_deviation = models.FloatField(default=350.0, db_default=350.0)
    rating_volatility = models.FloatField(default=0.06, db_default=0.06)
    rated_games = models.PositiveIntegerField(default=0, db_default=0)
    listed_at = models.DateTimeField(null=True, blank=True)
    """When the player first opened a table to anyone or took a seat in the lobby
    (`games.lobby`): from then on their name and record are shown to strangers; before,
    they are listed nowhere."""
    days_off = models.JSONField(
        default=list, blank=True, db_default=models.Value([], models.JSONField())
    )
    """The ISO weekdays (1 Monday to 7 Sunday) on which no clock of theirs runs. This and
    `time_zone` have their default in the database too, so that rows written in bulk SQL
    (the clock bench) need not name them."""

    # DRF treats request.user as a user; a player is always an authenticated one.
    is_authenticated = True

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(quiet_from__isnull=True, quiet_to__isnull=True)
                | (Q(quiet_from__lte=23, quiet_to__lte=23) & ~Q(quiet_from=models.F("quiet_to"))),
                name="player_quiet_hours",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Block(models.Model):
    """One player blocked another (`services.player_block`): they never meet again in
    the lobby or at a new table, whichever of them blocked."""

    blocker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_a_pair"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="no_self_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class SignedInToken(models.Model):
    """A further bearer token of a player: the one a browser got by signing in with a
    mailed link (`notifications.sign_in`). The server never keeps a token in the clear,
    so it cannot hand a second browser the player's own; each signed-in browser gets a
    token of its own, found as the player's own is (`queries.player_by_token_hash`), and
    the other browsers and apps keep theirs."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"a signed-in token of player {self.player_id}"


class CpuLevel(models.TextChoices):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class TableState(models.TextChoices):
    WAITING = "waiting", "waiting for a player"
    READY = "ready", "ready to start"
    PLAYING = "playing"
    BETWEEN_GAMES = "between_games", "between games"
    CLOSED = "closed"


class ClosedReason(models.TextChoices):
    """Why a table closed, in its `closed_reason` and its `table_closed` event's
    `reason` (`games.payloads`)."""

    LEFT = "left", "a seated player left it"
    IDLE = "idle", "nobody acted at it for IDLE_CLOSE_DAYS"


class Table(models.Model):
    """Two seats and a sequence of games, found by a 6-character join code."""

    code = models.CharField(max_length=6, unique=True)
    host = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hosted_tables")
    finish = models.CharField(max_length=10, choices=[(f.value, f.value) for f in Finish])
    muji = models.CharField(max_length=12, choices=[(m.value, m.value) for m in Muji])
    start = models.CharField(max_length=10, choices=[(s.value, s.value) for s in Start])
    state = models.CharField(max_length=16, choices=TableState.choices, default=TableState.WAITING)
    score_black = models.PositiveIntegerField(default=0)
    score_white = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    """Increases with every change; clients send the last one they saw."""
    current_game = models.OneToOneField(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    closed_reason = models.CharField(max_length=40, blank=True, choices=ClosedReason.choices)
    """Why the table closed, if it did."""
    active_at = models.DateTimeField(default=timezone.now)
    """The last time someone played at the table (created it, joined, started a game,
    finished a turn, resigned, left: each change that writes events, `services._commit`):
    the clock of the idle close (`games.idle`) and of the retention (`games.retention`).
    A die move that leaves the turn open, an undo, entropy, a warning or the idle close
    itself is no activity."""
    idle_warned = models.PositiveSmallIntegerField(null=True, blank=True)
    """The `days_left` of the last `table_closing` warning sent since `active_at` (7,
    then 1); cleared by activity, so each idle stretch warns once per threshold."""
    last_event = models.PositiveIntegerField(default=0)
    """The sequence number of the table's newest event; the next one is one more."""
    next_seed = models.BinaryField(max_length=32, null=True, editable=False)
    """The dice seed of the table's next game, drawn and committed to (its SHA-256 shown)
    when the table is created or a game ends: before either seat gives its entropy."""
    next_seed_hash = models.CharField(max_length=64, blank=True, editable=False)
    next_seed_version = models.PositiveIntegerField(null=True, blank=True)
    """The table version at which `next_seed_hash` was first shown."""
    clock_days = models.PositiveSmallIntegerField(null=True, blank=True)
    """Days a move (`games.clocks.DAYS`); none: no clock, only the idle close."""
    deadline = models.DateTimeField(null=True, blank=True)
    """When the seat to move runs out of time; none when no clock runs (no clock, no
    game being played). The timeout sweep's index holds only the tables that have one."""
    turn_started_at = models.DateTimeField(null=True, blank=True)
    """When the current turn's clock started: what a finished turn is charged from."""
    remind_at = models.DateTimeField(null=True, blank=True)
    """When the seat to move is next reminded that its time runs out (a `clock_low`
    event, `games.timeouts`); none when no reminder is left this turn."""
    cpu_to_move = models.BooleanField(db_default=False)
    """The CPU is to play the current game's turn: set by every change, for the recovery
    of the CPU's turns whose message was lost (`games.tasks.recover_cpu_turns`)."""
    rated = models.BooleanField(default=False, db_default=False)
    """Its games won and lost change the players' ratings (`games.ratings`)."""
    open_until = models.DateTimeField(null=True, blank=True)
    """While this is ahead and the table waits for an opponent, it is in the lobby
    (`games.lobby`): anyone may take its free seat. Kept once the seat is taken, so that
    a late taker is told someone was first."""

    token_seat: tuple[str, int] | None = None
    """Not a column: the token hash a load of the table was given, and the number of the
    seat whose player holds it (`store.load_table`), when one does."""

    class Meta:
        indexes = [
            # The idle sweep's candidates, oldest activity first, on an index that holds
            # only the tables still open.
            models.Index(
                fields=["active_at"], name="table_open_active", condition=~Q(state="closed")
            ),
            # The recovery's candidates: only the tables waiting for the CPU, a handful
            # at any time. PostgreSQL adds a row to a partial index only when the row
            # matches it; but as every change writes updated_at, no update of a table
            # row is HOT (one that writes no indexed column), and each adds an entry to
            # every index of the table. With this index on `id` instead, the die moves
            # that leave a turn open (half of them) were HOT, and the database's CPU a
            # move stayed the same: 1.01-1.04 ms against 1.01-1.02 (4,000 moves each,
            # in process, in turn). Not worth changing.
            # The timeout sweep's candidates, soonest deadline first: only the tables
            # whose clock runs.
            models.Index(
                fields=["deadline"], name="table_deadline", condition=Q(deadline__isnull=False)
            ),
            # The reminders' candidates, likewise.
            models.Index(
                fields=["remind_at"],
                name="table_remind_at",
                condition=Q(remind_at__isnull=False),
            ),
            # The lobby: the open tables, the soonest to leave it (the longest waiting) first.
            models.Index(
                fields=["open_until"],
                name="table_in_lobby",
                condition=Q(state="waiting", open_until__isnull=False),
            ),
            models.Index(
                fields=["updated_at"],
                name="table_cpu_to_move",
                condition=Q(cpu_to_move=True, state="playing"),
            ),
        ]

    def __str__(self) -> str:
        return self.code

    @property
    def rules(self) -> Rules:
        return Rules(Finish(self.finish), Muji(self.muji), Start(self.start))

    @property
    def score(self) -> tuple[int, int]:
        return self.score_black, self.score_white

    @property
    def closes_at(self) -> datetime | None:
        """When the idle close (`games.idle`) takes the table if nobody plays before;
        None once it is closed."""
        if self.state == TableState.CLOSED:
            return None
        return self.active_at + timedelta(days=settings.IDLE_CLOSE_DAYS)

    @property
    def seat_to_move(self) -> int | None:
        """Whose turn it is: the seat to play the current game's turn while a game is
        being played at the open table; None otherwise (no game yet, between games,
        closed). The one definition: the SQL that lists a player's tables, theirs to
        play first (`queries.tables_of_player`), mirrors it."""
        game = self.current_game
        if self.state != TableState.PLAYING or game is None or game.is_over:
            return None
        return game.turn_seat


class Seat(models.Model):
    """One of a table's two seats: 0 plays Black, 1 White; a player or the CPU."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(choices=[(0, "black"), (1, "white")])
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    cpu = models.CharField(max_length=8, choices=CpuLevel.choices, blank=True)
    entropy = models.CharField(max_length=64, blank=True)
    """The seat's own randomness for the table's next game, given after its seed was
    committed; it moves to the game when the game starts."""
    entropy_version = models.PositiveIntegerField(null=True, blank=True)
    """The table version at which the entropy was given (none: none given)."""
    clock_left = models.DurationField(null=True, blank=True)
    """The seat's time bank at a table with a clock (`games.clocks`): what it has left
    when its turn begins, or, while its turn runs, when that turn began."""
    joined_at = models.DateTimeField(auto_now_add=True)
    muting = models.BooleanField(default=False, db_default=False)
    """The seat's player does not read the other seat's messages (`games.messages`)."""
    last_seen_at = models.DateTimeField(null=True, blank=True)
    """When the seat's player last fetched or changed the table, to the minute
    (`store.SEEN_PRECISION`): a "your turn" notice waits while they are looking."""

    class Meta:
        ordering = ["number"]  # Black, then White, wherever a table's seats are read
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),
            models.UniqueConstraint(
                fields=["table", "player"],
                name="one_seat_per_player",
                condition=Q(player__isnull=False),
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(cpu=""), name="player_or_cpu"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} {self.color}"

    @property
    def color(self) -> str:
        return SEAT_COLORS[self.number]

    @property
    def side(self) -> Side:
        return Side(self.number)


class Message(models.Model):
    """A word from one seat to the other at a table (`games.messages`): plain text, read
    only by the two seats."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="messages")
    seat = models.PositiveSmallIntegerField(choices=[(0, "black"), (1, "white")])
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "id"], name="message_by_table")]

    def __str__(self) -> str:
        return f"{self.table_id} {self.seat}: {self.text[:40]}"


class MessageReport(models.Model):
    """A player reported a message to the house: it is hidden for them, and listed in
    the admin with its table."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="one_report_a_message")
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id}"


class GameState(models.TextChoices):
    PLAYING = "playing"
    WON = "won"
    RESIGNED = "resigned"
    ABANDONED = "abandoned"
    """Ended with no result: the table closed, or neither side could ever move again."""
    TIMED_OUT = "timed_out", "won on time"
    CANCELLED = "cancelled"
    """Ended with no result: time ran out before each side had finished two turns."""


class Game(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    starter = models.PositiveSmallIntegerField()
    opening_rolls = models.JSONField(default=list)
    """Under the `roll` house rule: each pair is (first seat, second seat); the last decides."""
    seed = models.BinaryField(max_length=32, editable=False)
    """Secret until the game ends, then shown so anyone can recompute every roll."""
    seed_hash = models.CharField(max_length=64, editable=False)
    seed_version = models.PositiveIntegerField()
    """The table version at which `seed_hash` was first shown, before any entropy."""
    black_entropy = models.CharField(max_length=64, blank=True)
    black_entropy_version = models.PositiveIntegerField(null=True, blank=True)
    white_entropy = models.CharField(max_length=64, blank=True)
    white_entropy_version = models.PositiveIntegerField(null=True, blank=True)
    """Each seat's randomness mixed into every roll, and the table version at which it
    was given (none: none was given, and it counts as the empty string)."""
    state = models.CharField(max_length=10, choices=GameState.choices, default=GameState.PLAYING)
    position = models.CharField(max_length=64)
    turn_number = models.PositiveIntegerField(default=0)
    turn_seat = models.PositiveSmallIntegerField()
    dice = models.JSONField(default=list)
    pending = models.JSONField(default=list)
    """Moves sent this turn, from the mover's side; cleared by undo and at turn end."""
    recent = models.JSONField(default=dict)
    """What each seat's latest turns were, for the state to say what just happened:
    `{"plays": [Black's last play, White's], "since": [every turn since Black's last
    play, since White's]}`, oldest first, each play as an event's `played` (moves from
    the mover's side), each pass as in its `passes` (no `moves`); `{}` before the first
    turn. A cache of the history, kept by each change (`events.note_turns`), so the
    state reads no more rows."""
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(default=0)
    win_kind = models.CharField(
        max_length=10, choices=[(k.value, k.value) for k in WinKind], blank=True, default=""
    )
    """How the game was won, as the engine's result says; empty when it is not over or
    ended with no result."""
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_game_number_per_table")
        ]
        # The recovery of lost reviews reads the day's ended games (games.reviews).
        indexes = [models.Index(fields=["ended_at"], name="game_ended_at")]

    def __str__(self) -> str:
        return f"{self.table.code} game {self.number}"

    @property
    def is_over(self) -> bool:
        return self.state != GameState.PLAYING

    @property
    def entropy(self) -> tuple[str, str]:
        """The seats' own randomness, Black's then White's, mixed into every roll."""
        return self.black_entropy, self.white_entropy

    def board(self) -> Position:
        """The position from Black's side."""
        return parse_position_id(self.position)


class Turn(models.Model):
    """One turn of the history: the roll, the play (or pass) and the position after it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    dice = models.JSONField()
    moves = models.JSONField()
    """The play from the mover's side, [[from, to], ...]; empty for a pass."""
    notation = models.CharField(max_length=64)
    hit = models.BooleanField(default=False)
    position_after = models.CharField(max_length=64)
    """Position id from Black's side."""
    points = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_turn_number_per_game")
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.game} turn {self.number}"


class GameReview(models.Model):
    """How each play of a finished game's people compares with the CPU's Hard level:
    computed once by the worker when the game ends (`games.reviews`), then only read."""

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="review"
    )
    plays = models.JSONField()
    """Each reviewed play in turn order, as `payloads.ReviewedPlay`."""
    created_at = models.DateTimeField(auto_now_add=True)

    MARKED = 3
    """At most this many plays of each person are marked as their worst..."""
    MARK_LOSS = 0.08
    """...each losing at least this much equity: what backgammon's analysers call an
    error (8% of a point); below it lies the network's own noise."""

    def __str__(self) -> str:
        return f"review of {self.game_id}"


class EventKind(models.TextChoices):
    PLAYER_JOINED = "player_joined"
    GAME_STARTED = "game_started"
    TURN_STARTED = "turn_started"
    GAME_ENDED = "game_ended"
    TABLE_CLOSING = "table_closing"
    TABLE_CLOSED = "table_closed"
    CLOCK_LOW = "clock_low"
    AUTO_VACATION = "auto_vacation"
    MESSAGE = "message"


class Event(models.Model):
    """What a change did, written in the change's own transaction: the outbox that the
    notices, the CPU and live updates read, and the feed a returning client catches up
    from (`bansugoroku.games.events` builds them)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    sequence = models.PositiveIntegerField()
    """1, 2, 3, ... per table: a retried request can never write the same event twice."""
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    """The seat it concerns: who joined, starts, is to move, won; none for a closing."""
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    """When a worker handed it on; the relay retries events still without one."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "sequence"], name="one_event_per_sequence")
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                name="event_undelivered",
                condition=Q(delivered_at__isnull=True),
            )
        ]
        ordering = ["table", "sequence"]

    def __str__(self) -> str:
        return f"{self.table} event {self.sequence} {self.kind}"
