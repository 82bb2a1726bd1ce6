"""The board drawn inside a "your turn" e-mail, from the reader's side, so they can choose
their move from the mail alone: as HTML for the mail's HTML part and as monospaced text
for its plain part.

Both follow the site's one layout (`bansugoroku.front.board`): the board upright, the
reader's side in the right column, point 12 at the top down to point 1 at the bottom,
the opponent's in the left one, 13 at the top down to 24; the bar across the middle and
the stones borne off below, the reader's on the right. Each point carries its number by
the gutter, beside its name, and its stones start at the column's outer edge.

Mail clients are not browsers: Gmail drops SVG and `<style>` blocks, Outlook lays out
with a word processor. So the HTML is tables with inline styles (and `bgcolor` for
Outlook), no classes, images or links, and the stones are discs of text: black with a
light rim, white with a dark one, so each stands out on either shade and in a dark mode.
At most `SHOWN` stones are drawn on a place, then the count, so a row never grows
wider than a 320 px phone. Both take the arguments of `bansugoroku.front.board.stones`
and speak the active language: the caller wraps them in `translation.override`.
"""

from __future__ import annotations

import unicodedata

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from bansugoroku.games.vocabulary import THEIR_BAR, THEIR_OFF, point_name
from engine.position import BAR, OFF

SHOWN = 5
"""Stones drawn on one place; past that, the count follows them."""

# The site's board palette (front/static/front/site.css).
WOOD = "#c99b5c"
GUTTER = "#5a3318"
TRAY = "#b8894d"
OWN_TRAY = "#d8b27a"
SHADES = ("#ecd8ae", "#7b3f1d")  # the points' alternating light and dark, by number's parity
INK = "#3b2414"
OUTLINE = "#2b2118"
BLACK = "#1f1b17"
WHITE = "#faf5ea"

MARKS = ("X", "O")
"""The text board's letters: the reader's stones, then the opponent's."""
COLUMN = 27
"""A text column's width in characters: two and the gutter make 57, under 60."""
NUMBERS = 2


def _legend(colors: tuple[int, int]) -> str:
    """Which mark is whose, `%(mine)s` and `%(theirs)s` left to fill."""
    if colors[0] == 0:
        return gettext("%(mine)s: your stones (black), %(theirs)s: your opponent's (white)")
    return gettext("%(mine)s: your stones (white), %(theirs)s: your opponent's (black)")


def _rows() -> list[tuple[int, int] | None]:
    """The board's rows from the top, each a pair (left point, right point); None is
    the bar across the middle."""
    upper: list[tuple[int, int] | None] = [(13 + row, 12 - row) for row in range(6)]
    lower: list[tuple[int, int] | None] = [(19 + row, 6 - row) for row in range(6)]
    return [*upper, None, *lower]


def _stones_on(points: list[int], point: int) -> tuple[int, int]:
    """A point's stones: how many, and whose (0 the reader's, 1 the opponent's)."""
    count = points[point - 1]
    return abs(count), 0 if count >= 0 else 1


# The HTML board.

_FONT = "font-family:Arial,Helvetica,sans-serif"


def _stone(color: int) -> str:
    """A disc with a rim that stands out on either shade of point; inside, a ● of the
    disc's own colour, which is all Outlook draws, on a square of that colour."""
    fill, rim = (BLACK, SHADES[0]) if color == 0 else (WHITE, OUTLINE)
    return (
        f'<span style="display:inline-block;width:16px;height:16px;line-height:16px;'
        f"border:1px solid {rim};border-radius:9px;background-color:{fill};color:{fill};"
        f'font-size:12px;text-align:center;vertical-align:middle;margin:0 1px">&#9679;</span>'
    )


def _stack(count: int, color: int, *, right: bool, ink: str = INK) -> str:
    """The stones from the outer edge (the right one in the right column), the count
    after the last of them when more than `SHOWN`, in `ink` to stand out on the band."""
    drawn = "".join(_stone(color) for _ in range(min(count, SHOWN)))
    if count > SHOWN:
        number = f'<b style="{_FONT};font-size:13px;color:{ink};padding:0 3px">{count}</b>'
        drawn = number + drawn if right else drawn + number
    return drawn or "&nbsp;"


def _place(stack: str, label: str, *, right: bool, shade: str, ground: str) -> str:
    """One column's cell: the stones on a band from the outer edge, pointing to the
    gutter, and the label under it, by the gutter."""
    outer, inner = ("right", "left") if right else ("left", "right")
    tip = "border-radius:14px 0 0 14px" if right else "border-radius:0 14px 14px 0"
    return (
        f'<td width="50%" bgcolor="{ground}" valign="top" style="background-color:{ground};'
        f'width:50%;padding:3px 0 2px;vertical-align:top">'
        f'<div style="background-color:{shade};{tip};margin-{inner}:10px;'
        f"padding:0 5px;height:22px;line-height:22px;text-align:{outer};white-space:nowrap;"
        f'overflow:hidden">{stack}</div>'
        f'<div style="{_FONT};font-size:12px;line-height:15px;color:{INK};'
        f'padding:1px 6px 0;text-align:{inner}">{label}</div></td>'
    )


def _point(points: list[int], point: int, colors: tuple[int, int]) -> str:
    right = point <= 12
    number = f"<b>{point}</b>"
    name = conditional_escape(point_name(point))
    label = f"{number} {name}" if right else f"{name} {number}"
    count, side = _stones_on(points, point)
    shade = point % 2
    return _place(
        _stack(count, colors[side], right=right, ink=WHITE if shade else INK),
        label,
        right=right,
        shade=SHADES[shade],
        ground=WOOD,
    )


def _tray(count: int, color: int, name: str, *, right: bool) -> str:
    ground = OWN_TRAY if right else TRAY
    return _place(
        _stack(count, color, right=right),
        conditional_escape(name),
        right=right,
        shade=ground,
        ground=ground,
    )


def _gutter() -> str:
    return f'<td width="6" bgcolor="{GUTTER}" style="background-color:{GUTTER};width:6px"></td>'


def html_board(
    points: list[int], bar: list[int], off: list[int], colors: tuple[int, int]
) -> SafeString:
    """The board as a mail's HTML can hold it: a table, inline styles, no images.
    `points[i]` is point i + 1 from the reader's side (positive: theirs, negative: the
    opponent's), `bar` and `off` are [reader, opponent], `colors` the reader's colour
    and the opponent's (0 black, 1 white)."""
    rows = []
    for row in _rows():
        if row is None:
            cells = (
                _tray(bar[1], colors[1], str(THEIR_BAR), right=False),
                _tray(bar[0], colors[0], point_name(BAR), right=True),
            )
        else:
            cells = (_point(points, row[0], colors), _point(points, row[1], colors))
        rows.append(f"<tr>{cells[0]}{_gutter()}{cells[1]}</tr>")
    spacer = (
        '<tr><td colspan="3" height="4" style="height:4px;font-size:0;line-height:0">'
        "&nbsp;</td></tr>"
    )
    borne_off = (
        _tray(off[1], colors[1], str(THEIR_OFF), right=False)
        + '<td width="6" style="width:6px"></td>'
        + _tray(off[0], colors[0], point_name(OFF), right=True)
    )
    legend = conditional_escape(_legend(colors)) % {
        "mine": _stone(colors[0]),
        "theirs": _stone(colors[1]),
    }
    return mark_safe(
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" '
        'style="width:100%;max-width:420px;border-collapse:collapse;table-layout:fixed">'
        f"{''.join(rows)}{spacer}<tr>{borne_off}</tr>"
        f'<tr><td colspan="3" style="{_FONT};font-size:12px;line-height:18px;color:{INK};'
        f'padding:6px 0 0">{legend}</td></tr></table>'
    )


# The text board.


def _width(text: str) -> int:
    """Columns a monospaced font gives the text: two for each wide character (kanji)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _fit(text: str, width: int) -> str:
    """The text cut to at most `width` columns."""
    while _width(text) > width:
        text = text[:-1]
    return text


def _marks(count: int, side: int) -> str:
    """Stones in text: whose letter and how many ("X5"), nothing for none."""
    return f"{MARKS[side]}{count}" if count else ""


def _text_place(stones: str, label: str, *, right: bool, fill: str = " ") -> str:
    """A column's line: the stones at the outer edge, the label by the gutter."""
    if fill != " ":  # the bar's line: its words stand clear of the fill
        label = f" {label} "
        stones = f" {stones} " if stones else ""
    label = _fit(label, COLUMN - 2 - max(len(stones), 3) - 1)
    gap = fill * (COLUMN - 2 - len(stones) - _width(label))
    inside = f"{label}{gap}{stones}" if right else f"{stones}{gap}{label}"
    return f"{fill}{inside}{fill}"


def _text_point(points: list[int], point: int) -> str:
    right = point <= 12
    number = f"{point:>{NUMBERS}}" if right else f"{point:<{NUMBERS}}"
    name = point_name(point)
    label = f"{number} {name}" if right else f"{name} {number}"
    count, side = _stones_on(points, point)
    return _text_place(_marks(count, side), label, right=right)


def text_board(points: list[int], bar: list[int], off: list[int], colors: tuple[int, int]) -> str:
    """The same board in monospaced text for the mail's plain part, lines of at most 60
    characters: X for the reader's stones and O for the opponent's, each with its
    count ("X5"), a legend saying so first."""
    edge = f"+{'-' * COLUMN}+{'-' * COLUMN}+"
    lines = [_legend(colors) % {"mine": MARKS[0], "theirs": MARKS[1]}, edge]
    for row in _rows():
        if row is None:
            left = _text_place(_marks(bar[1], 1), str(THEIR_BAR), right=False, fill="=")
            right = _text_place(_marks(bar[0], 0), point_name(BAR), right=True, fill="=")
            lines.append(f"|{left}|{right}|")
        else:
            lines.append(f"|{_text_point(points, row[0])}|{_text_point(points, row[1])}|")
    lines.append(edge)
    left = _text_place(_marks(off[1], 1), str(THEIR_OFF), right=False)
    right = _text_place(_marks(off[0], 0), point_name(OFF), right=True)
    lines.append(f" {left} {right}")
    return "\n".join(line.rstrip() for line in lines) + "\n"
