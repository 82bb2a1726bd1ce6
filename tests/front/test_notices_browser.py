"""The notice settings end to end in a real headless Chromium (Debian's, driven by
Playwright), with the play pages' browser, live server and watched pages: an address set
on /settings is confirmed from the mailed link in another browser without a cookie, a
choice saved stays saved, push in this browser turns on and off; and the vacation and
quiet hours beside them. Any console error or failed request fails the test.
Screenshots go to the git-ignored .screenshots/ folder."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from bansugoroku.games.models import Player
from notifications.models import EmailAddress, PushSubscription
from tests.client import Api, open_table
from tests.front.browsers import DESKTOP, PHONE, Watched, assert_fits, needs_chromium, shoot
from tests.notifications.helpers import send_confirmations
from tests.notifications.push_service import PUSH_SERVICE_STAND_IN, p256dh

pytestmark = needs_chromium

# The play pages' settings: plain-HTTP cookies and a quick poll.


def watched_as(
    chromium: Any, server: str, token: str | None, size: dict[str, int], **options: Any
) -> Watched:
    watched = Watched(chromium, size, **options)
    if token:
        watched.context.add_cookies([{"name": "player", "value": token, "url": server}])
    return watched


def test_set_confirm_and_choose_notices_in_the_browser(chromium, server, settings_for_play):
    settings_for_play.SITE_URL = server  # the worker mails the link, outside any request
    settings_for_play.INBOUND_DOMAIN = "reply.example.com"  # playing by reply is offered
    settings_for_play.INBOUND_PROVIDER = "postmark"
    settings_for_play.ANYMAIL = settings_for_play.ANYMAIL | {"WEBHOOK_SECRET": "hook:s3cret"}
    aiko = watched_as(chromium, server, Api().new_player("Aiko").token, PHONE)
    page = aiko.page
    page.goto(server + "/settings/notices")
    assert page.url == server + "/settings#notices"
    form = page.locator("[data-email-form]")
    form.wait_for()
    assert form.get_attribute("data-email-state") == "none"
    shoot(page, "settings-notices-360x740-none")
    assert_fits(page)

    page.fill('[data-test="email"]', "aiko@example.com")
    page.click('[data-test="save-email"]')
    page.locator('[data-email-state="waiting"]').wait_for(timeout=5000)
    send_confirmations()
    assert page.get_by_text("Waiting for confirmation").is_visible()
    assert page.locator('[data-test="resend"]').is_visible()
    assert "We mailed you a link" in form.locator("[data-message]").inner_text()
    shoot(page, "settings-notices-360x740-waiting")
    page.click('[data-test="resend"]')
    page.locator('[data-test="resend"]:enabled').wait_for(timeout=5000)
    send_confirmations()
    first, message = mail.outbox  # the link again, to the same address
    assert message.to == first.to == ["aiko@example.com"]

    link = re.search(r"\S+/settings/email/confirm\?token=\S+", str(message.body))
    assert link and link[0].startswith(server), message.body
    phone_mail_app = watched_as(chromium, server, None, PHONE)
    other = phone_mail_app.page
    other.goto(link[0])
    assert "aiko@example.com" in other.inner_text("main")
    shoot(other, "settings-confirm-360x740")
    assert_fits(other)
    other.click('[data-test="confirm"]')
    other.locator('[data-test="confirmed"]').wait_for(timeout=5000)
    assert "aiko@example.com is confirmed" in other.inner_text("main")
    shoot(other, "settings-confirmed-360x740")

    page.reload()
    page.locator('[data-email-state="confirmed"]').wait_for(timeout=5000)
    assert page.get_by_text("Confirmed", exact=True).is_visible()
    assert page.locator('[data-test="resend"]').is_hidden()

    page.uncheck('[data-test="game_over-email"]')
    page.locator('label:has([data-test="table_closed-push"])').click()  # the label's target
    page.check('[data-test="mode-daily_digest"]')
    page.uncheck('[data-test="play-by-reply-cpu"]')
    assert page.input_value('[data-test="reminder-1"]') == "24"
    page.select_option('[data-test="reminder-1"]', "48")
    page.select_option('[data-test="reminder-2"]', "")
    page.click('[data-test="save-notices"]')
    page.locator("[data-notice-form] [data-message]", has_text="Saved.").wait_for(timeout=5000)
    page.reload()
    assert not page.is_checked('[data-test="game_over-email"]')
    assert not page.is_checked('[data-test="table_closed-push"]')
    assert page.is_checked('[data-test="game_over-push"]')
    assert page.is_checked('[data-test="mode-daily_digest"]')
    assert page.is_checked('[data-test="play-by-reply"]')
    assert not page.is_checked('[data-test="play-by-reply-cpu"]')
    assert [page.input_value(f'[data-test="reminder-{n}"]') for n in (1, 2)] == ["48", ""]
    assert Player.objects.get(name="Aiko").reminder_hours == [48]
    shoot(page, "settings-notices-360x740-chosen")
    assert_fits(page)

    # Push here: the browser's push service stands in for Google's, as in push.js's test.
    aiko.context.grant_permissions(["notifications"], origin=server)
    endpoint = "https://fcm.googleapis.com/fcm/send/settings-test"
    page.evaluate(PUSH_SERVICE_STAND_IN, [endpoint, p256dh(), "A" * 22])
    toggle = page.locator('[data-test="push-toggle"]')
    assert not toggle.is_checked()
    toggle.check()
    page.locator('[data-test="push-toggle"]:checked:enabled').wait_for(timeout=5000)
    assert PushSubscription.objects.get().endpoint == endpoint
    toggle.uncheck()
    page.locator('[data-test="push-toggle"]:not(:checked):enabled').wait_for(timeout=5000)
    assert not PushSubscription.objects.exists()

    # The keyboard reaches every control of the notices, each named by its label.
    names = page.evaluate(
        """() => [...document.querySelectorAll('#notices input, #notices button')]
        .filter(e => e.getClientRects().length)
        .map(e => [e.tabIndex, [...(e.labels || [])].map(l => l.textContent).join('')
                          || e.textContent])"""
    )
    assert names and all(tab == 0 and label.strip() for tab, label in names), names

    desktop = watched_as(chromium, server, aiko.context.cookies()[0]["value"], DESKTOP)
    desktop.page.goto(server + "/settings#notices")
    desktop.page.locator('[data-email-state="confirmed"]').wait_for(timeout=5000)
    shoot(desktop.page, "settings-notices-1280x800")
    assert_fits(desktop.page)

    page.click('[data-test="remove-email"]')
    page.locator('[data-email-state="none"]').wait_for(timeout=5000)
    assert page.input_value('[data-test="email"]') == ""
    assert not EmailAddress.objects.exists()
    for watched in (aiko, phone_mail_app, desktop):
        assert watched.problems == [], watched.problems[:5]
        watched.context.close()


@pytest.mark.parametrize("where", ["server", "browser"])
def test_no_push_is_said_in_a_plain_sentence(chromium, server, settings_for_play, where):
    """Push off at the server (no VAPID key), or a browser without the Push API."""
    aiko = watched_as(chromium, server, Api().new_player("Aiko").token, PHONE)
    if where == "server":
        settings_for_play.VAPID_PUBLIC_KEY = None
    else:
        aiko.context.add_init_script("delete window.PushManager")
    aiko.page.goto(server + "/settings")
    sentence = aiko.page.locator("[data-push-none]")
    sentence.wait_for(timeout=5000)
    assert "cannot show notices here" in sentence.inner_text()
    assert aiko.page.locator('[data-test="push-toggle"]').is_hidden()
    assert aiko.problems == []
    aiko.context.close()


def test_a_vacation_started_in_the_settings_is_shown_to_the_opponent(
    chromium, server, settings_for_play
):
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest, clock_days=3)
    aiko = watched_as(chromium, server, host.token, PHONE)
    page = aiko.page
    page.goto(server + "/settings#vacation")
    assert "You have 10.0 days left" in page.inner_text("#vacation")
    page.fill('[data-test="vacation-days"]', "2")
    page.click('[data-test="start-vacation"]')
    page.locator('[data-test="on-vacation"]').wait_for(timeout=5000)
    assert "You have 8.0 days left" in page.inner_text("#vacation")
    until = Player.objects.get(name="Aiko").vacation_until
    assert until is not None and until > timezone.now() + timedelta(days=1, hours=23)
    shoot(page, "settings-vacation-360x740")
    assert_fits(page)

    ben = watched_as(chromium, server, guest.token, PHONE)
    ben.page.goto(f"{server}/tables/{code}")
    ben.page.locator("#clock", has_text="Aiko is on vacation until").wait_for(timeout=5000)
    shoot(ben.page, "table-opponent-on-vacation-360x740")

    page.click('[data-test="end-vacation"]')
    page.locator('[data-test="start-vacation"]').wait_for(timeout=5000)
    assert "You have 10.0 days left" in page.inner_text("#vacation")
    page.uncheck('[data-test="auto-vacation"]')
    page.locator("[data-vacation-form] [data-message]", has_text="Saved.").wait_for(timeout=5000)
    assert Player.objects.get(name="Aiko").auto_vacation is False


WIDE_PHONE = {"width": 390, "height": 844}


def quiet_fields(name: str) -> tuple[str, int | None, int | None, list[int]]:
    player = Player.objects.get(name=name)
    return player.time_zone, player.quiet_from, player.quiet_to, player.days_off


def test_quiet_hours_chosen_in_the_settings_are_stored_and_shown_again(
    chromium, server, settings_for_play
):
    """The browser's zone is offered until the player chooses one; then theirs holds."""
    token = Api().new_player("Aiko").token
    aiko = watched_as(chromium, server, token, WIDE_PHONE, timezone_id="Asia/Tokyo")
    page = aiko.page
    page.goto(server + "/settings#quiet-hours")
    page.locator("[data-quiet-form]").wait_for()
    assert page.input_value('[data-test="time-zone"]') == "Asia/Tokyo"
    page.select_option('[data-test="time-zone"]', "Europe/Berlin")
    page.select_option('[data-test="start_hour"]', "23")
    page.select_option('[data-test="end_hour"]', "7")
    page.locator("label", has_text="Saturday").click()
    page.check('[data-test="day-off-7"]')
    page.click('[data-test="save-quiet-hours"]')
    page.locator("[data-quiet-form] [data-message]", has_text="Saved.").wait_for(timeout=5000)
    assert quiet_fields("Aiko") == ("Europe/Berlin", 23, 7, [6, 7])

    page.reload()
    menus = ("time-zone", "start_hour", "end_hour")
    chosen = [page.input_value(f'[data-test="{menu}"]') for menu in menus]
    assert chosen == ["Europe/Berlin", "23", "7"]
    days = page.locator("[name=days_off]:checked").evaluate_all("boxes => boxes.map(b => b.value)")
    assert days == ["6", "7"]
    shoot(page, "settings-quiet-hours-390x844")
    assert_fits(page)
    desktop = watched_as(chromium, server, token, DESKTOP)
    desktop.page.goto(server + "/settings#quiet-hours")
    desktop.page.locator("[data-quiet-form]").wait_for()
    shoot(desktop.page, "settings-quiet-hours-1280x800")
    assert_fits(desktop.page)
    for watched in (aiko, desktop):
        assert watched.problems == [], watched.problems[:5]
        watched.context.close()


def test_a_night_too_long_is_refused_in_the_servers_words_and_nothing_is_stored(
    chromium, server, settings_for_play
):
    aiko = watched_as(chromium, server, Api().new_player("Aiko").token, PHONE)
    page = aiko.page
    page.goto(server + "/settings#quiet-hours")
    page.select_option('[data-test="start_hour"]', "20")
    page.select_option('[data-test="end_hour"]', "9")  # 13 hours
    page.click('[data-test="save-quiet-hours"]')
    message = page.locator("[data-quiet-form] [data-message]")
    message.filter(has_text="a quiet night is 1 to 12 hours long").wait_for(timeout=5000)
    assert quiet_fields("Aiko") == ("", None, None, [])
    # The refusal was a 400 the page expected and showed; nothing else failed.
    assert [p for p in aiko.problems if "400" not in p] == []
    assert len(aiko.problems) == 2  # that answer, and the console's note of it
    aiko.context.close()
