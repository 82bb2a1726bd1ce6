"""A word to the other player in the notices: with the move it came with, in the
"your turn" notice; written while waiting, in a notice of its own, at most one every
NOTICE_EMAIL_SPACING on each channel and never once read at the table. Always quoted
as text, with nothing a mail program would make a link of."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from bansugoroku.games import messages, services
from bansugoroku.games.models import MessageReport, Seat, Table
from notifications.channels import sending
from notifications.mails.unlinked import unlinked
from notifications.models import Kind, Notice, NoticeStatus
from tests.factories import GameFactory, PlayerFactory
from tests.finished_games import whole_play
from tests.notifications.helpers import deliver, notice, unseen
from tests.notifications.loopback import Reply
from tests.notifications.push_service import Browser

pytestmark = pytest.mark.django_db

HOSTILE = "<b>gg</b> see https://evil.example/x or mail me@evil.example\nsecond line"


@pytest.fixture
def table() -> Table:
    """Aiko to move, Ben waiting; both with a confirmed address, nobody looking."""
    aiko = PlayerFactory(name="Aiko", address="aiko@example.com")
    ben = PlayerFactory(name="Ben", address="ben@example.com")
    table = GameFactory(host=aiko, guest=ben).table
    deliver(table)
    unseen(table)
    return table


def seated(table: Table) -> tuple[Seat, Seat]:
    black, white = Seat.objects.filter(table=table).select_related("player").order_by("number")
    return black, white


def test_a_message_written_while_waiting_is_mailed_as_text_with_no_link(table, postmark):
    aiko, ben = (seat.player for seat in seated(table))
    messages.send(table, ben, HOSTILE)
    deliver(table)
    told = notice(table, aiko, Kind.MESSAGE)

    assert sending.send_notice(told.pk) == "sent"

    mail = postmark.received[-1]
    assert mail.body["Subject"] == f"Ben wrote to you at {table.code}"
    text, html = mail.body["TextBody"], mail.body["HtmlBody"]
    assert "Ben wrote:\n> <b>gg</b> see https:\u2215\u2215evil\u2024example/x or mail " in text
    assert "me\uff20evil\u2024example\n> second line" in text
    assert "&lt;b&gt;gg&lt;/b&gt;" in html and "<b>gg" not in html
    for body in (text, html):
        assert "evil.example" not in body and "https://evil" not in body


def test_a_message_written_with_the_move_comes_in_the_your_turn_notice(table, postmark):
    aiko, ben = (seat.player for seat in seated(table))
    messages.send(table, aiko, "Good luck!")
    table.refresh_from_db()
    code = table.code
    services.game_move(player=aiko, code=code, version=table.version, moves=whole_play(code))
    unseen(table)
    made = deliver(table)

    assert not [n for n in made if n.kind == Kind.MESSAGE]  # none of its own
    assert sending.send_notice(notice(table, ben, Kind.YOUR_TURN).pk) == "sent"
    text = postmark.received[-1].body["TextBody"]
    assert "Aiko played " in text
    assert "Aiko wrote:\n> Good luck!\n" in text


def test_a_message_read_at_the_table_or_muted_or_reported_is_not_told(table, postmark):
    aiko, ben = (seat.player for seat in seated(table))
    for text in ("one", "two", "three"):
        messages.send(table, ben, text)
    deliver(table)
    read, muted, reported = Notice.objects.filter(
        player=aiko, kind=Kind.MESSAGE, channel="email"
    ).order_by("pk")
    black, _ = seated(table)

    Seat.objects.filter(pk=black.pk).update(last_seen_at=timezone.now() - timedelta(hours=1))
    for message in messages.unread(black):
        MessageReport.objects.create(message=message, reporter=aiko)
    assert sending.send_notice(reported.pk).startswith("skipped: the message was read")
    MessageReport.objects.all().delete()
    Seat.objects.filter(pk=black.pk).update(muting=True)
    assert sending.send_notice(muted.pk).startswith("skipped: the message was read")
    Seat.objects.filter(pk=black.pk).update(muting=False, last_seen_at=timezone.now())
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert sending.send_notice(read.pk).startswith("skipped: the message was read")
    assert not postmark.received[1:]  # the first mail was Aiko's turn's


def test_message_notices_are_spaced_and_the_next_folds_the_rest_of_its_table(
    table, postmark, settings
):
    aiko, ben = (seat.player for seat in seated(table))
    messages.send(table, ben, "first")
    deliver(table)
    first = notice(table, aiko, Kind.MESSAGE)
    assert sending.send_notice(first.pk) == "sent"
    messages.send(table, ben, "second")
    messages.send(table, ben, "third")
    deliver(table)
    second, third = Notice.objects.filter(
        player=aiko, kind=Kind.MESSAGE, status=NoticeStatus.PENDING
    ).order_by("pk")

    said = sending.send_notice(second.pk)
    assert said.startswith("delayed until") and "a message notice went out recently" in said
    second.refresh_from_db()
    assert second.next_attempt_at > timezone.now() + settings.NOTICE_EMAIL_SPACING * 0.9

    with time_machine.travel(second.next_attempt_at + timedelta(seconds=1)):
        assert sending.send_notice(second.pk) == "sent"
    third.refresh_from_db()
    assert (third.status, third.outcome) == (NoticeStatus.SKIPPED, f"folded into {second.pk}")
    text = postmark.received[-1].body["TextBody"]
    assert "> first\n> second\n> third\n" in text


def test_a_your_turn_mail_folds_the_message_notices_of_the_tables_it_tells(table, postmark):
    aiko, ben = (seat.player for seat in seated(table))
    Notice.objects.filter(player=aiko, kind=Kind.YOUR_TURN).delete()
    messages.send(table, ben, "still there?")
    deliver(table)
    waiting = notice(table, aiko, Kind.MESSAGE)
    turn = Notice.objects.create(
        event=table.events.get(kind="turn_started"),
        player=aiko,
        table=table,
        channel="email",
        kind=Kind.YOUR_TURN,
        next_attempt_at=timezone.now(),
    )

    assert sending.send_notice(turn.pk) == "sent"
    assert "Ben wrote:\n> still there?\n" in postmark.received[-1].body["TextBody"]
    waiting.refresh_from_db()
    assert (waiting.status, waiting.outcome) == (NoticeStatus.SKIPPED, f"folded into {turn.pk}")


def test_a_push_notice_quotes_the_message_shortened(table, push_service):
    aiko, ben = (seat.player for seat in seated(table))
    browser = Browser(push_service, "aiko-phone")
    push_service.route("/push/", Reply(201))
    browser.subscribe(aiko)
    messages.send(table, ben, "<i>x</i> " + "é" * 295)
    deliver(table)

    assert sending.send_notice(notice(table, aiko, Kind.MESSAGE, "push").pk) == "sent"
    payload = browser.decrypt(push_service.requests[-1])
    assert payload["title"] == f"Ben wrote to you at {table.code}"
    assert payload["body"].startswith(f"Table {table.code}, against Ben. Ben wrote: <i>x</i> ééé")
    assert len(payload["body"]) <= 600


@pytest.mark.parametrize(
    ("text", "unlinked_text"),
    [
        ("see evil.example", "see evil\u2024example"),
        ("http://x.y/z", "http:\u2215\u2215x\u2024y/z"),
        ("a@b.c", "a\uff20b\u2024c"),
        ("The end. Well played!", "The end. Well played!"),
        ("3.5 points", "3\u20245 points"),
    ],
)
def test_what_looks_like_an_address_is_swapped_for_look_alikes(text, unlinked_text):
    assert unlinked(text) == unlinked_text


def test_a_long_run_of_what_the_swaps_look_for_is_swapped_throughout():
    """Each pattern reads one character either side, so neighbouring matches do not hide
    each other: every dot, slash pair and @ of a 250,000-character run is swapped."""
    worst = "a." * 50_000 + "a" + "://" * 50_000 + "a@" * 50_000 + "a"
    swapped = unlinked(worst)
    assert swapped.count("\u2024") == swapped.count("\uff20") == 50_000
    assert swapped.count("\u2215") == 100_000
