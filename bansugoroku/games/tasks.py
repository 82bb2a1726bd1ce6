"""Celery tasks that read the events outbox: delivery, the relay that retries it, the
CPU's turn and the review of a finished game; the hourly close of idle tables, which
writes events of its own, and the end of games whose clock ran out.

Delivery hands a table's new events to the readers registered with the outbox
(`outbox.add_reader`) and marks them delivered. Each reader is idempotent, because the
relay may deliver an event twice when a worker dies between reading and marking: a
`turn_started` for a CPU seat queues the CPU's play of that very turn
(`outbox.cpu_turns`), which does nothing once the turn is played; the notices to
players are made in the same transaction (`notifications`), at most one per event,
player and channel. Live updates will read the same events.

The CPU's play is a message only, after the events are marked delivered; the recovery
queues it again where it was lost.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Max, Min
from django.utils import timezone

from bansugoroku.games import idle, retention, reviews, services, timeouts
from bansugoroku.games.models import Event, Table, TableState
from bansugoroku.games.outbox import (
    CPU_TURN,
    DELIVER,
    DELIVER_MANY,
    REVIEW,
    hand_on,
    queue_cpu_turn,
    queue_review,
    readers,
)

log = logging.getLogger(__name__)

RELAY_AFTER = timedelta(minutes=1)
"""An event not delivered by then was lost on its way (broker down, worker killed)."""


@shared_task(name=DELIVER, ignore_result=True)
def deliver_events(table_id: int, first: int, last: int) -> int:
    """Hand on the table's events `first` to `last`; returns how many were new."""
    with transaction.atomic():
        # Two deliveries of the same events (the relay's and a late one) skip each other's
        # rows; only the events are locked, not the table a change may be holding.
        events = list(
            Event.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(table_id=table_id, sequence__range=(first, last), delivered_at=None)
            .select_related("table")
        )
        for read in readers():
            read(table_id, events)
        Event.objects.filter(pk__in=[event.pk for event in events]).update(
            delivered_at=timezone.now()
        )
    return len(events)


@shared_task(name=DELIVER_MANY, ignore_result=True)
def deliver_events_of_tables(ranges: list[list[int]]) -> int:
    """`deliver_events` for each `[table, first, last]`: the idle sweep's batch of
    closings in one message; returns how many events were new."""
    return sum(deliver_events(table_id, first, last) for table_id, first, last in ranges)


@shared_task(name=CPU_TURN, ignore_result=True)
def cpu_turn(code: str, game_number: int, turn_number: int) -> bool:
    """Play the CPU's turn; False when it was played already or is no longer its turn."""
    return (
        services.cpu_move(code=code, game_number=game_number, turn_number=turn_number) is not None
    )


@shared_task(name=REVIEW, ignore_result=True)
def review_game(game_id: int) -> bool:
    """Review a finished game and store it (`reviews.store_review`); False when it was
    stored already, so a second delivery of the game's end costs one query."""
    return reviews.store_review(game_id)


@shared_task(name="games.recover_reviews", ignore_result=True)
def recover_reviews() -> int:
    """Queue again the reviews whose message was lost (`reviews.lost_reviews`), every
    RETRY_AFTER (beat); returns how many were queued. A review queued twice is stored
    once."""
    lost = reviews.lost_reviews(timezone.now())
    for game_id in lost:
        log.warning("the review of game %s waited too long: queued again", game_id)
        queue_review(game_id)
    return len(lost)


@shared_task(name="games.recover_cpu_turns", ignore_result=True)
def recover_cpu_turns() -> int:
    """Queue again the CPU's turn wherever it is to play and nothing changed at the table
    for CPU_TURN_RETRY_AFTER: its message was lost, with the broker down when the events
    were delivered or with the worker killed while playing it (Celery acknowledges a
    message before running its task). A turn queued twice is played once: `cpu_turn`
    does nothing once it is played. Returns how many were queued.

    The tables come from an index that holds only those waiting for the CPU
    (`table_cpu_to_move`), so this reads a handful of rows however many tables there are.
    """
    waiting = Table.objects.filter(
        cpu_to_move=True,
        state=TableState.PLAYING,
        updated_at__lt=timezone.now() - settings.CPU_TURN_RETRY_AFTER,
    ).values_list("code", "current_game__number", "current_game__turn_number")
    count = 0
    for code, game, turn in waiting:
        log.warning(
            "the CPU's turn %s of game %s at table %s waited too long: queued again",
            turn,
            game,
            code,
        )
        queue_cpu_turn(code, game, turn)
        count += 1
    return count


@shared_task(name="games.relay_events", ignore_result=True)
def relay_events() -> int:
    """Queue again every event older than `RELAY_AFTER` that was never delivered, one
    task per table; returns how many tables had some."""
    waiting = (
        Event.objects.filter(delivered_at=None, created_at__lt=timezone.now() - RELAY_AFTER)
        .values("table_id")
        .annotate(first=Min("sequence"), last=Max("sequence"))
    )
    count = 0
    for row in waiting:
        hand_on(row["table_id"], row["first"], row["last"])
        count += 1
    return count


@shared_task(name=retention.PURGE_TASK, ignore_result=True)
def purge() -> tuple[int, int]:
    """Delete the tables and players past their retention (`retention.purge`), hourly."""
    purged = retention.purge()
    return purged.tables, purged.players


@shared_task(name="games.close_idle_tables", ignore_result=True)
def close_idle_tables() -> int:
    """Close the tables idle for IDLE_CLOSE_DAYS and warn those near it (beat, hourly);
    returns how many closed."""
    done = idle.sweep(now=timezone.now())
    log.info("%s", done.summary())
    return done.closed


@shared_task(name="games.time_out_games", ignore_result=True)
def time_out_games() -> int:
    """End the games whose mover's clock ran out, then remind the movers near their
    deadline (beat, every CLOCK_SWEEP_SECONDS); returns how many games ended."""
    now = timezone.now()
    done = timeouts.sweep(now=now)
    if done.timed_out or done.cancelled:
        log.info("%s", done.summary())
    reminded = timeouts.remind(now=now)
    if reminded.sent:
        log.info("%s", reminded.summary())
    return done.timed_out + done.cancelled
