"""The confirmation mail is no weapon: every spelling of a mailbox (quotes, escapes,
case, IDN forms, +tags) shares one limit and one suppression, a sender reaches few
mailboxes, and the mail says nothing a stranger chose. Mails are counted where they
arrive: a loopback Postmark, through anymail's real backend."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from bansugoroku.limits.mail_limits import MailedAddressesThrottle
from harness.postmark import FakePostmark
from notifications.consent.addresses import address_suppress
from notifications.consent.mailboxes import canonical, mailbox
from notifications.models import Suppression, SuppressionReason
from tests.client import Api
from tests.notifications.helpers import send_confirmations

pytestmark = pytest.mark.django_db

SPELLINGS = [
    "jo@victim.example",
    '"jo"@victim.example',
    '"\\jo"@victim.example',
    '"j\\o"@victim.example',
    '"\\j\\o"@victim.example',
]
IDN_FORMS = ["jo@bücher.example", "jo@xn--bcher-kva.example", '"jo"@BÜCHER.example']


def set_by_strangers(api: Api, addresses: list[str]) -> list[int]:
    """Each address set by a fresh player, one request each, as the attack did; then
    the worker sends what was queued."""
    statuses = [
        api.new_player(f"Mallory {n}").call("PATCH", "players/me", {"email": address}).status
        for n, address in enumerate(addresses)
    ]
    send_confirmations()
    return statuses


def test_five_spellings_of_one_mailbox_get_at_most_the_hourly_cap(
    api, postmark: FakePostmark, throttle_clock
):
    statuses = set_by_strangers(api, SPELLINGS * 5)

    assert statuses == [200] * 5 + [429] * 20
    assert [mail.to for mail in postmark.received] == ["jo@victim.example"] * 5


def test_the_idn_forms_of_a_domain_are_one_mailbox(api, postmark: FakePostmark, throttle_clock):
    statuses = set_by_strangers(api, IDN_FORMS * 5)

    assert statuses == [200] * 5 + [429] * 10
    assert {mail.to for mail in postmark.received} == {"jo@xn--bcher-kva.example"}
    assert len(postmark.received) == 5


def test_plus_tags_are_one_mailbox(api, postmark: FakePostmark, throttle_clock):
    statuses = set_by_strangers(api, [f"bomb+{n}@victim.example" for n in range(30)])

    assert statuses == [200] * 5 + [429] * 25
    assert len(postmark.received) == 5


def test_a_mailbox_gets_at_most_the_daily_cap(api, postmark: FakePostmark, throttle_clock):
    for _ in range(3):
        set_by_strangers(api, SPELLINGS * 2)
        throttle_clock.now += 3600  # the next hour, the same day

    assert len(postmark.received) == 10  # 5 an hour, 10 a day


def test_a_client_address_mails_few_mailboxes(api, monkeypatch, postmark, throttle_clock):
    monkeypatch.setattr(
        MailedAddressesThrottle, "THROTTLE_RATES", {"confirm_email_addresses": "3/day"}
    )
    addresses = ["a@one.example", "b@two.example", "a@one.example", "c@three.example"]
    assert set_by_strangers(api, [*addresses, "d@four.example"]) == [200] * 4 + [429]
    assert len(postmark.received) == 4, "a mailbox mailed before did not count again"


def test_the_confirmation_mail_says_nothing_a_stranger_chose(postmark: FakePostmark):
    mallory = Api().new_player("Claim your prize: evil.example/win")
    assert mallory.call("PATCH", "players/me", {"email": "jo@victim.example"}).status == 200
    send_confirmations()

    (mail,) = postmark.received
    for part in (mail.body["TextBody"], mail.body["HtmlBody"]):
        assert "evil.example" not in part and "Claim" not in part
        assert "Hello," in part
    assert "evil.example" not in str(mail.body)


def test_addresses_are_stored_and_mailed_in_their_canonical_form(host, postmark):
    for typed in ('"jo"@BÜCHER.example', "Jo@ＶＩＣＴＩＭ.example"):
        assert host.call("PATCH", "players/me", {"email": typed}).status == 200
        send_confirmations()
    stored = host.get("players/me/notices").body["email"]["address"]
    assert stored == "Jo@victim.example"
    assert [m.to for m in postmark.received] == ["jo@xn--bcher-kva.example", "Jo@victim.example"]


def test_an_address_that_needs_its_quotes_is_refused(host, postmark):
    for bad in ('"jo smith"@victim.example', '"Claim your prize"@victim.example', "jö@x.example"):
        answer = host.call("PATCH", "players/me", {"email": bad})
        assert answer.status == 400 and answer.body["code"] == "invalid_request", bad
        assert answer.body["errors"]["email"]
    assert postmark.received == []


def test_the_mailbox_of_every_spelling():
    assert {mailbox(a) for a in [*SPELLINGS, "JO+x@Victim.Example", "jo+@victim.example"]} == {
        "jo@victim.example"
    }
    assert {mailbox(a) for a in IDN_FORMS} == {"jo@xn--bcher-kva.example"}
    # Stored before addresses were checked so: read as well as they can be, never refused.
    assert mailbox('"j\\o+1"@BÜCHER.test') == "jo@xn--bcher-kva.test"
    assert mailbox("Old@LocalHost") == "old@localhost"
    assert canonical('"jo"@Victim.example') == "jo@victim.example"


def test_a_suppressed_address_gets_no_mail_in_any_spelling(api, postmark: FakePostmark):
    address_suppress(address="Angry@Example.com", reason=SuppressionReason.COMPLAINED)
    players = [api.new_player(f"P{n}") for n in range(5)]
    spellings = ["angry@example.com", "ANGRY@EXAMPLE.COM", '"angry+x"@example.com']
    others = ["calm@example.com", "unlucky@example.com"]  # the provider down for the last

    answers = [
        p.call("PATCH", "players/me", {"email": a})
        for p, a in zip(players[:4], [*spellings, others[0]], strict=True)
    ]
    assert postmark.arrived == 0, "the request never waits for the provider"
    assert send_confirmations() == ["not sent: the mailbox is suppressed"] * 3 + ["sent"]
    postmark.answer = "down"
    answers.append(players[4].call("PATCH", "players/me", {"email": others[1]}))
    assert send_confirmations() == ["failed"]

    # Answered alike: nothing tells that an address is suppressed, or the provider down.
    for player, answer in zip(players, answers, strict=True):
        assert (answer.status, answer.body) == (200, player.get("players/me").body)
        assert set(answer.headers.headers) == set(answers[-1].headers.headers)
        assert answer.headers["Content-Type"] == answers[-1].headers["Content-Type"]
    assert [m.to for m in postmark.received] == others  # the last one answered 500
    emails = [p.get("players/me/notices").body["email"] for p in players]
    assert [e["confirmed"] for e in emails] == [False] * 5
    # The player sees that the mail failed; a suppressed address looks as a sent one.
    assert [e["mail_failed"] for e in emails] == [False] * 4 + [True]


def test_a_suppressed_mailbox_spends_the_limits_as_any_other(api, postmark, throttle_clock):
    address_suppress(address="angry@victim.example", reason=SuppressionReason.BOUNCED)

    suppressed = set_by_strangers(api, [f"angry+{n}@victim.example" for n in range(7)])
    other = set_by_strangers(api, [f"calm+{n}@victim.example" for n in range(7)])

    assert suppressed == other == [200] * 5 + [429] * 2
    assert len(postmark.received) == 5


def test_a_failed_mail_is_sent_again_when_the_address_is_set_again(host, postmark):
    postmark.answer = "down"
    assert host.call("PATCH", "players/me", {"email": "aiko@example.com"}).status == 200
    assert send_confirmations() == ["failed"]
    assert host.get("players/me/notices").body["email"]["mail_failed"] is True

    postmark.answer = "ok"
    assert host.call("PATCH", "players/me", {"email": "aiko@example.com"}).status == 200
    assert host.get("players/me/notices").body["email"]["mail_failed"] is False
    assert send_confirmations() == ["sent"]
    assert [m.to for m in postmark.received] == ["aiko@example.com"] * 2  # down, then sent


GMAIL_SPELLINGS = [
    "jo@gmail.com",
    "j.o@gmail.com",
    "J.O@GMAIL.COM",
    "j.o+x@googlemail.com",
    "jo@googlemail.com",
    '"j.o"@gmail.com',
]


def test_the_dot_spellings_of_a_gmail_address_are_one_mailbox(api, postmark, throttle_clock):
    statuses = set_by_strangers(api, GMAIL_SPELLINGS)

    assert statuses == [200] * 5 + [429]
    # Mail goes to the address as set: the dots are folded only to count.
    assert [m.to for m in postmark.received] == [
        "jo@gmail.com",
        "j.o@gmail.com",
        "J.O@gmail.com",
        "j.o+x@googlemail.com",
        "jo@googlemail.com",
    ]
    assert {mailbox(a) for a in GMAIL_SPELLINGS} == {"jo@gmail.com"}
    assert mailbox("j.o@example.com") == "j.o@example.com", "only Gmail ignores the dots"


def test_a_suppressed_gmail_address_gets_no_mail_in_any_dot_spelling(api, postmark):
    address_suppress(address="J.o@googlemail.com", reason=SuppressionReason.COMPLAINED)

    set_by_strangers(api, [*GMAIL_SPELLINGS, "jo.other@gmail.com"])

    assert [m.to for m in postmark.received] == ["jo.other@gmail.com"]


def test_the_migration_keeps_suppressions_by_mailbox(db):
    for address in ('"jo"@victim.example', "jo+1@victim.example", "Gone@Example.com"):
        Suppression.objects.create(address=address.lower(), reason=SuppressionReason.BOUNCED)
    migration = importlib.import_module("notifications.migrations.0003_suppression_by_mailbox")

    migration.by_mailbox(apps, None)

    kept = sorted(Suppression.objects.values_list("address", flat=True))
    assert kept == ["gone@example.com", "jo@victim.example"]


def test_the_migration_folds_the_dots_of_gmail_suppressions(db):
    for address in ("j.o@gmail.com", "jo@googlemail.com", "j.o@example.com"):
        Suppression.objects.create(address=address, reason=SuppressionReason.BOUNCED)
    migration = importlib.import_module(
        "notifications.migrations.0005_gmail_suppressions_without_dots"
    )

    migration.by_mailbox(apps, None)

    kept = sorted(Suppression.objects.values_list("address", flat=True))
    assert kept == ["j.o@example.com", "jo@gmail.com"]
