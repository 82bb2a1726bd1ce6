"""Quiet hours: the hours of a player's day and the days of their week, in their own
time zone, when their clock does not run (their nights, their weekend).

Pure arithmetic on instants (aware datetimes) and a schedule; the clocks
(`games.clocks`) call it. The schedule is in wall time, so a night from 23:00 to 07:00
is eight hours long on most days, seven on the night the clocks go forward and nine on
the night they go back; an hour that does not exist that night is not quiet, one that
happens twice is quiet twice. A quiet span is found day by day, from the wall times of
its ends, so the cost is linear in the days a clock spans (a few dozen).

The clock of a day is a real day here even where CLOCK_DAY_SECONDS shortens the days a
move for trials: a player's night is a night.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

_DAY = timedelta(days=1)

MOST_QUIET_HOURS = 12
"""A quiet night is at most this many hours long."""
MOST_DAYS_OFF = 2
"""And a week has at most this many days off: so at least 60 of a week's 168 hours are
counted, and a deadline lies at most 2.8 times as far off as the clock's days."""


@dataclass(frozen=True)
class QuietHours:
    """`start` to `end` (hours of the day, 0 to 23; the night wraps past midnight when
    `start` is the later) every day, and the whole of each day in `days_off` (ISO
    weekdays, 1 Monday to 7 Sunday), in `zone`."""

    zone: ZoneInfo
    start: int | None = None
    end: int | None = None
    days_off: frozenset[int] = frozenset()

    @property
    def any(self) -> bool:
        return self.start is not None or bool(self.days_off)


def spans(quiet: QuietHours, since: datetime) -> Iterator[tuple[datetime, datetime]]:
    """The quiet spans that end after `since`, in order and merged (a night that runs
    into a day off is one span), as UTC instants; endless when there are any."""
    if not quiet.any:
        return
    day = since.astimezone(quiet.zone).date() - _DAY  # a night begun the day before
    pending: tuple[datetime, datetime] | None = None
    while True:
        for start, end in _day_spans(quiet, day):
            if pending is not None and start <= pending[1]:
                pending = (pending[0], max(pending[1], end))
                continue
            if pending is not None and pending[1] > since:
                yield pending
            pending = (start, end)
        day += _DAY


def counted(quiet: QuietHours, start: datetime, end: datetime) -> timedelta:
    """The time from `start` to `end` that is not quiet: what a clock used."""
    if end <= start:
        return timedelta(0)
    total = end - start
    for quiet_start, quiet_end in spans(quiet, start):
        if quiet_start >= end:
            break
        total -= min(quiet_end, end) - max(quiet_start, start)
    return total


def reached(quiet: QuietHours, start: datetime, amount: timedelta) -> datetime:
    """The instant at which a clock started at `start` has counted `amount`: its
    deadline, for a bank of `amount`."""
    if amount <= timedelta(0):
        return start
    at, left = start, amount
    for quiet_start, quiet_end in spans(quiet, start):
        if quiet_start > at:
            if left <= quiet_start - at:
                return at + left
            left -= quiet_start - at
        at = max(at, quiet_end)
    return at + left  # no quiet hours at all


def _day_spans(quiet: QuietHours, day: date) -> list[tuple[datetime, datetime]]:
    """The quiet spans of one wall-clock day, in order; an hour that does not exist that
    day gives an empty span, which is left out."""
    if day.isoweekday() in quiet.days_off:
        found = [(_at(quiet.zone, day, 0), _at(quiet.zone, day, 24))]
    elif quiet.start is None or quiet.end is None:
        return []
    elif quiet.start < quiet.end:
        found = [(_at(quiet.zone, day, quiet.start), _at(quiet.zone, day, quiet.end))]
    else:
        found = [
            (_at(quiet.zone, day, 0), _at(quiet.zone, day, quiet.end)),
            (_at(quiet.zone, day, quiet.start), _at(quiet.zone, day, 24)),
        ]
    return [(start, end) for start, end in found if end > start]


def _at(zone: ZoneInfo, day: date, hour: int) -> datetime:
    """The instant the wall clock of `zone` first shows `hour` o'clock on `day` (24: the
    next day's midnight). A wall time skipped by the clocks going forward resolves, as
    zoneinfo's first fold does, to the moment of the change."""
    wall = datetime.combine(day, time()) + timedelta(hours=hour)
    return wall.replace(tzinfo=zone).astimezone(UTC)
