"""Push notices to every browser and app a player registered: Web Push to browsers
(`notifications.channels.webpush`), Firebase Cloud Messaging to the mobile apps
(`notifications.channels.fcm`).

A channel this server has no key for (Web Push without VAPID_PRIVATE_KEY, FCM without
FCM_CREDENTIALS) is off: its registrations are left alone, neither tried nor counted as
failed, so they work again once the channel is on. That is the server's configuration,
not the player's error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings

from notifications.channels import fcm, webpush
from notifications.errors import PermanentError, TransientError
from notifications.models import DeviceToken, PushSubscription

logger = logging.getLogger(__name__)


Send = tuple[Callable[[Any, dict[str, Any]], None], Any]
"""One device's send function and its registration."""


def _sends(player_id: int) -> list[Send]:
    """The player's registrations on the channels that are on here."""
    sends: list[Send] = []
    if settings.VAPID_PRIVATE_KEY is not None:
        sends += [(webpush.send, s) for s in PushSubscription.objects.filter(player_id=player_id)]
    if settings.FCM_CREDENTIALS is not None:
        sends += [(fcm.send, d) for d in DeviceToken.objects.filter(player_id=player_id)]
    return sends


def reachable(player_id: int) -> int:
    """How many of the player's browsers and apps this server can push to now."""
    return len(_sends(player_id))


def send_to_player(player_id: int, payload: dict[str, Any]) -> None:
    """Send `payload` (`kind`, `title`, `body`, `url`, `table`, `badge`: the tables
    waiting for the player's move) to each of the player's
    push subscriptions and device tokens on the channels that are on.

    Returns normally when at least one of them received it, or when there is none
    (nothing to do is not a failure). A subscription the push service says is gone, or a
    token FCM no longer knows, is deleted on the way and does not stop the others.
    Otherwise raises TransientError when some send failed in a way worth retrying
    (network, 429, 5xx), and PermanentError when every one failed for good, so the
    player has nowhere left here to receive it.
    """
    sends = _sends(player_id)
    if not sends:
        return
    delivered = 0
    transient: list[TransientError] = []
    permanent: list[PermanentError] = []
    for send, target in sends:
        try:
            send(target, payload)
        except TransientError as error:
            transient.append(error)
        except PermanentError as error:
            permanent.append(error)
        else:
            delivered += 1
    for failure in (*transient, *permanent):
        logger.info("push to player %s: %s", player_id, failure)
    if delivered:
        return
    if transient:
        raise TransientError(
            f"{len(transient)} of {len(sends)} sends may succeed later; {transient[0]}"
        ) from transient[0]
    raise PermanentError(f"all {len(sends)} sends failed for good; {permanent[0]}") from (
        permanent[0]
    )
