"""The web process's logs keep no token of a mailed link: real gunicorn with the
Procfile's worker class, its log read as an operator would."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from harness.serving import HOST, PROCFILE_WEB, gunicorn
from notifications.consent.tokens import confirm_token, unsubscribe_token
from tests.processes import process_env

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def request(port: int, method: str, path: str) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_the_access_log_keeps_no_token_of_a_mailed_link(tmp_path: Path):
    unsubscribe = unsubscribe_token(1, "", "aiko@example.com")
    confirm = confirm_token(1, "aiko@example.com")
    log_path = tmp_path / "web.log"
    env = process_env(LOG_LEVEL="INFO")

    with gunicorn([*PROCFILE_WEB[:2], "--workers", "1"], env, log_path) as (port, _):
        answers = [
            request(port, "POST", f"/api/v1/unsubscribe/{unsubscribe}"),
            request(port, "GET", f"/unsubscribe/{unsubscribe}"),
            request(port, "GET", f"/settings/email/confirm?token={confirm}&x=1"),
            request(port, "GET", "/healthz"),
        ]

    log = log_path.read_text()
    assert answers == [400, 400, 200, 200]  # no such player: unsubscribing is refused
    assert unsubscribe not in log and confirm not in log
    assert "GET /unsubscribe/[redacted]" in log
    assert "POST /api/v1/unsubscribe/[redacted]" in log
    assert "GET /settings/email/confirm?token=[redacted]&x=[redacted]" in log
    assert "GET /healthz" in log, "the access log was not read"
