"""The confirmation mail is no weapon: every spelling of a mailbox (quotes, escapes,
case, IDN forms, +tags) shares one limit and one suppression, a sender reaches few
mailboxes, and the mail says nothing a stranger chose. Mails are counted where they
arrive: a loopback Postmark, through anymail's real backend."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from bansugoroku.api.confirmation import MailedAddressesThrottle
from harness.postmark import FakePostmark
from notifications.addresses import address_suppress
from notifications.mailboxes import canonical, mailbox
from notifications.models import Suppression, SuppressionReason
from tests.client import Api

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
    """Each address set by a fresh player, one request each, as the attack did."""
    return [
        api.new_player(f"Mallory {n}").call("PATCH", "players/me", {"email": address}).status
        for n, address in enumerate(addresses)
    ]


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

    (mail,) = postmark.received
    for part in (mail.body["TextBody"], mail.body["HtmlBody"]):
        assert "evil.example" not in part and "Claim" not in part
        assert "Hello," in part
    assert "evil.example" not in str(mail.body)


def test_addresses_are_stored_and_mailed_in_their_canonical_form(host, postmark):
    for typed in ('"jo"@BÜCHER.example', "Jo@ＶＩＣＴＩＭ.example"):
        assert host.call("PATCH", "players/me", {"email": typed}).status == 200
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
    players = [api.new_player(f"P{n}") for n in range(4)]
    spellings = ["angry@example.com", "ANGRY@EXAMPLE.COM", '"angry+x"@example.com']

    answers = [
        p.call("PATCH", "players/me", {"email": a})
        for p, a in zip(players[:3], spellings, strict=True)
    ]
    other = players[3].call("PATCH", "players/me", {"email": "calm@example.com"})

    assert [m.to for m in postmark.received] == ["calm@example.com"]
    # Answered as any other address: nothing tells that it is suppressed.
    for player, answer in zip(players, [*answers, other], strict=True):
        me = player.get("players/me").body
        assert (answer.status, answer.body) == (200, me)
        assert answer.headers.get("Content-Type") == other.headers.get("Content-Type")
        assert player.get("players/me/notices").body["email"]["confirmed"] is False


def test_the_migration_keeps_suppressions_by_mailbox(db):
    for address in ('"jo"@victim.example', "jo+1@victim.example", "Gone@Example.com"):
        Suppression.objects.create(address=address.lower(), reason=SuppressionReason.BOUNCED)
    migration = importlib.import_module("notifications.migrations.0003_suppression_by_mailbox")

    migration.by_mailbox(apps, None)

    kept = sorted(Suppression.objects.values_list("address", flat=True))
    assert kept == ["gone@example.com", "jo@victim.example"]
