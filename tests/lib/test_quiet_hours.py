"""Quiet hours' arithmetic: wall-clock nights and days off in a zone, across the
clocks' changes, and deadlines that are the inverse of the time counted."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import islice
from zoneinfo import ZoneInfo

import pytest

from bansugoroku.lib.quiet_hours import QuietHours, counted, reached, spans

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
HOUR = timedelta(hours=1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def lengths(quiet: QuietHours, since: datetime, count: int) -> list[timedelta]:
    return [end - start for start, end in islice(spans(quiet, since), count)]


def test_a_night_is_its_wall_hours_in_the_players_zone() -> None:
    quiet = QuietHours(BERLIN, 23, 7)
    first = next(spans(quiet, utc(2026, 12, 7, 12)))
    assert first == (utc(2026, 12, 7, 22), utc(2026, 12, 8, 6))  # 23:00 to 07:00 CET


def test_the_night_the_clocks_go_forward_is_an_hour_shorter() -> None:
    # Berlin goes from 02:00 CET to 03:00 CEST in the night to Sunday 29 March 2026.
    assert lengths(QuietHours(BERLIN, 23, 7), utc(2026, 3, 27, 12), 3) == [
        8 * HOUR,
        7 * HOUR,
        8 * HOUR,
    ]


def test_the_night_the_clocks_go_back_is_an_hour_longer() -> None:
    # New York goes from 02:00 EDT back to 01:00 EST in the night to Sunday 1 November 2026.
    assert lengths(QuietHours(NEW_YORK, 22, 6), utc(2026, 10, 30, 17), 3) == [
        8 * HOUR,
        9 * HOUR,
        8 * HOUR,
    ]


def test_an_hour_the_clocks_skip_is_not_quiet_and_one_they_repeat_is_quiet_twice() -> None:
    skipped = list(islice(spans(QuietHours(BERLIN, 2, 3), utc(2026, 3, 28, 12)), 1))
    assert skipped == [(utc(2026, 3, 30, 0), utc(2026, 3, 30, 1))]  # none on the 29th
    assert lengths(QuietHours(BERLIN, 2, 3), utc(2026, 10, 24, 12), 2) == [2 * HOUR, HOUR]


def test_a_day_off_joins_the_nights_around_it() -> None:
    # Friday 4 December 2026; Saturday and Sunday off, nights 22:00 to 06:00 in Berlin.
    quiet = QuietHours(BERLIN, 22, 6, frozenset({6, 7}))
    assert next(spans(quiet, utc(2026, 12, 4, 12))) == (utc(2026, 12, 4, 21), utc(2026, 12, 7, 5))


def test_a_deadline_skips_the_weekend_and_the_nights() -> None:
    quiet = QuietHours(BERLIN, 22, 6, frozenset({6, 7}))
    friday_noon = utc(2026, 12, 4, 12)
    # 9 hours on Friday, then Monday from 06:00: the day's other 15 hours end at 21:00.
    assert reached(quiet, friday_noon, timedelta(days=1)) == utc(2026, 12, 7, 20)
    assert counted(quiet, friday_noon, utc(2026, 12, 8, 12)) == timedelta(hours=32)


def test_a_clock_started_in_the_quiet_hours_starts_counting_when_they_end() -> None:
    quiet = QuietHours(BERLIN, 23, 7)
    assert reached(quiet, utc(2026, 12, 8, 1), 2 * HOUR) == utc(2026, 12, 8, 8)
    assert counted(quiet, utc(2026, 12, 8, 1), utc(2026, 12, 8, 5)) == timedelta(0)


def test_a_deadline_across_a_change_of_the_clocks_counts_real_hours() -> None:
    quiet = QuietHours(NEW_YORK, 22, 6)
    saturday_noon = utc(2026, 10, 31, 16)  # 12:00 EDT
    # 10 h to 22:00 EDT, a 9-hour night to 06:00 EST (11:00 UTC), 14 h more.
    assert reached(quiet, saturday_noon, timedelta(hours=24)) == utc(2026, 11, 2, 1)


def test_no_quiet_hours_count_every_hour() -> None:
    quiet = QuietHours(ZoneInfo("UTC"))
    assert reached(quiet, utc(2026, 12, 7), timedelta(days=3)) == utc(2026, 12, 10)
    assert counted(quiet, utc(2026, 12, 7), utc(2026, 12, 10)) == timedelta(days=3)
    assert list(spans(quiet, utc(2026, 12, 7))) == []


def test_nothing_is_counted_backwards_and_no_bank_is_due_at_once() -> None:
    quiet = QuietHours(BERLIN, 23, 7)
    assert counted(quiet, utc(2026, 12, 8), utc(2026, 12, 7)) == timedelta(0)
    assert reached(quiet, utc(2026, 12, 8, 2), timedelta(0)) == utc(2026, 12, 8, 2)


@pytest.mark.parametrize(
    "zone",
    [
        "Europe/Berlin",
        "America/New_York",
        "Asia/Kolkata",
        "Australia/Lord_Howe",
        "America/Santiago",
    ],
)
def test_the_deadline_is_where_the_time_counted_reaches_the_bank(zone: str) -> None:
    """Over a year of starts, in zones with odd offsets and changes (Lord Howe's half
    hour, Santiago's at midnight): counted(start, reached(start, bank)) == bank, and a
    second less is not yet there."""
    rng = random.Random(zone)
    for _ in range(300):
        start_hour, length = rng.randrange(24), rng.randrange(1, 13)
        days_off = frozenset(rng.sample(range(1, 8), rng.randrange(3)))
        quiet = QuietHours(ZoneInfo(zone), start_hour, (start_hour + length) % 24, days_off)
        start = utc(2026, 1, 1) + timedelta(seconds=rng.randrange(365 * 86400))
        bank = timedelta(seconds=rng.randrange(1, 28 * 86400))
        deadline = reached(quiet, start, bank)
        assert counted(quiet, start, deadline) == bank
        assert counted(quiet, start, deadline - timedelta(seconds=1)) < bank
        assert deadline - start <= bank * 168 / 60 + timedelta(days=2)
