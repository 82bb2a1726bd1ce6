"""The push endpoints: the VAPID key, browsers' subscriptions and apps' FCM tokens, with
every refusal a problem+json answer."""

from __future__ import annotations

import base64
import os
import time
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings as django_settings
from django.db import transaction

from bansugoroku.games.models import Player
from notifications.models import DeviceToken, PushSubscription
from tests.client import Answer, Api, check
from tests.notifications.push_service import p256dh
from tests.races import TIMEOUT, Race, lock_waiters

SUBSCRIPTIONS = "players/me/push-subscriptions"
DEVICES = "players/me/devices"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subscription(name: str = "a", **changes: Any) -> dict[str, Any]:
    """A browser's PushSubscription as `toJSON()` gives it."""
    body: dict[str, Any] = {
        "endpoint": f"https://fcm.googleapis.com/fcm/send/{name}",
        "expirationTime": None,
        "keys": {"p256dh": p256dh(), "auth": b64(os.urandom(16))},
    }
    return body | changes


def delete(player: Api, path: str, body: Any = None) -> Answer:
    return player.call("DELETE", path, body)


def refused(answer: Answer, status: int, code: str) -> dict[str, Any]:
    assert answer.status == status, answer.body
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert answer.body["code"] == code, answer.body
    return answer.body


# --- The VAPID key --------------------------------------------------------------------


def test_the_vapid_key_needs_no_token(api, openapi):
    answer = api.get("push/vapid-public-key")
    check(openapi, "/api/v1/push/vapid-public-key", "get", 200, answer)
    assert answer.body == {"public_key": django_settings.VAPID_PUBLIC_KEY}
    point = base64.urlsafe_b64decode(answer.body["public_key"] + "=")
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)  # a P-256 key


def test_without_a_vapid_key_the_key_is_404_push_off(api, settings):
    settings.VAPID_PUBLIC_KEY = None
    refused(api.get("push/vapid-public-key"), 404, "push_off")


# --- Browsers' subscriptions ----------------------------------------------------------


def test_a_browser_subscribes_and_is_listed(host, openapi):
    body = subscription()
    answer = host.call("POST", SUBSCRIPTIONS, body, **{"User-Agent": "Firefox/140"})
    check(openapi, f"/api/v1/{SUBSCRIPTIONS}", "post", 201, answer)
    assert answer.body["endpoint"] == body["endpoint"]
    assert answer.body["label"] == "Firefox/140"
    assert answer.body["last_success_at"] is None
    saved = PushSubscription.objects.get()
    assert (saved.p256dh, saved.auth) == (body["keys"]["p256dh"], body["keys"]["auth"])
    listed = host.get(SUBSCRIPTIONS)
    check(openapi, f"/api/v1/{SUBSCRIPTIONS}", "get", 200, listed)
    assert [s["id"] for s in listed.body] == [answer.body["id"]]


def test_padded_keys_are_kept_unpadded(host):
    body = subscription()
    body["keys"] = {"p256dh": body["keys"]["p256dh"] + "=", "auth": body["keys"]["auth"] + "=="}
    assert host.post(SUBSCRIPTIONS, body).status == 201
    saved = PushSubscription.objects.get()
    assert "=" not in saved.p256dh + saved.auth


def test_subscribing_again_updates_the_subscription(host):
    first = host.post(SUBSCRIPTIONS, subscription(label="old"))
    again = subscription(label="new")
    answer = host.post(SUBSCRIPTIONS, again)
    assert answer.status == 200
    assert answer.body["id"] == first.body["id"]
    saved = PushSubscription.objects.get()
    assert (saved.label, saved.p256dh) == ("new", again["keys"]["p256dh"])


def test_an_endpoint_registered_by_another_player_moves_to_the_caller(host, guest):
    """The browser now plays as the guest: only the guest should be told there."""
    host.post(SUBSCRIPTIONS, subscription())
    assert guest.post(SUBSCRIPTIONS, subscription()).status == 200
    assert PushSubscription.objects.get().player.name == "Ben"
    assert host.get(SUBSCRIPTIONS).body == []


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/x",  # not https
        "ftp://fcm.googleapis.com/x",
        "https://push.example.com/x",  # not a push service
        "https://fcm.googleapis.com.example.com/x",
        "https://evilpush.apple.com.example/x",
        "https://10.0.0.8/x",  # inside a network
        "https://169.254.169.254/latest/meta-data",  # a cloud's metadata service
        "https://[fd00::1]/x",
        "https://localhost/x",  # loopback outside development
        "https://127.0.0.1/x",
        "https://intranet/x",  # a bare name, resolved inside a network
        "https://user:secret@fcm.googleapis.com/x",
        "not a url",
        "https://" + "a" * 2048 + ".com/",
        "https://fcm.googleapis.com\uff0fevil/x",  # a fullwidth slash: urlsplit refuses it
        "https://fcm.googleapis.com\uff20evil.example/x",  # a fullwidth @
        "https://[fcm.googleapis.com]/x",  # a name in brackets, as for an IPv6 address
        "https://fcm.googleapis.com:22/x",  # another service on an allowed host
        "https://fcm.googleapis.com:8443/x",
        "https://fcm.googleapis.com:80/x",
        "https://fcm.googleapis.com:99999/x",
        "https://fcm.googleapis.com:ssh/x",
    ],
)
def test_an_endpoint_that_is_not_a_known_https_push_service_is_refused(host, settings, endpoint):
    settings.DEBUG = False
    problem = refused(
        host.post(SUBSCRIPTIONS, subscription(endpoint=endpoint)), 400, "invalid_request"
    )
    assert "endpoint" in problem["errors"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAA",
        "https://fcm.googleapis.com:443/fcm/send/x",  # https's own port, written out
    ],
)
def test_the_browsers_push_services_are_taken(host, settings, endpoint):
    settings.DEBUG = False
    assert host.post(SUBSCRIPTIONS, subscription(endpoint=endpoint)).status == 201


def test_more_push_services_can_be_allowed(host, settings):
    settings.DEBUG = False
    settings.PUSH_SERVICE_HOSTS = ["*.push.example.net"]
    endpoint = "https://eu.push.example.net/x"
    assert host.post(SUBSCRIPTIONS, subscription(endpoint=endpoint)).status == 201
    endpoint = "https://fcm.googleapis.com/fcm/send/x"
    refused(host.post(SUBSCRIPTIONS, subscription(endpoint=endpoint)), 400, "invalid_request")


@pytest.mark.parametrize("endpoint", ["http://127.0.0.1:8765/push/x", "http://localhost/x"])
def test_a_development_server_on_loopback_takes_a_push_service_on_loopback(
    host, settings, endpoint
):
    settings.DEBUG = settings.LOOPBACK_ONLY = True
    assert host.post(SUBSCRIPTIONS, subscription(endpoint=endpoint)).status == 201


@pytest.mark.parametrize(
    "endpoint",
    ["http://127.0.0.1:6379/", "http://localhost:6379/", "https://127.0.0.1/x", "http://[::1]/"],
)
def test_a_development_server_the_network_reaches_takes_no_loopback_endpoint(
    host, settings, endpoint
):
    """`make run HOST=0.0.0.0`: anyone on the network could otherwise have the worker
    post to this machine's own Redis."""
    settings.DEBUG, settings.LOOPBACK_ONLY = True, False
    problem = refused(
        host.post(SUBSCRIPTIONS, subscription(endpoint=endpoint)), 400, "invalid_request"
    )
    assert "endpoint" in problem["errors"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("keys", "field"),
    [
        ({"auth": b64(os.urandom(16))}, "p256dh"),  # missing
        ({"p256dh": b64(os.urandom(65)), "auth": b64(os.urandom(16))}, "p256dh"),  # off the curve
        ({"p256dh": b64(b"\x04" + bytes(64)), "auth": b64(os.urandom(16))}, "p256dh"),
        ({"p256dh": p256dh()[:-4], "auth": b64(os.urandom(16))}, "p256dh"),  # too short
        ({"p256dh": "!!!not base64!!!", "auth": b64(os.urandom(16))}, "p256dh"),
        ({"p256dh": p256dh(), "auth": b64(os.urandom(15))}, "auth"),
        ({"p256dh": p256dh(), "auth": b64(os.urandom(17))}, "auth"),
        ({"p256dh": p256dh(), "auth": 1234567890}, "auth"),
        ({"p256dh": p256dh(), "auth": b64(os.urandom(16)), "extra": "x"}, "extra"),
    ],
)
def test_bad_keys_are_refused(host, keys, field):
    problem = refused(host.post(SUBSCRIPTIONS, subscription(keys=keys)), 400, "invalid_request")
    assert field in problem["errors"]["keys"], problem


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (subscription(secret="x"), "secret"),  # unknown field
        (subscription(keys="p256dh"), "keys"),
        (subscription(expirationTime="soon"), "expirationTime"),
        (subscription(label="x" * 201), "label"),
        ({"keys": subscription()["keys"]}, "endpoint"),
    ],
)
def test_a_malformed_subscription_is_refused(host, body, field):
    problem = refused(host.post(SUBSCRIPTIONS, body), 400, "invalid_request")
    assert field in problem["errors"], problem


@pytest.mark.parametrize("raw", ['{"endpoint": ', "[]", '"x"', "null"])
def test_a_body_that_is_not_a_subscription_object_is_refused(host, raw):
    refused(host.call("POST", SUBSCRIPTIONS, raw=raw), 400, "invalid_request")


def test_a_player_has_at_most_the_limit_of_browsers(host, settings, openapi):
    settings.PUSH_MAX_PER_PLAYER = 2
    kept = [host.post(SUBSCRIPTIONS, subscription(name)) for name in "ab"]
    assert [answer.status for answer in kept] == [201, 201]
    answer = host.post(SUBSCRIPTIONS, subscription("c"))
    check(openapi, f"/api/v1/{SUBSCRIPTIONS}", "post", 409, answer)
    problem = refused(answer, 409, "too_many_subscriptions")
    assert problem["limit"] == 2
    assert host.post(SUBSCRIPTIONS, subscription("a")).status == 200  # updating one still works
    assert PushSubscription.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_browsers_racing_for_the_last_place_do_not_both_take_it(settings):
    """Both requests wait on the player's row together, so both count under the lock."""
    settings.PUSH_MAX_PER_PLAYER = 1
    player = Api().new_player("Aiko")
    racing = Race(
        *(lambda n=n: Api(player.token).post(SUBSCRIPTIONS, subscription(n)) for n in "xy")
    )
    with transaction.atomic():
        Player.objects.select_for_update().get(name="Aiko")
        racing.start()
        deadline = time.monotonic() + TIMEOUT
        while lock_waiters() < 2:
            assert time.monotonic() < deadline, "the racers never queued on the player's row"
            time.sleep(0.002)
    statuses = sorted(answer.status for answer in racing.answers())
    assert statuses == [201, 409]
    assert PushSubscription.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_players_registering_one_endpoint_at_once_leave_one_subscription():
    """Neither waits for the other's player row: the unique endpoint decides, and the one
    that loses the insert updates the winner's row instead of failing."""
    players = [Api().new_player(name) for name in ("Aiko", "Ben")]
    body = subscription()
    for _ in range(5):
        answers = Race(*(lambda p=p: Api(p.token).post(SUBSCRIPTIONS, body) for p in players))
        statuses = sorted(answer.status for answer in answers.start().answers())
        assert statuses in ([200, 200], [200, 201]), statuses
        assert PushSubscription.objects.count() == 1


def test_a_browser_unsubscribes_by_endpoint(host, openapi):
    body = subscription()
    host.post(SUBSCRIPTIONS, body)
    answer = delete(host, SUBSCRIPTIONS, {"endpoint": body["endpoint"]})
    assert answer.status == 204
    assert not PushSubscription.objects.exists()
    refused(
        delete(host, SUBSCRIPTIONS, {"endpoint": body["endpoint"]}), 404, "subscription_not_found"
    )


def test_a_subscription_is_deleted_by_its_id(host):
    created = host.post(SUBSCRIPTIONS, subscription())
    assert delete(host, f"{SUBSCRIPTIONS}/{created.body['id']}").status == 204
    assert not PushSubscription.objects.exists()
    refused(delete(host, f"{SUBSCRIPTIONS}/{created.body['id']}"), 404, "subscription_not_found")


def test_another_players_subscription_cannot_be_deleted(host, guest):
    body = subscription()
    created = host.post(SUBSCRIPTIONS, body)
    refused(
        delete(guest, SUBSCRIPTIONS, {"endpoint": body["endpoint"]}), 404, "subscription_not_found"
    )
    refused(delete(guest, f"{SUBSCRIPTIONS}/{created.body['id']}"), 404, "subscription_not_found")
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize(
    "body", [None, {}, {"endpoint": 5}, {"endpoint": "https://x.example/a", "keys": {}}]
)
def test_an_unsubscription_without_one_endpoint_is_refused(host, body):
    refused(delete(host, SUBSCRIPTIONS, body), 400, "invalid_request")


def test_a_stale_id_path_is_not_a_subscription(host):
    refused(delete(host, f"{SUBSCRIPTIONS}/99999999999"), 404, "subscription_not_found")
    refused(delete(host, f"{SUBSCRIPTIONS}/abc"), 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", SUBSCRIPTIONS), ("POST", SUBSCRIPTIONS), ("DELETE", SUBSCRIPTIONS), ("POST", DEVICES)],
)
def test_the_player_endpoints_need_a_token(api, method, path):
    refused(api.call(method, path, subscription()), 401, "not_authenticated")


# --- Apps' FCM tokens -----------------------------------------------------------------

TOKEN = "cT9x3:APA91bH-" + "Ab_9" * 35


def test_an_app_registers_its_token_and_is_listed(host, openapi):
    answer = host.post(DEVICES, {"token": TOKEN, "platform": "android"})
    check(openapi, f"/api/v1/{DEVICES}", "post", 201, answer)
    assert answer.body["platform"] == "android"
    assert "token" not in answer.body
    listed = host.get(DEVICES)
    check(openapi, f"/api/v1/{DEVICES}", "get", 200, listed)
    assert [d["id"] for d in listed.body] == [answer.body["id"]]


def test_a_token_registered_again_is_updated_and_moves_to_the_caller(host, guest):
    host.post(DEVICES, {"token": TOKEN, "platform": "android"})
    answer = guest.post(DEVICES, {"token": TOKEN, "platform": "ios"})
    assert answer.status == 200
    device = DeviceToken.objects.get()
    assert (device.player.name, device.platform) == ("Ben", "ios")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"token": TOKEN, "platform": "windows"}, "platform"),
        ({"token": TOKEN}, "platform"),
        ({"token": "has spaces and ünïcode", "platform": "ios"}, "token"),
        ({"token": 12345, "platform": "ios"}, "token"),
        ({"token": "x" * 1025, "platform": "ios"}, "token"),
        ({"token": "", "platform": "ios"}, "token"),
        ({"token": TOKEN, "platform": "ios", "app": "x"}, "app"),
    ],
)
def test_a_bad_device_is_refused(host, body, field):
    problem = refused(host.post(DEVICES, body), 400, "invalid_request")
    assert field in problem["errors"], problem


def test_a_player_has_at_most_the_limit_of_devices(host, settings):
    settings.PUSH_MAX_PER_PLAYER = 1
    assert host.post(DEVICES, {"token": "one", "platform": "ios"}).status == 201
    refused(host.post(DEVICES, {"token": "two", "platform": "ios"}), 409, "too_many_subscriptions")


def test_an_app_unregisters_its_token_but_not_another_players(host, guest):
    host.post(DEVICES, {"token": TOKEN, "platform": "android"})
    refused(delete(guest, DEVICES, {"token": TOKEN}), 404, "subscription_not_found")
    assert delete(host, DEVICES, {"token": TOKEN}).status == 204
    assert not DeviceToken.objects.exists()
    refused(delete(host, DEVICES, {"token": TOKEN}), 404, "subscription_not_found")


@pytest.mark.parametrize("path", [SUBSCRIPTIONS, DEVICES])
def test_a_list_costs_two_queries_however_long(host, django_assert_num_queries, path):
    """The token, then the list."""
    for name in "abc":
        host.post(SUBSCRIPTIONS, subscription(name))
        host.post(DEVICES, {"token": f"token-{name}", "platform": "ios"})
    with django_assert_num_queries(2):
        assert len(host.get(path).body) == 3
