"""A whole game played by mail alone: a real worker mails each "your turn" through the
loopback Postmark, and each player's reply, posted over HTTP to the site's inbound
webhook in Postmark's format, plays the move, which the worker answers and tells the
opponent, until the game is over."""

from __future__ import annotations

import random
import time

import pytest

from bansugoroku.celery import app
from bansugoroku.games import selectors
from bansugoroku.games.models import Game, Seat
from bansugoroku.games.store import load_table
from engine.cpu import levels
from engine.notation import format_play
from harness.postmark import FakePostmark, Received
from harness.workers import worker_processes
from notifications.models import InboundMail
from tests.factories import EmailAddressFactory, GameFactory, PlayerFactory
from tests.notifications.inbound import SECRET, inbound, post_over_http, quoted_reply
from tests.processes import needs_a_broker

DOMAIN = "reply.example.com"
ADDRESSES = {"Aiko": "aiko@example.com", "Ben": "ben@example.com"}
GAME_TIMEOUT = 300

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), needs_a_broker]


def next_turn_mail(postmark: FakePostmark, answered: set[str], timeout: float = 30) -> Received:
    """The first "your turn" mail with a reply address not answered yet."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for mail in list(postmark.received):
            reply_to = mail.body.get("ReplyTo") or ""
            if reply_to.startswith("play+") and reply_to not in answered:
                return mail
        time.sleep(0.05)
    raise AssertionError(f"no new turn mail: {[m.body['Subject'] for m in postmark.received]}")


def chosen_play(mail: Received, rng: random.Random) -> str:
    """The move the mail's reader sends: Easy's choice, in the notation the mail shows
    (the reader's own numbering)."""
    player = next(name for name, address in ADDRESSES.items() if address == mail.to)
    table = load_table(mail.body["Subject"].rsplit(" ", 1)[-1])
    seat = next(s for s in table.seats.all() if s.player.name == player)
    turn = selectors.turn_to_play(table, seat)
    assert turn is not None, f"{player} got a turn mail out of turn"
    moves = levels.choose(turn.position, turn.dice, turn.rules, levels.Level.EASY, rng)
    return format_play(turn.position, moves)


def test_a_whole_game_played_by_replying_to_the_mails(live_server, postmark, settings):
    settings.ANYMAIL = settings.ANYMAIL | {"WEBHOOK_SECRET": SECRET}
    settings.INBOUND_DOMAIN = DOMAIN
    settings.INBOUND_PROVIDER = "postmark"
    app.control.purge()
    inbound_env = {"INBOUND_DOMAIN": DOMAIN, "ANYMAIL_WEBHOOK_SECRET": SECRET}
    rng = random.Random(20)
    answered: set[str] = set()
    with worker_processes(postmark, **inbound_env):
        game = GameFactory(host=PlayerFactory(name="Aiko"), guest=PlayerFactory(name="Ben"))
        for seat in Seat.objects.filter(table=game.table).select_related("player"):
            EmailAddressFactory(player=seat.player, address=ADDRESSES[seat.player.name])
        deadline = time.monotonic() + GAME_TIMEOUT
        while not Game.objects.get(pk=game.pk).is_over:
            assert time.monotonic() < deadline, "the game did not end in time"
            mail = next_turn_mail(postmark, answered)
            offer = ("Reply with your move", "Your only play is")
            assert any(said in mail.body["TextBody"] for said in offer), mail.body["TextBody"]
            reply_to = mail.body["ReplyTo"]
            answered.add(reply_to)
            body = inbound(reply_to, mail.to, quoted_reply(chosen_play(mail, rng), "Your turn"))
            assert post_over_http(live_server.url, body) == 200
            while InboundMail.objects.filter(outcome="played").count() < len(answered):
                read = list(InboundMail.objects.values("outcome", "detail"))
                assert time.monotonic() < deadline and read[-1]["outcome"] in (
                    "pending",
                    "played",
                ), read
                time.sleep(0.05)
        ended = Game.objects.get(pk=game.pk)
        over = f"Game 1 at {game.table.code} is over"
        while sum(m.body["Subject"] == over for m in postmark.received) < 2:
            assert time.monotonic() < deadline, "no game-over mail to both"
            time.sleep(0.05)
    assert ended.winner is not None and ended.turn_number > 10
    subjects = [mail.body["Subject"] for mail in postmark.received]
    assert sum(s.startswith("You played") for s in subjects) >= len(answered) - 1
    assert not InboundMail.objects.exclude(outcome="played").exists()
