"""Every change to players, tables and games: one function each, keyword-only.

Each table change runs in a transaction holding the table row (`store.lock_table`,
which also checks the version the client last saw), asks the engine, changes the
instances in memory, and ends with `_save`: one statement that writes the history's
new turns, the game and the table with its version bumped. Nothing else writes game
state.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from bansugoroku.games import queries
from bansugoroku.games.errors import (
    GameOver,
    IllegalMove,
    NothingToUndo,
    NotTheHost,
    NotYourTurn,
    TableClosed,
    TableFull,
    WrongState,
)
from bansugoroku.games.models import Game, GameState, Player, Seat, Table, TableState, Turn
from bansugoroku.games.store import (
    CODE_ALPHABET,
    CODE_LENGTH,
    lock_table,
    seat_of,
    token_hash,
    view,
)
from engine.dice import derived_dice, seed_commitment
from engine.notation import format_play, position_id
from engine.plays import Move, hits, legal_plays
from engine.position import Position
from engine.rules import Rules, Start
from engine.turn import IllegalMoveError
from engine.turn import Turn as EngineTurn


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


def table_create(*, host: Player, rules: Rules, cpu: str = "", entropy: str = "") -> Table:
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
                        Seat(table=table, number=0, player=host, entropy=entropy),
                        Seat(table=table, number=1, cpu=cpu),
                    ]
                )
        except IntegrityError:
            continue  # the code was taken: 1 in ~900 million per existing table
        return table
    raise RuntimeError("no free table code after 10 tries")


def table_join(*, player: Player, code: str, entropy: str = "") -> Table:
    """Take the free seat. Joining a table you already sit at changes nothing."""
    with transaction.atomic():
        table = lock_table(code)
        seats = list(table.seats.all())
        if any(seat.player_id == player.pk for seat in seats):
            return table
        if table.state == TableState.CLOSED:
            raise TableClosed("this table is closed")
        free = next((s for s in seats if s.player_id is None and not s.cpu), None)
        if free is None:
            raise TableFull("both seats at this table are taken")
        free.player, free.entropy = player, entropy
        free.save(update_fields=["player", "entropy"])
        table.state = TableState.READY
        _save(table)
        return table


def table_start(*, player: Player, code: str, version: int) -> Table:
    """The host starts the first game once both seats are taken."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat_of(table, player)
        if table.host_id != player.pk:
            raise NotTheHost("only the host starts the first game")
        if table.state != TableState.READY:
            raise WrongState(f"the table is {table.get_state_display()}, not ready to start")
        _new_game(table, number=1, starter=0)
        return table


def game_play_again(*, player: Player, code: str, version: int) -> Table:
    """The next game at the table; the score carries over."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat_of(table, player)
        if table.state != TableState.BETWEEN_GAMES:
            raise WrongState("a new game starts only after one has ended")
        last = table.current_game
        assert last is not None
        _new_game(table, number=last.number + 1, starter=1 - last.starter)
        return table


def game_resign(*, player: Player, code: str, version: int) -> Table:
    """Give up the current game: the other seat wins it, worth 1."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat = seat_of(table, player)
        game = _current_game(table)
        _end_game(table, game, GameState.RESIGNED, winner=1 - seat.number, points=1)
        _save(table, game)
        return table


def game_move(*, player: Player, code: str, version: int, moves: Sequence[Move]) -> Table:
    """Play one or more die moves of the caller's turn; a complete play ends the turn."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat = seat_of(table, player)
        game = _current_game(table)
        if game.turn_seat != seat.number:
            raise NotYourTurn("wait for your opponent's move")
        turn = _engine_turn(table, game)
        for index, move in enumerate(moves):
            try:
                turn = turn.play(move)
            except IllegalMoveError as exc:
                raise IllegalMove(
                    exc.message, reason=exc.reason.value, move=list(move), index=index
                ) from None
        if turn.complete:
            _save(table, game, _end_turn(table, game, turn))
        else:
            game.pending = [list(m) for m in turn.played]
            _save(table, game)
        return table


def turn_undo(*, player: Player, code: str, version: int) -> Table:
    """Take back this turn's moves; the dice stay as rolled."""
    with transaction.atomic():
        table = lock_table(code, version)
        seat = seat_of(table, player)
        game = _current_game(table)
        if game.turn_seat != seat.number:
            raise NotYourTurn("only the player to move can undo")
        if not game.pending:
            raise NothingToUndo("no move of this turn to take back")
        game.pending = []
        _save(table, game)
        return table


# Helpers: each expects to run inside the transaction that holds the table row.


def _current_game(table: Table) -> Game:
    game = table.current_game
    if table.state == TableState.CLOSED:
        raise TableClosed("this table is closed")
    if game is None or game.is_over:
        raise GameOver("no game is being played at this table")
    return game


TABLE_FIELDS = ["version", "state", "score_black", "score_white", "current_game", "updated_at"]
GAME_FIELDS = [
    "state",
    "winner",
    "points",
    "ended_at",
    "turn_number",
    "turn_seat",
    "dice",
    "pending",
    "position",
]
"""What a change may alter: the table's and the game's columns that are written back."""


def _save(table: Table, game: Game | None = None, turns: Sequence[Turn] = ()) -> None:
    """Write a change in one statement: the new turns of the history, the game, and the
    table with its version bumped. Helpers change instances; only this writes them."""
    table.version += 1
    updates = [(game, GAME_FIELDS)] if game else []
    queries.save([*updates, (table, TABLE_FIELDS)], turns)


def _engine_turn(table: Table, game: Game) -> EngineTurn:
    mover_view = view(game.board(), game.turn_seat)
    played = tuple((m[0], m[1]) for m in game.pending)
    return EngineTurn(mover_view, (game.dice[0], game.dice[1]), table.rules, played)


def _new_game(table: Table, *, number: int, starter: int) -> Game:
    seed = secrets.token_bytes(32)
    opening: list[list[int]] = []
    if table.rules.start is Start.ROLL:
        while not opening or opening[-1][0] == opening[-1][1]:
            opening.append(derived_dice(seed, table.entropy, f"opening-{len(opening) + 1}"))
        starter = 0 if opening[-1][0] > opening[-1][1] else 1
    game = Game.objects.create(
        table=table,
        number=number,
        starter=starter,
        opening_rolls=opening,
        seed=seed,
        seed_hash=seed_commitment(seed),
        position=position_id(Position.start()),
        turn_seat=starter,
    )
    table.current_game = game
    table.state = TableState.PLAYING
    _save(table, game, _begin_turn(table, game, starter))
    return game


def _begin_turn(table: Table, game: Game, seat: int) -> list[Turn]:
    """Roll for `seat`; a roll with no legal move is a pass, and the next is rolled.
    Returns the passes, for the history."""
    rules, entropy = table.rules, table.entropy
    passes: list[Turn] = []
    while True:
        game.turn_number += 1
        game.turn_seat = seat
        game.dice = derived_dice(bytes(game.seed), entropy, str(game.turn_number))
        game.pending = []
        mover_view = view(game.board(), seat)
        if legal_plays(mover_view, (game.dice[0], game.dice[1]), rules)[0].moves:
            break
        passes.append(
            Turn(
                game=game,
                number=game.turn_number,
                seat=seat,
                dice=game.dice,
                moves=[],
                notation=format_play(mover_view, ()),
                position_after=game.position,
            )
        )
        if _stuck(mover_view, rules):
            _end_game(table, game, GameState.ABANDONED, winner=None, points=0)
            return passes
        seat = 1 - seat
    return passes


def _stuck(mover_view: Position, rules: Rules) -> bool:
    """Neither side can move with any roll: both have a stone on the bar facing a closed home."""
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    return all(
        not legal_plays(side, roll, rules)[0].moves
        for side in (mover_view, mover_view.flipped())
        for roll in rolls
    )


def _end_turn(table: Table, game: Game, turn: EngineTurn) -> list[Turn]:
    """Close the mover's turn; returns the history's new turns (the play, then passes)."""
    seat = game.turn_seat
    after = view(turn.current, seat)
    game.position = position_id(after)
    played = Turn(
        game=game,
        number=game.turn_number,
        seat=seat,
        dice=game.dice,
        moves=[list(m) for m in turn.played],
        notation=format_play(turn.position, turn.played),
        hit=any(hits(turn.position, turn.played)),
        position_after=game.position,
        points=turn.points,
    )
    if turn.points:
        game.pending = []
        _end_game(table, game, GameState.WON, winner=seat, points=turn.points)
        return [played]
    return [played, *_begin_turn(table, game, 1 - seat)]


def _end_game(
    table: Table, game: Game, state: GameState, *, winner: int | None, points: int
) -> None:
    game.state, game.winner, game.points = state, winner, points
    game.ended_at = timezone.now()
    if winner == 0:
        table.score_black += points
    elif winner == 1:
        table.score_white += points
    table.state = TableState.BETWEEN_GAMES
