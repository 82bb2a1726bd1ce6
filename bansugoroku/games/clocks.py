"""A table's clock: days a move, with a time bank. Pure arithmetic on the table and its
seats; the changes (`services`) call it and write what it sets.

A table has no clock (the seeds' rule, the default) or `clock_days` of 1, 2, 3, 5, 7 or
14 a move. Each seat has a bank (`Seat.clock_left`): the days at a game's start, and
after each turn it finishes, what it had left plus the days again, up to twice the days
(`BANK_CAP`). So a player who answers quickly may take longer on a hard move later,
but nobody saves up weeks. Only the seat to move has a running clock; its `deadline`
is on the table (the sweep's index, `timeouts`), with when its turn began. Between
games and at a closed table no clock runs; the idle close stays the outer bound.

The mover is reminded before their deadline, at the hours before it they chose
(`Player.reminder_hours`, 24 and 2 unless they change them): `Table.remind_at` is the
next such moment this turn, which the sweep (`timeouts.remind`) turns into a
`clock_low` event. A threshold at or beyond the whole turn's time is skipped: a
reminder at the turn's start would say nothing that "your turn" did not.

While a player is on vacation (`games.vacations`) their clocks stand: a vacation that
starts settles the time each of their running clocks used so far and restarts it at
the vacation's end (`pause`), one that ends early restarts them at once (`resume`); a
turn that comes to them during it starts at its end. So `turn_started_at` may lie
ahead, and a turn is charged only what it used after it.

A player's quiet hours (`lib.quiet_hours`: their nights and days off, in their time
zone) are not counted either: the time a turn used is what it used outside them, its
deadline the moment its bank is used up so, and a reminder comes when that many hours
of counted time are left (the evening before a morning deadline, not in the night). So a
table's clock is its `turn_started_at` and the mover's bank then (`Seat.clock_left`),
read through the mover's quiet hours; `deadline` and `remind_at` are what they give, kept
for the sweep's indexes. A change of the quiet hours settles the running clocks under
the old ones and restarts them under the new (`vacations.set_quiet_hours`).

A "day" is CLOCK_DAY_SECONDS long: 86,400, or less for trials, and an hour of a
reminder is a 24th of it. Quiet hours are real hours even then: a night is a night.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings

from bansugoroku.games.models import Player, Seat, Table
from bansugoroku.lib.local_times import zone
from bansugoroku.lib.quiet_hours import QuietHours, counted, reached, spans
from engine.game import FinishedTurn, GameValue

DAYS = (1, 2, 3, 5, 7, 14)
"""The clocks a table may have, in days a move."""
BANK_CAP = 2
"""A seat's bank never holds more than this many times the days a move."""
REMINDER_HOURS = (1, 2, 3, 6, 12, 24, 48)
"""The hours before a deadline a player may choose to be reminded at, two at most."""
MOST_REMINDERS = 2


def hours(count: int) -> timedelta:
    """`count` hours of a clock's day (CLOCK_DAY_SECONDS shortens them alike)."""
    return timedelta(seconds=count * settings.CLOCK_DAY_SECONDS / 24)


def quiet_hours(player: Player) -> QuietHours:
    return quiet_of(player.time_zone, player.quiet_from, player.quiet_to, player.days_off)


def quiet_of(
    time_zone: str, start: int | None, end: int | None, days_off: Sequence[int]
) -> QuietHours:
    """Quiet hours from a player's stored fields (or a row of them)."""
    return QuietHours(zone(time_zone), start, end, frozenset(days_off))


def quiet_spans(player: Player, start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The player's quiet hours from `start` to `end`, cut to them: when a clock of
    theirs running then stands."""
    found = []
    for quiet_start, quiet_end in spans(quiet_hours(player), start):
        if quiet_start >= end:
            break
        found.append((max(quiet_start, start), min(quiet_end, end)))
    return found


def settle(table: Table, mover: Seat, now: datetime) -> None:
    """Charge the mover's clock what it used until `now`, under their quiet hours as
    they are, and have it run from then: before those change (`run_on`)."""
    started = table.turn_started_at
    if started is None or mover.clock_left is None or started >= now:
        return
    mover.clock_left = max(mover.clock_left - _used(mover, started, now), timedelta(0))
    table.turn_started_at = now


def run_on(table: Table, mover: Seat, now: datetime) -> None:
    """The mover's clock runs from its start under their quiet hours as they are now."""
    if table.turn_started_at is not None and mover.clock_left is not None:
        _restart(table, mover, table.turn_started_at, now)


def reminders(
    quiet: QuietHours, start: datetime, bank: timedelta, reminder_hours: Sequence[int]
) -> dict[int, datetime]:
    """When each threshold falls in a turn whose clock runs from `start` with `bank`:
    the moment that many hours of counted time are left. One at or beyond the whole
    bank has none."""
    return {h: reached(quiet, start, bank - hours(h)) for h in reminder_hours if hours(h) < bank}


def next_reminder(moments: dict[int, datetime], now: datetime) -> datetime | None:
    """The first of a turn's reminders (`reminders`) after `now`, or none."""
    return min((at for at in moments.values() if at > now), default=None)


def passed_threshold(moments: dict[int, datetime], deadline: datetime, now: datetime) -> int | None:
    """The nearest threshold already passed at `now` but not the deadline itself: what
    a reminder sent now says. A sweep that comes late sends only that one."""
    passed = [h for h, at in moments.items() if at <= now < deadline]
    return min(passed, default=None)


def allowance(days: int) -> timedelta:
    """What each turn adds to the mover's bank, and what each bank starts a game with."""
    return timedelta(seconds=days * settings.CLOCK_DAY_SECONDS)


def start_game(table: Table, seats: Sequence[Seat], game: GameValue, now: datetime) -> None:
    """Fill both banks and start the first mover's clock."""
    if table.clock_days is None:
        return
    for seat in seats:
        seat.clock_left = allowance(table.clock_days)
    if game.result is None:
        _run(table, seats, game, now)
    else:
        stop(table)


def after_step(
    table: Table,
    seats: Sequence[Seat],
    game: GameValue,
    turns: Sequence[FinishedTurn],
    now: datetime,
) -> None:
    """Charge the turns a step finished to their seats and start the next mover's clock;
    stop the clocks when the game ended. A move that leaves the turn open, or an undo,
    changes nothing: the mover's clock runs on."""
    if table.clock_days is None:
        return
    if game.result is not None:
        stop(table)
        return
    if not turns:
        return
    days, started = table.clock_days, table.turn_started_at or now
    for i, turn in enumerate(turns):  # the mover's play, then any passes that followed
        seat = seats[turn.side]
        used = _used(seat, started, now) if i == 0 else timedelta(0)
        left = (seat.clock_left or timedelta(0)) - used + allowance(days)
        seat.clock_left = min(left, BANK_CAP * allowance(days))
    _run(table, seats, game, now)


def pause(table: Table, mover: Seat, start: datetime, until: datetime) -> None:
    """The mover goes on vacation from `start` to `until`: charge what their clock used
    until `start`, and restart it at `until`."""
    if table.turn_started_at is None or mover.clock_left is None or mover.player is None:
        return
    used = _used(mover, table.turn_started_at, start)
    mover.clock_left = max(mover.clock_left - used, timedelta(0))
    _restart(table, mover, until, start)


def resume(table: Table, mover: Seat, now: datetime) -> None:
    """The mover's vacation ended early, at `now`: their clock runs again from now."""
    started = table.turn_started_at
    if started is not None and started > now and mover.clock_left is not None:
        _restart(table, mover, now, now)


def stop(table: Table) -> None:
    """No clock runs: the game ended or the table closed."""
    table.deadline = table.turn_started_at = table.remind_at = None


def ran_out(table: Table, now: datetime) -> bool:
    """The seat to move has no time left at `now`."""
    return table.deadline is not None and table.deadline <= now


def _run(table: Table, seats: Sequence[Seat], game: GameValue, now: datetime) -> None:
    mover = seats[game.to_move]
    assert mover.player is not None
    back = mover.player.vacation_until
    _restart(table, mover, max(now, back) if back else now, now)


def _used(seat: Seat, start: datetime, end: datetime) -> timedelta:
    """What the seat's clock used from `start` to `end`: the time outside its player's
    quiet hours."""
    assert seat.player is not None
    return counted(quiet_hours(seat.player), start, end)


def _restart(table: Table, mover: Seat, start: datetime, now: datetime) -> None:
    """The mover's clock runs from `start` (now, or a vacation's end) with their bank,
    through their quiet hours."""
    assert mover.clock_left is not None and mover.player is not None
    quiet = quiet_hours(mover.player)
    table.turn_started_at = start
    table.deadline = reached(quiet, start, mover.clock_left)
    moments = reminders(quiet, start, mover.clock_left, mover.player.reminder_hours)
    table.remind_at = next_reminder(moments, now)
