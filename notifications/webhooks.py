"""The mail provider's tracking webhook (anymail's, at /anymail/<esp>/tracking/, its
basic-auth secret ANYMAIL_WEBHOOK_SECRET checked by anymail): an address that bounced,
or whose owner complained, gets no more mail."""

from __future__ import annotations

from typing import Any

from anymail.signals import AnymailTrackingEvent, tracking
from django.dispatch import receiver

from notifications.addresses import address_suppress
from notifications.models import SuppressionReason

_STOPS = {"bounced": SuppressionReason.BOUNCED, "complained": SuppressionReason.COMPLAINED}


@receiver(tracking, dispatch_uid="notifications.suppress")
def suppress_on_bounce(sender: Any, event: AnymailTrackingEvent, esp_name: str, **_: Any) -> None:
    reason = _STOPS.get(event.event_type)
    if reason is not None and event.recipient:
        detail = f"{esp_name}: {event.description or ''} {event.mta_response or ''}".strip()
        address_suppress(address=event.recipient, reason=reason, detail=detail)
