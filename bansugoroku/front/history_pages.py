"""The pages of a table's past: its games, and one game turn by turn with a replay and,
once it is over, its review.

Only the table's players see them, and a stranger gets the same 404 as for a table that
does not exist, as in the API, so codes can't be found by trying. The pages read what
the API's history reads (`bansugoroku.games.history`). A player's page shows anyone the
same replay of their public games (`replay`, `profile_pages`).
"""

from __future__ import annotations

from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import json_script
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from bansugoroku.front import board
from bansugoroku.front.identity import current_player
from bansugoroku.games import history, shapes
from bansugoroku.games.errors import GameNotFound, NoReview, ReviewPending, TableNotFound
from bansugoroku.games.models import Game, Player, Table
from bansugoroku.games.selectors import position_json, table_for_player
from bansugoroku.games.store import seat_of
from bansugoroku.games.vocabulary import WIN_NAMES, play_text, points_won, position_text, seat_name
from engine.position import Position
from engine.rules import WinKind

Names = list[str]
"""Who sits at each seat, Black's then White's, as the page calls them."""


class CompactJSON(DjangoJSONEncoder):
    """JSON without the blanks after commas and colons, for the replay's positions."""

    item_separator, key_separator = ",", ":"


def _player(request: HttpRequest) -> Player:
    player = current_player(request)
    if player is None:
        raise Http404("no player")
    return player


def _seated(request: HttpRequest, code: str) -> tuple[Player, Table]:
    player = _player(request)
    try:
        return player, table_for_player(code=code, player=player)
    except TableNotFound:
        raise Http404("no such table") from None


@require_safe
def games(request: HttpRequest, code: str) -> HttpResponse:
    """Every game at the table, with its result."""
    player, table = _seated(request, code)
    names = _seat_names(table, seat_of(table, player).number)
    rows = [
        {**summary, "result": _result(summary, names)} for summary in history.game_summaries(table)
    ]
    return render(request, "front/games.html", {"table": table, "games": rows})


@require_safe
def game(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """One game at the viewer's table, with the exports of its seats."""
    player = _player(request)
    try:
        found = history.game_for_player(code=code, player=player, number=number)
    except (TableNotFound, GameNotFound):
        raise Http404("no such game") from None
    return replay(request, found, player)


def replay(
    request: HttpRequest, found: Game, player: Player, *, public: bool = False
) -> HttpResponse:
    """One game turn by turn, a replay of its board and, once it is over, the check of
    its dice and its review, from the side of `player`, who sits at its table. `public`
    for anyone reading that player's page: the seats by their names, not "You", and
    without the seats' own downloads, which the API keeps for them."""
    table = found.table  # with its seats and players, loaded once
    seen = history.game_history(found, player)
    me = seat_of(table, player).number
    names = _seat_names(table, None if public else me)
    colors = (me, 1 - me)
    positions = [position_json(Position.start())] + [t["position_after"] for t in seen["turns"]]
    titles = [_("The start")] + [_turn_title(turn, names) for turn in seen["turns"]]
    frames = [_frame(title, at, colors) for title, at in zip(titles, positions, strict=True)]
    end = positions[-1]
    context = {
        "table": table,
        "game": seen,
        "owner": player if public else None,
        "result": _result(seen, names),
        "win_name": WIN_NAMES.get(WinKind(seen["win_kind"])) if seen["win_kind"] else None,
        "turns": [_turn_row(turn, me, names) for turn in seen["turns"]],
        "frames": json_script(frames, "replay-frames", encoder=CompactJSON),
        "last": frames[-1],
        "board": board.board(end["points"], end["bar"], end["off"], colors),
        "dice": history.dice_verification(found) if found.is_over else None,
        "review": _review(found, player, colors, names) if found.is_over else None,
    }
    return render(request, "front/game.html", context)


def _seat_names(table: Table, me: int | None) -> Names:
    """The seats as the player at seat `me` reads them ("You"), or anyone (None) a
    public game, whose seats are both players'."""
    if me is None:
        return [seat.player.name for seat in table.seats.all() if seat.player]
    return [seat_name(table, seat, me) for seat in (0, 1)]


def _review(
    found: Game, player: Player, colors: tuple[int, int], names: Names
) -> dict[str, Any] | None:
    """Each person's plays with their loss against Hard, grouped by seat; the marked ones
    with both boards, the play made and Hard's, drawn side by side. `pending` until the
    worker has stored the review; none for a game never reviewed."""
    try:
        review = history.game_review(found, player)
    except ReviewPending:
        return {"pending": True}
    except NoReview:
        return None
    seats = [
        {
            "who": names[seat],
            "plays": [_reviewed(play, colors) for play in review["plays"] if play["seat"] == seat],
        }
        for seat in sorted({play["seat"] for play in review["plays"]})
    ]
    return {"pending": False, "seats": seats, "marked_loss": review["marked_loss"]}


def _reviewed(play: shapes.ReviewedPlay, colors: tuple[int, int]) -> dict[str, Any]:
    row: dict[str, Any] = dict(play)
    row["notation"] = play_text(play["notation"])
    row["best"] = {**play["best"], "notation": play_text(play["best"]["notation"])}
    if play["marked"]:
        for key, position in (
            ("board", play["position_after"]),
            ("hard_board", play["best"]["position_after"]),
        ):
            row[key] = board.board(position["points"], position["bar"], position["off"], colors)
            row[key + "_text"] = position_text(position)
    return row


def _frame(title: str, position: shapes.PositionJson, colors: tuple[int, int]) -> dict[str, Any]:
    """One step of the replay: its title, the stones to draw as flat lists (`x, y,
    colour, x, y, colour, ...` and `x, y, text, ...`) and their text alternative. Flat
    lists in compact JSON took a 107-turn game's page from 165 KB to 74 KB."""
    stones = board.stones(position["points"], position["bar"], position["off"], colors)
    return {
        "title": title,
        "text": position_text(position),
        "circles": [value for circle in stones["circles"] for value in circle],
        "counts": [value for count in stones["counts"] for value in count],
    }


def _turn_title(turn: shapes.HistoryTurn, names: Names) -> str:
    return _("Turn %(number)d: %(who)s, %(dice)s %(name)s, %(play)s") % {
        "number": turn["number"],
        "who": names[turn["seat"]],
        "dice": "-".join(map(str, turn["dice"])),
        "name": turn["dice_name"]["kanji"],
        "play": play_text(turn["notation"]) if turn["moves"] else _("pass"),
    }


def _turn_row(turn: shapes.HistoryTurn, me: int, names: Names) -> dict[str, Any]:
    return {
        **turn,
        "notation": play_text(turn["notation"]),
        "who": names[turn["seat"]],
        "mine": turn["seat"] == me,
        "passed": not turn["moves"],
    }


def _result(summary: shapes.GameSummary, names: Names) -> str:
    """The game's outcome in a few words, for the viewer."""
    if summary["state"] == "playing":
        return _("Playing")
    if summary["state"] == "cancelled":
        return _("Cancelled on time, with no winner")
    if summary["winner_seat"] is None:
        return _("Ended with no winner")
    values = {
        "who": names[summary["winner_seat"]],
        "points": points_won(summary["points"]),
    }
    if summary["state"] == "resigned":
        return _("%(who)s won by resignation: %(points)s") % values
    if summary["state"] == "timed_out":
        return _("%(who)s won on time: %(points)s") % values
    return _("%(who)s won: %(points)s") % values
