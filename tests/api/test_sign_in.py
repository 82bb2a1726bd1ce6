"""`POST /api/v1/sign-in`: the sign-in page's request for apps and API clients. The same
answer whoever has the address, the same limits as every mail anyone may ask for, and a
problem for what is not an address."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from bansugoroku.limits.mail_limits import ConfirmationMailThrottle
from tests.client import Api, check
from tests.factories import EmailAddressFactory
from tests.notifications.helpers import send_sign_ins

LINK = re.compile(r"https?://[^/\s]+(/sign-in/[\w-]+)")


@pytest.fixture(autouse=True)
def empty_queue(db):
    send_sign_ins()  # what earlier tests left on the broker


def test_a_confirmed_address_gets_a_link_that_signs_a_browser_in(api, openapi):
    EmailAddressFactory(player__name="Aiko", address="aiko@example.com")
    asked = api.post("sign-in", {"email": "Aiko@EXAMPLE.com"})
    check(openapi, "/api/v1/sign-in", "post", 202, asked)
    assert asked.body == {"link_minutes": 30}
    assert send_sign_ins() == ["sent"]
    (link,) = LINK.findall(str(mail.outbox[0].body))
    assert "play as Aiko" in Client().get(link).content.decode()


def test_the_answer_does_not_say_whether_a_player_has_the_address(api):
    EmailAddressFactory(address="aiko@example.com")
    EmailAddressFactory(address="waiting@example.com", confirmed_at=None)
    answers = [
        api.post("sign-in", {"email": address})
        for address in ("aiko@example.com", "nobody@example.com", "waiting@example.com")
    ]
    assert {(a.status, str(a.body)) for a in answers} == {(202, "{'link_minutes': 30}")}
    assert send_sign_ins() == [
        "sent",
        "nothing to send: no player confirmed this address",
        "nothing to send: no player confirmed this address",
    ]


def test_a_stale_token_does_not_matter(api):
    asked = api.call("POST", "sign-in", {"email": "a@example.com"}, Authorization="Bearer bs_x")
    assert asked.status == 202, asked.body


@pytest.mark.parametrize(
    "body",
    [
        {"email": "not an address"},
        {"email": '"jo smith"@example.com'},
        {"email": ""},
        {"email": None},
        {"email": ["a@example.com"]},
        {"email": "a" * 250 + "@example.com"},
        {},
        {"email": "a@example.com", "next": "/tables/ABCDEF"},
        ["a@example.com"],
    ],
    ids=lambda body: str(body)[:30],
)
def test_what_is_not_an_address_is_a_400_problem(api, openapi, body):
    refused = api.post("sign-in", body)
    check(openapi, "/api/v1/sign-in", "post", 400, refused)
    assert refused.body["code"] == "invalid_request"
    assert send_sign_ins() == []


def test_a_body_that_is_not_json_is_a_problem(api):
    refused = api.call("POST", "sign-in", raw="email=a@example.com")
    assert refused.status == 400 and refused.body["code"] == "invalid_request"
    wrong_method = api.call("GET", "sign-in")
    assert wrong_method.status == 405 and wrong_method.body["code"] == "method_not_allowed"


def test_the_api_and_the_page_share_the_limits_per_mailbox(api, openapi, monkeypatch):
    monkeypatch.setattr(ConfirmationMailThrottle, "THROTTLE_RATES", {"confirm_email": "2/hour"})
    assert api.post("sign-in", {"email": "aiko@example.com"}).status == 202
    page = Client(REMOTE_ADDR="10.0.0.2").post("/sign-in", {"email": "aiko+x@example.com"})
    assert page.status_code == 200
    elsewhere = Api()
    elsewhere.client = Client(REMOTE_ADDR="10.0.0.3")
    refused = elsewhere.post("sign-in", {"email": "AIKO@example.com"})
    check(openapi, "/api/v1/sign-in", "post", 429, refused)
    assert refused.body["code"] == "throttled" and int(refused.headers["Retry-After"]) > 0
    assert len(send_sign_ins()) == 2
