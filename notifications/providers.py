"""The mail providers anymail has webhooks for, and their views: tracking (bounces,
complaints, `notifications.webhooks`) and inbound (replies, `notifications.replies.play`)."""

from __future__ import annotations

from anymail.urls import urlpatterns as anymail_routes
from anymail.webhooks.base import AnymailCoreWebhookView
from django.conf import settings


def provider_views(kind: str) -> dict[str, type[AnymailCoreWebhookView]]:
    """anymail's webhook view of each provider for `kind` ("tracking" or "inbound"), by
    the name in its backend's module path ("postmark")."""
    suffix = f"_{kind}_webhook"
    return {
        route.name.removesuffix(suffix): route.callback.view_class
        for route in anymail_routes
        if route.name and route.name.endswith(suffix)
    }


TRACKING_VIEWS = provider_views("tracking")
INBOUND_VIEWS = provider_views("inbound")


def webhook_secret_set() -> bool:
    """Whether ANYMAIL_WEBHOOK_SECRET is set: the basic-auth credentials anymail's views
    check on every post, without which no webhook of either kind is served."""
    return bool(settings.ANYMAIL.get("WEBHOOK_SECRET"))
