"""Moments as a player reads them: in their own time zone (UTC until they choose one)
and the active language's format, with the zone's abbreviation, so that a mail or a
page read anywhere names an unambiguous time."""

from __future__ import annotations

import functools
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.utils.formats import date_format


@functools.cache
def time_zones() -> tuple[str, ...]:
    """The zones a player may choose, sorted: read from the time zone database once,
    as reading it walks the whole database."""
    return tuple(sorted(available_timezones()))


def zone(name: str) -> ZoneInfo:
    """A player's time zone by its stored name: UTC until they choose one, or if the
    time zone database no longer knows it."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(moment: datetime, time_zone: str) -> str:
    """'7 March 2027, 21:00 CET': the language's date and time, then the zone."""
    local = moment.astimezone(zone(time_zone))
    return f"{date_format(local, 'DATETIME_FORMAT')} {local.tzname()}"
