"""The notices API: the address and its confirmation, preferences, one-click
unsubscribe; hostile and stale input gets a 4xx problem."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from bansugoroku.limits.mail_limits import ConfirmationMailThrottle
from notifications.consent.tokens import unsubscribe_token
from notifications.models import Preferences
from tests.client import Api, check, open_table
from tests.notifications.helpers import confirmation_token, confirmed_address, send_confirmations

pytestmark = pytest.mark.django_db


def test_setting_an_address_mails_a_confirmation_link_that_confirms_it(host, openapi):
    answer = host.call("PATCH", "players/me", {"email": "aiko@example.com"})
    assert answer.status == 200, answer.body
    assert mail.outbox == [], "the worker sends it"
    send_confirmations()

    (message,) = mail.outbox
    assert message.to == ["aiko@example.com"]
    html, kind = message.alternatives[0]
    assert kind == "text/html" and "confirm?token=" in html
    # Whoever gets it (a mistyped address) can't turn the player's mail off.
    assert "List-Unsubscribe" not in message.extra_headers
    assert "unsubscribe" not in message.body and "unsubscribe" not in html
    prefs = host.get("players/me/notices")
    waiting = {"address": "aiko@example.com", "confirmed": False, "mail_failed": False}
    assert prefs.body["email"] == waiting

    confirmed = host.post("players/me/email/confirm", {"token": confirmation_token(message)})

    check(openapi, "/api/v1/players/me/email/confirm", "post", 200, confirmed)
    assert confirmed.body["email"] == waiting | {"confirmed": True}


def test_an_expired_forged_or_foreign_token_is_400(host, guest, openapi):
    host.call("PATCH", "players/me", {"email": "aiko@example.com"})
    send_confirmations()
    token = confirmation_token(mail.outbox[0])

    with time_machine.travel(timezone.now() + timedelta(days=2, seconds=5)):
        expired = host.post("players/me/email/confirm", {"token": token})
    forged = host.post("players/me/email/confirm", {"token": token[:-3] + "abc"})
    foreign = guest.post("players/me/email/confirm", {"token": token})
    not_text = host.post("players/me/email/confirm", {"token": 5})

    for answer in (expired, forged, foreign):
        check(openapi, "/api/v1/players/me/email/confirm", "post", 400, answer)
        assert answer.body["code"] == "invalid_token"
    assert "expired" in expired.body["detail"]
    assert not_text.status == 400 and not_text.body["code"] == "invalid_request"
    assert host.get("players/me/notices").body["email"]["confirmed"] is False


def test_a_token_for_an_address_replaced_since_confirms_nothing(host):
    host.call("PATCH", "players/me", {"email": "old@example.com"})
    send_confirmations()
    host.call("PATCH", "players/me", {"email": "new@example.com"})
    send_confirmations()
    old = confirmation_token(mail.outbox[0])
    answer = host.post("players/me/email/confirm", {"token": old})
    assert answer.status == 400 and answer.body["code"] == "invalid_token"


def test_bad_addresses_are_refused(host):
    for bad in ("not an address", 5, ["a@example.com"], "a@" + "x" * 260 + ".com"):
        answer = host.call("PATCH", "players/me", {"email": bad})
        assert answer.status == 400 and answer.body["code"] == "invalid_request", bad
    assert mail.outbox == []


def test_null_removes_the_address(host):
    host.call("PATCH", "players/me", {"email": "aiko@example.com"})
    assert host.call("PATCH", "players/me", {"email": None}).status == 200
    assert host.get("players/me/notices").body["email"] is None


def test_confirmation_mails_are_limited_per_player_and_per_address(api, monkeypatch):
    monkeypatch.setattr(ConfirmationMailThrottle, "THROTTLE_RATES", {"confirm_email": "2/hour"})
    one = api.new_player("One")
    statuses = [
        one.call("PATCH", "players/me", {"email": f"x{n}@example.com"}).status for n in range(3)
    ]
    assert statuses == [200, 200, 429]
    others = [api.new_player(f"P{n}") for n in range(3)]
    statuses = [
        p.call("PATCH", "players/me", {"email": "victim@example.com"}).status for p in others
    ]
    assert statuses == [200, 200, 429]
    # One's second address replaced its first before the worker sent it.
    assert send_confirmations() == ["sent"] * 3
    assert [m.to for m in mail.outbox] == [["x1@example.com"]] + [["victim@example.com"]] * 2


def test_preferences_are_read_and_changed(host, guest, openapi):
    code = open_table(host, guest)
    defaults = host.get("players/me/notices")
    check(openapi, "/api/v1/players/me/notices", "get", 200, defaults)
    assert defaults.body["email_mode"] == "spaced" and defaults.body["muted_tables"] == []
    assert all(
        channels == {"email": True, "push": True} for channels in defaults.body["kinds"].values()
    )

    changed = host.call(
        "PATCH",
        "players/me/notices",
        {
            "email_mode": "daily_digest",
            "kinds": {"your_turn": {"email": False}, "game_over": {"push": False}},
            "muted_tables": [code.lower()],
        },
    )

    check(openapi, "/api/v1/players/me/notices", "patch", 200, changed)
    assert changed.body["email_mode"] == "daily_digest"
    assert changed.body["kinds"]["your_turn"] == {"email": False, "push": True}
    assert changed.body["kinds"]["game_over"] == {"email": True, "push": False}
    assert changed.body["muted_tables"] == [code]
    unmuted = host.call("PATCH", "players/me/notices", {"muted_tables": []})
    assert unmuted.body["muted_tables"] == [] and unmuted.body["email_mode"] == "daily_digest"
    assert defaults.body["play_by_reply"] and defaults.body["play_by_reply_cpu"]
    by_reply = host.call("PATCH", "players/me/notices", {"play_by_reply_cpu": False})
    check(openapi, "/api/v1/players/me/notices", "patch", 200, by_reply)
    assert (by_reply.body["play_by_reply"], by_reply.body["play_by_reply_cpu"]) == (True, False)


@pytest.mark.parametrize(
    "body",
    [
        {"kinds": {"your_turn": {"email": "no"}}},
        {"kinds": {"your_turn": {"email": 0}}},
        {"kinds": {"your_turn": {"fax": True}}},
        {"kinds": {"coffee_ready": {"email": True}}},
        {"email_mode": "hourly"},
        {"play_by_reply": "yes"},
        {"play_by_reply_cpu": None},
        {"muted_tables": "ABCDEF"},
        {"muted_tables": ["x" * 7]},
        {"surprise": 1},
        [],
    ],
)
def test_malformed_preferences_are_400(host, body):
    answer = host.call("PATCH", "players/me/notices", body)
    assert answer.status == 400 and answer.body["code"] == "invalid_request", answer.body


def test_muting_a_table_you_dont_sit_at_is_404_like_any_other_code(host, guest, api):
    code = open_table(host, guest)
    stranger = api.new_player("Eve")
    for codes in ([code], ["ZZZZZZ"]):
        answer = stranger.call("PATCH", "players/me/notices", {"muted_tables": codes})
        assert answer.status == 404 and answer.body["code"] == "table_not_found"


def test_one_click_unsubscribe_turns_that_kind_off_without_login(host):
    player_id = confirmed_address(host)
    url = f"/api/v1/unsubscribe/{unsubscribe_token(player_id, 'your_turn', 'aiko@example.com')}"

    answer = Client().post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )

    assert answer.status_code == 200 and answer.json() == {"unsubscribed": "your_turn"}
    kinds = host.get("players/me/notices").body["kinds"]
    assert kinds["your_turn"]["email"] is False and kinds["game_over"]["email"] is True


@pytest.mark.parametrize(
    "accept", ["text/html", "text/html,application/xhtml+xml,*/*;q=0.8", "application/json"]
)
def test_the_one_click_link_opened_in_a_browser_shows_the_page_and_changes_nothing(host, accept):
    player_id = confirmed_address(host)
    token = unsubscribe_token(player_id, "your_turn", "aiko@example.com")

    answer = Client().get(f"/api/v1/unsubscribe/{token}", HTTP_ACCEPT=accept, follow=True)

    assert answer.redirect_chain == [(f"/unsubscribe/{token}", 303)]
    assert answer.status_code == 200 and "Stop the e-mails about" in answer.content.decode()
    assert Client().head(f"/api/v1/unsubscribe/{token}", HTTP_ACCEPT=accept).status_code == 303
    assert host.get("players/me/notices").body["kinds"]["your_turn"]["email"] is True


def test_an_unsubscribe_link_for_every_kind_turns_all_mail_off(host):
    player_id = confirmed_address(host)
    Client().post(f"/api/v1/unsubscribe/{unsubscribe_token(player_id, '', 'aiko@example.com')}")
    prefs = Preferences.objects.get(player_id=player_id)
    assert not any(prefs.email_kinds.values())


def test_an_unsubscribe_link_works_only_while_its_address_is_the_players(host):
    """A link mailed to an address the player changed since does nothing, even once the
    player is back to mail on a new address: a new address, a new link."""
    player_id = confirmed_address(host, "typo@example.com")
    old = f"/api/v1/unsubscribe/{unsubscribe_token(player_id, '', 'typo@example.com')}"

    host.call("PATCH", "players/me", {"email": "aiko@example.com"})
    send_confirmations()
    waiting = Client().post(old)
    host.post("players/me/email/confirm", {"token": confirmation_token(mail.outbox[-1])})
    confirmed = Client().post(old)

    for answer in (waiting, confirmed):
        assert answer.status_code == 400 and answer.json()["code"] == "invalid_token"
    assert not Preferences.objects.filter(player_id=player_id).exists()
    new = unsubscribe_token(player_id, "", "aiko@example.com")
    assert Client().post(f"/api/v1/unsubscribe/{new}").status_code == 200


def test_a_forged_or_old_unsubscribe_token_is_400_and_changes_nothing(host):
    player_id = confirmed_address(host)
    forged = signing.dumps({"p": player_id, "k": ""}, salt="another.salt")
    # Signed right, but from before tokens named the address: it names none.
    unbound = signing.dumps({"p": player_id, "k": ""}, salt="notifications.unsubscribe")
    for token in (forged, unbound, "nonsense", "a" * 300):
        answer = Client().post(f"/api/v1/unsubscribe/{token}")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid_token"
    assert not Preferences.objects.filter(player_id=player_id).exists()


def test_a_stale_patch_never_500s(host):
    answer = host.call("PATCH", "players/me/notices", raw="{not json")
    assert answer.status == 400
    answer = Api(host.token).call("POST", "players/me/email/confirm", raw='{"token": ')
    assert answer.status == 400
