"""The admin shows every send attempt; reading a table counts as looking at it, written
at most once a minute."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from bansugoroku.games.models import Seat
from notifications.channels import sending
from tests.client import open_table
from tests.factories import GameFactory, PlayerFactory
from tests.notifications.helpers import deliver, notice, unseen

pytestmark = pytest.mark.django_db


def test_the_admin_shows_a_notice_with_its_attempts_and_errors(postmark):
    postmark.answer = "down"
    host = PlayerFactory(name="Aiko", address="a@example.com")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)
    turn = notice(table, host, "your_turn")
    sending.send_notice(turn.pk)
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "r@example.com", None))

    page = staff.get(f"/admin/notifications/notice/{turn.pk}/change/")
    listing = staff.get("/admin/notifications/notice/?status=pending")

    assert (
        page.status_code == 200
        and "transient" in page.text
        and "AnymailRequestsAPIError" in page.text
    )
    assert listing.status_code == 200 and "your_turn" in listing.text
    assert staff.get("/admin/notifications/notice/add/").status_code == 403


def test_reading_a_table_records_the_look_once_a_minute(host, guest, django_assert_num_queries):
    code = open_table(host, guest)
    seat = Seat.objects.get(table__code=code, number=1)
    long_ago = timezone.now() - timedelta(minutes=30)
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=long_ago)
    etag = guest.get(f"tables/{code}").headers["ETag"]
    seen = Seat.objects.get(pk=seat.pk).last_seen_at
    assert seen > long_ago

    Seat.objects.filter(pk=seat.pk).update(last_seen_at=long_ago)
    with django_assert_num_queries(3):  # token, version and seat, the one UPDATE
        assert guest.get(f"tables/{code}", **{"If-None-Match": etag}).status == 304
    assert Seat.objects.get(pk=seat.pk).last_seen_at > long_ago

    with django_assert_num_queries(2):  # seen a moment ago: nothing written
        guest.get(f"tables/{code}", **{"If-None-Match": etag})


def test_a_stranger_reading_a_table_records_nothing(host, guest, api):
    code = open_table(host, guest)
    Seat.objects.filter(table__code=code).update(last_seen_at=None)
    assert api.new_player("Eve").get(f"tables/{code}").status == 404
    assert not Seat.objects.filter(table__code=code, last_seen_at__isnull=False).exists()
