"""A small SVG board, drawn from one player's side, for the rules' diagrams and a game's
replay.

The layout lives here alone: a page's template draws what `board` returns, and the
replay's script only moves the stones to the coordinates `stones` gives for each turn,
so the browser needs no rules and no geometry of its own.

The viewer's side is the bottom row, their home at the bottom left as the rules
describe: In 1 ... In 6, the bar, Out 6 ... Out 1 (points 1-12, left to right); the top
row is the opponent's side, their In 1 (point 24) at the top left, so the viewer's
stones travel right along the top and left along the bottom.
"""

from __future__ import annotations

from typing import TypedDict

from bansugoroku.vocabulary import point_label

WIDTH, HEIGHT = 300, 222
COLUMN = 20
RADIUS = 9
LEFT = 10  # the left half's first column
BAR_X = LEFT + 6 * COLUMN  # the bar's column, between the halves
TRAY_X = BAR_X + COLUMN + 6 * COLUMN + 4  # borne-off stones, right of the board
TOP, BOTTOM = 20, 202  # the rows' outer edges
POINT_LENGTH = 86
SHOWN = 4  # stones drawn on a point; the last shows the count when there are more


class Triangle(TypedDict):
    points: str
    shade: str
    label: str
    label_x: int
    label_y: int


class Stones(TypedDict):
    """The stones of one position: circles `[x, y, colour]` (0 black, 1 white) and
    counts `[x, y, text]` written on a stack taller than it is drawn."""

    circles: list[tuple[int, int, int]]
    counts: list[tuple[int, int, str]]


def column_x(point: int) -> int:
    """The left edge of a point's column: 1-12 along the bottom left to right, 13-24
    along the top right to left."""
    index = point - 1 if point <= 12 else 24 - point
    return LEFT + index * COLUMN + (COLUMN if index >= 6 else 0)


def triangles() -> list[Triangle]:
    drawn: list[Triangle] = []
    for point in range(1, 25):
        x = column_x(point)
        bottom = point <= 12
        base, tip = (BOTTOM, BOTTOM - POINT_LENGTH) if bottom else (TOP, TOP + POINT_LENGTH)
        drawn.append(
            {
                "points": f"{x},{base} {x + COLUMN},{base} {x + COLUMN // 2},{tip}",
                "shade": "dark" if point % 2 else "light",
                "label": point_label(point),
                "label_x": x + COLUMN // 2,
                "label_y": BOTTOM + 14 if bottom else TOP - 6,
            }
        )
    return drawn


def stones(points: list[int], bar: list[int], off: list[int], colors: tuple[int, int]) -> Stones:
    """Where the stones of a position stand: `points[i]` is point i + 1 from the viewer's
    side (positive: the viewer's, negative: the opponent's), `bar` and `off` are
    [viewer, opponent], `colors` the viewer's colour and the opponent's."""
    found: Stones = {"circles": [], "counts": []}

    def stack(x: int, y: int, step: int, count: int, color: int, shown: int = SHOWN) -> None:
        for index in range(min(count, shown)):
            found["circles"].append((x, y + step * index, color))
        if count > shown:
            found["counts"].append((x, y + step * (shown - 1), str(count)))

    for point, count in enumerate(points, start=1):
        if count:
            x = column_x(point) + COLUMN // 2
            bottom = point <= 12
            y, step = (BOTTOM - RADIUS, -2 * RADIUS) if bottom else (TOP + RADIUS, 2 * RADIUS)
            stack(x, y, step, abs(count), colors[0] if count > 0 else colors[1])
    middle = (TOP + BOTTOM) // 2
    bar_x = BAR_X + COLUMN // 2
    stack(bar_x, middle + RADIUS + 2, 2 * RADIUS, bar[0], colors[0], 3)
    stack(bar_x, middle - RADIUS - 2, -2 * RADIUS, bar[1], colors[1], 3)
    tray_x = TRAY_X + COLUMN // 2
    stack(tray_x, BOTTOM - RADIUS, -2 * RADIUS, off[0], colors[0], 1)
    stack(tray_x, TOP + RADIUS, 2 * RADIUS, off[1], colors[1], 1)
    return found


def route() -> str:
    """The way the viewer's stones travel, as an SVG path between the rows: right along
    the top from their In 1, down at the right-hand end, left to home, with an arrowhead."""
    start, turn = column_x(24) + COLUMN // 2, column_x(13) + COLUMN // 2
    upper, lower = (TOP + BOTTOM) // 2 - 3, (TOP + BOTTOM) // 2 + 3
    return f"M{start},{upper} H{turn} V{lower} H{start} m6,-4 l-6,4 l6,4"


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
        "triangles": triangles(),
        "stones": stones(points, bar, off, colors),
        "left": LEFT,
        "frame_width": TRAY_X - 4 - LEFT,
        "rows_height": BOTTOM - TOP,
        "bar_x": BAR_X,
        "tray_x": TRAY_X,
        "column": COLUMN,
        "top": TOP,
        "radius": RADIUS,
    }
