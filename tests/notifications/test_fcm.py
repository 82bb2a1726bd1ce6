"""FCM end to end, up to Google's door: FCM cannot be reached from here, so a server on
loopback plays both Google's OAuth token endpoint and FCM's HTTP v1 API. The test's
service account (a fresh RSA key) names that token endpoint in its `token_uri`, as a
real account's JSON names Google's, and FCM_API_URL points pyfcm at the same server. So
google-auth's real signed token request and pyfcm's real message request arrive there:
the server verifies the JWT assertion with the account's public key, checks the access
token on the message, and answers as FCM does (200, 404 UNREGISTERED, 429, 500).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from urllib.parse import parse_qs

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from bansugoroku.games import services
from bansugoroku.games.models import Player
from notifications.errors import PermanentError, TransientError
from notifications.models import DeviceToken, PushSubscription
from notifications.push import send_to_player
from tests.notifications.loopback import Loopback, Received, Reply, loopback_server
from tests.notifications.test_webpush import Browser

pytestmark = pytest.mark.django_db

PROJECT = "bansugoroku-test"
ACCESS_TOKEN = "ya29.loopback-test-token"
SEND_PATH = f"/v1/projects/{PROJECT}/messages:send"
PAYLOAD = {
    "kind": "your_turn",
    "title": "Your turn",
    "body": "Ben played 13/10 10/9*",
    "url": "/t/ABC234",
    "table": "ABC234",
}
UNREGISTERED = {
    "error": {
        "code": 404,
        "message": "Requested entity was not found.",
        "status": "NOT_FOUND",
        "details": [
            {
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": "UNREGISTERED",
            }
        ],
    }
}


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Google:
    """The token endpoint and FCM, on one loopback server."""

    def __init__(self, server: Loopback) -> None:
        self.server = server
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.account = {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "test-key",
            "private_key": self.key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            ).decode(),
            "client_email": f"push@{PROJECT}.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": f"{server.url}/token",
        }
        server.route("/token", self.token)
        self.answers: dict[str, Reply] = {}
        server.route(SEND_PATH, self.send)

    def token(self, request: Received) -> Reply:
        form = parse_qs(request.body.decode())
        assert form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
        header, claims, signature = form["assertion"][0].split(".")
        self.key.public_key().verify(
            unb64(signature),
            f"{header}.{claims}".encode(),
            padding.PKCS1v15(),
            hashes.SHA256(),
        )
        decoded = json.loads(unb64(claims))
        assert decoded["iss"] == self.account["client_email"]
        assert decoded["aud"] == "https://oauth2.googleapis.com/token"  # as Google checks it
        assert decoded["scope"] == "https://www.googleapis.com/auth/firebase.messaging"
        assert decoded["exp"] > time.time()
        return Reply(
            200, {"access_token": ACCESS_TOKEN, "expires_in": 3600, "token_type": "Bearer"}
        )

    def send(self, request: Received) -> Reply:
        assert request.headers["authorization"] == f"Bearer {ACCESS_TOKEN}"
        token = json.loads(request.body)["message"]["token"]
        return self.answers.get(token, Reply(200, {"name": f"projects/{PROJECT}/messages/1"}))

    def messages(self) -> list[dict]:
        return [json.loads(r.body) for r in self.server.requests if r.path == SEND_PATH]


@pytest.fixture
def google(settings) -> Iterator[Google]:
    with loopback_server() as server:
        google = Google(server)
        settings.FCM_CREDENTIALS = google.account
        settings.FCM_API_URL = f"{server.url}/v1/projects"
        yield google


@pytest.fixture
def player() -> Player:
    return services.player_create(name="Aiko", locale="en")[0]


def test_the_app_gets_the_notice_with_its_data(google, player):
    device = DeviceToken.objects.create(player=player, token="app-token-1", platform="android")

    send_to_player(player.pk, PAYLOAD)

    (sent,) = google.messages()
    message = sent["message"]
    assert message["token"] == "app-token-1"
    assert message["notification"] == {"title": "Your turn", "body": "Ben played 13/10 10/9*"}
    assert message["data"] == PAYLOAD
    assert message["android"] == {"collapse_key": "ABC234", "notification": {"tag": "ABC234"}}
    assert message["apns"] == {"headers": {"apns-collapse-id": "ABC234"}}
    assert sent["validate_only"] is False
    device.refresh_from_db()
    assert device.last_success_at is not None


def test_the_access_token_is_fetched_once_for_many_notices(google, player):
    DeviceToken.objects.create(player=player, token="app-token-1", platform="ios")
    for _ in range(3):
        send_to_player(player.pk, PAYLOAD)
    paths = [r.path for r in google.server.requests]
    assert paths == ["/token", SEND_PATH, SEND_PATH, SEND_PATH]


def test_an_unregistered_token_is_deleted_and_the_others_still_get_it(google, player):
    DeviceToken.objects.create(player=player, token="uninstalled", platform="android")
    DeviceToken.objects.create(player=player, token="installed", platform="ios")
    google.answers["uninstalled"] = Reply(404, UNREGISTERED)

    send_to_player(player.pk, PAYLOAD)

    assert list(DeviceToken.objects.values_list("token", flat=True)) == ["installed"]
    assert len(google.messages()) == 2


def test_when_the_only_token_is_unregistered_the_notice_fails_for_good(google, player):
    DeviceToken.objects.create(player=player, token="uninstalled", platform="android")
    google.answers["uninstalled"] = Reply(404, UNREGISTERED)
    with pytest.raises(PermanentError):
        send_to_player(player.pk, PAYLOAD)
    assert not DeviceToken.objects.exists()


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_busy_or_failing_fcm_is_worth_retrying_at_once(google, player, status):
    """No sleeping on Retry-After and no retry loop inside the worker: one request, then
    the task is retried later."""
    DeviceToken.objects.create(player=player, token="app", platform="android")
    google.answers["app"] = Reply(status, {"error": {"code": status}}, {"Retry-After": "30"})
    started = time.monotonic()
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)
    assert time.monotonic() - started < 5
    assert len(google.messages()) == 1
    assert DeviceToken.objects.count() == 1


def test_a_token_endpoint_that_cannot_be_reached_is_worth_retrying(settings, player):
    with loopback_server() as closed:
        google = Google(closed)
    settings.FCM_CREDENTIALS = google.account  # its token_uri's port is closed now
    settings.FCM_API_URL = f"{closed.url}/v1/projects"
    DeviceToken.objects.create(player=player, token="app", platform="android")
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)


def test_credentials_google_refuses_fail_for_good(google, player):
    google.server.route("/token", Reply(400, {"error": "invalid_grant"}))
    DeviceToken.objects.create(player=player, token="app", platform="android")
    with pytest.raises(PermanentError):
        send_to_player(player.pk, PAYLOAD)
    assert DeviceToken.objects.count() == 1


def test_without_credentials_fcm_is_off(settings, player):
    settings.FCM_CREDENTIALS = None
    DeviceToken.objects.create(player=player, token="app", platform="android")
    with pytest.raises(PermanentError, match="FCM is off"):
        send_to_player(player.pk, PAYLOAD)


def test_the_app_gets_it_though_the_browser_is_gone(google, player):
    """Both channels in one call: the gone browser is deleted, the app's delivery counts."""
    google.server.route("/push/", Reply(410))
    Browser(google.server, "gone").subscribe(player)
    DeviceToken.objects.create(player=player, token="app", platform="android")
    send_to_player(player.pk, PAYLOAD)
    assert not PushSubscription.objects.exists()
    assert len(google.messages()) == 1
