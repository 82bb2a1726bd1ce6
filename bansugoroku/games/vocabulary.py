"""Every name and label players read, written once and translated here: the points, the
seats and the CPU, the states of a table, the kinds of win, and a position in words.

The pages, the texts handed to the table page's script (`front.texts`), the e-mails and
push notices, and the exports all name things through this module, so a player reads
the same words wherever they look ("CPU (Normal)" on the table page, in their tables,
in a game's history, in an export and in a notice).

The engine cannot import Django: it keeps the English names its own messages print (the
API's error details and the command line, `engine.names`) and numbers the points
(`point_place`); this module translates only the kinds of point it returns, so the
numbering lives in the engine alone.

The wins keep their Japanese names in every language, as the rules pages of each
language write them (iri-gachi, mushi-gachi, ...); Japanese writes them in kanji.

A CPU level's name is one entry in `_CPU_LEVELS`: the seat's name, the table page's
text and the new-table form's choices are all made from it.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from bansugoroku.games import shapes
from bansugoroku.games.models import CpuLevel, Seat, Table, TableState
from engine.names import PointKind, point_place
from engine.position import BAR, OFF
from engine.rules import WinKind

_POINT_KINDS: dict[PointKind, Promise] = {
    "In": _("In %(number)d"),
    "Out": _("Out %(number)d"),
    "their Out": _("their Out %(number)d"),
    "their In": _("their In %(number)d"),
}

THEIR_BAR = _("their bar")
THEIR_OFF = _("their stones off")
FREE_SEAT = _("(free seat)")

_CPU_LEVELS: dict[str, Promise] = {
    CpuLevel.EASY: _("Easy"),
    CpuLevel.NORMAL: _("Normal"),
    CpuLevel.HARD: _("Hard"),
}
"""Each `CpuLevel`'s name, the one place a level is named."""


def point_name(point: int) -> str:
    """A point named from the reader's side: In 1-6, Out 6-1, then the opponent's Out 1-6
    and In 6-1; 25 the bar, 0 off.

    >>> point_name(13)
    'their Out 1'
    """
    if point == BAR:
        return gettext("the bar")
    if point == OFF:
        return gettext("off")
    kind, number = point_place(point)
    return str(_POINT_KINDS[kind]) % {"number": number}


def numbered_point_name(point: int) -> str:
    """A point's name with its number as plays are written, for what is read out rather
    than seen on the board (where the number stands beside the name): "Out 3 (10)". The
    bar and off have no number of their own there.

    >>> numbered_point_name(10)
    'Out 3 (10)'
    """
    if point in (BAR, OFF):
        return point_name(point)
    return gettext("%(name)s (%(number)d)") % {"name": point_name(point), "number": point}


_NOTATION_WORDS: dict[str, Promise] = {
    "bar": pgettext_lazy("in a play's notation, like bar/22", "bar"),
    "off": pgettext_lazy("in a play's notation, like 6/off", "off"),
}
_NOTATION_WORD = re.compile(r"\b(bar|off)\b")


def play_text(notation: str) -> str:
    """A play's notation as players read it, `bar` and `off` in their language
    ("Bar/22 6/raus" in German). The API and the exports keep the machine's words."""
    return _NOTATION_WORD.sub(lambda word: str(_NOTATION_WORDS[word[1]]), notation)


def notation_read(text: str) -> str:
    """What a player wrote as a play, in the notation the engine reads: `play_text`'s
    words of the active language (or the English ones) back to `bar` and `off`, in any
    case, full-width digits and slashes folded (NFKC), as a Japanese keyboard types them.

    >>> notation_read("BAR/22 ６／OFF")
    'bar/22 6/off'
    """
    text = unicodedata.normalize("NFKC", text).lower()
    for word, said in _NOTATION_WORDS.items():
        text = text.replace(str(said).lower(), word)
    return text


def notation_words() -> dict[str, str]:
    """The same words for the table page's script, which writes the opponent's play."""
    return {f"notation_{word}": str(text) for word, text in _NOTATION_WORDS.items()}


def cpu_name(level: str) -> str:
    """The CPU at its level, as a seat's name: "CPU (Normal)"."""
    return gettext("CPU (%(level)s)") % {"level": _CPU_LEVELS[level]}


def _cpu_choice(level: str) -> str:
    return gettext("The CPU, %(level)s") % {"level": _CPU_LEVELS[level]}


def cpu_level_name(level: str) -> Promise:
    """A CPU level's own name ("Normal"), as the new-table form offers the levels."""
    return _CPU_LEVELS[level]


cpu_choice = lazy(_cpu_choice, str)
"""The CPU at its level as an opponent to choose: "The CPU, Normal". Lazy, for a form's
choices, which are made before any language is active."""


def seat_holder(seat: Seat) -> str | None:
    """Who holds a seat: the player's name, the CPU's, or None while it is free."""
    if seat.player is not None:
        return seat.player.name
    return cpu_name(seat.cpu) if seat.cpu else None


def seat_name(table: Table, seat: int, me: int) -> str:
    """Who sits at `seat`, said to the player at seat `me`."""
    if seat == me:
        return gettext("You")
    holder = seat_holder(table.seats.all()[seat])
    if holder is not None:
        return holder
    return gettext("Black") if seat == 0 else gettext("White")


def your_colour(seat: int) -> str:
    """Which colour the player at `seat` plays, as the table page says it."""
    return gettext("You play Black.") if seat == 0 else gettext("You play White.")


def table_status(state: str, your_turn: bool) -> str:
    """Where a table stands, in a few words, for the player's list of tables."""
    if your_turn:
        return gettext("Your turn")
    labels = {
        TableState.WAITING: _("Waiting for a player"),
        TableState.READY: _("Ready to start"),
        TableState.PLAYING: _("Their turn"),
        TableState.BETWEEN_GAMES: _("Between games"),
        TableState.CLOSED: _("Closed"),
    }
    return str(labels[TableState(state)])


def position_text(position: shapes.PositionJson) -> str:
    """The stones of a position in words, from the reader's side, for screen readers."""
    mine = [
        f"{numbered_point_name(point)}: {count}"
        for point, count in enumerate(position["points"], start=1)
        if count > 0
    ]
    theirs = [
        f"{numbered_point_name(point)}: {-count}"
        for point, count in enumerate(position["points"], start=1)
        if count < 0
    ]
    parts = [
        gettext("Your stones: %(points)s.") % {"points": ", ".join(mine) or "-"},
        gettext("Opponent's stones: %(points)s.") % {"points": ", ".join(theirs) or "-"},
    ]
    bar, off = position["bar"], position["off"]
    if bar[0] or bar[1]:
        parts.append(gettext("On the bar: yours %(mine)d, theirs %(theirs)d.") % _pair(bar))
    if off[0] or off[1]:
        parts.append(gettext("Borne off: yours %(mine)d, theirs %(theirs)d.") % _pair(off))
    return " ".join(parts)


def _pair(counts: list[int]) -> dict[str, int]:
    return {"mine": counts[0], "theirs": counts[1]}


WIN_NAMES: dict[WinKind, Promise] = {
    WinKind.IRI: _("iri-gachi"),
    WinKind.MUSHI: _("mushi-gachi"),
    WinKind.MUJO: _("mujō-gachi"),
    WinKind.MUJI: _("muji-gachi"),
    WinKind.BEAR_OFF: _("bearing off"),
}
"""Each board win by its old name, as the engine's result gives its kind: the history
page shows it, and the table page's script gets it with its texts (`front.texts`). A
resignation and a win on time have no name here: both pages tell each in a sentence of
its own, which says who resigned or ran out."""


def points_won(points: int) -> str:
    return ngettext("%(points)d point", "%(points)d points", points) % {"points": points}
