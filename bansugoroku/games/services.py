"""Every change to players, tables and games: one function each, keyword-only.

Every table change runs the same way: a transaction that locks the table row first
(`store.lock_seat`, which checks the caller's seat and the version the client last
saw), the game loaded as an engine value and the change applied to it, then `_commit`:
one statement that writes the history's new turns, the events, the game and the table
with its version bumped. It returns the table and the events it wrote, which go to
Celery once they are committed. Nothing else writes game state.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import Model
from django.utils import timezone

from bansugoroku.games import (
    allowed,
    clocks,
    events,
    lobby,
    outbox,
    profiles,
    queries,
    ratings,
    store,
    vacations,
)
from bansugoroku.games.errors import (
    IllegalMove,
    NotTheHost,
    OutcomeUnknown,
    SeatTaken,
    TableClosed,
    TableNotFound,
    TimeRanOut,
    TooManyInLobby,
    WrongState,
    refused,
)
from bansugoroku.games.models import (
    Block,
    ClosedReason,
    Event,
    Game,
    Player,
    Seat,
    SignedInToken,
    Table,
    TableState,
    Turn,
)
from bansugoroku.games.player_tokens import new_token, token_hash
from bansugoroku.games.store import CODE_ALPHABET, CODE_LENGTH, Caller, lock_seat
from engine.cpu import levels
from engine.dice import seed_commitment
from engine.game import GameError, GameValue, Roller, Step
from engine.notation import position_id
from engine.plays import Move
from engine.position import Position
from engine.rules import Rules
from engine.side import Side
from engine.turn import IllegalMoveError


@dataclass(frozen=True)
class Change:
    """What a table change did: the table after it, the events it wrote, and its game as
    the engine value the change made (None when the change made none). The answer is
    built from that value: read back from the row just written, it would be rebuilt and
    its legal moves generated a second time."""

    table: Table
    events: Sequence[Event] = ()
    game: GameValue | None = None


def player_create(*, name: str, locale: str = "en") -> tuple[Player, str]:
    """A new player and their bearer token; only the hash is kept, the token shown once."""
    token = new_token()
    player = Player.objects.create(token_hash=token_hash(token), name=name, locale=locale)
    return player, token


def player_token_add(*, player: Player) -> str:
    """A new bearer token for the player, beside those they hold (a browser that signed
    in by mail); only its hash is kept, as `player_create`'s."""
    token = new_token()
    SignedInToken.objects.create(player=player, token_hash=token_hash(token))
    return token


@transaction.atomic
def player_tokens_replace(*, player: Player) -> str:
    """Sign out every browser and app that plays as the player: their own token is
    replaced by a new one, returned for the one browser that asked, and the tokens of
    the browsers signed in by mail are deleted. Device links made before carry the old
    token, so they stop working too."""
    token = new_token()
    player.token_hash = token_hash(token)
    player.save(update_fields=["token_hash"])
    SignedInToken.objects.filter(player=player).delete()
    return token


@transaction.atomic
def player_token_revoke(*, player: Player, token: str) -> None:
    """Sign out the one browser that holds `token`: a token a sign-in link gave it is
    deleted; the player's first token, which the browser that made the player holds (and
    those a device link gave it to), is replaced by one nobody holds, so the player plays
    on only where a sign-in link signs them in."""
    hashed = token_hash(token)
    deleted, _ = SignedInToken.objects.filter(player=player, token_hash=hashed).delete()
    if not deleted and player.token_hash == hashed:
        player.token_hash = token_hash(new_token())
        player.save(update_fields=["token_hash"])


def player_update(*, player: Player, name: str | None = None, locale: str | None = None) -> Player:
    if name is not None:
        player.name = name
    if locale is not None:
        player.locale = locale
    player.save(update_fields=["name", "locale"])
    return player


def table_create(
    *,
    host: Player,
    rules: Rules,
    cpu: str = "",
    start: bool = False,
    clock_days: int | None = None,
    open: bool = False,
    rated: bool | None = None,
) -> Change:
    """A table with the host in the first seat (Black); the second seat free or the CPU's.
    The first game's dice seed is drawn and committed to now, before anyone gives
    entropy: the host gives theirs when starting, the guest when joining.

    With `start`, a CPU's table starts its first game in the same transaction, so that
    the host plays at once. No entropy can follow a commitment made in the same request:
    that game's dice come from the server's seed alone (from the next game on, each seat
    gives its own again).

    `clock_days` gives the table a clock (`games.clocks`); a table with the CPU has none.
    With `open`, the table is also in the lobby (`games.lobby`), for anyone to take its
    free seat. Its games are `rated` (`games.ratings`) when the host chooses, by default
    when it is open: between friends they count only when both want them to."""
    if start and not cpu:
        raise WrongState("only a table with the CPU starts when it is created")
    if clock_days is not None and (cpu or clock_days not in clocks.DAYS):
        raise WrongState(f"a clock is one of {clocks.DAYS} days a move, at a table of two people")
    if (open or rated) and cpu:
        raise WrongState("a table with the CPU is neither opened to anyone nor rated")
    for _ in range(10):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with _transaction() as now:
                open_until = _into_lobby(host.pk, now) if open else None
                table = Table.objects.create(
                    code=code,
                    host=host,
                    active_at=now,
                    finish=rules.finish,
                    muji=rules.muji,
                    start=rules.start,
                    state=TableState.READY if cpu else TableState.WAITING,
                    clock_days=clock_days,
                    open_until=open_until,
                    rated=open if rated is None else rated,
                    **_next_seed(version=1),
                )
                Seat.objects.bulk_create(
                    [
                        Seat(
                            table=table,
                            number=Side.BLACK,
                            player=host,
                            last_seen_at=now,
                        ),
                        Seat(table=table, number=Side.WHITE, cpu=cpu),
                    ]
                )
                if start:  # nobody else sees the new row before the commit
                    return _new_game(table, now, number=1, previous=None)
        except IntegrityError:
            continue  # the code was taken: 1 in ~900 million per existing table
        return Change(table)
    raise RuntimeError("no free table code after 10 tries")


def table_join(*, player: Player, code: str, entropy: str = "") -> Change:
    """Take the free seat. Joining a table you already sit at changes nothing."""
    with _transaction() as now:
        table = store.lock_table_unversioned(code)  # one seat is never given twice
        seats = list(table.seats.all())
        if any(seat.player_id == player.pk for seat in seats):
            return Change(table)
        if table.state == TableState.CLOSED:
            raise TableClosed("this table is closed")
        free = next((s for s in seats if s.player_id is None and not s.cpu), None)
        if free is None or lobby.blocked(player.pk, table.host_id):
            # A stranger with the code of a full table is answered as for a code with no
            # table: a different answer would tell a guessed code that a table has it.
            # So is a player blocked by the host, or who blocked them: they never meet.
            raise store.not_found(table.code)
        return _sit(table, free, player, entropy, now)


def table_open(*, player: Caller, code: str, version: int, open: bool) -> Change:
    """The host opens their table waiting for an opponent to anyone, in the lobby, for
    OPEN_TABLE_DAYS (as well as its code, which still admits whoever has it); or, with
    `open` false, takes it out of the lobby. Asking for what is so already changes
    nothing."""
    with _transaction() as now:
        table, seat = lock_seat(code, player, version, now)
        if table.host_id != seat.player_id:
            raise NotTheHost("only the host opens the table to anyone")
        if table.state != TableState.WAITING:
            raise WrongState("only a table waiting for an opponent can be in the lobby")
        if open == lobby.is_open(table, now):
            return Change(table)  # as asked already: no version to move on
        table.open_until = _into_lobby(table.host_id, now) if open else None
        return _commit(table, None, (), (), now=now, seats=[seat])


def player_block(*, player: Player, other_id: int, block: bool) -> None:
    """Block another player of the lobby, or no longer: while blocked, neither finds the
    other's tables in the lobby nor takes a seat at them, by the lobby or by a code.
    Tables they share already play on. Blocking twice changes nothing."""
    if other_id == player.pk:
        raise WrongState("you cannot block yourself")
    profiles.listed(other_id)  # PlayerNotFound, as their page answers
    if block:
        Block.objects.get_or_create(blocker=player, blocked_id=other_id)
    else:
        Block.objects.filter(blocker=player, blocked_id=other_id).delete()


def seat_take(*, player: Player, code: str, entropy: str = "") -> Change:
    """Take the free seat at a table in the lobby. Of two who take it at once, the one
    who waited for the other's lock is told that the seat is taken; taking a seat you
    hold already changes nothing."""
    with _transaction() as now:
        return _take(store.lock_table_unversioned(code), player, entropy, now)


def quick_take(*, player: Player, filters: lobby.Filters, entropy: str = "") -> Change | None:
    """Quick pairing's first half: take the seat at the longest waiting table in the
    lobby that matches, someone else's; those being taken at this moment are passed
    over (SKIP LOCKED), so two players pairing at once take two tables. Failing that,
    the player's own open table that matches, still waiting; else None, and the caller
    opens one (`table_create` with `open`), within the limits on creating tables."""
    with _transaction() as now:
        matching = lobby.open_tables(now, filters, viewer_id=player.pk)
        found = (
            matching.exclude(host_id=player.pk)
            .select_for_update(skip_locked=True)
            .values_list("code", flat=True)
            .first()
        )
        if found is not None:
            return _take(store.load_table(found), player, entropy, now)
        mine = matching.filter(host_id=player.pk).values_list("code", flat=True).first()
        return None if mine is None else Change(store.load_table(mine))


def table_start(*, player: Caller, code: str, version: int, entropy: str = "") -> Change:
    """The host starts the first game once both seats are taken, giving their entropy."""
    with _transaction() as now:
        table, seat = lock_seat(code, player, version, now)
        if refusal := allowed.start_refusal(table, seat):
            raise refusal
        _give_entropy(table, seat, entropy)
        return _new_game(table, now, number=1, previous=None)


def game_play_again(*, player: Caller, code: str, version: int, entropy: str = "") -> Change:
    """The next game at the table, the caller giving their entropy; the score carries over."""
    with _transaction() as now:
        table, seat = lock_seat(code, player, version, now)
        if refusal := allowed.play_again_refusal(table):
            raise refusal
        last = table.current_game
        assert last is not None
        _give_entropy(table, seat, entropy)
        return _new_game(table, now, number=last.number + 1, previous=Side(last.starter))


def seat_entropy(*, player: Caller, code: str, version: int, entropy: str) -> Change:
    """Give (or give again) the caller's entropy for the table's next game, once its seed
    is committed and until the game starts."""
    with _transaction() as now:
        table, seat = lock_seat(code, player, version, now)
        if table.state not in (TableState.WAITING, TableState.READY, TableState.BETWEEN_GAMES):
            raise WrongState("entropy is given between games, for the next one")
        _give_entropy(table, seat, entropy)
        return _commit(table, None, (), (), now=now, seats=[seat])


def game_resign(*, player: Caller, code: str, version: int) -> Change:
    """Give up the current game: the other seat wins it, worth 1."""
    return _on_game(player, code, version, lambda game, side, roll: Step(game.resign(side)))


def game_move(
    *, player: Caller, code: str, version: int, moves: Sequence[Move], looking: bool = True
) -> Change:
    """Play one or more die moves of the caller's turn; a complete play ends the turn.
    A move replied by mail is made without `looking` at the table: the player's seat is
    not marked seen, so the next "your turn" notice is not held back for them."""

    def play(game: GameValue, side: Side, roll: Roller) -> Step:
        try:
            return game.play(side, moves, roll)
        except IllegalMoveError as exc:
            index = exc.index or 0
            raise IllegalMove(
                exc.message, reason=exc.reason.value, move=list(moves[index]), index=index
            ) from None

    return _on_game(player, code, version, play, looking=looking)


def cpu_move(*, code: str, game_number: int, turn_number: int) -> Change | None:
    """The CPU's play of turn `turn_number` of game `game_number`, through the same engine
    and write as a person's move, with the table locked: its second read, under the lock,
    finds the turn played by a duplicate run. Nothing happens, and None is returned, when
    that turn is no longer the CPU's to play: the task ran twice, or the game ended or
    moved on."""
    with _transaction() as now:
        table = store.lock_table_unversioned(code)  # a duplicate run finds the turn played
        game, to_move = table.current_game, table.seat_to_move
        if (
            to_move is None
            or game is None
            or (game.number, game.turn_number) != (game_number, turn_number)
        ):
            return None
        seat = list(table.seats.all())[to_move]
        if not seat.cpu:
            return None
        value = store.game_value(table, game)
        rng = random.Random(secrets.randbits(64))
        level = levels.Level(seat.cpu)
        moves = levels.choose(value.turn.position, value.dice, table.rules, level, rng)
        return _step(table, game, value.play(seat.side, moves, store.roller(game)), now)


def turn_undo(*, player: Caller, code: str, version: int) -> Change:
    """Take back this turn's moves; the dice stay as rolled."""
    return _on_game(player, code, version, lambda game, side, roll: Step(game.undo(side)))


def table_leave(*, player: Caller, code: str, version: int) -> Change:
    """Leave the table: it closes for both seats with no result, as the idle close does
    (`games.idle`): a game in progress ends `abandoned`, with no winner and nothing
    scored, the table becomes `closed` with `closed_reason` "left", and a `table_closed`
    event naming the seat that left tells the other one. So nobody is held at a table
    the opponent keeps alive."""
    with _transaction() as now:
        table, seat = lock_seat(code, player, version, now)
        game = table.current_game
        playing = game if game is not None and not game.is_over else None
        if playing is not None:
            store.write_game(table, playing, store.game_value(table, playing).abandon(), now)
        clocks.stop(table)
        table.state, table.closed_reason = TableState.CLOSED, ClosedReason.LEFT
        assert seat.player is not None  # the caller's own seat
        closed = events.table_left(table, playing, seat.side, seat.player.name)
        return _commit(table, playing, (), [closed], now=now, seats=[seat])


def _sit(table: Table, free: Seat, player: Player, entropy: str, now: datetime) -> Change:
    """The player takes the free seat: the table is ready for the host to start."""
    free.player, free.last_seen_at = player, now
    _give_entropy(table, free, entropy)
    free.save(update_fields=["player", "entropy", "entropy_version", "last_seen_at"])
    table.state = TableState.READY
    joined = events.player_joined(table, free.side, player.name)
    return _commit(table, None, (), [joined], now=now)


def _take(table: Table, player: Player, entropy: str, now: datetime) -> Change:
    """Take the seat at the locked `table` from the lobby, and list the taker."""
    seats = list(table.seats.all())
    if any(seat.player_id == player.pk for seat in seats):
        return Change(table)
    if table.open_until is None:  # never opened: as for a code with no table
        raise store.not_found(table.code)
    if table.state == TableState.CLOSED:
        raise TableClosed("this table is closed")
    if table.state != TableState.WAITING:
        raise SeatTaken("someone else took this seat first: choose another table")
    if not lobby.is_open(table, now) or lobby.blocked(player.pk, table.host_id):
        raise TableNotFound(f"table {table.code} is no longer in the lobby")
    _list(player, now)
    return _sit(table, seats[Side.WHITE], player, entropy, now)


def _into_lobby(host_id: int, now: datetime) -> datetime:
    """Make room for one more table of the host in the lobby, and give its time there.
    The host's row is locked, so that two tables opened at once count each other."""
    host = Player.objects.select_for_update().only("listed_at").get(pk=host_id)
    if lobby.open_tables(now).filter(host_id=host_id).count() >= settings.LOBBY_TABLES_MAX:
        raise TooManyInLobby(
            f"you have {settings.LOBBY_TABLES_MAX} tables in the lobby already: wait for "
            "one to be taken, or take one out, before you open another",
            limit=settings.LOBBY_TABLES_MAX,
        )
    _list(host, now)
    return now + timedelta(days=settings.OPEN_TABLE_DAYS)


def _list(player: Player, now: datetime) -> None:
    """From now on the player is shown to strangers (`Player.listed_at`)."""
    if player.listed_at is None:
        player.listed_at = now
        Player.objects.filter(pk=player.pk, listed_at__isnull=True).update(listed_at=now)


@contextmanager
def _transaction() -> Iterator[datetime]:
    """The transaction of a table change, and its one time: every stamp the change writes
    (the caller's seat seen, a game's end, the table's activity) is this `now`, so they
    agree with each other to the microsecond. When the connection is lost at its COMMIT,
    the server may have stored the change or not, and the client can't be told which:
    that is OutcomeUnknown (503), and the client reads the table to find out (its version
    has moved on if the change was stored). Lost earlier, nothing was stored; the error
    goes on as it is (503 `unavailable`)."""
    outermost = not transaction.get_connection().in_atomic_block
    body_done = False
    try:
        with transaction.atomic():
            yield timezone.now()
            body_done = True
    except (OperationalError, InterfaceError) as exc:
        if not (body_done and outermost):
            raise
        raise _outcome_unknown() from exc


def _outcome_unknown() -> OutcomeUnknown:
    return OutcomeUnknown(
        "the connection to the database was lost while the change was being saved, so "
        "it may or may not have been made: GET the table (or your tables) before trying "
        "again; if its version has moved on from the one you sent, the change was made",
    )


def _on_game(
    player: Caller,
    code: str,
    version: int,
    act: Callable[[GameValue, Side, Roller], Step],
    *,
    looking: bool = True,
) -> Change:
    """A change to the game being played: lock the table, check the caller's seat and
    `version`, load its game as the engine's value, `act` on it for the caller's side
    (with the game's dice) and write the step. The engine's refusals become the API's
    errors, each with its stable code. Like every change it holds the table's row lock
    from its read to its commit, so a change that waited for it (the player's other
    device, the other seat, the idle sweep) is checked against what the first one left:
    refused as stale, or as closed.

    At a table with a clock, a change that finds the mover's time run out at its `now`
    ends the game on time first, as the sweep would have (`game_time_out`), and is
    refused as TimeRanOut: the row lock makes the move and the timeout one decision,
    never both. If the mover's auto-vacation is due instead, nothing is written: it
    starts (`vacations.start_auto`, which locks all their tables) and the change is
    tried again, on a clock that stood from the deadline."""
    while True:
        try:
            return _on_game_once(player, code, version, act, looking=looking)
        except _AutoVacation as due:
            before = vacations.start_auto(due.due, timezone.now())
            if before.get(code.upper()) == version:
                version += 1


class _AutoVacation(Exception):
    def __init__(self, due: vacations.AutoVacationDue) -> None:
        self.due = due


def _on_game_once(
    player: Caller,
    code: str,
    version: int,
    act: Callable[[GameValue, Side, Roller], Step],
    *,
    looking: bool,
) -> Change:
    with _transaction() as now:
        table, seat = lock_seat(code, player, version, now, looking=looking)
        game = _current_game(table)
        if not clocks.ran_out(table, now):
            try:
                step = act(store.game_value(table, game), seat.side, store.roller(game))
            except GameError as exc:
                raise refused(exc) from None
            return _step(table, game, step, now, seats=[seat])
        if due := _auto_vacation_due(table, now):
            raise _AutoVacation(due)
        _step(table, game, Step(store.game_value(table, game).time_out()), now, seats=[seat])
    raise TimeRanOut(
        "the time to move ran out before this arrived: the game ended on time "
        "(or, before each side had played two turns, was cancelled); GET the table"
    )


def game_time_out(*, code: str, now: datetime) -> Change | vacations.AutoVacationDue | None:
    """End the game whose mover's clock ran out by `now`: the other seat wins on time,
    or the game is cancelled early on (`GameValue.time_out`). Runs in the sweep's
    transaction (`games.timeouts`), which locked the row; None when the clock no longer
    ran out under the lock (a move got there first); the mover's auto-vacation, for the
    sweep to start after its transaction, when that is due instead."""
    table = store.lock_table(code)
    if table.state != TableState.PLAYING or not clocks.ran_out(table, now):
        return None
    if due := _auto_vacation_due(table, now):
        return due
    game = _current_game(table)
    return _step(table, game, Step(store.game_value(table, game).time_out()), now)


def _auto_vacation_due(table: Table, now: datetime) -> vacations.AutoVacationDue | None:
    assert table.deadline is not None and table.seat_to_move is not None
    mover = list(table.seats.all())[table.seat_to_move]
    return vacations.auto_due(mover.player, table.deadline, now, table.pk)


def _current_game(table: Table) -> Game:
    if refusal := allowed.game_refusal(table):
        raise refusal
    game = table.current_game
    assert game is not None
    return game


def _new_game(table: Table, now: datetime, *, number: int, previous: Side | None) -> Change:
    """Start game `number` with the seed committed for it and the entropy each seat gave
    since; the seats' entropy is spent, and the next game gets its own."""
    assert table.next_seed is not None and table.next_seed_version is not None
    black, white = seats = list(table.seats.all())
    game = Game.objects.create(
        table=table,
        number=number,
        starter=Side.BLACK,
        seed=bytes(table.next_seed),
        seed_hash=table.next_seed_hash,
        seed_version=table.next_seed_version,
        black_entropy=black.entropy,
        black_entropy_version=black.entropy_version,
        white_entropy=white.entropy,
        white_entropy_version=white.entropy_version,
        position=position_id(Position.start()),
        turn_seat=Side.BLACK,
    )
    for seat in seats:
        seat.entropy, seat.entropy_version = "", None
    table.next_seed, table.next_seed_hash, table.next_seed_version = None, "", None
    table.current_game = game
    table.state = TableState.PLAYING
    step = GameValue.start(table.rules, store.roller(game), previous)
    return _step(table, game, step, now, started=True, seats=seats)


def _step(
    table: Table,
    game: Game,
    step: Step,
    now: datetime,
    *,
    started: bool = False,
    seats: Sequence[Seat] = (),
) -> Change:
    """Persist an engine step: the game row, the history's new turns and the events
    (`_commit`). A game that ends commits to the next game's seed at once."""
    was_over = game.is_over
    store.write_game(table, game, step.game, now)
    if table.clock_days is not None:  # both seats' banks are written
        seats = list(table.seats.all())
        if started:
            clocks.start_game(table, seats, step.game, now)
        else:
            clocks.after_step(table, seats, step.game, step.turns, now)
    if step.game.result is not None:
        table.state = TableState.BETWEEN_GAMES
        if not was_over:
            for name, value in _next_seed(version=table.version + 1).items():
                setattr(table, name, value)
            if table.rated and (won := step.game.result.winner) is not None:
                winner, loser = (table.seats.all()[side].player_id for side in (won, won.other))
                assert winner is not None and loser is not None  # no CPU at a rated table
                ratings.rate_game(winner, loser)
    turns = [
        Turn(
            game=game,
            number=t.number,
            seat=t.side,
            dice=list(t.dice),
            moves=[list(m) for m in t.moves],
            notation=t.notation,
            hit=t.hit,
            position_after=position_id(t.board_after),
            points=t.points,
        )
        for t in step.turns
    ]
    events.note_turns(game, step.turns)
    written = events.after_step(table, game, step, started=started)
    change = _commit(table, game, turns, written, now=now, seats=seats)
    return replace(change, game=step.game)


def _next_seed(*, version: int) -> dict[str, Any]:
    """A new secret seed for the table's next game, committed to at `version`."""
    seed = secrets.token_bytes(32)
    return {
        "next_seed": seed,
        "next_seed_hash": seed_commitment(seed),
        "next_seed_version": version,
    }


def _give_entropy(table: Table, seat: Seat, entropy: str) -> None:
    """Record the seat's entropy for the next game at the version this change writes;
    an empty one gives nothing (and counts as the empty string)."""
    if entropy:
        seat.entropy, seat.entropy_version = entropy, table.version + 1


TABLE_FIELDS = [
    "version",
    "open_until",
    "closed_reason",
    "next_seed",
    "next_seed_hash",
    "next_seed_version",
    "state",
    "score_black",
    "score_white",
    "current_game",
    "last_event",
    "updated_at",
    "active_at",
    "idle_warned",
    "cpu_to_move",
    "deadline",
    "turn_started_at",
    "remind_at",
]
GAME_FIELDS = [
    "state",
    "winner",
    "points",
    "win_kind",
    "ended_at",
    "starter",
    "opening_rolls",
    "turn_number",
    "turn_seat",
    "dice",
    "pending",
    "position",
    "recent",
]
SEAT_FIELDS = ["entropy", "entropy_version", "last_seen_at", "clock_left"]
"""What a change may alter: the table's, the game's and the seats' columns written back."""


def _commit(
    table: Table,
    game: Game | None,
    turns: Sequence[Turn],
    written: Sequence[Event],
    *,
    now: datetime,
    seats: Sequence[Seat] = (),
) -> Change:
    """Write a change in one statement: the history's new turns, the events, the game,
    and the table with its version bumped; the events go to Celery after the commit.
    Helpers change instances; only this writes them. The seats given are those the
    change touched and the caller's own: a change counts as looking at the table, at
    no extra round trip. It also notes whether the CPU is to play now.

    A change that tells the seats something (it writes events: a join, a game's start,
    a finished turn, a resignation, a leave) is activity: it restarts the table's idle
    clock and its warnings (`games.idle`), and the retention's (`games.retention`). A
    die move that leaves the turn open, an undo and entropy given between games tell
    nobody anything and can be repeated without end, so they are not: otherwise one
    player could keep a table, and the other's name and history, alive for ever."""
    table.version += 1
    if written:
        table.active_at, table.idle_warned = now, None
    to_move = table.seat_to_move
    table.cpu_to_move = to_move is not None and bool(list(table.seats.all())[to_move].cpu)
    updates: list[tuple[Model, Sequence[str]]] = [(game, GAME_FIELDS)] if game else []
    updates += [(seat, SEAT_FIELDS) for seat in seats]
    rows = [*updates, (table, TABLE_FIELDS)], [*turns, *written]
    queries.save(*rows)
    outbox.hand_on_after_commit(table.pk, written)
    return Change(table, written)
