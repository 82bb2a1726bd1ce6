"""FCM end to end, up to Google's door (`tests/notifications/fcm_service.py`):
google-auth's real signed token request and pyfcm's real message request arrive at a
server on loopback, which checks them and answers as FCM does (200, 404 UNREGISTERED,
429, 500).
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest

from bansugoroku.games.models import Player
from notifications.channels.push import reachable, send_to_player
from notifications.errors import PermanentError, TransientError
from notifications.models import DeviceToken, PushSubscription
from tests.factories import DeviceTokenFactory, PlayerFactory
from tests.notifications.fcm_service import SEND_PATH, UNREGISTERED, Google
from tests.notifications.loopback import Received, Reply, loopback_server
from tests.notifications.push_service import Browser

pytestmark = pytest.mark.django_db

PAYLOAD = {
    "kind": "your_turn",
    "title": "Your turn",
    "body": "Ben played 13/10 10/9*",
    "url": "/t/ABC234",
    "table": "ABC234",
}


@pytest.fixture
def player() -> Player:
    return PlayerFactory(name="Aiko")


def test_the_app_gets_the_notice_with_its_data(google, player):
    device = DeviceTokenFactory(player=player, token="app-token-1", platform="android")

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
    DeviceTokenFactory(player=player, token="app-token-1", platform="ios")
    for _ in range(3):
        send_to_player(player.pk, PAYLOAD)
    paths = [r.path for r in google.server.requests]
    assert paths == ["/token", SEND_PATH, SEND_PATH, SEND_PATH]


def test_an_unregistered_token_is_deleted_and_the_others_still_get_it(google, player):
    DeviceTokenFactory(player=player, token="uninstalled", platform="android")
    DeviceTokenFactory(player=player, token="installed", platform="ios")
    google.answers["uninstalled"] = Reply(404, UNREGISTERED)

    send_to_player(player.pk, PAYLOAD)

    assert list(DeviceToken.objects.values_list("token", flat=True)) == ["installed"]
    assert len(google.messages()) == 2


def test_when_the_only_token_is_unregistered_the_notice_fails_for_good(google, player):
    DeviceTokenFactory(player=player, token="uninstalled", platform="android")
    google.answers["uninstalled"] = Reply(404, UNREGISTERED)
    with pytest.raises(PermanentError):
        send_to_player(player.pk, PAYLOAD)
    assert not DeviceToken.objects.exists()


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_busy_or_failing_fcm_is_worth_retrying_at_once(google, player, status):
    """No sleeping on Retry-After and no retry loop inside the worker: one request, then
    the task is retried later."""
    DeviceTokenFactory(player=player, token="app", platform="android")
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
    DeviceTokenFactory(player=player, token="app", platform="android")
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)


def test_a_token_endpoint_that_stalls_is_worth_retrying_within_the_timeout(
    google, player, settings
):
    """google-auth waits 120 s for an access token: NOTICE_SEND_TIMEOUT bounds it too."""
    settings.NOTICE_SEND_TIMEOUT = timedelta(seconds=1)
    answered = threading.Event()

    def stall(request: Received) -> Reply:
        answered.wait(5)
        return google.token(request)

    google.server.route("/token", stall)
    DeviceTokenFactory(player=player, token="app", platform="android")
    began = time.monotonic()
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)
    assert time.monotonic() - began < 4
    answered.set()


def test_credentials_google_refuses_fail_for_good(google, player):
    google.server.route("/token", Reply(400, {"error": "invalid_grant"}))
    DeviceTokenFactory(player=player, token="app", platform="android")
    with pytest.raises(PermanentError):
        send_to_player(player.pk, PAYLOAD)
    assert DeviceToken.objects.count() == 1


def test_without_credentials_fcm_is_off_and_the_apps_are_left_alone(settings, player):
    """The server's configuration, not the player's error: nothing is tried or deleted."""
    settings.FCM_CREDENTIALS = None
    DeviceTokenFactory(player=player, token="app", platform="android")
    assert reachable(player.pk) == 0
    send_to_player(player.pk, PAYLOAD)
    assert DeviceToken.objects.count() == 1


def test_the_app_gets_it_though_the_browser_is_gone(google, player):
    """Both channels in one call: the gone browser is deleted, the app's delivery counts."""
    google.server.route("/push/", Reply(410))
    Browser(google.server, "gone").subscribe(player)
    DeviceTokenFactory(player=player, token="app", platform="android")
    send_to_player(player.pk, PAYLOAD)
    assert not PushSubscription.objects.exists()
    assert len(google.messages()) == 1
