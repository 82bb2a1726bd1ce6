"""Notices go through anymail's real Postmark backend, pywebpush's and pyfcm's real
requests, to servers on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from harness.postmark import FakePostmark, fake_postmark
from tests.notifications.fcm_service import Google
from tests.notifications.helpers import send_answers
from tests.notifications.inbound import SECRET
from tests.notifications.loopback import Loopback, loopback_server
from tests.notifications.replying import DOMAIN


@pytest.fixture
def postmark(settings) -> Iterator[FakePostmark]:
    with fake_postmark() as fake:
        settings.EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"
        settings.ANYMAIL = settings.ANYMAIL | {
            "POSTMARK_SERVER_TOKEN": "test-token",
            "POSTMARK_API_URL": fake.url,
        }
        settings.SITE_URL = "https://play.example.com"
        yield fake


@pytest.fixture
def push_service() -> Iterator[Loopback]:
    with loopback_server() as server:
        yield server


@pytest.fixture
def google(settings) -> Iterator[Google]:
    """FCM on: its token endpoint and API on loopback."""
    with loopback_server() as server:
        google = Google(server)
        settings.FCM_CREDENTIALS = google.account
        settings.FCM_API_URL = f"{server.url}/v1/projects"
        yield google


@pytest.fixture
def replies(settings, postmark: FakePostmark) -> FakePostmark:
    """Mail goes out through Postmark and comes back through its inbound webhook."""
    settings.ANYMAIL = settings.ANYMAIL | {"WEBHOOK_SECRET": SECRET}
    settings.INBOUND_DOMAIN = DOMAIN
    settings.INBOUND_PROVIDER = "postmark"
    settings.NOTICE_LOOKING_WINDOW = timedelta(0)
    send_answers()  # what earlier tests left on the broker
    return postmark
