"""The notice part of /settings and the pages the notice e-mails link to: the
confirmation page (a button that POSTs, in any browser, the token as proof), the human
unsubscribe page and the settings link; stale, forged and hostile tokens get a 400 page."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.test import Client
from django.utils import timezone

from bansugoroku.games.models import Player
from notifications.consent.tokens import unsubscribe_token
from notifications.models import EmailAddress, Kind, Preferences
from tests.client import Api
from tests.factories import EmailAddressFactory
from tests.front.pages import browser, page
from tests.notifications.helpers import confirmation_token, confirmed_address, send_confirmations
from tests.races import TIMEOUT, Race, lock_waiters

pytestmark = pytest.mark.django_db


def mailed_link(host: Api, address: str = "aiko@example.com") -> str:
    """Set the address through the API, and return the mailed link's path and query."""
    assert host.call("PATCH", "players/me", {"email": address}).status == 200
    send_confirmations()
    found = re.search(r"https?://\S+/settings/email/confirm\?token=\S+", str(mail.outbox[-1].body))
    assert found, mail.outbox[-1].body
    link = urlsplit(found[0])
    return f"{link.path}?{link.query}"


def confirmed(host: Api) -> bool:
    return bool(host.get("players/me/notices").body["email"]["confirmed"])


def test_the_mails_settings_link_leads_to_the_notices_on_the_settings_page(db):
    answer = Client().get("/settings/notices")
    assert answer.status_code == 302 and answer["Location"] == "/settings#notices"
    assert Client().post("/settings/notices").status_code == 405


def test_settings_show_the_address_its_state_and_the_choices(host):
    html = page(browser(host.token), "/settings")
    assert 'id="notices"' in html and 'data-email-state="none"' in html
    # Each kind on e-mail and push, the auto-vacation switch and the seven days off.
    assert html.count('type="checkbox" name="') == 2 * len(Kind) + 1 + 7
    assert 'name="auto" data-test="auto-vacation" checked' in html
    assert 'value="spaced" data-test="mode-spaced" checked' in html
    assert "An e-mail each time it is your turn" in html
    assert "At most one e-mail every 3 hours, about every table waiting" in html
    assert "At most one e-mail a day, about every table waiting" in html
    assert (
        "No e-mail about a table while you have it open: it goes 5 minutes after you "
        "last looked, if it is still your turn." in html
    )
    assert "front/notices.js" in html

    mailed_link(host)
    html = page(browser(host.token), "/settings")
    assert 'data-email-state="waiting"' in html and "aiko@example.com" in html
    host.call("PATCH", "players/me/notices", {"kinds": {"game_over": {"push": False}}})
    html = page(browser(host.token), "/settings")
    assert 'name="game_over" value="push" data-test="game_over-push">' in html


def test_settings_say_when_the_link_could_not_be_mailed(host):
    player = Player.objects.get(pk=host.get("players/me").body["id"])
    EmailAddressFactory(player=player, confirmed_at=None, confirmation_mail="failed")
    html = page(browser(host.token), "/settings")
    assert 'data-email-state="failed"' in html
    assert "The link could not be mailed: send it again" in html


def test_settings_without_a_player_show_no_notice_forms(db):
    html = page(browser(), "/settings")
    assert "data-email-form" not in html and "notices.js" not in html
    assert "in the browser you play in" in html


def test_settings_say_so_when_the_server_sends_no_push(host, settings):
    settings.VAPID_PUBLIC_KEY = None
    assert "data-push-off" in page(browser(host.token), "/settings")


def test_opening_the_link_confirms_nothing_the_button_does_in_a_browser_without_a_cookie(host):
    link = mailed_link(host)
    other_device = Client(enforce_csrf_checks=True)

    html = page(other_device, link)

    assert "aiko@example.com" in html and 'data-test="confirm"' in html
    assert not confirmed(host), "a mail scanner's GET must not confirm"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token
    form = {"token": link.split("token=")[1], "csrfmiddlewaretoken": token[1]}
    answer = other_device.post("/settings/email/confirm", form)
    assert answer.status_code == 200
    assert "aiko@example.com is confirmed" in answer.content.decode()
    assert confirmed(host)


def test_the_confirm_form_needs_the_csrf_token(host):
    mailed_link(host)
    token = confirmation_token(mail.outbox[0])
    answer = Client(enforce_csrf_checks=True).post("/settings/email/confirm", {"token": token})
    assert answer.status_code == 403
    assert not confirmed(host)


def test_a_reused_link_says_confirmed_again_and_changes_nothing(host):
    mailed_link(host)
    token = confirmation_token(mail.outbox[0])
    assert Client().post("/settings/email/confirm", {"token": token}).status_code == 200
    first = EmailAddress.objects.get().confirmed_at

    again = Client().post("/settings/email/confirm", {"token": token})

    assert again.status_code == 200 and "is confirmed" in again.content.decode()
    assert EmailAddress.objects.get().confirmed_at == first


def test_expired_forged_replaced_and_hostile_tokens_get_a_clear_400_page(host):
    mailed_link(host, "old@example.com")
    old = confirmation_token(mail.outbox[-1])
    mailed_link(host, "new@example.com")
    token = confirmation_token(mail.outbox[-1])
    with time_machine.travel(timezone.now() + timedelta(days=2, seconds=5)):
        expired = [
            Client().get(f"/settings/email/confirm?token={token}"),
            Client().post("/settings/email/confirm", {"token": token}),
        ]
    others = [
        Client().post("/settings/email/confirm", {"token": bad})
        for bad in (token[:-3] + "abc", old, "", "x" * 5000, "a:b:c")
    ] + [Client().get("/settings/email/confirm"), Client().get("/settings/email/confirm?token=ü")]

    for answer in expired + others:
        assert answer.status_code == 400
        assert 'data-test="refused"' in answer.content.decode()
    assert not confirmed(host)
    assert Client().put("/settings/email/confirm", {"token": token}).status_code == 405


def test_a_link_to_an_address_removed_since_gets_the_400_page(host):
    mailed_link(host)
    token = confirmation_token(mail.outbox[0])
    host.call("PATCH", "players/me", {"email": None})
    answer = Client().post("/settings/email/confirm", {"token": token})
    assert answer.status_code == 400


def test_the_unsubscribe_page_asks_then_turns_that_kind_off(host):
    player_id = confirmed_address(host)
    url = f"/unsubscribe/{unsubscribe_token(player_id, 'your_turn', 'aiko@example.com')}"
    client = Client(enforce_csrf_checks=True)

    html = page(client, url)

    assert "Stop the e-mails about “Your turn”?" in html
    assert not Preferences.objects.filter(player_id=player_id).exists()
    assert client.post(url).status_code == 403  # no CSRF token
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert csrf
    done = client.post(url, {"csrfmiddlewaretoken": csrf[1]})
    assert done.status_code == 200 and "no more e-mails about “Your turn”" in done.content.decode()
    kinds = host.get("players/me/notices").body["kinds"]
    assert kinds["your_turn"]["email"] is False and kinds["game_over"]["email"] is True


def test_the_unsubscribe_page_for_every_kind_and_for_bad_tokens(host):
    player_id = confirmed_address(host)
    every_kind = unsubscribe_token(player_id, "", "aiko@example.com")
    assert "Stop all notice e-mails?" in page(Client(), f"/unsubscribe/{every_kind}")
    elsewhere = unsubscribe_token(player_id, "", "typo@example.com")
    for bad in ("nonsense", "a" * 3000, every_kind[:-2] + "zz", elsewhere):
        for answer in (Client().get(f"/unsubscribe/{bad}"), Client().post(f"/unsubscribe/{bad}")):
            assert answer.status_code == 400 and 'data-test="refused"' in answer.content.decode()
    assert not Preferences.objects.filter(player_id=player_id).exists()


@pytest.mark.django_db(transaction=True)
def test_a_link_waiting_on_an_address_being_changed_confirms_nothing(host):
    """The confirmation waits for the address's row lock: an old link posted while the
    player sets a new address must not confirm the new one."""
    mailed_link(host, "old@example.com")
    old = confirmation_token(mail.outbox[-1])
    racing = Race(lambda: Client().post("/settings/email/confirm", {"token": old}))
    with transaction.atomic():
        email = EmailAddress.objects.select_for_update().get()
        email.address = "new@example.com"
        email.save()
        racing.start()
        deadline = time.monotonic() + TIMEOUT
        while lock_waiters() < 1:
            assert time.monotonic() < deadline, "the confirmation never waited for the row"
            time.sleep(0.002)
    (answer,) = racing.answers()
    assert answer.status_code == 400
    assert EmailAddress.objects.get().confirmed_at is None
