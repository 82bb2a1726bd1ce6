"""Web Push end to end: pywebpush's real request reaches a push service on loopback,
which checks its VAPID signature (RFC 8292) and decrypts its payload (RFC 8291) with the
browser's private key, as a real push service and browser would; its answers (201, 404,
410, 429, 500) drive what send_to_player does."""

from __future__ import annotations

import pytest
from django.conf import settings

from bansugoroku.games.models import Player
from notifications.channels.push import reachable, send_to_player
from notifications.errors import PermanentError, TransientError
from notifications.models import PushSubscription
from tests.factories import PlayerFactory
from tests.notifications.loopback import Reply, loopback_server
from tests.notifications.push_service import Browser, check_vapid

pytestmark = pytest.mark.django_db

PAYLOAD = {
    "kind": "your_turn",
    "title": "Your turn",
    "body": "Ben played 13/10 10/9*, then you rolled 5-3 — 盤双六",
    "url": "/t/ABC234",
    "table": "ABC234",
}


@pytest.fixture
def player() -> Player:
    return PlayerFactory(name="Aiko")


def test_the_push_service_gets_a_signed_request_and_the_browser_reads_the_payload(
    push_service, player
):
    browser = Browser(push_service, "aiko-phone")
    push_service.route("/push/", Reply(201))
    subscription = browser.subscribe(player)

    send_to_player(player.pk, PAYLOAD)

    (request,) = push_service.requests
    assert request.path == browser.path
    check_vapid(request, audience=push_service.url)
    assert browser.decrypt(request) == PAYLOAD
    assert request.headers["ttl"] == str(settings.PUSH_TTL)
    assert request.headers["topic"] == "ABC234"
    assert request.headers["urgency"] == "normal"
    subscription.refresh_from_db()
    assert subscription.last_success_at is not None


def test_a_tampered_payload_does_not_decrypt(push_service, player):
    """The check above can fail: a byte changed in transit breaks the AEAD tag."""
    browser = Browser(push_service, "aiko")
    push_service.route("/push/", Reply(201))
    browser.subscribe(player)
    send_to_player(player.pk, PAYLOAD)
    (request,) = push_service.requests
    request.body = request.body[:-1] + bytes([request.body[-1] ^ 1])
    with pytest.raises(Exception, match="(?i)decrypt|tag"):
        browser.decrypt(request)


def test_every_browser_of_the_player_gets_it_and_no_one_else(push_service, player):
    other = PlayerFactory(name="Ben")
    push_service.route("/push/", Reply(201))
    mine = [Browser(push_service, name) for name in ("laptop", "phone")]
    for browser in mine:
        browser.subscribe(player)
    Browser(push_service, "ben").subscribe(other)

    send_to_player(player.pk, PAYLOAD)

    assert sorted(r.path for r in push_service.requests) == ["/push/laptop", "/push/phone"]
    for browser, request in zip(
        mine, sorted(push_service.requests, key=lambda r: r.path), strict=True
    ):
        assert browser.decrypt(request) == PAYLOAD


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_deleted_and_the_others_still_get_it(push_service, player, status):
    gone, alive = Browser(push_service, "gone"), Browser(push_service, "alive")
    push_service.route("/push/gone", Reply(status))
    push_service.route("/push/alive", Reply(201))
    gone.subscribe(player)
    alive.subscribe(player)

    send_to_player(player.pk, PAYLOAD)  # one delivered: no error

    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [alive.endpoint]


def test_when_every_subscription_is_gone_the_notice_fails_for_good(push_service, player):
    for name in ("a", "b"):
        Browser(push_service, name).subscribe(player)
    push_service.route("/push/", Reply(410))
    with pytest.raises(PermanentError):
        send_to_player(player.pk, PAYLOAD)
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_busy_or_failing_push_service_is_worth_retrying(push_service, player, status):
    browser = Browser(push_service, "busy")
    push_service.route("/push/", Reply(status, headers={"Retry-After": "30"}))
    subscription = browser.subscribe(player)
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)
    subscription.refresh_from_db()  # kept
    assert subscription.last_success_at is None


def test_a_transient_failure_beside_a_gone_one_is_retried(push_service, player):
    Browser(push_service, "gone").subscribe(player)
    Browser(push_service, "busy").subscribe(player)
    push_service.route("/push/gone", Reply(410))
    push_service.route("/push/busy", Reply(503))
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)
    assert [s.endpoint.rsplit("/", 1)[1] for s in PushSubscription.objects.all()] == ["busy"]


def test_a_push_service_that_cannot_be_reached_is_worth_retrying(player):
    with loopback_server() as closed:
        browser = Browser(closed, "x")
    browser.subscribe(player)  # its port is closed now
    with pytest.raises(TransientError):
        send_to_player(player.pk, PAYLOAD)


def test_a_refusal_that_is_not_gone_keeps_the_subscription(push_service, player):
    """413 (too big) or 403 (a VAPID problem) won't pass by retrying, but the browser may
    still be subscribed."""
    browser = Browser(push_service, "picky")
    push_service.route("/push/", Reply(403))
    browser.subscribe(player)
    with pytest.raises(PermanentError):
        send_to_player(player.pk, PAYLOAD)
    assert PushSubscription.objects.count() == 1


def test_a_player_with_nowhere_to_send_is_no_error(player):
    send_to_player(player.pk, PAYLOAD)


def test_without_a_vapid_key_web_push_is_off_and_the_browsers_are_left_alone(
    push_service, player, settings
):
    """The server's configuration, not the player's error: nothing is tried or deleted."""
    settings.VAPID_PRIVATE_KEY = None
    Browser(push_service, "x").subscribe(player)
    assert reachable(player.pk) == 0
    send_to_player(player.pk, PAYLOAD)
    assert push_service.requests == []
    assert PushSubscription.objects.count() == 1
