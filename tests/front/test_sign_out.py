"""Signing out: no page with a secret or a personal detail may be kept by the browser;
"sign out of this browser" ends its token and makes it forget the site; "sign out
other browsers" ends every other token and every link mailed or made before."""

from __future__ import annotations

import re
import secrets

import pytest
from django.test import Client

from bansugoroku.front import devices
from bansugoroku.front.identity import COOKIE, KEPT_COOKIE
from bansugoroku.games import services
from bansugoroku.games.models import SignedInToken
from bansugoroku.games.player_tokens import token_hash
from tests.client import Api
from tests.factories import EmailAddressFactory, PlayerFactory, SignInLinkFactory, TableFactory

pytestmark = pytest.mark.django_db


def browser(token: str) -> Client:
    client = Client()
    client.cookies[COOKIE] = token
    return client


def test_no_page_with_a_secret_or_a_personal_detail_may_be_kept():
    aiko = PlayerFactory(name="Aiko")
    EmailAddressFactory(player=aiko, address="aiko@example.com")
    code = TableFactory(host=aiko).code
    client = browser(aiko.token)
    private = [
        "/",
        "/settings",
        "/sign-in",
        f"/sign-in/{secrets.token_urlsafe(32)}",
        f"/device/{devices.make_link(aiko.token)}",
        "/settings/email/confirm?token=forged",
        "/unsubscribe/forged",
        f"/t/{code}",
        f"/tables/{code}/games",
        "/data",
        "/no-such-page",
    ]
    for path in private:
        answer = client.get(path)
        assert answer["Cache-Control"] == "no-store", (path, answer.status_code)
    for path in ("/me/tables", f"/tables/{code}", "/rules"):  # the app shows them offline
        assert client.get(path)["Cache-Control"] == "private, no-cache", path
    assert client.post("/device")["Cache-Control"] == "no-store"  # the new link's page


@pytest.mark.parametrize("signed_in", [False, True], ids=["first browser", "signed in by mail"])
def test_signing_out_here_ends_this_browsers_token_and_forgets_the_site(signed_in):
    aiko = PlayerFactory(name="Aiko")
    token = services.player_token_add(player=aiko) if signed_in else aiko.token
    other = services.player_token_add(player=aiko)  # another browser of hers
    client = browser(token)
    client.cookies[KEPT_COOKIE] = PlayerFactory(name="Ben").token
    answer = client.post("/settings/sign-out-here")
    assert answer.status_code == 200
    assert answer["Clear-Site-Data"] == '"cache", "cookies", "storage"'
    assert answer["Cache-Control"] == "no-store"
    assert answer.cookies[COOKIE].value == "" and answer.cookies[KEPT_COOKIE].value == ""
    assert "no longer plays as anyone here" in answer.content.decode()
    assert Api(token).get("players/me").status == 401
    assert Api(other).get("players/me").status == 200  # her other browsers play on
    assert SignedInToken.objects.filter(player=aiko).count() == 1


def test_the_settings_warn_before_signing_out_without_an_address():
    page = browser(PlayerFactory(name="Aiko").token).get("/settings").content.decode()
    assert 'data-test="sign-out-here"' in page and "no confirmed e-mail address" in page


def test_signing_out_other_browsers_ends_every_link_made_or_mailed_before():
    aiko = PlayerFactory(name="Aiko")
    phone = browser(aiko.token)
    device = re.search(
        r'href="http://testserver(/device/[^"]+)"', phone.post("/device").content.decode()
    )
    assert device
    mailed = secrets.token_urlsafe(32)
    SignInLinkFactory(player=aiko, link_hash=token_hash(mailed))
    signed_in = services.player_token_add(player=aiko)

    assert phone.post("/settings/sign-out").status_code == 200
    for link in (device[1], f"/sign-in/{mailed}"):
        used = Client().post(link)
        assert used.status_code in (400, 410) and COOKIE not in used.cookies, link
    assert Api(signed_in).get("players/me").status == 401
    assert Api(aiko.token).get("players/me").status == 401
    fresh = secrets.token_urlsafe(32)  # a link mailed afterwards works
    SignInLinkFactory(player=aiko, link_hash=token_hash(fresh))
    assert Client().post(f"/sign-in/{fresh}").status_code == 302
