"""How the pages name things in the reader's language: the points, the seats, a
position told in words for screen readers, and the wins by their old names.

The wins keep their Japanese names in every language, as the rules pages of each
language write them (iri-gachi, mushi-gachi, ...); Japanese writes them in kanji.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bansugoroku.games import shapes
from bansugoroku.games.models import Game, Table
from engine.rules import Finish, Muji
from engine.side import Side


def point_name(point: int) -> str:
    """A point named from the reader's side: In 1-6, Out 6-1, then the opponent's Out 1-6
    and In 6-1 (as engine.names names them, translated)."""
    if point <= 6:
        return _("In %(number)d") % {"number": point}
    if point <= 12:
        return _("Out %(number)d") % {"number": 13 - point}
    if point <= 18:
        return _("their Out %(number)d") % {"number": point - 12}
    return _("their In %(number)d") % {"number": 25 - point}


def seat_name(table: Table, seat: int, me: int) -> str:
    """Who sits at `seat`, said to the player at seat `me`."""
    if seat == me:
        return _("You")
    other = table.seats.all()[seat]
    if other.player is not None:
        return other.player.name
    if other.cpu:
        return cpu_name(other.cpu)
    return _("Black") if seat == 0 else _("White")


def cpu_name(level: str) -> str:
    """The CPU with its level, as a seat's name."""
    levels = {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")}
    return _("CPU (%(level)s)") % {"level": levels[level]}


def position_text(position: shapes.Position) -> str:
    """The stones of a position in words, from the reader's side, for screen readers."""
    mine = [
        f"{point_name(point)}: {count}"
        for point, count in enumerate(position["points"], start=1)
        if count > 0
    ]
    theirs = [
        f"{point_name(point)}: {-count}"
        for point, count in enumerate(position["points"], start=1)
        if count < 0
    ]
    parts = [
        _("Your stones: %(points)s.") % {"points": ", ".join(mine) or "-"},
        _("Opponent's stones: %(points)s.") % {"points": ", ".join(theirs) or "-"},
    ]
    bar, off = position["bar"], position["off"]
    if bar[0] or bar[1]:
        parts.append(_("On the bar: yours %(mine)d, theirs %(theirs)d.") % _pair(bar))
    if off[0] or off[1]:
        parts.append(_("Borne off: yours %(mine)d, theirs %(theirs)d.") % _pair(off))
    return " ".join(parts)


def _pair(counts: list[int]) -> dict[str, int]:
    return {"mine": counts[0], "theirs": counts[1]}


def win_name(game: Game, table: Table) -> str:
    """The name of a game's win: 3 points is mujō-gachi, 2 mushi-gachi; a win of 1 made
    with stones still outside home is muji-gachi (on the spot), else iri-gachi, or a
    bearing-off win under that house rule."""
    if game.points == 3:
        return _("mujō-gachi")
    if game.points == 2:
        return _("mushi-gachi")
    if table.rules.muji == Muji.ON_THE_SPOT and game.winner is not None:
        seen = Side(game.winner).sees(game.board())
        if any(count > 0 for count in seen.points[6:]) or seen.bar[0]:
            return _("muji-gachi")
    if table.rules.finish == Finish.BEAR_OFF:
        return _("bearing off")
    return _("iri-gachi")


def points_won(points: int) -> str:
    return ngettext("%(points)d point", "%(points)d points", points) % {"points": points}
