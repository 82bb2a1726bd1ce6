"""The idle close's warnings and close, written by the real sweep, reach both players
by e-mail; the clock is moved, never waited for. A table a player leaves closes too, and
the other player is told."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from bansugoroku.games import idle, services
from notifications.channels import sending
from notifications.models import Notice
from tests.factories import GameFactory, PlayerFactory
from tests.notifications.helpers import deliver, notice

pytestmark = pytest.mark.django_db


def test_both_players_are_warned_a_week_ahead_then_told_of_the_close(postmark, settings):
    settings.NOTICE_EMAIL_SPACING = timedelta(0)
    host, guest = (
        PlayerFactory(name="Aiko", address="aiko@example.com"),
        PlayerFactory(name="Ben", address="ben@example.com"),
    )
    table = GameFactory(host=host, guest=guest).table
    start = timezone.now()

    with time_machine.travel(start + timedelta(days=38, hours=1), tick=False):
        assert idle.sweep(now=timezone.now()).warned == {7: 1, 1: 0}
        deliver(table)
        for to in (host, guest):
            assert sending.send_notice(notice(table, to, "table_closing").pk) == "sent"
    with time_machine.travel(start + timedelta(days=45, hours=1), tick=False):
        assert idle.sweep(now=timezone.now()).closed == 1
        deliver(table)
        for to in (host, guest):
            assert sending.send_notice(notice(table, to, "table_closed").pk) == "sent"

    subjects = sorted((mail.to, mail.body["Subject"]) for mail in postmark.received)
    assert subjects == [
        ("aiko@example.com", f"Table {table.code} closes in 7 days"),
        ("aiko@example.com", f"Table {table.code} was closed"),
        ("ben@example.com", f"Table {table.code} closes in 7 days"),
        ("ben@example.com", f"Table {table.code} was closed"),
    ]


def test_when_a_player_leaves_the_other_is_told_who_left(postmark):
    host, guest = (
        PlayerFactory(name="Aiko", address="aiko@example.com"),
        PlayerFactory(name="Ben", address="ben@example.com"),
    )
    table = GameFactory(host=host, guest=guest).table

    services.table_leave(player=host, code=table.code, version=table.version)
    deliver(table)

    told = Notice.objects.filter(kind="table_closed").values_list("player__name", flat=True)
    assert list(told) == ["Ben"], "the player who left is not told"
    assert sending.send_notice(notice(table, guest, "table_closed").pk) == "sent"
    [mail] = postmark.received
    assert (mail.to, mail.body["Subject"]) == ("ben@example.com", f"Table {table.code} was closed")
    assert f"Aiko left {table.code}, which closed it" in mail.body["TextBody"]
