"""No secret of a mailed link reaches a log or an admin page: every route that takes one
says so (`<secret:...>`), the one rule built from them redacts it in every record of
every logger, and the processes of the Procfile, used through each kind of link, print
none of them."""

from __future__ import annotations

import http.client
import json
import logging
import re
import secrets
import time
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from bansugoroku.celery import app
from bansugoroku.front import devices
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.lib.secret_links import REDACTED, SecretConverter, redact
from harness.postmark import FakePostmark
from harness.serving import HOST, PROCFILE_WEB, gunicorn
from notifications.consent.tokens import confirm_token, unsubscribe_token
from tests.factories import (
    DeviceTokenFactory,
    EmailAddressFactory,
    PlayerFactory,
    PushSubscriptionFactory,
    SignInLinkFactory,
)
from tests.processes import process_env, worker_process

SECRET_NAMES = re.compile(r"token|link|secret|key|hash|nonce", re.IGNORECASE)


def patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            found += patterns(entry, prefix + str(entry.pattern))
        else:
            found.append((prefix + str(entry.pattern), entry))
    return found


def test_every_route_taking_a_secret_says_so():
    """A new route whose parameter is named like a secret but matched as `str` fails
    here, before its secret reaches a log."""
    loose, declared = [], []
    for route, entry in patterns(get_resolver()):
        for name, converter in getattr(entry.pattern, "converters", {}).items():
            if isinstance(converter, SecretConverter):
                declared.append(route)
            elif SECRET_NAMES.search(name):
                loose.append(route)
    assert loose == []
    assert {"sign-in/<secret:link>", "device/<secret:link>"} <= set(declared), declared
    assert sum("unsubscribe/<secret:token>" in route for route in declared) == 2


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ('"GET /sign-in/Abc-9_x?next=/tables/ABC234 HTTP/1.1" 200', "next=/tables/ABC234"),
        ("Not Found: /device/gAAAAABn==", "Not Found: /device/"),
        ("POST /api/v1/unsubscribe/eyJ.x:1tQ 400", "POST /api/v1/unsubscribe/"),
        ("GET /settings/email/confirm?token=eyJ9&lang=de", "&lang=de"),
        ("GET /anything/new?key=s3cr3t", "GET /anything/new?key="),
    ],
)
def test_the_rule_redacts_paths_and_queries(line, kept):
    hidden = redact(line)
    assert kept in hidden and REDACTED in hidden
    assert not re.search(r"Abc-9_x|gAAAAABn|eyJ|s3cr3t", hidden), hidden


def test_every_logger_writes_the_rule(caplog):
    link = secrets.token_urlsafe(32)
    with caplog.at_level(logging.INFO):
        logging.getLogger("gunicorn.error").info("Invalid request: /sign-in/%s", link)
        logging.getLogger("some.new.library").warning("GET /device/%s", link)
        try:
            raise ValueError(f"/sign-in/{link}")
        except ValueError:
            logging.getLogger("celery.app.trace").exception("task failed")
    assert link not in caplog.text
    assert all(link not in (record.exc_text or "") for record in caplog.records)
    assert caplog.text.count(f"/sign-in/{REDACTED}") >= 2


def test_a_long_hostile_line_is_redacted_in_linear_time():
    line = "/sign-in/" + "a?" * 200_000 + "&t=" * 100_000
    started = time.process_time()
    redact(line)
    assert time.process_time() - started < 0.5


@pytest.mark.django_db
def test_the_admin_shows_no_push_endpoint_key_or_token(admin_client):
    subscription = PushSubscriptionFactory()
    device = DeviceTokenFactory()
    pages = [
        "/admin/notifications/pushsubscription/",
        f"/admin/notifications/pushsubscription/{subscription.pk}/change/",
        "/admin/notifications/devicetoken/",
        f"/admin/notifications/devicetoken/{device.pk}/change/",
    ]
    shown = "".join(admin_client.get(page).content.decode() for page in pages)
    path = subscription.endpoint.partition("//")[2].partition("/")[2]
    for secret in (path, subscription.p256dh, subscription.auth, device.token):
        assert secret not in shown
    assert subscription.endpoint.split("/")[2] in shown  # the push service, by its host


def get(port: int, method: str, path: str, body: dict | None = None) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not app.conf.broker_url.startswith(("redis://", "amqp://")),
    reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
)
def test_the_procfiles_processes_log_no_secret_of_any_link(tmp_path: Path, postmark: FakePostmark):
    """Every kind of mailed link, used through gunicorn as the Procfile runs it (the
    sign-in link mailed by a real worker), at INFO: neither log holds a secret."""
    aiko = PlayerFactory(name="Aiko")
    EmailAddressFactory(player=aiko, address="aiko@example.com")
    stale = secrets.token_urlsafe(32)  # a link mailed earlier, past its time
    SignInLinkFactory(player=aiko, link_hash=token_hash(stale), expires_at="2026-01-01T00:00Z")
    device = devices.make_link(aiko.token)
    unsubscribe = unsubscribe_token(aiko.pk, "", "aiko@example.com")
    confirm = confirm_token(aiko.pk, "aiko@example.com")
    mail = {
        "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
        "ANYMAIL_POSTMARK_SERVER_TOKEN": "test-token",
        "ANYMAIL_POSTMARK_API_URL": postmark.url,
        "LOG_LEVEL": "INFO",
    }
    web_log, worker_log = tmp_path / "web.log", tmp_path / "worker.log"
    with (
        worker_process(worker_log, name="links", **mail),
        gunicorn(PROCFILE_WEB, process_env(**mail), web_log) as (port, _),
    ):
        assert get(port, "POST", "/api/v1/sign-in", {"email": "aiko@example.com"}) == 202
        sent = postmark.wait_for(1, timeout=60)[0].body["TextBody"]
        mailed = re.search(r"/sign-in/([\w-]+)", sent)
        assert mailed, sent
        answers = [
            get(port, "GET", f"/sign-in/{mailed[1]}"),
            get(port, "GET", f"/sign-in/{stale}"),
            get(port, "GET", f"/device/{device}"),
            get(port, "GET", f"/device/{device[:-4]}AAAA"),  # a damaged one: an error
            get(port, "GET", f"/unsubscribe/{unsubscribe}"),
            get(port, "POST", f"/api/v1/unsubscribe/{unsubscribe}x"),
            get(port, "GET", f"/settings/email/confirm?token={confirm}&next=/me/tables"),
            get(port, "GET", "/healthz"),
        ]
    logs = web_log.read_text() + worker_log.read_text()
    assert answers[-1] == 200 and all(status < 500 for status in answers), answers
    for secret in (mailed[1], stale, device, device[:-4], unsubscribe, confirm):
        assert secret not in logs
    assert logs.count(f"/sign-in/{REDACTED}") >= 2 and f"/device/{REDACTED}" in logs
    assert f"confirm?token={REDACTED}&next=/me/tables" in logs
    assert "notifications.send_sign_in" in logs, "the worker's log was not read"
