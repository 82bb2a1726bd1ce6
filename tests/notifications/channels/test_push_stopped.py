"""Push stopped for a player stays stopped only until they register a browser or an app
again; and push that is off on this server (no VAPID key, no FCM credentials) is the
server's configuration, never held against the player: the notice is skipped and push
goes on once the channel is on. Registering goes through the API, sending through the
real sending code, to push services on loopback."""

from __future__ import annotations

import pytest

from bansugoroku.games.models import Player, Table
from notifications.channels import sending
from notifications.models import Preferences
from tests.client import Api
from tests.factories import DeviceTokenFactory, GameFactory, NoticeFactory, PlayerFactory
from tests.notifications.helpers import deliver, notice, unseen
from tests.notifications.loopback import Loopback, Reply
from tests.notifications.push_service import Browser

pytestmark = pytest.mark.django_db

NOWHERE = "skipped: no browser or app registered on a push channel that is on here"


def stopped(player: Player) -> bool:
    return Preferences.objects.get(player=player).push_stopped_at is not None


def stopped_by_a_gone_browser(push_service: Loopback, settings) -> tuple[Player, Table]:
    """A player whose only browser the push service calls gone (410), registered through
    the API: their "your turn" push fails for good and stops push; the notice of the
    opponent's arrival is still pending."""
    settings.DEBUG = settings.LOOPBACK_ONLY = True  # takes a push service on loopback
    host = PlayerFactory()
    gone = Browser(push_service, "gone")
    push_service.route(gone.path, Reply(410))
    assert Api(host.token).post("players/me/push-subscriptions", gone.subscription()).status == 201
    turn = NoticeFactory(player=host, kind="your_turn", channel="push")
    table = turn.table
    unseen(table)
    assert sending.send_notice(turn.pk) == "failed: permanent error"
    assert stopped(host)
    return host, table


def test_registering_a_browser_starts_push_again(push_service, settings):
    host, table = stopped_by_a_gone_browser(push_service, settings)
    browser = Browser(push_service, "new")
    push_service.route(browser.path, Reply(201))

    answer = Api(host.token).post("players/me/push-subscriptions", browser.subscription())

    assert answer.status == 201 and not stopped(host)
    assert sending.send_notice(notice(table, host, "opponent_joined", "push").pk) == "sent"
    (request,) = [r for r in push_service.requests if r.path == browser.path]
    assert browser.decrypt(request)["kind"] == "opponent_joined"


def test_registering_an_app_starts_push_again(push_service, google, settings):
    host, table = stopped_by_a_gone_browser(push_service, settings)

    answer = Api(host.token).post("players/me/devices", {"token": "app", "platform": "ios"})

    assert answer.status == 201 and not stopped(host)
    assert sending.send_notice(notice(table, host, "opponent_joined", "push").pk) == "sent"
    (message,) = google.messages()
    assert message["message"]["token"] == "app"


@pytest.mark.parametrize("key", ["VAPID_PRIVATE_KEY", "FCM_CREDENTIALS"])
def test_push_off_here_skips_the_notice_and_stops_nothing(push_service, google, settings, key):
    host = PlayerFactory()
    if key == "VAPID_PRIVATE_KEY":
        push_service.route("/push/", Reply(201))
        Browser(push_service, "browser").subscribe(host)
    else:
        DeviceTokenFactory(player=host)
    table = GameFactory(host=host).table
    deliver(table)
    unseen(table)
    on = getattr(settings, key)
    setattr(settings, key, None)

    assert sending.send_notice(notice(table, host, "your_turn", "push").pk) == NOWHERE

    assert not Preferences.objects.filter(player=host, push_stopped_at__isnull=False).exists()
    setattr(settings, key, on)
    assert sending.send_notice(notice(table, host, "opponent_joined", "push").pk) == "sent"
