"""Web Push to one browser: the payload encrypted to its keys (RFC 8291, aes128gcm), the
request signed with our VAPID key (RFC 8292), posted to its push service (RFC 8030).

pywebpush does the protocol; this module decides what each answer means for us. 404 and
410 say the subscription is gone for good (the browser unsubscribed, or the user revoked
the permission), so its row is deleted; 429, 5xx and network errors may pass.
"""

from __future__ import annotations

import json
import re
from typing import Any

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from notifications.errors import PermanentError, TransientError
from notifications.models import PushSubscription

GONE = (404, 410)
TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""RFC 8030 §5.4: a topic is at most 32 characters of the base64url alphabet."""


def send(subscription: PushSubscription, payload: dict[str, Any]) -> None:
    """Deliver `payload` to one browser, or raise TransientError or PermanentError (after
    deleting the subscription when the push service says it is gone)."""
    headers = {"Urgency": "normal"}
    table = payload.get("table")
    if isinstance(table, str) and TOPIC.fullmatch(table):
        # A newer notice about the same table replaces one the push service still holds
        # for a device that is offline.
        headers["Topic"] = table
    key = settings.VAPID_PRIVATE_KEY
    if key is None:
        raise PermanentError("Web Push is off: VAPID_PRIVATE_KEY is not set")
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=Vapid02.from_raw(key.encode()),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=settings.PUSH_TTL,
            timeout=settings.NOTICE_SEND_TIMEOUT.total_seconds(),
            headers=headers,
        )
    except requests.RequestException as error:
        raise TransientError(f"web push to {_service(subscription)}: {error}") from error
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        where = f"web push to {_service(subscription)}: {status}"
        if status in GONE:
            subscription.delete()
            raise PermanentError(f"{where}: the subscription is gone, deleted") from error
        if status is not None and (status == 429 or status >= 500):
            raise TransientError(where) from error
        raise PermanentError(f"{where}: {error.message}") from error
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())


def _service(subscription: PushSubscription) -> str:
    """The push service's host, for logs: the rest of the endpoint is the browser's secret."""
    return subscription.endpoint.split("/")[2] if "//" in subscription.endpoint else "?"
