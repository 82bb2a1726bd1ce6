"""The suite's test data, built with factory-boy.

Rows that carry game state (tables, seats, games) are made through the services, as a
player's requests make them, so that every factory-made table is one the service could
have written; rows that are plain records (addresses, preferences, push registrations)
are made directly.
"""

from __future__ import annotations

from typing import Any

import factory
from django.utils import timezone

from bansugoroku.games import services
from bansugoroku.games.models import Player, Table
from engine.rules import Rules
from notifications.models import DeviceToken, EmailAddress, Platform, Preferences, PushSubscription


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    """A player made by `services.player_create`; its bearer token is `player.token`."""

    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    locale = "en"

    @classmethod
    def _create(cls, model_class: type[Player], *args: Any, **kwargs: Any) -> Player:
        player, token = services.player_create(name=kwargs["name"], locale=kwargs["locale"])
        player.token = token  # type: ignore[attr-defined]
        return player


class TableFactory(factory.django.DjangoModelFactory[Table]):
    """A table made by `services.table_create`: the host's, with the second seat free or,
    with `cpu="easy"`, `"normal"` or `"hard"`, the CPU's (`TableFactory(cpu="normal")`)."""

    class Meta:
        model = Table

    host = factory.SubFactory(PlayerFactory)
    rules = factory.LazyFunction(Rules)
    cpu = ""

    @classmethod
    def _create(cls, model_class: type[Table], *args: Any, **kwargs: Any) -> Table:
        return services.table_create(
            host=kwargs["host"], rules=kwargs["rules"], cpu=kwargs["cpu"]
        ).table


class EmailAddressFactory(factory.django.DjangoModelFactory[EmailAddress]):
    """A confirmed address for notices; `confirmed_at=None` for one waiting."""

    class Meta:
        model = EmailAddress

    player = factory.SubFactory(PlayerFactory)
    address = factory.Sequence(lambda n: f"player{n}@example.test")
    confirmed_at = factory.LazyFunction(timezone.now)


class PreferencesFactory(factory.django.DjangoModelFactory[Preferences]):
    class Meta:
        model = Preferences
        django_get_or_create = ("player",)

    player = factory.SubFactory(PlayerFactory)


class PushSubscriptionFactory(factory.django.DjangoModelFactory[PushSubscription]):
    """A browser's Web Push subscription; point `endpoint` at a loopback push service."""

    class Meta:
        model = PushSubscription

    player = factory.SubFactory(PlayerFactory)
    endpoint = factory.Sequence(lambda n: f"https://fcm.googleapis.com/fcm/send/browser-{n}")
    # A valid P-256 public key and auth secret, base64url (RFC 8291 test vectors).
    p256dh = (
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    )
    auth = "BTBZMqHH6r4Tts7J_aSIgg"
    label = "Test browser"


class DeviceTokenFactory(factory.django.DjangoModelFactory[DeviceToken]):
    """A mobile app's FCM registration token."""

    class Meta:
        model = DeviceToken

    player = factory.SubFactory(PlayerFactory)
    token = factory.Sequence(lambda n: f"fcm-token-{n}")
    platform = Platform.ANDROID
