"""A game's exports, to download and keep: its whole event log as one JSON document, and
a match text in the style of Jellyfish .mat files for backgammon programs and people.

Like every read of the history, they are for a seated player
(`bansugoroku.games.history.game_for_player` finds the game). The seed is in them only
once the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from django.db.models import Sum

from bansugoroku.games import shapes
from bansugoroku.games.history import dice_secrets, turn_json
from bansugoroku.games.models import Game, GameState, Player, Seat, Turn
from bansugoroku.games.selectors import rules_json
from bansugoroku.games.store import seat_of
from bansugoroku.games.vocabulary import seat_holder
from bansugoroku.lib.site import site_url
from engine.side import Side

EXPORT_FORMAT: Final = "bansugoroku-game"
EXPORT_FORMAT_VERSION = 2
"""2: the turns' moves and positions are numbered from the side of `seen_from`, the
player who downloaded it (1: moves from the mover's side, position ids from Black's)."""
_COLUMN = 32
"""Width of the first seat's column in a .mat turn line, as Jellyfish writes it."""


def game_export(game: Game, player: Player) -> shapes.GameExport:
    """The whole event log of a game as one JSON document, enough to replay and verify it,
    its turns seen from the side of `player`, who sits at the table (`seen_from`)."""
    table = game.table
    me = seat_of(table, player).side
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "table": table.code,
        "seen_from": me,
        "rules": rules_json(table.rules),
        "seats": [
            {
                "seat": seat.number,
                "color": seat.color,
                "name": seat.player.name if seat.player else None,
                "cpu": seat.cpu or None,
                "entropy": game.entropy[seat.number],
            }
            for seat in table.seats.all()
        ],
        "game": game.number,
        "state": game.state,
        "starter": game.starter,
        "started_at": game.started_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        **dice_secrets(game),
        "turns": [turn_json(turn, me) for turn in game.turns.all()],
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
        ("Site", site_url()),
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


def _result(game: Game) -> shapes.ExportResult | None:
    if not game.is_over:
        return None
    return {
        "kind": game.state,
        "winner_seat": game.winner,
        "points": game.points,
        "win_kind": game.win_kind or None,
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
    name = seat_holder(seat) or "nobody"
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
        cancelled = game.state == GameState.CANCELLED
        return "      Cancelled on time, no result" if cancelled else "      Abandoned, no result"
    columns = ["", ""]
    columns[game.winner] = f"Wins {game.points} point{'s' if game.points > 1 else ''}"
    if game.state == GameState.RESIGNED:
        columns[Side(game.winner).other] = "Resigns"
    elif game.state == GameState.TIMED_OUT:
        columns[Side(game.winner).other] = "Loses on time"
    return f"      {columns[0].ljust(_COLUMN)}{columns[1]}"  # Jellyfish indents it by one
