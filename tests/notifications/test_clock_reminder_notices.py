"""The "time running out" notice: written by the real sweep, mailed over real SMTP to
the mover alone, skipped once the turn is played, turned off like any other kind, and
said in each language; and the notice that a day of vacation started when the time ran
out. The clock is moved, never waited for."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from bansugoroku.games import timeouts
from bansugoroku.games.models import Event, Table
from notifications.channels import sending
from notifications.consent import preferences
from notifications.mails import content
from notifications.models import Notice
from tests.factories import GameFactory, PlayerFactory, TurnFactory
from tests.notifications.helpers import LOCALES, deliver, notice

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)


def pair(**kwargs):
    host = PlayerFactory(name="Aiko", address="aiko@example.com", **kwargs)
    guest = PlayerFactory(name="Ben", address="ben@example.com", **kwargs)
    table = GameFactory(host=host, guest=guest, clock_days=3).table
    table.refresh_from_db()
    return host, guest, table


def test_the_mover_alone_is_mailed_that_their_time_runs_out(postmark):
    host, guest, table = pair()
    mover = (host, guest)[table.seat_to_move]

    with time_machine.travel(table.deadline - 24 * HOUR, tick=False):
        assert timeouts.remind(now=timezone.now()).sent == {24: 1}
        notices = [n for n in deliver(table) if n.kind == "clock_low"]
        assert [(n.player, n.channel) for n in notices] == [(mover, "email")]
        assert sending.send_notice(notices[0].pk) == "sent"

    [mail] = postmark.received
    assert mail.to == f"{mover.name.lower()}@example.com"
    assert mail.body["Subject"] == f"Your time to move at {table.code} runs out in 24 hours"
    assert "you lose the game on time" in mail.body["TextBody"]


def test_a_reminder_of_a_turn_played_since_is_not_sent(postmark):
    host, guest, table = pair()
    with time_machine.travel(table.deadline - 2 * HOUR, tick=False):
        timeouts.remind(now=timezone.now())
        deliver(table)
        mover = (host, guest)[table.seat_to_move]
        TurnFactory(game=Table.objects.get(pk=table.pk).current_game)
        result = sending.send_notice(notice(table, mover, "clock_low").pk)
    assert result == "skipped: the turn was played already"
    assert postmark.received == []


def test_a_player_who_turned_the_kind_off_gets_none():
    host, guest, table = pair()
    for player in (host, guest):
        preferences.preferences_update(
            player=player, kinds={"clock_low": {"email": False, "push": False}}
        )
    with time_machine.travel(table.deadline - 24 * HOUR, tick=False):
        assert timeouts.remind(now=timezone.now()).sent == {24: 1}
        deliver(table)
    assert not Notice.objects.filter(table=table, kind="clock_low").exists()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_reminder_says_how_long_and_until_when(locale):
    host, guest, table = pair(locale=locale)
    mover = (host, guest)[table.seat_to_move]
    timeouts.remind(now=table.deadline - 2 * HOUR)
    event = Event.objects.get(table=table, kind="clock_low")

    said = content.for_notice("clock_low", event, mover)

    assert table.code in said.subject and "2" in said.subject
    assert str(table.deadline.year) in said.intro[0]
    english = content.for_notice("clock_low", event, PlayerFactory(locale="en"))
    assert (said.subject == english.subject) == (locale == "en")


def test_the_player_whose_auto_vacation_started_is_mailed(postmark):
    host, guest, table = pair()
    mover = (host, guest)[table.seat_to_move]
    for _ in range(4):
        TurnFactory(game=Table.objects.get(pk=table.pk).current_game)
    table.refresh_from_db()
    mover = (host, guest)[table.seat_to_move]

    with time_machine.travel(table.deadline, tick=False):
        assert timeouts.sweep(now=timezone.now()).vacations == 1
        notices = [n for n in deliver(table) if n.kind == "auto_vacation"]
        assert [(n.player, n.channel) for n in notices] == [(mover, "email")]
        assert sending.send_notice(notices[0].pk) == "sent"

    [mail] = [m for m in postmark.received if "vacation" in m.body["Subject"]]
    assert mail.to == f"{mover.name.lower()}@example.com"
    assert mail.body["Subject"] == (
        f"Your time ran out at {table.code}: a day of vacation started instead"
    )
    assert "Vacation days left: 9." in mail.body["TextBody"]
