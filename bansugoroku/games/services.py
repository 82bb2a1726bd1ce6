"""Every change to players, tables and games: one function each, keyword-only.

A table change runs in a transaction: lock the table row (`store.lock_table`, which
checks the version the client last saw), load the game as an engine value, apply the
change to it, and persist with `_commit`: one statement that writes the history's new
turns, the events, the game and the table with its version bumped. It returns the
table and the events it wrote, which go to Celery once the transaction commits.
Nothing else writes game state.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from bansugoroku.games import events, outbox, queries, store
from bansugoroku.games.errors import (
    GameOver,
    IllegalMove,
    NothingToUndo,
    NotTheHost,
    NotYourTurn,
    ServiceError,
    TableClosed,
    TableFull,
    WrongState,
)
from bansugoroku.games.models import Event, Game, Player, Seat, Table, TableState, Turn
from bansugoroku.games.store import CODE_ALPHABET, CODE_LENGTH, lock_table, seat_of, token_hash
from engine.dice import seed_commitment
from engine.game import GameError, GameValue, Step
from engine.notation import position_id
from engine.plays import Move
from engine.position import Position
from engine.rules import Rules
from engine.side import Side
from engine.turn import IllegalMoveError


@dataclass(frozen=True)
class Change:
    """What a table change did: the table after it, and the events it wrote."""

    table: Table
    events: Sequence[Event] = ()


def player_create(*, name: str, locale: str = "en") -> tuple[Player, str]:
    """A new player and their bearer token; only the hash is kept, the token shown once."""
    token = "bs_" + secrets.token_urlsafe(32)
    player = Player.objects.create(token_hash=token_hash(token), name=name, locale=locale)
    return player, token


def player_update(*, player: Player, name: str | None = None, locale: str | None = None) -> Player:
    if name is not None:
        player.name = name
    if locale is not None:
        player.locale = locale
    player.save(update_fields=["name", "locale"])
    return player


def table_create(*, host: Player, rules: Rules, cpu: str = "", entropy: str = "") -> Change:
    """A table with the host in the first seat (Black); the second seat free or the CPU's."""
    for _ in range(10):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=code,
                    host=host,
                    finish=rules.finish,
                    muji=rules.muji,
                    start=rules.start,
                    state=TableState.READY if cpu else TableState.WAITING,
                )
                Seat.objects.bulk_create(
                    [
                        Seat(table=table, number=Side.BLACK, player=host, entropy=entropy),
                        Seat(table=table, number=Side.WHITE, cpu=cpu),
                    ]
                )
        except IntegrityError:
            continue  # the code was taken: 1 in ~900 million per existing table
        return Change(table)
    raise RuntimeError("no free table code after 10 tries")


def table_join(*, player: Player, code: str, entropy: str = "") -> Change:
    """Take the free seat. Joining a table you already sit at changes nothing."""
    with transaction.atomic():
        table = lock_table(code)
        seats = list(table.seats.all())
        if any(seat.player_id == player.pk for seat in seats):
            return Change(table)
        if table.state == TableState.CLOSED:
            raise TableClosed("this table is closed")
        free = next((s for s in seats if s.player_id is None and not s.cpu), None)
        if free is None:
            raise TableFull("both seats at this table are taken")
        free.player, free.entropy = player, entropy
        free.save(update_fields=["player", "entropy"])
        table.state = TableState.READY
        return _commit(table, None, (), [events.player_joined(table, free.side, player.name)])


def table_start(*, player: Player, code: str, version: int) -> Change:
    """The host starts the first game once both seats are taken."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat_of(table, player)
        if table.host_id != player.pk:
            raise NotTheHost("only the host starts the first game")
        if table.state != TableState.READY:
            raise WrongState(f"the table is {table.get_state_display()}, not ready to start")
        return _new_game(table, number=1, previous=None)


def game_play_again(*, player: Player, code: str, version: int) -> Change:
    """The next game at the table; the score carries over."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat_of(table, player)
        if table.state != TableState.BETWEEN_GAMES:
            raise WrongState("a new game starts only after one has ended")
        last = table.current_game
        assert last is not None
        return _new_game(table, number=last.number + 1, previous=Side(last.starter))


def game_resign(*, player: Player, code: str, version: int) -> Change:
    """Give up the current game: the other seat wins it, worth 1."""
    with transaction.atomic():
        table = lock_table(code, version)
        side = seat_of(table, player).side
        game = _current_game(table)
        with _refusals():
            after = store.game_value(table, game).resign(side)
        return _step(table, game, Step(after))


def game_move(*, player: Player, code: str, version: int, moves: Sequence[Move]) -> Change:
    """Play one or more die moves of the caller's turn; a complete play ends the turn."""
    with transaction.atomic():
        table = lock_table(code, version)
        side = seat_of(table, player).side
        game = _current_game(table)
        value = store.game_value(table, game)
        with _refusals():
            try:
                step = value.play(side, moves, store.roller(table, game))
            except IllegalMoveError as exc:
                index = exc.index or 0
                raise IllegalMove(
                    exc.message, reason=exc.reason.value, move=list(moves[index]), index=index
                ) from None
        return _step(table, game, step)


def turn_undo(*, player: Player, code: str, version: int) -> Change:
    """Take back this turn's moves; the dice stay as rolled."""
    with transaction.atomic():
        table = lock_table(code, version)
        side = seat_of(table, player).side
        game = _current_game(table)
        with _refusals():
            after = store.game_value(table, game).undo(side)
        return _step(table, game, Step(after))


# Helpers: each expects to run inside the transaction that holds the table row.

_REFUSALS: dict[str, type[ServiceError]] = {
    "not_your_turn": NotYourTurn,
    "game_over": GameOver,
    "nothing_to_undo": NothingToUndo,
}


@contextmanager
def _refusals() -> Iterator[None]:
    """The engine's refusals as the API's errors, each with its stable code."""
    try:
        yield
    except GameError as exc:
        raise _REFUSALS[exc.code](exc.message) from None


def _current_game(table: Table) -> Game:
    game = table.current_game
    if table.state == TableState.CLOSED:
        raise TableClosed("this table is closed")
    if game is None or game.is_over:
        raise GameOver("no game is being played at this table")
    return game


def _new_game(table: Table, *, number: int, previous: Side | None) -> Change:
    seed = secrets.token_bytes(32)
    game = Game.objects.create(
        table=table,
        number=number,
        starter=Side.BLACK,
        seed=seed,
        seed_hash=seed_commitment(seed),
        position=position_id(Position.start()),
        turn_seat=Side.BLACK,
    )
    table.current_game = game
    table.state = TableState.PLAYING
    step = GameValue.start(table.rules, store.roller(table, game), previous)
    return _step(table, game, step, started=True)


def _step(table: Table, game: Game, step: Step, *, started: bool = False) -> Change:
    """Persist an engine step: the game row, the history's new turns and the events."""
    store.write_game(table, game, step.game)
    if step.game.result is not None:
        table.state = TableState.BETWEEN_GAMES
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
    return _commit(table, game, turns, events.after_step(table, game, step, started=started))


TABLE_FIELDS = [
    "version",
    "state",
    "score_black",
    "score_white",
    "current_game",
    "last_event",
    "updated_at",
]
GAME_FIELDS = [
    "state",
    "winner",
    "points",
    "ended_at",
    "starter",
    "opening_rolls",
    "turn_number",
    "turn_seat",
    "dice",
    "pending",
    "position",
]
"""What a change may alter: the table's and the game's columns that are written back."""


def _commit(
    table: Table, game: Game | None, turns: Sequence[Turn], written: Sequence[Event]
) -> Change:
    """Write a change in one statement: the history's new turns, the events, the game,
    and the table with its version bumped; the events go to Celery after the commit.
    Helpers change instances; only this writes them."""
    table.version += 1
    updates = [(game, GAME_FIELDS)] if game else []
    queries.save([*updates, (table, TABLE_FIELDS)], [*turns, *written])
    outbox.hand_on_after_commit(table.pk, written)
    return Change(table, written)
