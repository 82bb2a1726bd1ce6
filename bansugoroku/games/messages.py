"""A word to the other player: short plain-text messages at a table, read only by its
two seats (anyone else gets the missing-table answer, as for every table read). Each
seat may mute the other's messages, and report one to the house, which hides it for the
reporter and lists it in the admin with its table.

Messages change no game state and move no version, so a move a client is making is
never refused as stale for one. Each also writes a `message` event to the outbox, for
the events feed and the notices (`notifications.making`); numbering it takes the table's
lock for a moment, as every event does. They are not activity: a stream of messages does
not keep a table, and the other player's name, from its idle close."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, QuerySet

from bansugoroku.games import events, outbox, shapes, store
from bansugoroku.games.errors import MessageNotFound, TableClosed
from bansugoroku.games.models import Message, MessageReport, Seat, Table, TableState
from bansugoroku.games.store import Caller, seat_of

PAGE = 100
"""Messages read at a time, the oldest first."""


def send(table: Table, caller: Caller, text: str) -> shapes.MessageJson:
    """The caller's message at `table` (as `selectors.table_for_player` reads it), and
    its event. A message written by the seat to move goes with their move: the other is
    told of it in the "your turn" notice that move brings, not in one of its own."""
    with transaction.atomic():
        table = store.lock_table(table.code, caller)
        seat = seat_of(table, caller)
        if table.state == TableState.CLOSED:
            raise TableClosed("this table is closed: its messages are kept, none is added")
        message = Message.objects.create(table=table, seat=seat.number, text=text)
        written = events.message_written(
            table, message, with_move=table.seat_to_move == seat.number
        )
        written.save()
        Table.objects.filter(pk=table.pk).update(last_event=table.last_event)
        outbox.hand_on_after_commit(table.pk, [written])
    return json_of(message, seat)


def read(table: Table, caller: Caller, after: int = 0) -> shapes.Messages:
    """The messages the caller may read since id `after`: not the other seat's while
    they mute it, nor those they reported."""
    seat = seat_of(table, caller)
    found = list(shown_to(seat).filter(pk__gt=after).order_by("pk")[:PAGE])
    return {
        "muting": seat.muting,
        "messages": [json_of(message, seat) for message in found],
    }


def shown_to(seat: Seat) -> QuerySet[Message]:
    """The messages at `seat`'s table its player may read: not the other seat's while
    they mute it, nor those they reported."""
    shown = Message.objects.filter(table_id=seat.table_id).exclude(
        reports__reporter_id=seat.player_id
    )
    return shown.filter(seat=seat.number) if seat.muting else shown


def unread(seat: Seat) -> QuerySet[Message]:
    """The other seat's messages `seat`'s player may read and has not seen yet: written
    since they last looked at the table."""
    other = shown_to(seat).exclude(seat=seat.number)
    return other.filter(created_at__gt=seat.last_seen_at) if seat.last_seen_at else other


def json_of(message: Message, reader: Seat) -> shapes.MessageJson:
    """The message as `reader`'s seat reads it."""
    return {
        "id": message.pk,
        "seat": message.seat,
        "yours": message.seat == reader.number,
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def mute(table: Table, caller: Caller, muting: bool) -> None:
    """The caller mutes the other seat's messages, or no longer."""
    seat = seat_of(table, caller)
    Seat.objects.filter(pk=seat.pk).update(muting=muting)


def report(table: Table, caller: Caller, message_id: int) -> None:
    """The caller reports the other seat's message; reporting it again changes nothing."""
    seat = seat_of(table, caller)
    message = Message.objects.filter(Q(table=table, pk=message_id) & ~Q(seat=seat.number)).first()
    if message is None or seat.player_id is None:
        raise MessageNotFound(f"no message {message_id} of the other seat at this table")
    MessageReport.objects.get_or_create(message=message, reporter_id=seat.player_id)
