"""A player's vacation: days on which none of their clocks runs, at every table.

Each player has vacation days that accrue: VACATION_START_DAYS when they are created,
then VACATION_DAYS_A_YEAR a year (a day's worth every 12 days or so), never more than
VACATION_CAP_DAYS. A vacation of some whole days starts now and takes them at once; one
ended early gives back what was left of it. Auto-vacation (on unless the player turns it
off): when a clock of theirs runs out and vacation is left, AUTO_VACATION_DAYS of it (or
what is left, if less) starts at that deadline instead of the game being lost; the
player is told (an `auto_vacation` event at that table makes a notice of its own), and
it repeats while vacation is left.

Starting or ending a vacation changes every open table of the player: their running
clocks are settled and restarted (`clocks.pause`, `clocks.resume`), and each table's
version moves on so that both sides see it (the opponent sees "on vacation until").
Lock order, everywhere: the player's open tables by id, then the player's row. A change
that finds a clock run out while it holds one table's lock cannot take the others, so it
does not start the auto-vacation itself: it says it is due (`AutoVacationDue`), and the
caller starts it after that transaction, then goes on (`services._on_game`, the sweep).

Quiet hours (`set_quiet_hours`) are a player's nightly time off the clock, and change
their tables as a vacation does, under the same locks.

Days are CLOCK_DAY_SECONDS long, as the clocks' are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from bansugoroku.games import clocks, outbox, payloads, shapes
from bansugoroku.games.errors import NotOnVacation, NoVacationLeft, OnVacation
from bansugoroku.games.models import Event, EventKind, Player, Seat, Table, TableState

VACATION_START_DAYS = 10
VACATION_DAYS_A_YEAR = 30
VACATION_CAP_DAYS = 30
AUTO_VACATION_DAYS = 1
AUTO_VACATION_LEAST_DAYS = 1 / 24
"""An auto-vacation takes at least an hour's worth: less left counts as none."""


@dataclass(frozen=True)
class AutoVacationDue:
    """A clock of `player_id` ran out at `at` at table `table_id`, and their
    auto-vacation is to start then."""

    player_id: int
    at: datetime
    table_id: int


def days(count: float) -> timedelta:
    return timedelta(seconds=count * settings.CLOCK_DAY_SECONDS)


def left(player: Player, now: datetime) -> timedelta:
    """The vacation the player has at `now`, accrued and capped."""
    if player.vacation_banked is None or player.vacation_banked_at is None:
        base, since = days(VACATION_START_DAYS), player.created_at
    else:
        base, since = player.vacation_banked, player.vacation_banked_at
    accrued = base + max(now - since, timedelta(0)) * VACATION_DAYS_A_YEAR / 365
    return min(accrued, days(VACATION_CAP_DAYS))


def on_vacation(player: Player, now: datetime) -> bool:
    return player.vacation_until is not None and player.vacation_until > now


def shown(player: Player, now: datetime) -> shapes.VacationJson:
    """The player's vacation as the API and the settings page show it."""
    until = player.vacation_until if on_vacation(player, now) else None
    return {
        "until": until.isoformat() if until else None,
        "days_left": round(left(player, now) / days(1), 2),
        "days_a_year": VACATION_DAYS_A_YEAR,
        "cap_days": VACATION_CAP_DAYS,
        "auto": player.auto_vacation,
    }


def auto_due(
    player: Player | None, deadline: datetime, now: datetime, table_id: int
) -> AutoVacationDue | None:
    """Whether the player's clock that ran out at `deadline` starts an auto-vacation
    instead of losing: it is on, vacation is left, and none covers the deadline."""
    if player is None or not player.auto_vacation or on_vacation(player, deadline):
        return None
    if left(player, now) < days(AUTO_VACATION_LEAST_DAYS):
        return None
    return AutoVacationDue(player.pk, deadline, table_id)


def start(*, player_id: int, days_count: int, now: datetime) -> Player:
    """Start a vacation of `days_count` days now; OnVacation during one, NoVacationLeft
    when the player has fewer days."""
    with transaction.atomic():
        tables, player = _lock(player_id)
        if on_vacation(player, now):
            raise OnVacation(f"you are on vacation until {player.vacation_until:%Y-%m-%dT%H:%MZ}")
        length = days(days_count)
        have = left(player, now)
        if length > have:
            raise NoVacationLeft(
                f"{days_count} days asked for, {have / days(1):.1f} left", days_left=have / days(1)
            )
        _take(player, tables, now, now, length)
    return player


def start_auto(due: AutoVacationDue, now: datetime) -> dict[str, int]:
    """Start the auto-vacation a change found due, if it still is under the locks; the
    version each table had before this moved it on, by code (none if it did not start):
    a change that was waiting for it is no staler than it was."""
    with transaction.atomic():
        tables, player = _lock(due.player_id)
        if auto_due(player, due.at, now, due.table_id) is None:
            return {}
        before = {table.code: table.version for table, _ in tables}
        length = min(days(AUTO_VACATION_DAYS), left(player, now))
        _take(player, tables, due.at, now, length)
        _tell(player, tables, due, now)
    return before


def _tell(player: Player, tables: Locked, due: AutoVacationDue, now: datetime) -> None:
    """The `auto_vacation` event at the table whose clock ran out, for the player's
    notice; handed on after the commit."""
    table, mover = next((t, m) for t, m in tables if t.pk == due.table_id)
    assert mover is not None and player.vacation_until is not None
    table.last_event += 1
    table.save(update_fields=["last_event"])
    payload: payloads.AutoVacation = {
        "until": player.vacation_until.isoformat(),
        "days_left": round(left(player, now) / days(1), 2),
    }
    event = Event.objects.create(
        table=table,
        game=table.current_game,
        sequence=table.last_event,
        kind=EventKind.AUTO_VACATION,
        seat=mover.number,
        payload=payload,
    )
    outbox.hand_on_after_commit(table.pk, [event])


def end(*, player_id: int, now: datetime) -> Player:
    """End the player's vacation now, giving back the rest of it; NotOnVacation if none
    runs."""
    with transaction.atomic():
        tables, player = _lock(player_id)
        if not on_vacation(player, now):
            raise NotOnVacation("you are not on vacation")
        assert player.vacation_until is not None
        rest = player.vacation_until - now
        _bank(player, min(left(player, now) + rest, days(VACATION_CAP_DAYS)), now)
        player.vacation_until = now
        player.save(update_fields=["vacation_until", "vacation_banked", "vacation_banked_at"])
        for table, mover in tables:
            if mover is not None:
                clocks.resume(table, mover, now)
        _save(tables)
    return player


def set_quiet_hours(
    *,
    player_id: int,
    time_zone: str,
    start_hour: int | None,
    end_hour: int | None,
    days_off: list[int],
    now: datetime,
) -> Player:
    """Set the player's time zone and quiet hours. Each clock of theirs that runs is
    charged under the old ones until now and runs on under the new; one that ran out
    already is left to the sweep. Every open table's version moves on (their seat
    shows the quiet hours); a setting that changes nothing changes nothing."""
    with transaction.atomic():
        tables, player = _lock(player_id)
        fields = {
            "time_zone": time_zone,
            "quiet_from": start_hour,
            "quiet_to": end_hour,
            "days_off": sorted(days_off),
        }
        if all(getattr(player, name) == value for name, value in fields.items()):
            return player
        running = [(t, m) for t, m in tables if m is not None and not clocks.ran_out(t, now)]
        for table, mover in running:
            clocks.settle(table, mover, now)
        for name, value in fields.items():
            setattr(player, name, value)
        player.save(update_fields=list(fields))
        for table, mover in running:
            clocks.run_on(table, mover, now)
        _save(tables)
    return player


def set_auto(*, player_id: int, on: bool) -> None:
    Player.objects.filter(pk=player_id).update(auto_vacation=on)


Locked = list[tuple[Table, Seat | None]]
"""Each open table of the player, with the player's seat if their clock runs there."""


def _lock(player_id: int) -> tuple[Locked, Player]:
    """Lock the player's open tables, then the player, and read the tables again whole:
    a lock that waited for a move re-reads the table row it locks but not the game
    joined to it (PostgreSQL's READ COMMITTED), and would pause the wrong seat's clock."""
    ids = list(
        Table.objects.select_for_update(of=("self",))
        .filter(seats__player_id=player_id)
        .exclude(state=TableState.CLOSED)
        .order_by("id")
        .values_list("id", flat=True)
    )
    tables = list(Table.objects.filter(id__in=ids).select_related("current_game").order_by("id"))
    player = Player.objects.select_for_update().get(pk=player_id)
    seats = Seat.objects.filter(table__in=tables, player_id=player_id)
    mine = {seat.table_id: seat for seat in seats}
    locked: Locked = []
    for table in tables:
        seat = mine[table.pk]
        seat.player = player
        running = table.deadline is not None and table.seat_to_move == seat.number
        locked.append((table, seat if running else None))
    return locked, player


def _take(
    player: Player, tables: Locked, start_at: datetime, now: datetime, length: timedelta
) -> None:
    _bank(player, left(player, now) - length, now)
    player.vacation_until = start_at + length
    player.save(update_fields=["vacation_until", "vacation_banked", "vacation_banked_at"])
    for table, mover in tables:
        if mover is not None:
            clocks.pause(table, mover, start_at, player.vacation_until)
    _save(tables)


def _bank(player: Player, amount: timedelta, now: datetime) -> None:
    player.vacation_banked, player.vacation_banked_at = max(amount, timedelta(0)), now


def _save(tables: Locked) -> None:
    """Write the clocks and move every table's version on: both sides see the change."""
    for table, mover in tables:
        table.version += 1  # updated_at is the save's own time
        table.save(
            update_fields=["version", "updated_at", "deadline", "turn_started_at", "remind_at"]
        )
        if mover is not None:
            mover.save(update_fields=["clock_left"])
