"""Text forms: play notation, position ids, point and roll names."""

from __future__ import annotations

import pytest

from engine.names import point_name, roll_name, spoken_roll
from engine.notation import (
    NotationError,
    format_play,
    mirror_play,
    parse_play,
    parse_position_id,
    position_id,
)
from engine.position import Position, PositionError
from tests.engine.helpers import make


def test_hits_entries_and_bearing_off_are_written_like_backgammon():
    position = make({3: 1, 10: 1}, {9: 1, 24: 14}, bar=(1, 0), off=(12, 0))
    assert format_play(position, [(25, 22), (10, 9)]) == "bar/22 10/9*"
    assert parse_play("bar/22 10/9*") == ((25, 22), (10, 9))
    assert parse_play("  6/off 5/4 ") == ((6, 0), (5, 4))


@pytest.mark.parametrize("text", ["", "13-10", "13/10/7", "25/20", "bar/off/", "10/13", "x"])
def test_bad_play_text_is_refused_with_a_reason(text):
    with pytest.raises(NotationError):
        parse_play(text)


def test_a_play_reads_in_the_other_sides_numbering_with_its_hits():
    assert mirror_play("bar/22* 13/7 6/off") == "bar/3* 12/18 19/off"
    assert mirror_play("24/18 18/13") == "1/7 7/12"
    assert mirror_play("pass") == "pass"
    with pytest.raises(NotationError):
        mirror_play("13-10")


def test_a_pass_is_written_pass():
    assert format_play(Position.start(), ()) == "pass"
    assert parse_play("pass") == ()


def test_position_ids_are_one_line_and_round_trip():
    position = make({1: 15}, {24: 12}, bar=(0, 3))
    text = position_id(position)
    assert text == "O994l/0-3/0-0"  # 15 own on 1, 22 empty, 12 theirs on 24
    assert parse_position_id(text) == position
    assert position_id(Position.start()) == "b4E1C3eE3c1e4B/0-0/0-0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "b4E1C3eE3c1e4B",
        "b4E1C3eE3c1e4B/0-0",
        "b4E1C3eE3c1e4A/0-0/0-0",
        "Z/0-0/0-0",
        "9/0-0/0-0",
    ],
)
def test_bad_position_ids_are_refused(text):
    with pytest.raises(NotationError):
        parse_position_id(text)


def test_a_position_needs_fifteen_stones_a_side():
    with pytest.raises(PositionError):
        make({1: 14}, {24: 15})


def test_flipping_swaps_sides_and_mirrors_points():
    position = make({1: 14, 20: 1}, {24: 14}, bar=(0, 1))
    flipped = position.flipped()
    assert flipped.count(5) == -1 and flipped.count(1) == 14
    assert flipped.bar == (1, 0)
    assert flipped.pip_count() == tuple(reversed(position.pip_count()))


def test_points_are_named_from_their_owners_side():
    assert [point_name(p) for p in (1, 6, 7, 12, 13, 18, 19, 24)] == [
        "In 1", "In 6", "Out 6", "Out 1", "their Out 1", "their Out 6", "their In 6", "their In 1",
    ]  # fmt: skip


def test_every_one_of_the_21_rolls_has_its_old_name():
    rolls = {(a, b) for a in range(1, 7) for b in range(a, 7)}
    names = {roll_name(r) for r in rolls}
    assert len(rolls) == len(names) == 21
    assert roll_name((6, 5)) == roll_name((5, 6)) == ("五六", "goroku")
    assert roll_name((1, 1)).reading == "detchi"
    assert spoken_roll((3, 4)) == "three and four, shisō"
    with pytest.raises(ValueError):
        roll_name((0, 7))
