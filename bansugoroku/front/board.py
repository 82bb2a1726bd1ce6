"""The board, drawn from one player's side: the table page, the rules' diagrams and a
game's replay all use this one layout.

The layout lives here alone: a page's template draws what `board` returns
(`front/board.html`); the replay's script only moves the stones to the coordinates
`stones` gives for each turn, and the table page's script stacks the stones of each
state on the `places` it is handed and makes those places its tap targets, so the
browser needs no rules and no geometry of its own.

The board stands upright, two columns of twelve points, each a row tall enough for a
finger (44 px on a phone), and no taller: the whole board, with the dice and the Play
button under it, fits the first screen of a 360x740 phone. The right column is the
viewer's side, Out 1 (point 12) at the top down to In 1 (point 1), their home at the
bottom right; the left column is the opponent's side, their Out 1 (13) at the top down
to their In 1 (24) at the bottom left, so the viewer's stones travel up the left
column and down the right one. Each point's number, as plays are written, stands
beside the gutter next to its name. The bar lies across the middle and the borne-off stones
below the board, the viewer's on the right, the opponent's on the left. In every place
the stones stack along the top of its row and its name is written along the bottom, so
no stone ever hides a name, however long the language makes it.
"""

from __future__ import annotations

from typing import TypedDict

from bansugoroku.games.vocabulary import THEIR_BAR, THEIR_OFF, point_name
from engine.position import BAR, OFF

ROW = 44  # a point's height, as is every tray's: the least a finger needs
HALF = 166  # a column's width
GUTTER = 8  # between the columns
WIDTH = 2 * HALF + GUTTER
BAR_TOP = 6 * ROW
LOWER_TOP = BAR_TOP + ROW  # the columns' lower halves
OFF_GAP = 4  # between the board and the borne-off trays
OFF_TOP = LOWER_TOP + 6 * ROW + OFF_GAP
HEIGHT = OFF_TOP + ROW
RADIUS = 12
STEP = 25  # from one stone's centre to the next along a stack
SHOWN = 4  # stones drawn on a place; the last shows the count when there are more
STONES_Y = 2 + RADIUS  # a stack's centre line, below its row's top
LABEL_Y = ROW - 3  # a name's baseline, below its row's top: clear of the stones above it
LABEL_INSET = 8  # a point's name from the gutter, clear of the rules' route beside it


class Place(TypedDict):
    """A point, or one side's bar or borne-off stones: the area a tap on it hits, `[x, y,
    width, height]`, and its stack `[x, y, step]`: the first stone's centre, each next
    one `step` further right (left when negative), at most SHOWN drawn, the last of them
    carrying the count when there are more."""

    area: tuple[int, int, int, int]
    stack: tuple[int, int, int]


class Triangle(TypedDict):
    points: str
    shade: str
    label: str
    number: int
    label_x: int
    label_y: int
    anchor: str


class Tray(TypedDict):
    """A bar or a borne-off tray: its area and its name."""

    x: int
    y: int
    width: int
    height: int
    label: str
    label_x: int
    label_y: int
    own: bool


class Stones(TypedDict):
    """The stones of one position: circles `[x, y, colour]` (0 black, 1 white) and
    counts `[x, y, text]` written on a stack longer than it is drawn."""

    circles: list[tuple[int, int, int]]
    counts: list[tuple[int, int, str]]


def _row_top(row: int) -> int:
    """The top of a column's row 0-11: six above the bar, six below."""
    return row * ROW if row < 6 else LOWER_TOP + (row - 6) * ROW


def _point_corner(point: int) -> tuple[int, int]:
    """A point's top left corner: the right column holds 12 down to 1, the left one 13
    down to 24."""
    if point <= 12:
        return (WIDTH - HALF, _row_top(12 - point))
    return (0, _row_top(point - 13))


def places() -> dict[str, Place]:
    """Every place stones stand, by the table state's numbering from the viewer's side:
    "1" to "24" the points, "25" the viewer's bar and "0" their stones off, then
    "their_bar" and "their_off". Every place is a column's width and a row's height; its
    stones stack from the column's outer edge along the top of the row."""
    corners = {str(point): _point_corner(point) for point in range(1, 25)}
    corners |= {
        str(BAR): (WIDTH - HALF, BAR_TOP),
        "their_bar": (0, BAR_TOP),
        str(OFF): (WIDTH - HALF, OFF_TOP),
        "their_off": (0, OFF_TOP),
    }
    found: dict[str, Place] = {}
    for place, (x, y) in corners.items():
        right = x > 0
        first = x + HALF - 16 if right else x + 16
        found[place] = {
            "area": (x, y, HALF, ROW),
            "stack": (first, y + STONES_Y, -STEP if right else STEP),
        }
    return found


def triangles() -> list[Triangle]:
    """Points 1-24 in order, each pointing from its column's outer edge to the gutter,
    named from the viewer's side beside the gutter, under the stones' line. The name
    carries the point's number on its gutter side, so the numbers run down the gutter
    like a ruler and a play written "13/10" can be found on the board."""
    drawn: list[Triangle] = []
    for point in range(1, 25):
        x, y = _point_corner(point)
        right = point <= 12
        base, tip = (x + HALF, x + 16) if right else (x, x + HALF - 16)
        drawn.append(
            {
                "points": f"{base},{y + 2} {tip},{y + ROW // 2} {base},{y + ROW - 2}",
                "shade": "dark" if point % 2 else "light",
                "label": point_name(point),
                "number": point,
                "label_x": x + LABEL_INSET if right else x + HALF - LABEL_INSET,
                "label_y": y + LABEL_Y,
                "anchor": "start" if right else "end",
            }
        )
    return drawn


def trays() -> list[Tray]:
    """The bars across the middle and the borne-off trays below, each side's named in
    the middle under its stones."""
    names = {
        str(BAR): point_name(BAR),
        "their_bar": str(THEIR_BAR),
        str(OFF): point_name(OFF),
        "their_off": str(THEIR_OFF),
    }
    drawn: list[Tray] = []
    for place, name in names.items():
        x, y, width, height = places()[place]["area"]
        drawn.append(
            {
                "x": x,
                "y": y,
                "width": width,
                "height": height,
                "label": name,
                "label_x": x + width // 2,
                "label_y": y + LABEL_Y,
                "own": not place.startswith("their"),
            }
        )
    return drawn


def stones(points: list[int], bar: list[int], off: list[int], colors: tuple[int, int]) -> Stones:
    """Where the stones of a position stand: `points[i]` is point i + 1 from the viewer's
    side (positive: the viewer's, negative: the opponent's), `bar` and `off` are
    [viewer, opponent], `colors` the viewer's colour and the opponent's."""
    found: Stones = {"circles": [], "counts": []}
    at = places()

    def stack(place: str, count: int, color: int) -> None:
        x, y, step = at[place]["stack"]
        for index in range(min(count, SHOWN)):
            found["circles"].append((x + step * index, y, color))
        if count > SHOWN:
            found["counts"].append((x + step * (SHOWN - 1), y, str(count)))

    for point, count in enumerate(points, start=1):
        if count:
            stack(str(point), abs(count), colors[0] if count > 0 else colors[1])
    stack(str(BAR), bar[0], colors[0])
    stack("their_bar", bar[1], colors[1])
    stack(str(OFF), off[0], colors[0])
    stack("their_off", off[1], colors[1])
    return found


def route() -> str:
    """The way the viewer's stones travel, as an SVG path either side of the gutter, clear
    of the labels: up the left column from their In 1, across at the top, down the right
    column to home, with an arrowhead."""
    left, right = HALF - 2, WIDTH - HALF + 2
    top, bottom = ROW // 2, LOWER_TOP + 6 * ROW - ROW // 2
    return f"M{left},{bottom} V{top} H{right} V{bottom} m-5,-7 l5,7 l5,-7"


def board(
    points: list[int],
    bar: list[int],
    off: list[int],
    colors: tuple[int, int],
    *,
    show_route: bool = False,
) -> dict[str, object]:
    """Everything `front/board.html` draws; with `show_route`, the stones' way home."""
    return {
        "route": route() if show_route else None,
        "width": WIDTH,
        "height": HEIGHT,
        "columns_height": OFF_TOP - OFF_GAP,
        "gutter_x": HALF,
        "gutter": GUTTER,
        "triangles": triangles(),
        "trays": trays(),
        "stones": stones(points, bar, off, colors),
        "radius": RADIUS,
    }
