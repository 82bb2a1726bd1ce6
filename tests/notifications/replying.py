"""A game whose players play by replying to its mails: the "your turn" e-mail, sent as
the worker sends it, and the legal plays to reply with (the `replies` fixture, in
conftest, turns the inbound webhook on)."""

from __future__ import annotations

from bansugoroku.games import selectors
from bansugoroku.games.models import Seat, Table
from bansugoroku.games.store import load_table
from engine.notation import format_play
from engine.plays import legal_plays
from harness.postmark import FakePostmark, Received
from notifications.channels import sending
from notifications.models import Kind
from tests.factories import EmailAddressFactory, GameFactory, PlayerFactory
from tests.notifications.helpers import deliver, unseen

AIKO, BEN = "aiko@example.com", "ben@example.com"
DOMAIN = "reply.example.com"


def new_game(**kwargs: object) -> Table:
    """A game in progress, the host Aiko's turn; both with confirmed addresses."""
    game = GameFactory(host=PlayerFactory(name="Aiko"), **kwargs)
    table = game.table
    for seat in Seat.objects.filter(table=table).select_related("player"):
        if seat.player_id:
            address = AIKO if seat.player.name == "Aiko" else BEN
            EmailAddressFactory(player=seat.player, address=address)
    return table


def turn_mail(table: Table, postmark: FakePostmark) -> Received:
    """The "your turn" e-mail of the player to move, sent as the worker sends it."""
    unseen(table)
    before = len(postmark.received)
    table.refresh_from_db()
    to_move = Seat.objects.get(table=table, number=table.seat_to_move).player
    for notice in deliver(table):
        if (notice.player, notice.kind, notice.status) == (to_move, Kind.YOUR_TURN, "pending"):
            sending.send_notice(notice.pk)
    return postmark.wait_for(before + 1)[-1]


def plays(table: Table) -> list[str]:
    """The legal plays of the player to move, as they write them."""
    table = load_table(table.code)
    seat = next(s for s in table.seats.all() if s.number == table.seat_to_move)
    turn = selectors.turn_to_play(table, seat)
    assert turn is not None
    legal = legal_plays(turn.position, turn.dice, turn.rules)
    return [format_play(turn.position, play.moves) for play in legal]


def version(table: Table) -> int:
    table.refresh_from_db()
    return table.version
