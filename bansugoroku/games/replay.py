"""Replaying the history: the `Turn` rows are the truth, and everything else must agree.

`replay_game` plays a game again with the engine from the starting position, checking
each turn's dice against the seed, that its moves are a legal complete play, and the
stored position, notation, hit and points against the replay; then the game's cached
state (position, turn, dice, result). `score_problems` checks a table's score against its
games. Each returns the differences as sentences: an empty list means all agree.
`manage.py replay_games` runs both over the database.
"""

from __future__ import annotations

from collections.abc import Iterable

from bansugoroku.games.models import Game, GameState, Table, Turn
from bansugoroku.games.store import view
from engine.dice import derived_dice, seed_commitment
from engine.notation import NotationError, format_play, parse_position_id, position_id
from engine.plays import Move, hits
from engine.position import Position
from engine.rules import Rules, Start
from engine.turn import IllegalMoveError
from engine.turn import Turn as EngineTurn

MAX_OPENING_ROLLS = 100
"""Ties in the opening roll repeat; this only stops a loop on a broken seed."""


class _Stop(Exception):
    """The history cannot be replayed past this point; the message says why."""


def replay_game(game: Game) -> list[str]:
    """How the stored game differs from its replayed history (nothing: they agree)."""
    table = game.table
    entropy = table.entropy
    seed = bytes(game.seed)
    problems: list[str] = []
    if seed_commitment(seed) != game.seed_hash:
        problems.append("the seed's SHA-256 is not the published seed_sha256")
    problems += _start_problems(game, table.rules, seed, entropy)
    board, seat, won = Position.start(), game.starter, 0
    turns = list(game.turns.all())
    try:
        for expected_number, turn in enumerate(turns, start=1):
            if won:
                raise _Stop(f"turn {turn.number} follows the turn that won the game")
            if turn.number != expected_number:
                raise _Stop(f"turn {turn.number} is where turn {expected_number} should be")
            if turn.seat != seat:
                raise _Stop(f"turn {turn.number} was played by seat {turn.seat}, not {seat}")
            derived = derived_dice(seed, entropy, str(turn.number))
            if turn.dice != derived:
                problems.append(f"turn {turn.number}: dice {turn.dice}, the seed gives {derived}")
            board, won, found = _replay_turn(turn, board, seat, table.rules)
            problems += found
            seat = 1 - seat
    except _Stop as stop:
        return [*problems, f"{stop}; the replay stops there"]
    return problems + _cache_problems(game, board, seat, won, len(turns), seed, entropy)


def score_problems(table: Table, games: Iterable[Game]) -> list[str]:
    """How the table's score and current game differ from its games (all of them, in order)."""
    games = list(games)
    totals = [0, 0]
    for game in games:
        if game.winner in (0, 1):
            totals[game.winner] += game.points
    problems = []
    if list(table.score) != totals:
        problems.append(
            f"score is {table.score_black}-{table.score_white} (Black-White), "
            f"its games add up to {totals[0]}-{totals[1]}"
        )
    if games and table.current_game_id != games[-1].pk:
        problems.append(f"the current game is not the last one, game {games[-1].number}")
    return problems


def _start_problems(game: Game, rules: Rules, seed: bytes, entropy: tuple[str, str]) -> list[str]:
    """Who starts: by the opening rolls under `roll`, turn about under `alternate`."""
    if rules.start is Start.ROLL:
        rolls: list[list[int]] = []
        while len(rolls) < MAX_OPENING_ROLLS and (not rolls or rolls[-1][0] == rolls[-1][1]):
            rolls.append(derived_dice(seed, entropy, f"opening-{len(rolls) + 1}"))
        starter = 0 if rolls[-1][0] > rolls[-1][1] else 1
    else:
        rolls, starter = [], (game.number - 1) % 2
    problems = []
    if game.opening_rolls != rolls:
        problems.append(f"opening rolls {game.opening_rolls}, the seed gives {rolls}")
    if game.starter != starter:
        problems.append(f"seat {game.starter} started, the rules give seat {starter}")
    return problems


def _replay_turn(
    stored: Turn, board: Position, seat: int, rules: Rules
) -> tuple[Position, int, list[str]]:
    """One stored turn played again: the position after it, its points, what differs."""
    number = stored.number
    moves = _moves(stored.moves, number)
    mover = view(board, seat)
    try:
        played = EngineTurn(mover, (stored.dice[0], stored.dice[1]), rules).play_all(moves)
    except IllegalMoveError as exc:
        raise _Stop(f"turn {number}: {stored.notation} is not legal: {exc.message}") from None
    if not played.complete:
        raise _Stop(f"turn {number}: {stored.notation} leaves a die that could be played")
    after = view(played.current, seat)
    problems = []
    try:
        if parse_position_id(stored.position_after) != after:
            problems.append(
                f"turn {number}: position after {stored.position_after}, "
                f"the replay gives {position_id(after)}"
            )
    except NotationError:
        problems.append(f"turn {number}: position after {stored.position_after!r} is no position")
    notation = format_play(mover, moves)
    if stored.notation != notation:
        problems.append(
            f"turn {number}: notation {stored.notation!r}, the replay gives {notation!r}"
        )
    hit = any(hits(mover, moves))
    if stored.hit != hit:
        problems.append(f"turn {number}: hit {stored.hit}, the replay gives {hit}")
    if stored.points != played.points:
        problems.append(f"turn {number}: points {stored.points}, the replay gives {played.points}")
    return after, played.points, problems


def _moves(value: object, number: int) -> list[Move]:
    if isinstance(value, list) and all(
        isinstance(m, list) and len(m) == 2 and all(type(p) is int for p in m) for m in value
    ):
        return [(m[0], m[1]) for m in value]
    raise _Stop(f"turn {number}: moves {value!r} are not a list of [from, to]")


def _cache_problems(
    game: Game,
    board: Position,
    seat: int,
    won: int,
    turns: int,
    seed: bytes,
    entropy: tuple[str, str],
) -> list[str]:
    """The game row against the end of the replay: `seat` is the next to move."""
    problems = []
    try:
        if game.board() != board:
            problems.append(f"position {game.position}, the replay gives {position_id(board)}")
    except NotationError:
        problems.append(f"position {game.position!r} is no position")
    result = (game.state, game.winner, game.points)
    expected: tuple[str, int | str | None, int]
    if won:
        numbers, expected = {turns}, (GameState.WON, 1 - seat, won)
    elif game.state in (GameState.PLAYING, GameState.WON):
        numbers, expected = {turns + 1}, (GameState.PLAYING, None, 0)
    elif game.state == GameState.RESIGNED:  # by either seat: the winner is not in the turns
        winner = game.winner if game.winner in (0, 1) else "the other seat"
        numbers, expected = {turns + 1}, (GameState.RESIGNED, winner, 1)
    else:  # abandoned: by a table closing mid-turn, or after a pass when nobody can move
        numbers, expected = {turns, turns + 1}, (GameState.ABANDONED, None, 0)
    if result != expected:
        problems.append(
            "state {}, winner {}, points {}; the replay gives {}, winner {}, points {}".format(
                *result, *expected
            )
        )
    if game.turn_number not in numbers:
        shown = " or ".join(str(n) for n in sorted(numbers))
        problems.append(f"turn number {game.turn_number}, the replay gives {shown}")
    elif game.turn_number and game.dice != derived_dice(seed, entropy, str(game.turn_number)):
        problems.append(f"dice {game.dice} are not the seed's for turn {game.turn_number}")
    if game.state == GameState.PLAYING and not won:
        problems += _pending_problems(game, board, seat)
    return problems


def _pending_problems(game: Game, board: Position, seat: int) -> list[str]:
    """A game being played: whose turn it is, and the moves sent so far."""
    if game.turn_seat != seat:
        return [f"seat {game.turn_seat} is to move, the replay gives seat {seat}"]
    try:
        pending = _moves(game.pending, game.turn_number)
        turn = EngineTurn(view(board, seat), (game.dice[0], game.dice[1]), game.table.rules)
        if turn.play_all(pending).complete:
            return [f"the pending moves {game.pending} complete the turn but it was not ended"]
    except (_Stop, IllegalMoveError):
        return [f"the pending moves {game.pending} are not the start of a legal play"]
    return []
