"""The mail provider's tracking webhook: only the configured provider's route, only
behind its secret; a stranger's complaint suppresses nothing."""

from __future__ import annotations

import base64

import pytest
from django.test import Client

from notifications.models import Suppression
from tests.production_settings import PRODUCTION_ENV, run_python

SECRET = "hook:s3cret"
POSTMARK = "/anymail/postmark/tracking/"


def basic(secret: str) -> str:
    return "Basic " + base64.b64encode(secret.encode()).decode()


def bounce(address: str, record: str = "Bounce") -> dict:
    """Postmark's webhook body for a bounce, or with `record="SpamComplaint"` a complaint."""
    return {
        "RecordType": record,
        "Type": "HardBounce" if record == "Bounce" else record,
        "TypeCode": 1,
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "Email": address,
        "BouncedAt": "2026-12-01T00:00:00Z",
        "ReceivedAt": "2026-12-01T00:00:00Z",
        "Description": "The server was unable to deliver your message",
        "Details": "smtp;550 5.1.1 The email account does not exist",
    }


def post(path: str, body: dict, **headers: str) -> int:
    """As the provider posts: no cookie, no CSRF token (the route is exempt)."""
    answer = Client(enforce_csrf_checks=True).post(
        path, body, content_type="application/json", headers=headers
    )
    return answer.status_code


@pytest.fixture
def postmark(settings):
    """Mail goes through Postmark; the test sets the secret, or not."""
    settings.EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"
    settings.ANYMAIL = {"POSTMARK_SERVER_TOKEN": "test-token"}
    return settings


@pytest.mark.django_db
def test_without_the_secret_the_webhook_does_not_exist(postmark):
    complaint = bounce("victim@example.com", "SpamComplaint")
    assert post(POSTMARK, complaint) == 404
    assert post(POSTMARK, complaint, Authorization=basic("any:thing")) == 404
    assert not Suppression.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("secret", [None, SECRET])
@pytest.mark.parametrize(
    "path",
    [
        "/anymail/sendgrid/tracking/",
        "/anymail/brevo/tracking/",
        "/anymail/mailgun/tracking/",
        "/anymail/postmark/inbound/",
        "/anymail/nonesuch/tracking/",
    ],
)
def test_only_the_configured_providers_tracking_route_exists(postmark, secret, path):
    if secret:
        postmark.ANYMAIL = postmark.ANYMAIL | {"WEBHOOK_SECRET": secret}
    headers = {"Authorization": basic(secret)} if secret else {}
    assert post(path, bounce("victim@example.com", "SpamComplaint"), **headers) == 404
    assert not Suppression.objects.exists()


@pytest.mark.django_db
def test_without_a_provider_no_webhook_exists(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}  # the development backend: no provider
    answer = post(POSTMARK, bounce("victim@example.com"), Authorization=basic(SECRET))
    assert answer == 404
    assert not Suppression.objects.exists()


@pytest.mark.django_db
def test_bounces_and_complaints_with_the_secret_suppress_the_address(postmark):
    postmark.ANYMAIL = postmark.ANYMAIL | {"WEBHOOK_SECRET": SECRET}
    for address, record in (("Gone@Example.com", "Bounce"), ("angry@example.com", "SpamComplaint")):
        assert post(POSTMARK, bounce(address, record), Authorization=basic(SECRET)) == 200
    reasons = dict(Suppression.objects.values_list("address", "reason"))
    assert reasons == {"gone@example.com": "bounced", "angry@example.com": "complained"}


@pytest.mark.django_db
def test_wrong_or_missing_credentials_are_401_and_suppress_nothing(postmark):
    postmark.ANYMAIL = postmark.ANYMAIL | {"WEBHOOK_SECRET": SECRET}
    complaint = bounce("victim@example.com", "SpamComplaint")
    for headers in ({"Authorization": basic("hook:guess")}, {"Authorization": "Bearer x"}, {}):
        answer = Client().post(
            POSTMARK, complaint, content_type="application/json", headers=headers
        )
        assert answer.status_code == 401
        assert answer["WWW-Authenticate"].startswith("Basic")
    assert not Suppression.objects.exists()


POSTMARK_ENV = {
    **PRODUCTION_ENV,
    "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
    "ANYMAIL_POSTMARK_SERVER_TOKEN": "token",
}


@pytest.mark.django_db
@pytest.mark.parametrize("body", [b"not json", b"[]", b"{}", b'{"RecordType": 3}', b"\xff"])
def test_a_body_that_is_no_event_is_400_never_a_500(postmark, body):
    postmark.ANYMAIL = postmark.ANYMAIL | {"WEBHOOK_SECRET": SECRET}
    answer = Client().post(
        POSTMARK, body, content_type="application/json", headers={"Authorization": basic(SECRET)}
    )
    assert answer.status_code in (200, 400), answer.content[:200]
    assert not Suppression.objects.exists()


@pytest.mark.slow
def test_check_deploy_warns_while_the_providers_webhook_has_no_secret():
    command = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    result = run_python(command, POSTMARK_ENV)
    assert result.returncode != 0
    assert "notifications.W001" in result.stderr + result.stdout
    assert "ANYMAIL_WEBHOOK_SECRET" in result.stderr + result.stdout
    result = run_python(command, {**POSTMARK_ENV, "ANYMAIL_WEBHOOK_SECRET": SECRET})
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
