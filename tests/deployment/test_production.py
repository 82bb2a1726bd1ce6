"""The service as it deploys: the Procfile's own commands, with DEBUG off, behind a
router that terminates TLS, reached by real browsers.

The build (`collectstatic`), then `release` on a database of its own, then `web`,
`worker` and `beat`, all configured by environment variables alone: Celery and the rate
limits on Redis, e-mail through anymail's Postmark backend to a loopback Postmark. Every
request goes through the router to `web`, as a platform's router sends it (`Host:
localhost`, `X-Forwarded-Proto: https`). The steps of docs/deployment.md are these, in
this order.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import ssl
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.db import connections

from bansugoroku.celery import app
from harness.databases import database_url
from harness.postmark import FakePostmark, Received, fake_postmark
from harness.serving import free_port
from tests.deployment.procfile import Deployment, deployed
from tests.deployment.router import tls_router
from tests.front.browsers import (
    DESKTOP,
    PHONE,
    Watched,
    launched,
    my_turn,
    needs_chromium,
    play_one_move,
    shoot,
)
from tests.notifications.inbound import SECRET, inbound, post_over_http, quoted_reply

BROKER = app.conf.broker_url
on_redis = pytest.mark.skipif(
    not BROKER.startswith("redis://") and not os.environ.get("CI"),
    reason="the deployment runs Celery on Redis: set CELERY_BROKER_URL=redis://..., as CI does",
)
pytestmark = [pytest.mark.slow, needs_chromium, on_redis]

DEPLOYMENT_REDIS_DB = 15
"""The deployment's broker and rate limits, apart from the suite's own broker."""


def redis_url(db: int) -> str:
    return urlunsplit(urlsplit(BROKER)._replace(path=f"/{db}"))


@pytest.fixture
def database() -> Iterator[str]:
    """A new, empty database on the suite's PostgreSQL server, for `release` to migrate."""
    server = connections["default"].settings_dict
    name = f"deployment_{secrets.token_hex(4)}"
    params = {"host": server["HOST"], "port": server["PORT"] or 5432, "user": server["USER"]}
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield database_url(server, name)
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postmark() -> Iterator[FakePostmark]:
    with fake_postmark() as fake:
        yield fake


def wait_until_up(port: int, deployment: Deployment, timeout: float = 60) -> None:
    """Until `web` answers its health check (which a platform sends over plain HTTP)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert "web" not in deployment.exited(), deployment.log("web")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz", headers={"Host": "localhost"})
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"web did not answer:\n{deployment.log('web')}")


@pytest.fixture
def site(database: str, postmark: FakePostmark, tmp_path: Path) -> Iterator[tuple[str, Deployment]]:
    """The deployed site's public address (https://localhost:PORT) and its processes."""
    import redis

    redis.Redis.from_url(redis_url(DEPLOYMENT_REDIS_DB)).flushdb()
    web_port = free_port()
    with tls_router(web_port) as public_port:
        origin = f"https://localhost:{public_port}"
        env = {
            "PORT": str(web_port),
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "localhost",
            "SITE_URL": origin,
            "DATABASE_URL": database,
            "CELERY_BROKER_URL": redis_url(DEPLOYMENT_REDIS_DB),
            "CACHE_URL": redis_url(DEPLOYMENT_REDIS_DB),
            "NUM_PROXIES": "1",
            "WEB_CONCURRENCY": "2",
            "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
            "ANYMAIL_POSTMARK_SERVER_TOKEN": "deployment-test",
            "ANYMAIL_POSTMARK_API_URL": postmark.url,
            "DEFAULT_FROM_EMAIL": "Ban-sugoroku <play@localhost>",
            # A player whose page is open gets the mail at once rather than in 5 minutes.
            "NOTICE_LOOKING_WINDOW": "0",
            # Replies to "your turn" play the move.
            "INBOUND_DOMAIN": "reply.localhost",
            "ANYMAIL_WEBHOOK_SECRET": SECRET,
        }
        with deployed(env, tmp_path) as deployment:
            deployment.run("build", "python manage.py collectstatic --noinput")
            deployment.run("release")
            for name in ("web", "worker", "beat"):
                deployment.start(name)
            wait_until_up(web_port, deployment)
            yield origin, deployment
            assert deployment.exited() == {}, {n: deployment.log(n) for n in deployment.running}
        web_log = deployment.log("web")
        assert "Traceback" not in web_log and "Error" not in web_log, web_log


def mail_to(postmark: FakePostmark, address: str, subject: str, timeout: float = 60) -> Received:
    """The first mail to `address` whose subject starts with `subject`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with postmark.lock:
            for received in postmark.received:
                if received.to == address and received.body["Subject"].startswith(subject):
                    return received
        time.sleep(0.1)
    subjects = [(r.to, r.body["Subject"]) for r in postmark.received]
    raise AssertionError(f"no mail {subject!r} to {address}; mails: {subjects}")


def link_in(received: Received, origin: str, path: str) -> str:
    found = re.search(re.escape(origin + path) + r"[^\s\"<>]*", received.body["TextBody"])
    assert found, received.body["TextBody"]
    return found[0]


def confirm_address(player: Watched, origin: str, postmark: FakePostmark, address: str) -> None:
    """Set the address on /settings, then confirm it by the mailed link."""
    page = player.page
    page.goto(origin + "/settings")
    page.fill('[data-test="email"]', address)
    page.click('[data-test="save-email"]')
    page.locator('[data-email-state="waiting"]').wait_for(timeout=10_000)
    link = link_in(mail_to(postmark, address, "Confirm"), origin, "/settings/email/confirm")
    page.goto(link)
    page.click('[data-test="confirm"]')
    page.locator('[data-test="confirmed"]').wait_for(timeout=10_000)


def answers(player: Watched, url: str, status: int = 200) -> Any:
    """GET `url` with the browser's cookies; the answer, a page with that status."""
    answer = player.context.request.get(url, max_redirects=0)
    assert answer.status == status, (url, answer.status, answer.text()[:500])
    return answer


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A Chromium that trusts the router's self-signed certificate everywhere, as browsers
    trust a real one: a context's `ignore_https_errors` does not reach the service
    worker's script, which Chromium then refuses to register."""
    with launched("--ignore-certificate-errors") as browser:
        yield browser


def test_the_procfile_serves_the_site_with_debug_off(chromium, site, postmark):
    origin, deployment = site
    browser = {"ignore_https_errors": True}
    aiko, ben = Watched(chromium, PHONE, **browser), Watched(chromium, DESKTOP, **browser)
    a, b = aiko.page, ben.page

    # A table through the home form, joined by the invitation link.
    a.goto(origin + "/")
    a.fill("#new_name", "Aiko")
    a.click('[data-test="play-friend"]')
    a.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"), timeout=10_000)
    code = a.url[-6:]
    invite = a.locator('[data-test="invite-link"]').get_attribute("href")
    assert invite == f"{origin}/t/{code}"
    b.goto(invite)
    b.fill("#join_name", "Ben")
    b.click('[data-test="join"]')
    b.wait_for_url(f"{origin}/tables/{code}", timeout=10_000)

    confirm_address(aiko, origin, postmark, "aiko@example.com")
    confirm_address(ben, origin, postmark, "ben@example.com")

    # The host starts; whoever the dice chose plays a turn; the other is mailed.
    a.goto(f"{origin}/tables/{code}")
    a.locator('[data-test="start"]').click()
    a.locator('[data-test="dice"] svg').first.wait_for(timeout=10_000)
    b.goto(f"{origin}/tables/{code}")
    b.locator('[data-test="dice"] svg').first.wait_for(timeout=10_000)
    mover, other = (aiko, ben) if my_turn(a) else (ben, aiko)
    addresses = {id(aiko): "aiko@example.com", id(ben): "ben@example.com"}
    assert my_turn(mover.page) and not my_turn(other.page)
    mail_to(postmark, addresses[id(mover)], "Your turn")  # the game's first turn
    while my_turn(mover.page):
        play_one_move(mover.page)
    other.page.locator("[data-movable]").first.wait_for(timeout=10_000)
    shoot(other.page, "deployed-table")
    told = mail_to(postmark, addresses[id(other)], "Your turn")
    told_link = link_in(told, origin, f"/tables/{code}")

    # The mail opened on a phone that never played: a sign-in link, mailed, back to it.
    signed_in = Watched(chromium, PHONE, **browser)
    page = signed_in.page
    page.goto(told_link)
    page.wait_for_url(f"{origin}/t/{code}", timeout=10_000)
    page.click('[data-test="sign-in"]')
    page.fill('[data-test="sign-in-email"]', addresses[id(other)])
    page.click('[data-test="send-sign-in"]')
    page.locator('[data-test="sent"]').wait_for(timeout=10_000)
    sign_in = mail_to(postmark, addresses[id(other)], "Sign in")
    page.goto(link_in(sign_in, origin, "/sign-in/"))
    page.click('[data-test="use-device"]')
    page.wait_for_url(f"{origin}/tables/{code}", timeout=10_000)
    page.locator("[data-movable]").first.wait_for(timeout=10_000)  # the turn is theirs

    # The turn played by replying to its mail: "ok" is refused with the legal plays and
    # a new reply address, which the first of them, replied, plays.
    tls = ssl._create_unverified_context()  # the router's own certificate
    reply_to = told.body["ReplyTo"]
    assert post_over_http(origin, inbound(reply_to, addresses[id(other)], "ok"), tls=tls) == 200
    refused = mail_to(postmark, addresses[id(other)], "Nothing was played")
    legal = re.search(r"Your legal plays: ([^,.]+)", refused.body["TextBody"])
    assert legal and refused.body["ReplyTo"] != reply_to, refused.body["TextBody"]
    body = inbound(refused.body["ReplyTo"], addresses[id(other)], quoted_reply(legal[1], "x"))
    assert post_over_http(origin, body, tls=tls) == 200
    mail_to(postmark, addresses[id(other)], "You played")
    page.locator("[data-movable]").first.wait_for(state="detached", timeout=10_000)

    # Every page answers through web, for a player and for a stranger.
    stranger = Watched(chromium, PHONE, **browser)
    for path in ("/", "/rules", "/data", f"/t/{code}", "/settings", "/api/docs/"):
        answers(stranger, origin + path)
    for path in (
        f"/tables/{code}",
        f"/tables/{code}/games",
        f"/tables/{code}/games/1",
        "/me/tables",
        "/settings",
    ):
        answers(other, origin + path)
    bad_link = answers(other, origin + "/settings/email/confirm?token=forged", 400)
    assert "This link does not work" in bad_link.text()
    assert stranger.context.request.get(origin + "/admin/login/").status == 200
    one_click = re.fullmatch(
        f"<{origin}/api/v1/unsubscribe/(\\S+)>", told.header("List-Unsubscribe")
    )
    assert one_click, told.header("List-Unsubscribe")
    other.page.goto(f"{origin}/unsubscribe/{one_click[1]}")
    other.page.click('[data-test="unsubscribe"]')
    other.page.locator('[data-test="done"]').wait_for(timeout=10_000)

    # "Use on another device": the link made on the table page plays as Aiko elsewhere.
    a.goto(f"{origin}/tables/{code}")
    a.get_by_role("button", name="Use on another device").click()
    device_link = a.locator('[data-test="device-link"]').get_attribute("href")
    assert device_link and device_link.startswith(origin + "/device/")
    phone = Watched(chromium, PHONE, **browser)
    phone.page.goto(device_link)
    phone.page.click('[data-test="use-device"]')
    phone.page.goto(f"{origin}/tables/{code}")
    phone.page.locator("#board").wait_for(timeout=10_000)
    assert phone.context.cookies()[0]["secure"], "cookies are marked Secure"

    # Static files: hashed names, compressed, cached for good.
    stylesheet = a.locator('link[rel="stylesheet"]').first.get_attribute("href")
    assert stylesheet and re.search(r"\.[0-9a-f]{12}\.css$", stylesheet), stylesheet
    asset = answers(stranger, origin + stylesheet)
    assert "max-age=315360000" in asset.headers["cache-control"]
    assert "immutable" in asset.headers["cache-control"]

    for watched in (aiko, ben, signed_in, stranger, phone):
        assert watched.problems == [], watched.problems[:5]
        watched.context.close()
    assert "ready" in deployment.log("worker")
