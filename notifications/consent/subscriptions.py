"""Where a player receives push notices: browsers' Web Push subscriptions and the apps'
FCM tokens, registered and removed by the player's own browser or app.

An endpoint or a token names one browser or app install: registering it again updates it,
and moves it to the caller if another player had it (the browser now plays as the caller,
who alone should be told). Each player may register at most PUSH_MAX_PER_PLAYER of each
kind; the player's row is locked while counting, so two registrations at once cannot
both take the last place. Registering also starts push again for a player it had stopped
for (`Preferences.push_stopped_at`, set when every device failed for good): the player
has somewhere new to receive it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction

from bansugoroku.games.models import Player
from notifications.errors import SubscriptionNotFound, TooManySubscriptions
from notifications.models import DeviceToken, Preferences, PushSubscription

_Target = TypeVar("_Target", PushSubscription, DeviceToken)


def subscription_register(
    *, player: Player, endpoint: str, p256dh: str, auth: str, label: str
) -> tuple[PushSubscription, bool]:
    """Save a browser's subscription for `player`; True when it is new."""
    fields = {"p256dh": p256dh, "auth": auth, "label": label}
    return _register(PushSubscription, player, {"endpoint": endpoint}, fields, "browsers")


def subscription_delete(
    *, player: Player, endpoint: str | None = None, subscription_id: int | None = None
) -> None:
    """Remove one of the player's subscriptions, found by its endpoint or its id."""
    lookup = {"endpoint": endpoint} if endpoint is not None else {"pk": subscription_id}
    _delete(PushSubscription, player, lookup)


def device_register(*, player: Player, token: str, platform: str) -> tuple[DeviceToken, bool]:
    """Save an app's FCM registration token for `player`; True when it is new."""
    return _register(DeviceToken, player, {"token": token}, {"platform": platform}, "devices")


def device_delete(*, player: Player, token: str) -> None:
    _delete(DeviceToken, player, {"token": token})


def _register(
    model: type[_Target],
    player: Player,
    key: dict[str, Any],
    fields: dict[str, Any],
    kind: str,
) -> tuple[_Target, bool]:
    limit = settings.PUSH_MAX_PER_PLAYER
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        others = model.objects.filter(player=player).exclude(**key).count()
        if others >= limit:
            raise TooManySubscriptions(
                f"at most {limit} {kind} per player: remove one first", limit=limit
            )
        target, created = model.objects.update_or_create(
            **key, defaults={"player": player, **fields}
        )
        Preferences.objects.filter(player=player, push_stopped_at__isnull=False).update(
            push_stopped_at=None
        )
    return target, created


def _delete(model: type[_Target], player: Player, lookup: dict[str, Any]) -> None:
    deleted, _ = model.objects.filter(player=player, **lookup).delete()
    if not deleted:
        raise SubscriptionNotFound("you have no such push subscription or device")
