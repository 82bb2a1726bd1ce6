"""Reads of finished and running games: the games at a table, one game's turns, the
check of its dice and its review. Its exports to download are in
`bansugoroku.games.exports`.

Every read is for a seated player (`bansugoroku.games.selectors.table_for_player`
decides). A game's seed stays secret while the game is playing: only its SHA-256 is
shown, and the dice cannot be checked until the end.
"""

from __future__ import annotations

from django.db.models import Count

from bansugoroku.games import shapes
from bansugoroku.games.errors import GameInProgress, GameNotFound, NoReview, ReviewPending
from bansugoroku.games.models import (
    SEAT_COLORS,
    ClosedReason,
    Game,
    GameReview,
    GameState,
    Player,
    Table,
    Turn,
)
from bansugoroku.games.payloads import HardPlay, ReviewedPlay
from bansugoroku.games.selectors import dice_name, position_json, table_for_player
from bansugoroku.games.store import seat_of
from engine.dice import derived_dice, seed_commitment
from engine.notation import parse_position_id
from engine.side import Side

RECIPE = (
    "1. Check that the SHA-256 of the seed (its 32 bytes, written here in hex) is "
    "seed_sha256, published at table version seed_published_at_version, before either "
    "seat gave its entropy (each entropy's given_at_version is later, or null: none "
    'given, counted as ""). '
    '2. Each roll has a label: the turn number ("1", "2", ...), or "opening-1", '
    '"opening-2", ... for the rolls that decide who starts. The message is the label, '
    "Black's entropy and White's entropy, each written as the length of its UTF-8 bytes "
    "in 4 bytes, big-endian, followed by those bytes. Compute HMAC-SHA256 of the message "
    "keyed with the seed. "
    "3. Read the 32 bytes of the digest in order, skip any byte of 252 or more, and turn "
    "the first two others into the dice: die = byte % 6 + 1. In an opening roll the "
    "first die is Black's, the second White's."
)
"""How anyone recomputes a game's dice once its seed is revealed (engine.dice.derived_dice)."""


def game_for_player(*, code: str, player: Player, number: int) -> Game:
    """Game `number` of the caller's table, or TableNotFound / GameNotFound."""
    table = table_for_player(code=code, player=player)
    game = table.games.filter(number=number).first()  # game.table is `table`, seats loaded
    if game is None:
        raise GameNotFound(f"table {table.code} has no game {number}")
    return game


def game_summaries(table: Table) -> list[shapes.GameSummary]:
    """Every game at the table, first to last, in one query."""
    games = table.games.annotate(turn_count=Count("turns")).order_by("number")
    return [_summary(game, game.turn_count) for game in games]


def game_history(game: Game, player: Player) -> shapes.GameHistory:
    """The game and every turn of it, seen from the side of `player`, who sits at its
    table; the seed only once the game is over."""
    me = seat_of(game.table, player).side
    turns = list(game.turns.all())
    return {
        "table": game.table.code,
        **_summary(game, len(turns)),
        **dice_secrets(game),
        "turns": [turn_json(turn, me) for turn in turns],
    }


def dice_verification(game: Game) -> shapes.DiceVerification:
    """Every recorded roll beside the roll the revealed seed gives; only for a game over."""
    if not game.is_over:
        raise GameInProgress("the dice seed stays secret until the game ends; check the dice then")
    seed = bytes(game.seed)
    entropy = game.entropy
    rolls = [
        _check(seed, entropy, f"opening-{index}", None, recorded)
        for index, recorded in enumerate(game.opening_rolls, start=1)
    ] + [
        _check(seed, entropy, str(turn.number), turn.number, turn.dice) for turn in game.turns.all()
    ]
    commitment = seed_commitment(seed) == game.seed_hash
    given = [game.black_entropy_version, game.white_entropy_version]
    before = all(version is None or version > game.seed_version for version in given)
    return {
        "table": game.table.code,
        "game": game.number,
        "seed": seed.hex(),
        "seed_sha256": game.seed_hash,
        "seed_published_at_version": game.seed_version,
        "commitment_matches": commitment,
        "committed_before_entropy": before,
        "entropy": {
            "black": {"value": entropy[0], "given_at_version": given[0]},
            "white": {"value": entropy[1], "given_at_version": given[1]},
        },
        "recipe": RECIPE,
        "rolls": rolls,
        "all_match": commitment and before and all(roll["matches"] for roll in rolls),
    }


def game_review(game: Game, player: Player) -> shapes.GameReviewJson:
    """The game's plays beside Hard's, seen from the side of `player`, who sits at its
    table; GameInProgress while it is played, ReviewPending until the worker stored it,
    NoReview for a game the idle close abandoned, which is never reviewed."""
    if not game.is_over:
        raise GameInProgress("a game is reviewed once it is over")
    found = GameReview.objects.filter(game=game).first()
    idle = game.table.closed_reason == ClosedReason.IDLE
    if found is None and game.state == GameState.ABANDONED and idle:
        raise NoReview("the game was abandoned when its table stood idle: it has no review")
    if found is None:
        raise ReviewPending("the game is being reviewed: ask again in a few seconds")
    me = seat_of(game.table, player).side
    return {
        "table": game.table.code,
        "game": game.number,
        "reviewed_at": found.created_at.isoformat(),
        "marked_loss": GameReview.MARK_LOSS,
        "plays": [_reviewed(play, me) for play in found.plays],
    }


def _reviewed(play: ReviewedPlay, me: Side) -> shapes.ReviewedPlay:
    mover = Side(play["seat"])
    return {
        "turn": play["turn"],
        "seat": play["seat"],
        "color": SEAT_COLORS[play["seat"]],
        "dice": play["dice"],
        "moves": [list(move) for move in me.sees_moves(mover, play["moves"])],
        "notation": play["notation"],
        "position_after": position_json(me.sees(parse_position_id(play["position_after"]))),
        "equity": play["equity"],
        "loss": play["loss"],
        "marked": play["marked"],
        "best": _hard(play["best"], mover, me),
    }


def _hard(play: HardPlay, mover: Side, me: Side) -> shapes.HardPlay:
    return {
        "moves": [list(move) for move in me.sees_moves(mover, play["moves"])],
        "notation": play["notation"],
        "equity": play["equity"],
        "position_after": position_json(me.sees(parse_position_id(play["position_after"]))),
    }


def _summary(game: Game, turn_count: int) -> shapes.GameSummary:
    return {
        "number": game.number,
        "state": game.state,
        "starter": game.starter,
        "winner_seat": game.winner,
        "points": game.points,
        "win_kind": game.win_kind or None,
        "turn_count": turn_count,
        "started_at": game.started_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
    }


def dice_secrets(game: Game) -> shapes.DiceSecrets:
    """The opening rolls, the seed's commitment, and the seed itself once it may be known."""
    return {
        "opening_rolls": game.opening_rolls,
        "seed_sha256": game.seed_hash,
        "seed": bytes(game.seed).hex() if game.is_over else None,
    }


def turn_json(turn: Turn, me: Side) -> shapes.HistoryTurn:
    """One turn of the history from side `me`, as a game's history and its JSON export
    show it: its moves and the position after it numbered as the table state numbers
    them, whoever moved; the notation in the mover's own numbering."""
    dice = (turn.dice[0], turn.dice[1])
    return {
        "number": turn.number,
        "seat": turn.seat,
        "color": SEAT_COLORS[turn.seat],
        "dice": list(dice),
        "dice_name": dice_name(dice),
        "moves": [list(move) for move in me.sees_moves(Side(turn.seat), turn.moves)],
        "notation": turn.notation,
        "hit": turn.hit,
        "position_after": position_json(me.sees(parse_position_id(turn.position_after))),
        "position_after_id_black": turn.position_after,
        "points": turn.points,
        "created_at": turn.created_at.isoformat(),
    }


def _check(
    seed: bytes, entropy: tuple[str, str], label: str, turn: int | None, recorded: list[int]
) -> shapes.RollCheck:
    derived = derived_dice(seed, entropy, label)
    return {
        "label": label,
        "turn": turn,
        "recorded": list(recorded),
        "derived": derived,
        "matches": list(recorded) == derived,
    }
