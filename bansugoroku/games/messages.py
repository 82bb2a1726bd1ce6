"""A word to the other player: short plain-text messages at a table, read only by its
two seats (anyone else gets the missing-table answer, as for every table read). Each
seat may mute the other's messages, and report one to the house, which hides it for the
reporter and lists it in the admin with its table.

Messages change no game state, so they take no table lock and move no version: they
are rows of their own, read after an id as the events are."""

from __future__ import annotations

from django.db.models import Q

from bansugoroku.games import shapes
from bansugoroku.games.errors import MessageNotFound, TableClosed
from bansugoroku.games.models import Message, MessageReport, Seat, Table, TableState
from bansugoroku.games.store import Caller, seat_of

PAGE = 100
"""Messages read at a time, the oldest first."""


def send(table: Table, caller: Caller, text: str) -> shapes.MessageJson:
    """The caller's message at `table` (as `selectors.table_for_player` reads it)."""
    seat = seat_of(table, caller)
    if table.state == TableState.CLOSED:
        raise TableClosed("this table is closed: its messages are kept, none is added")
    return _json(Message.objects.create(table=table, seat=seat.number, text=text), seat)


def read(table: Table, caller: Caller, after: int = 0) -> shapes.Messages:
    """The messages the caller may read since id `after`: not the other seat's while
    they mute it, nor those they reported."""
    seat = seat_of(table, caller)
    shown = Message.objects.filter(table=table, pk__gt=after).exclude(
        reports__reporter_id=seat.player_id
    )
    if seat.muting:
        shown = shown.filter(seat=seat.number)
    found = list(shown.order_by("pk")[:PAGE])
    return {
        "muting": seat.muting,
        "messages": [_json(message, seat) for message in found],
    }


def _json(message: Message, reader: Seat) -> shapes.MessageJson:
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
