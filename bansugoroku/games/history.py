"""Reads of finished and running games: the games at a table, one game's turns, its
export (JSON and a Jellyfish-style .mat text) and the check of its dice.

Every read is for a seated player (`bansugoroku.games.selectors.table_for_player` decides).
A game's seed stays secret while the game is playing: only its SHA-256 is shown, and
the dice cannot be checked until the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Count, Sum

from bansugoroku.games.errors import GameInProgress, GameNotFound
from bansugoroku.games.models import SEAT_COLORS, Game, GameState, Player, Seat, Table, Turn
from bansugoroku.games.selectors import dice_name, table_for_player
from engine.dice import derived_dice, seed_commitment

EXPORT_FORMAT = "bansugoroku-game"
EXPORT_FORMAT_VERSION = 1
_COLUMN = 32
"""Width of the first seat's column in a .mat turn line, as Jellyfish writes it."""

RECIPE = (
    "1. Check that the SHA-256 of the seed (its 32 bytes, written here in hex) is "
    "seed_sha256, published when the game began. "
    '2. Each roll has a label: the turn number ("1", "2", ...), or "opening-1", '
    '"opening-2", ... for the rolls that decide who starts. Compute HMAC-SHA256 keyed '
    "with the seed over the compact JSON array [label, black entropy, white entropy], "
    'with no spaces, for example ["1","abc",""] (Python: json.dumps([...], '
    'separators=(",", ":")), which writes non-ASCII characters as \\u escapes). '
    "3. Read the 32 bytes of the digest in order, skip any byte of 252 or more, and turn "
    "the first two others into the dice: die = byte % 6 + 1. In an opening roll the "
    "first die is Black's, the second White's."
)
"""How anyone recomputes a game's dice once its seed is revealed (engine.dice.derived_dice)."""


def game_for_player(*, code: str, player: Player, number: int) -> Game:
    """Game `number` of the caller's table, or TableNotFound / NotAPlayer / GameNotFound."""
    table = table_for_player(code=code, player=player)
    game = table.games.filter(number=number).first()  # game.table is `table`, seats loaded
    if game is None:
        raise GameNotFound(f"table {table.code} has no game {number}")
    return game


def game_summaries(table: Table) -> list[dict[str, Any]]:
    """Every game at the table, first to last, in one query."""
    games = table.games.annotate(turn_count=Count("turns")).order_by("number")
    return [_summary(game, game.turn_count) for game in games]


def game_history(game: Game) -> dict[str, Any]:
    """The game and every turn of it; the seed only once the game is over."""
    turns = list(game.turns.all())
    return (
        {"table": game.table.code}
        | _summary(game, len(turns))
        | _secrets(game)
        | {"turns": [_turn(turn) for turn in turns]}
    )


def game_export(game: Game) -> dict[str, Any]:
    """The whole event log of a game as one JSON document, enough to replay and verify it."""
    table = game.table
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "table": table.code,
        "rules": table.rules.to_json(),
        "seats": [
            {
                "seat": seat.number,
                "color": seat.color,
                "name": seat.player.name if seat.player else None,
                "cpu": seat.cpu or None,
                "entropy": seat.entropy,
            }
            for seat in table.seats.all()
        ],
        "game": game.number,
        "state": game.state,
        "starter": game.starter,
        "started_at": game.started_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        **_secrets(game),
        "turns": [_turn(turn) for turn in game.turns.all()],
        "result": _result(game),
    }


def export_filename(game: Game, extension: str) -> str:
    return f"bansugoroku-{game.table.code}-game-{game.number}.{extension}"


def game_export_mat(game: Game) -> str:
    """The game as a match text in the spirit of the Jellyfish .mat format.

    Backgammon programs read .mat files; this one follows their layout so a person who
    knows them reads it at a glance: a header of `; [Key "value"]` lines, ` 0 point
    match` (a table is an open series of games, as a money session is), ` Game N`, the
    two players with the table score before the game, then one numbered line per pair
    of turns, the first seat (Black) on the left and the second (White) on the right,
    each turn written `roll: from/to ...` in the mover's own numbering (25 the bar,
    0 borne off) with `*` after a move that hits, and a last `Wins N point(s)` line in
    the winner's column.

    Where it departs from Jellyfish, because Ban-sugoroku does:
    - `; [Variation "Ban-sugoroku"]` and a `; [Rules ...]` line name the house rules;
      backgammon programs cannot analyse the game, only show it.
    - Doubles move twice, not four times: `33: 13/10 10/7` is a whole play.
    - There is no doubling cube (`; [CubeLimit "1"]`) and no gammon; a win is worth 1, 2
      or 3 by the muji rules, and under iri-gachi a game ends with no stone borne off.
    - A roll with no legal move is written as the roll alone (`52:`), as Jellyfish writes
      a dance; a play that wins may use one die only, because a win ends the turn.
    - The dice are written in the order they were rolled, and the seed commitment and
      (once the game is over) the seed are in the header, so the dice can be checked.
    - A resignation is written `Resigns` in the loser's column; an abandoned game ends
      with `Abandoned, no result`; a game still playing has no result line.
    """
    table = game.table
    seats = list(table.seats.all())
    names = [_mat_name(seat) for seat in seats]
    before = _score_before(game)
    started = game.started_at
    header = [
        ("Site", settings.SITE_URL),
        ("Match ID", f"{table.code}-{game.number}"),
        ("Player 1", names[0]),
        ("Player 2", names[1]),
        ("EventDate", started.strftime("%Y.%m.%d")),
        ("EventTime", started.strftime("%H.%M")),
        ("Variation", "Ban-sugoroku"),
        ("Rules", " ".join(f"{k}={v}" for k, v in table.rules.to_json().items())),
        ("Unrated", "On"),
        ("CubeLimit", "1"),
        ("Seed SHA-256", game.seed_hash),
    ]
    if game.is_over:
        header.append(("Seed", bytes(game.seed).hex()))
    if game.opening_rolls:
        rolls = ", ".join(f"{black}-{white}" for black, white in game.opening_rolls)
        header.append(("Opening rolls", f"{rolls} (Black-White)"))
    lines = [f'; [{key} "{value}"]' for key, value in header]
    lines += ["", " 0 point match", "", f" Game {game.number}"]
    lines.append(f" {names[0]} : {before[0]} ".ljust(_COLUMN + 5) + f"{names[1]} : {before[1]}")
    lines += _mat_turn_lines(game.turns.all(), game.starter)
    result = _mat_result(game)
    if result:
        lines.append(result)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def dice_verification(game: Game) -> dict[str, Any]:
    """Every recorded roll beside the roll the revealed seed gives; only for a game over."""
    if not game.is_over:
        raise GameInProgress("the dice seed stays secret until the game ends; check the dice then")
    seed = bytes(game.seed)
    entropy = game.table.entropy
    rolls = [
        _check(seed, entropy, f"opening-{index}", None, recorded)
        for index, recorded in enumerate(game.opening_rolls, start=1)
    ] + [
        _check(seed, entropy, str(turn.number), turn.number, turn.dice) for turn in game.turns.all()
    ]
    commitment = seed_commitment(seed) == game.seed_hash
    return {
        "table": game.table.code,
        "game": game.number,
        "seed": seed.hex(),
        "seed_sha256": game.seed_hash,
        "commitment_matches": commitment,
        "entropy": {"black": entropy[0], "white": entropy[1]},
        "recipe": RECIPE,
        "rolls": rolls,
        "all_match": commitment and all(roll["matches"] for roll in rolls),
    }


def _summary(game: Game, turn_count: int) -> dict[str, Any]:
    return {
        "number": game.number,
        "state": game.state,
        "starter": game.starter,
        "winner_seat": game.winner,
        "points": game.points,
        "turn_count": turn_count,
        "started_at": game.started_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
    }


def _secrets(game: Game) -> dict[str, Any]:
    """The opening rolls, the seed's commitment, and the seed itself once it may be known."""
    return {
        "opening_rolls": game.opening_rolls,
        "seed_sha256": game.seed_hash,
        "seed": bytes(game.seed).hex() if game.is_over else None,
    }


def _turn(turn: Turn) -> dict[str, Any]:
    dice = (turn.dice[0], turn.dice[1])
    return {
        "number": turn.number,
        "seat": turn.seat,
        "color": SEAT_COLORS[turn.seat],
        "dice": list(dice),
        "dice_name": dice_name(dice),
        "moves": [list(move) for move in turn.moves],
        "notation": turn.notation,
        "hit": turn.hit,
        "position_after": turn.position_after,
        "points": turn.points,
        "created_at": turn.created_at.isoformat(),
    }


def _result(game: Game) -> dict[str, Any] | None:
    if not game.is_over:
        return None
    return {"kind": game.state, "winner_seat": game.winner, "points": game.points}


def _check(
    seed: bytes, entropy: tuple[str, str], label: str, turn: int | None, recorded: list[int]
) -> dict[str, Any]:
    derived = derived_dice(seed, entropy, label)
    return {
        "label": label,
        "turn": turn,
        "recorded": list(recorded),
        "derived": derived,
        "matches": list(recorded) == derived,
    }


def _score_before(game: Game) -> tuple[int, int]:
    """The table score when the game began: the points of earlier games."""
    won = dict(
        game.table.games.filter(number__lt=game.number, winner__isnull=False)
        .values_list("winner")
        .annotate(total=Sum("points"))
    )
    return won.get(0, 0), won.get(1, 0)


def _mat_name(seat: Seat) -> str:
    name = seat.player.name if seat.player else f"CPU ({seat.cpu})" if seat.cpu else "nobody"
    return " ".join(name.replace('"', "'").split()) or "?"


_BAR_OR_OFF = re.compile(r"\bbar\b|\boff\b")


def _mat_play(turn: Turn) -> str:
    """`31: 8/5 6/5*`: the roll, then the stored notation with the bar as 25 and off as 0."""
    moves = "" if not turn.moves else turn.notation
    moves = _BAR_OR_OFF.sub(lambda m: "25" if m[0] == "bar" else "0", moves)
    return f"{turn.dice[0]}{turn.dice[1]}: {moves}".rstrip()


def _mat_turn_lines(turns: Iterable[Turn], starter: int) -> list[str]:
    """One numbered line per pair of turns: the first seat's on the left."""
    rows: dict[int, list[str]] = {}
    for turn in turns:
        slot = turn.number - 1 + starter  # seats alternate, passes included
        rows.setdefault(slot // 2 + 1, ["", ""])[turn.seat] = _mat_play(turn)
    return [f"{number:3d}) {left.ljust(_COLUMN)}{right}" for number, (left, right) in rows.items()]


def _mat_result(game: Game) -> str | None:
    if game.state == GameState.PLAYING:
        return None
    if game.winner is None:
        return "      Abandoned, no result"
    columns = ["", ""]
    columns[game.winner] = f"Wins {game.points} point{'s' if game.points > 1 else ''}"
    if game.state == GameState.RESIGNED:
        columns[1 - game.winner] = "Resigns"
    return f"      {columns[0].ljust(_COLUMN)}{columns[1]}"  # Jellyfish indents it by one
