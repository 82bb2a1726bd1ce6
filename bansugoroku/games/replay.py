"""Replaying the history: the `Turn` rows are the truth, and everything else must agree.

`replay_game` plays a game again with the engine's `GameValue`, rolling from the
revealed seed and sending each stored play: the turns the replay finishes (plays and
passes) must be the stored ones, with the same dice, notation, hit, position after and
points; then the game's cached state (position, turn, dice, pending moves, result) must
be where the replay ends, its latest plays and passes (`recent`) those of the replayed
turns. `score_problems` checks a table's score against its games.
Each returns the differences as sentences: an empty list means all agree.
`manage.py replay_games` runs both over the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bansugoroku.games import events
from bansugoroku.games.models import Game, GameState, Table, Turn
from bansugoroku.games.store import roller
from engine.dice import seed_commitment
from engine.game import FinishedTurn, GameError, GameValue, Roller
from engine.notation import NotationError, parse_position_id, position_id
from engine.plays import Move
from engine.side import Side
from engine.turn import IllegalMoveError


class _Stop(Exception):
    """The history cannot be replayed past this point; the message says why."""


def replay_game(game: Game) -> list[str]:
    """How the stored game differs from its replayed history (nothing: they agree)."""
    table = game.table
    problems: list[str] = []
    if seed_commitment(bytes(game.seed)) != game.seed_hash:
        problems.append("the seed's SHA-256 is not the published seed_sha256")
    for color, given in (
        ("Black", game.black_entropy_version),
        ("White", game.white_entropy_version),
    ):
        if given is not None and given <= game.seed_version:
            problems.append(f"{color}'s entropy was given before the seed was committed to")
    roll = roller(game)
    value, finished = GameValue.start(table.rules, roll, _previous_starter(game))
    if [list(r) for r in value.opening_rolls] != game.opening_rolls:
        shown = [list(r) for r in value.opening_rolls]
        problems.append(f"opening rolls {game.opening_rolls}, the seed gives {shown}")
    if game.starter != value.starter:
        problems.append(f"seat {game.starter} started, the rules give seat {value.starter:d}")
        value = replace(value, starter=Side(game.starter), to_move=Side(game.starter))
    waiting = list(finished)
    turns = list(game.turns.all())
    replayed: list[FinishedTurn] = []
    try:
        for stored in turns:
            if not waiting:
                value, waiting, found = _play(value, stored, roll)
                problems += found
            replayed.append(waiting.pop(0))
            problems += _compare(stored, replayed[-1])
    except _Stop as stop:
        return [*problems, f"{stop}; the replay stops there"]
    return problems + _cache_problems(game, value) + _recent_problems(game, replayed)


def _recent_problems(game: Game, replayed: list[FinishedTurn]) -> list[str]:
    """The game row's latest plays and passes against the replayed turns (`{}`, as a
    game stored before them has, counts as none)."""
    expected, stored = Game(), Game(recent=game.recent)
    events.note_turns(expected, replayed)
    events.note_turns(stored, ())
    if stored.recent != expected.recent:
        return [f"recent {game.recent}, the replay gives {expected.recent}"]
    return []


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


def _previous_starter(game: Game) -> Side | None:
    """Who started the table's game before this one, which decides who starts under
    `alternate`."""
    before = game.table.games.filter(number=game.number - 1).values_list("starter", flat=True)
    return next((Side(starter) for starter in before), None)


def _play(
    value: GameValue, stored: Turn, roll: Roller
) -> tuple[GameValue, list[FinishedTurn], list[str]]:
    """Send the stored turn's moves to the replayed game, with the stored dice when the
    seed's differ (that is reported, and the replay goes on with what was played)."""
    number = stored.number
    if value.is_over:
        raise _Stop(f"turn {number} follows the end of the game")
    if number != value.turn_number:
        raise _Stop(f"turn {number} is where turn {value.turn_number} should be")
    if stored.seat != value.to_move:
        raise _Stop(f"turn {number} was played by seat {stored.seat}, not {value.to_move:d}")
    problems = []
    if stored.dice != list(value.dice):
        problems.append(f"turn {number}: dice {stored.dice}, the seed gives {list(value.dice)}")
        value = replace(value, dice=(stored.dice[0], stored.dice[1]))
    try:
        after, finished = value.play(value.to_move, _moves(stored.moves, number), roll)
    except (IllegalMoveError, GameError) as exc:
        raise _Stop(f"turn {number}: {stored.notation} is not legal: {exc}") from None
    if not finished:
        raise _Stop(f"turn {number}: {stored.notation} leaves a die that could be played")
    return after, list(finished), problems


def _compare(stored: Turn, replayed: FinishedTurn) -> list[str]:
    number = stored.number
    if (stored.number, stored.seat) != (replayed.number, replayed.side):
        raise _Stop(
            f"turn {number} of seat {stored.seat} is where the replay has turn "
            f"{replayed.number} of seat {replayed.side:d}"
        )
    if replayed.is_pass and stored.moves:
        raise _Stop(f"turn {number}: {stored.notation} was played where no move is legal")
    problems = []
    if stored.dice != list(replayed.dice):
        problems.append(f"turn {number}: dice {stored.dice}, the seed gives {list(replayed.dice)}")
    try:
        if parse_position_id(stored.position_after) != replayed.board_after:
            problems.append(
                f"turn {number}: position after {stored.position_after}, "
                f"the replay gives {position_id(replayed.board_after)}"
            )
    except NotationError:
        problems.append(f"turn {number}: position after {stored.position_after!r} is no position")
    for name, mine, theirs in (
        ("notation", stored.notation, replayed.notation),
        ("hit", stored.hit, replayed.hit),
        ("points", stored.points, replayed.points),
    ):
        if mine != theirs:
            problems.append(f"turn {number}: {name} {mine!r}, the replay gives {theirs!r}")
    return problems


def _moves(value: object, number: int) -> list[Move]:
    if isinstance(value, list) and all(
        isinstance(m, list) and len(m) == 2 and all(type(p) is int for p in m) for m in value
    ):
        return [(m[0], m[1]) for m in value]
    raise _Stop(f"turn {number}: moves {value!r} are not a list of [from, to]")


def _cache_problems(game: Game, value: GameValue) -> list[str]:
    """The game row against the end of the replay."""
    problems = []
    try:
        if game.board() != value.board:
            problems.append(
                f"position {game.position}, the replay gives {position_id(value.board)}"
            )
    except NotationError:
        problems.append(f"position {game.position!r} is no position")
    if value.result is None and game.state == GameState.RESIGNED and game.winner in (0, 1):
        value = value.resign(Side(game.winner).other)  # by either seat, at any moment
    elif value.result is None and game.state == GameState.ABANDONED:
        value = value.abandon()  # its table closed
    elif value.result is None and game.state in (GameState.TIMED_OUT, GameState.CANCELLED):
        value = value.time_out()  # the mover's clock ran out: which of the two is the replay's
    result = value.result
    expected = (
        (result.ending.value, result.winner, result.points, str(result.win_kind or ""))
        if result
        else (GameState.PLAYING, None, 0, "")
    )
    stored = (game.state, game.winner, game.points, game.win_kind)
    if stored != expected:
        problems.append(
            "state {}, winner {}, points {}, kind {!r}; "
            "the replay gives {}, winner {}, points {}, kind {!r}".format(*stored, *expected)
        )
    if game.turn_number != value.turn_number:
        problems.append(f"turn number {game.turn_number}, the replay gives {value.turn_number}")
    elif game.turn_number and game.dice != list(value.dice):
        problems.append(f"dice {game.dice} are not the seed's for turn {game.turn_number}")
    if game.state == GameState.PLAYING and value.result is None:
        problems += _pending_problems(game, value)
    return problems


def _pending_problems(game: Game, value: GameValue) -> list[str]:
    """A game being played: whose turn it is, and the moves sent so far."""
    if game.turn_seat != value.to_move:
        return [f"seat {game.turn_seat} is to move, the replay gives seat {value.to_move:d}"]
    try:
        if value.turn.play_all(_moves(game.pending, game.turn_number)).complete:
            return [f"the pending moves {game.pending} complete the turn but it was not ended"]
    except (_Stop, IllegalMoveError):
        return [f"the pending moves {game.pending} are not the start of a legal play"]
    return []
