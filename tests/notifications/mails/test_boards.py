"""The board in a mail: every count read back from what was drawn, HTML and text, lands
on its point as the reader sees it, in the site's layout; the HTML keeps to what mail
clients show and fits a phone; the text keeps to 60 columns in every language."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from bansugoroku.games.vocabulary import THEIR_BAR, THEIR_OFF, point_name
from engine.position import BAR, OFF, Position
from notifications.mails.boards import BLACK, COLUMN, WHITE, html_board, text_board
from tests.front.browsers import needs_chromium, shoot


def position(places: dict[int, int], bar: tuple[int, int], off: tuple[int, int]) -> Position:
    """A position from its non-empty points (signed counts): the engine checks that each
    side has its 15 stones."""
    return Position(tuple(places.get(point, 0) for point in range(1, 25)), bar, off)


POSITIONS = {
    "start": Position.start(),
    "both bars": position(
        {1: -2, 6: 5, 8: 3, 12: -4, 13: 4, 17: -3, 19: -5, 24: 1}, bar=(2, 1), off=(0, 0)
    ),
    "borne off": position({1: 3, 2: 2, 4: 2, 20: -4, 22: -3, 24: -1}, bar=(0, 0), off=(8, 7)),
    "fifteen on one point": position({6: 15, 19: -15}, bar=(0, 0), off=(0, 0)),
}
COLOURS = [(0, 1), (1, 0)]

ROWS = [(13 + row, 12 - row) for row in range(6)] + [(19 + row, 6 - row) for row in range(6)]
"""The points of each board row from the top, (left, right), the site's layout."""


def drawn(board: Position, colors: tuple[int, int]) -> tuple[Any, ...]:
    return (list(board.points), list(board.bar), list(board.off), colors)


@dataclass
class Cell:
    """What one cell of the board shows: its stones' fills, the count written beside them
    and its label, which names the point and carries its number in bold."""

    stones: list[str] = field(default_factory=list)
    count: int | None = None
    label: str = ""
    number: int | None = None


class BoardReader(HTMLParser):
    """The rows of the board's table, each the list of its cells: the first block in a
    cell holds the stones, the second the label."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[Cell]] = []
        self.cell: Cell | None = None
        self.blocks = 0
        self.bold = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = dict(attrs).get("style") or ""
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self.cell, self.blocks = Cell(), 0
            self.rows[-1].append(self.cell)
        elif tag == "div":
            self.blocks += 1
        elif tag == "b":
            self.bold = True
        elif tag == "span" and self.cell is not None and "background-color" in style:
            fill = re.search(r"background-color:(#\w+)", style)
            assert fill is not None
            self.cell.stones.append(fill[1])

    def handle_endtag(self, tag: str) -> None:
        if tag == "b":
            self.bold = False

    def handle_data(self, data: str) -> None:
        if self.cell is None:
            return
        if self.blocks == 1 and self.bold:
            self.cell.count = int(data)
        elif self.blocks == 2:
            self.cell.label += data
            if self.bold:
                self.cell.number = int(data)


def read_html(html: str) -> list[list[Cell]]:
    """The board's rows of three cells (left, gutter, right): twelve points' rows with
    the bar's in the middle, then the stones borne off."""
    reader = BoardReader()
    reader.feed(html)
    rows = [[row[0], row[2]] for row in reader.rows if len(row) == 3]
    assert len(rows) == 14
    return rows


def stones_of(cell: Cell, colors: tuple[int, int]) -> int:
    """The cell's stones as a signed count from the reader's side, checking that one
    colour fills them all and that a count is written exactly when more are there."""
    if not cell.stones:
        assert cell.count is None
        return 0
    fills = {BLACK: 0, WHITE: 1}
    (fill,) = set(cell.stones)
    count = cell.count if cell.count is not None else len(cell.stones)
    assert len(cell.stones) == min(count, 5)
    assert (cell.count is not None) == (count > 5)
    return count if fills[fill] == colors[0] else -count


@pytest.mark.parametrize("colors", COLOURS)
@pytest.mark.parametrize("name", POSITIONS)
def test_the_html_board_puts_every_stone_on_its_point(name, colors):
    board = POSITIONS[name]
    with translation.override("en"):
        rows = read_html(html_board(*drawn(board, colors)))
        for (left, right), (left_cell, right_cell) in zip(ROWS, rows[:6] + rows[7:13], strict=True):
            for point, cell in ((left, left_cell), (right, right_cell)):
                assert cell.number == point
                assert point_name(point) in cell.label
                assert stones_of(cell, colors) == board.points[point - 1], point
        their_bar, own_bar = rows[6]
        their_off, own_off = rows[13]
        assert (str(THEIR_BAR), point_name(BAR)) == (their_bar.label, own_bar.label)
        assert (str(THEIR_OFF), point_name(OFF)) == (their_off.label, own_off.label)
    assert [stones_of(own_bar, colors), -stones_of(their_bar, colors)] == list(board.bar)
    assert [stones_of(own_off, colors), -stones_of(their_off, colors)] == list(board.off)


@pytest.mark.parametrize("name", POSITIONS)
def test_the_html_board_keeps_to_what_mail_clients_show(name):
    html = html_board(*drawn(POSITIONS[name], (0, 1))).lower()
    for refused in ("<script", "<img", "<style", "<svg", "class=", "http", "<link"):
        assert refused not in html


MARK = re.compile(r"([XO])(\d+)")


def marks(text: str) -> int:
    """The signed count written in a piece of a line: X the reader's, O the opponent's."""
    found = MARK.findall(text)
    assert len(found) <= 1, text
    return sum(int(count) if mark == "X" else -int(count) for mark, count in found)


@pytest.mark.parametrize("colors", COLOURS)
@pytest.mark.parametrize("name", POSITIONS)
def test_the_text_board_puts_every_stone_on_its_point(name, colors):
    board = POSITIONS[name]
    with translation.override("en"):
        lines = text_board(*drawn(board, colors)).splitlines()
        legend = "your stones (black)" if colors[0] == 0 else "your stones (white)"
        assert lines[0].startswith(f"X: {legend}, O: ")
        rows = [line.split("|")[1:3] for line in lines[2:15]]
        for (left, right), (left_text, right_text) in zip(ROWS, rows[:6] + rows[7:], strict=True):
            for point, text in ((left, left_text), (right, right_text)):
                by_gutter = (
                    text.rstrip().endswith(f" {point}")
                    if point > 12
                    else text.lstrip().startswith(f"{point} ")
                )
                assert by_gutter, text
                assert point_name(point) in text
                assert marks(text) == board.points[point - 1], text
        their_bar, own_bar = rows[6]
        assert str(THEIR_BAR) in their_bar and point_name(BAR) in own_bar
        their_off, own_off = lines[16][: COLUMN + 1], lines[16][COLUMN + 1 :]
        assert str(THEIR_OFF) in their_off and point_name(OFF) in own_off
    assert [marks(own_bar), -marks(their_bar)] == list(board.bar)
    assert [marks(own_off), -marks(their_off)] == list(board.off)


def columns(line: str) -> int:
    """How wide a monospaced font draws the line: kanji take two columns."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_the_text_board_fits_sixty_columns_in_every_language(language):
    for board in POSITIONS.values():
        with translation.override(language):
            text = text_board(*drawn(board, (1, 0)))
            with translation.override("en"):
                said_in_english = text_board(*drawn(board, (1, 0))).splitlines()[0]
        lines = text.splitlines()
        assert len(lines) == 17
        assert all(len(line) <= 60 for line in lines), text
        assert {columns(line) for line in lines[1:16]} == {2 * COLUMN + 3}, text
        assert (lines[0] == said_in_english) == (language == "en")


@needs_chromium
@pytest.mark.slow
def test_the_html_board_fits_a_phone_mail_without_scrolling(chromium):
    """In a mail body as the "your turn" mail wraps it, at 320 px wide and at 600."""
    board = POSITIONS["fifteen on one point"]
    for language in ("de", "ru"):
        with translation.override(language):
            fragment = html_board(*drawn(board, (0, 1)))
        body = (
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width"></head>'
            f'<body style="font-family: sans-serif; margin: 8px"><p>Hallo,</p>{fragment}'
            "</body></html>"
        )
        for width in (320, 600):
            page = chromium.new_page(viewport={"width": width, "height": 700})
            page.set_content(body)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            board_width = page.evaluate("document.querySelector('table').offsetWidth")
            assert board_width >= min(width - 16, 420)  # the board takes the room it has
            shoot(page, f"mail-board-{language}-{width}")
            page.close()
