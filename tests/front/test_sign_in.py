"""Signing in from any browser with a mailed link: asked for by address with an answer
that says nothing of who has it, within the mail limits; the link works once, for a
while, only with its button, and leaves the browser holding the player with a token of
its own beside the one it played as."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client

from bansugoroku.front.identity import COOKIE, KEPT_COOKIE
from bansugoroku.games import services
from bansugoroku.games.models import SignedInToken
from bansugoroku.limits.mail_limits import ConfirmationMailThrottle, MailedAddressesThrottle
from notifications import sign_in
from notifications.consent.addresses import address_suppress
from notifications.errors import InvalidToken
from notifications.models import SignInLink, SuppressionReason
from tests.factories import (
    EmailAddressFactory,
    GameFactory,
    PlayerFactory,
    SeatFactory,
    TableFactory,
)
from tests.notifications.helpers import send_sign_ins
from tests.races import Race

LINK = re.compile(r"https?://[^/\s]+(/sign-in/[\w-]+)")


@pytest.fixture(autouse=True)
def empty_queue(db):
    send_sign_ins()  # what earlier tests left on the broker


def ask(address: str, client: Client | None = None) -> str:
    answer = (client or Client()).post("/sign-in", {"email": address})
    assert answer.status_code == 200, answer.content
    return answer.content.decode()


def links_in(message: mail.EmailMessage) -> list[str]:
    return LINK.findall(str(message.body))


def player_at(address: str, name: str = "Aiko", locale: str = "en"):
    player = PlayerFactory(name=name, locale=locale)
    EmailAddressFactory(player=player, address=address)
    return player


def test_a_mailed_link_signs_a_second_browser_in_once(db):
    aiko = player_at("aiko@example.com")
    ask("aiko@example.com")
    assert send_sign_ins() == ["sent"]
    (message,) = mail.outbox
    assert message.to == ["aiko@example.com"] and message.subject == "Sign in to Ban-sugoroku"
    (link,) = links_in(message)
    assert aiko.token not in message.body
    phone = Client()
    asked = phone.get(link)
    assert asked.status_code == 200 and "This browser will play as Aiko" in asked.content.decode()
    assert COOKIE not in asked.cookies, "opening the link only asks"
    used = phone.post(link)
    assert used.status_code == 302 and used["Location"] == "/"
    token = used.cookies[COOKIE].value
    assert token != aiko.token, "the browser gets a token of its own"
    assert used.cookies[COOKIE]["httponly"]
    assert "You play as Aiko" in phone.get("/").content.decode()
    assert SignedInToken.objects.filter(player=aiko).count() == 1
    for again in (Client().post(link), Client().get(link)):
        assert again.status_code == 400 and "does not work" in again.content.decode()
        assert COOKIE not in again.cookies


def test_the_link_leads_to_the_table_waiting_for_the_players_move(db):
    """The mail was most likely "your turn": once signed in, the browser is at it."""
    aiko = player_at("aiko@example.com")
    code = GameFactory(host=aiko, guest=PlayerFactory(name="Ben")).table.code  # Aiko's turn
    ask("aiko@example.com")
    assert send_sign_ins() == ["sent"]
    (link,) = links_in(mail.outbox[0])
    used = Client().post(link)
    assert used.status_code == 302 and used["Location"] == f"/tables/{code}"


def test_the_signed_in_token_plays_through_the_api(db):
    aiko = player_at("aiko@example.com")
    code = TableFactory(host=aiko).code
    ask("aiko@example.com")
    send_sign_ins()
    used = Client().post(links_in(mail.outbox[0])[0])
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {used.cookies[COOKIE].value}"}
    answer = Client().get(f"/api/v1/tables/{code}", **bearer)
    seat = answer.json()["seats"][answer.json()["you"]["seat"]]
    assert answer.status_code == 200 and seat["name"] == "Aiko" and seat["you"]


def test_an_expired_link_does_nothing(db):
    player_at("aiko@example.com")
    ask("aiko@example.com")
    send_sign_ins()
    (link,) = links_in(mail.outbox[0])
    assert "works once, for 30 minutes" in mail.outbox[0].body
    with time_machine.travel(timedelta(minutes=31)):
        assert Client().get(link).status_code == 400
        answer = Client().post(link)
    assert answer.status_code == 400 and COOKIE not in answer.cookies


@pytest.mark.parametrize(
    "link", ["nonsense", "A" * 43, "%00", "é" * 40, "x" * 500], ids=str.__len__
)
def test_a_wrong_or_forged_link_gets_the_400_page(db, link):
    assert Client().get(f"/sign-in/{link}").status_code == 400
    answer = Client().post(f"/sign-in/{link}")
    assert answer.status_code == 400 and COOKIE not in answer.cookies
    assert "Send me a sign-in link" in answer.content.decode()


def test_the_answer_does_not_say_whether_a_player_has_the_address(db):
    player_at("aiko@example.com")
    EmailAddressFactory(address="waiting@example.com", confirmed_at=None)
    address_suppress(address="gone@example.com", reason=SuppressionReason.BOUNCED)
    player_at("gone@example.com", name="Gone")
    pages = {
        address: re.sub(r'value="[^"]*"', "", ask(address))  # the CSRF token differs
        for address in (
            "aiko@example.com",
            "nobody@example.com",
            "waiting@example.com",
            "gone@example.com",
        )
    }
    assert len(set(pages.values())) == 1, "one page whoever has the address"
    assert "If a player confirmed this address" in pages["nobody@example.com"]
    assert send_sign_ins() == [
        "sent",
        "nothing to send: no player confirmed this address",
        "nothing to send: no player confirmed this address",
        "not sent: the mailbox is suppressed",
    ]
    assert [m.to for m in mail.outbox] == [["aiko@example.com"]]
    assert SignInLink.objects.count() == 1


def test_another_spelling_of_the_address_finds_the_player(db):
    player_at("aiko@example.com")
    ask("Aiko@EXAMPLE.com")
    assert send_sign_ins() == ["sent"]
    assert mail.outbox[0].to == ["aiko@example.com"]


def test_players_sharing_an_address_get_a_link_each_and_the_browser_chooses(db):
    first = player_at("jo@example.com", name="Jo at work", locale="de")
    second = player_at("jo@example.com", name="Jo at home", locale="fr")
    ask("jo@example.com")
    assert send_sign_ins() == ["sent"]
    (message,) = mail.outbox
    assert message.subject == "Se connecter à Ban-sugoroku", "the newest player's language"
    home, work = links_in(message)
    assert message.body.index("Jo at home") < message.body.index(home)
    assert message.body.index("Jo at work") < message.body.index(work)
    browser = Client()  # keeps the cookies it is sent, as a browser does
    browser.post(work)
    at_work = browser.cookies[COOKIE].value
    assert "play as Jo at home" in browser.get(home).content.decode()
    browser.post(home)
    assert browser.cookies[KEPT_COOKIE].value == at_work
    page = browser.get("/settings").content.decode()
    assert "Play as Jo at work" in page and first.pk != second.pk


def test_players_of_one_name_are_told_apart_by_their_open_tables(db):
    """Two players named Ben share an address: each link names Ben's open tables, by
    code and opponent, a few at most, in the mail's language; a closed one is not his."""
    ben = player_at("ben@example.com", name="Ben")
    with_aiko = SeatFactory(table=TableFactory(host=ben), player=PlayerFactory(name="Aiko"))
    with_cpu = TableFactory(host=ben, cpu="normal")
    left = TableFactory(host=ben)
    services.table_leave(player=ben, code=left.code, version=left.version)
    other_ben = player_at("ben@example.com", name="Ben", locale="de")
    busy = [TableFactory(host=other_ben).code for _ in range(5)]
    ask("ben@example.com")
    assert send_sign_ins() == ["sent"]
    (message,) = mail.outbox
    first, second = (line for line in message.body.splitlines() if line.startswith("Als Ben"))
    assert first == (
        f"Als Ben (Tische {busy[0]} noch ohne Gegner, {busy[1]} noch ohne Gegner, "
        f"{busy[2]} noch ohne Gegner, 2 weitere):"
    )
    assert second == (
        f"Als Ben (Tische {with_aiko.table.code} gegen Aiko, {with_cpu.code} gegen CPU (normal)):"
    )
    assert left.code not in message.body
    assert f"{with_aiko.table.code} gegen Aiko" in message.alternatives[0][0]


def test_a_player_without_an_open_table_is_told_so(db):
    player_at("aiko@example.com")
    ask("aiko@example.com")
    send_sign_ins()
    assert "As Aiko (no open table):" in mail.outbox[0].body


def test_a_browser_that_holds_the_player_already_gets_no_second_token(db):
    aiko = player_at("aiko@example.com")
    ask("aiko@example.com")
    send_sign_ins()
    browser = Client()
    browser.cookies[COOKIE] = aiko.token
    used = browser.post(links_in(mail.outbox[0])[0])
    assert used.cookies[COOKIE].value == aiko.token
    assert not SignedInToken.objects.exists()


def test_the_link_needs_the_csrf_token(db):
    player_at("aiko@example.com")
    ask("aiko@example.com")
    send_sign_ins()
    link = links_in(mail.outbox[0])[0]
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(link).status_code == 403
    assert strict.post("/sign-in", {"email": "aiko@example.com"}).status_code == 403


@pytest.mark.parametrize("bad", ["", "not an address", '"jo smith"@example.com', "a@b.local"])
def test_a_bad_address_gets_the_form_again_with_why(db, bad):
    answer = Client().post("/sign-in", {"email": bad})
    assert answer.status_code == 400 and 'data-test="sign-in-email"' in answer.content.decode()
    assert send_sign_ins() == []


def test_sign_in_mails_are_limited_per_mailbox_with_the_confirmation_mails(db, monkeypatch):
    monkeypatch.setattr(ConfirmationMailThrottle, "THROTTLE_RATES", {"confirm_email": "2/hour"})
    player_at("aiko@example.com")
    ask("aiko@example.com")
    ask("aiko+other@example.com", Client(REMOTE_ADDR="10.0.0.2"))  # one mailbox
    refused = Client(REMOTE_ADDR="10.0.0.3").post("/sign-in", {"email": "AIKO@example.com"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many links were mailed" in refused.content.decode()
    assert send_sign_ins() == ["sent", "nothing to send: no player confirmed this address"]


def test_one_client_address_reaches_only_so_many_mailboxes(db, monkeypatch):
    rates = {"confirm_email_addresses": "2/day"}
    monkeypatch.setattr(MailedAddressesThrottle, "THROTTLE_RATES", rates)
    ask("one@example.com")
    ask("two@example.com")
    assert Client().post("/sign-in", {"email": "three@example.com"}).status_code == 429
    assert (
        Client(REMOTE_ADDR="10.0.0.9").post("/sign-in", {"email": "three@example.com"}).status_code
        == 200
    )


def test_opening_a_link_changes_nothing(db):
    player_at("aiko@example.com")
    ask("aiko@example.com")
    send_sign_ins()
    link = links_in(mail.outbox[0])[0]
    for _ in range(3):
        assert Client().get(link).status_code == 200
        assert Client().head(link).status_code == 200
    assert SignInLink.objects.get().used_at is None and not SignedInToken.objects.exists()
    assert Client().post(link).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_two_taps_racing_for_one_link_get_it_once():
    player = PlayerFactory(name="Aiko")
    EmailAddressFactory(player=player, address="aiko@example.com")
    sign_in.send_sign_in("aiko@example.com")
    link = links_in(mail.outbox[0])[0].rsplit("/", 1)[1]

    def use() -> str:
        try:
            return sign_in.use_link(link).player.name
        except InvalidToken:
            return "refused"

    results = Race(use, use).start().answers()
    assert sorted(results) == ["Aiko", "refused"]


def test_the_pages_a_browser_without_the_seat_lands_on_offer_the_link(db):
    host, guest = PlayerFactory(), PlayerFactory()
    code = TableFactory(host=host).code
    joined = Client()
    joined.cookies[COOKIE] = guest.token
    joined.post("/join", {"code": code})
    for page in ("/", "/settings/notices", "/settings"):
        answer = Client().get(page, follow=True)
        assert 'href="/sign-in"' in answer.content.decode(), page
    table = Client().get(f"/tables/{code}", follow=True).content.decode()
    assert f'href="/sign-in?next=%2Ftables%2F{code}"' in table


def test_the_link_lands_on_the_table_it_was_asked_from(db):
    aiko = player_at("aiko@example.com")
    code = TableFactory(host=aiko).code
    form = Client().get(f"/sign-in?next=/tables/{code}").content.decode()
    assert f'name="next" value="/tables/{code}"' in form
    answer = Client().post("/sign-in", {"email": "aiko@example.com", "next": f"/tables/{code}"})
    assert answer.status_code == 200
    send_sign_ins()
    browser = Client()
    used = browser.post(links_in(mail.outbox[0])[0])
    assert used.status_code == 302 and used["Location"] == f"/tables/{code}"
    assert browser.get(used["Location"]).status_code == 200


@pytest.mark.parametrize(
    "elsewhere",
    [
        "https://evil.example/",
        "//evil.example/x",
        "/\\evil.example",
        "\\\\evil.example",
        "///evil.example",
        "javascript:alert(1)",
        "tables/ABCDEF",
        "/" + "x" * 300,
    ],
)
def test_a_link_never_lands_on_another_site(db, elsewhere):
    player_at("aiko@example.com")
    form = Client().get("/sign-in", {"next": elsewhere}).content.decode()
    (field,) = re.findall(r'<input [^>]*id="id_next"[^>]*>', form)
    assert "value" not in field
    answer = Client().post("/sign-in", {"email": "aiko@example.com", "next": elsewhere})
    assert answer.status_code == 200
    send_sign_ins()
    assert SignInLink.objects.get().next_path == ""
    used = Client().post(links_in(mail.outbox[0])[0])
    assert used.status_code == 302 and used["Location"] == "/"


def test_a_stored_path_is_checked_again_where_the_link_lands(db):
    """Only a checked path is stored; one stored otherwise still lands home."""
    player_at("aiko@example.com")
    sign_in.send_sign_in("aiko@example.com", "//evil.example")
    used = Client().post(links_in(mail.outbox[0])[0])
    assert used.status_code == 302 and used["Location"] == "/"


def test_signing_out_the_other_browsers_leaves_only_this_one(db):
    aiko = player_at("aiko@example.com")
    code = TableFactory(host=aiko).code
    first = Client()
    first.cookies[COOKIE] = aiko.token
    phone, laptop = Client(), Client()
    for browser in (phone, laptop):
        ask("aiko@example.com")
        send_sign_ins()
        browser.post(links_in(mail.outbox[-1])[0])
    assert SignedInToken.objects.count() == 2
    answer = phone.post("/settings/sign-out")
    assert answer.status_code == 200
    assert "only this browser plays as Aiko now" in answer.content.decode()
    assert phone.get(f"/tables/{code}").status_code == 200, "this one carries on"
    for other in (first, laptop):
        assert other.get(f"/tables/{code}").status_code == 302, "to the invitation"
    app = {"HTTP_AUTHORIZATION": f"Bearer {aiko.token}"}
    assert Client().get("/api/v1/players/me", **app).status_code == 401
    assert not SignedInToken.objects.exists()


def test_signing_out_needs_a_player_and_a_post(db):
    assert Client().post("/settings/sign-out").status_code == 400
    browser = Client()
    browser.cookies[COOKIE] = PlayerFactory().token
    assert browser.get("/settings/sign-out").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.cookies[COOKIE] = PlayerFactory().token
    assert strict.post("/settings/sign-out").status_code == 403
