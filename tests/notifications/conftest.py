"""Notices go through anymail's real Postmark backend to a loopback server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.notifications.postmark import FakePostmark, fake_postmark


@pytest.fixture
def postmark(settings) -> Iterator[FakePostmark]:
    with fake_postmark() as fake:
        settings.EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"
        settings.ANYMAIL = {"POSTMARK_SERVER_TOKEN": "test-token", "POSTMARK_API_URL": fake.url}
        settings.SITE_URL = "https://play.example.com"
        yield fake
