"""The mail provider's tracking webhook: an address that bounced, or whose owner
complained, gets no more mail. And how a provider's webhook is run (`run_webhook`),
for it and for the inbound webhook of replies (`notifications.replies.play`).

Only one route is served, `/anymail/<esp>/tracking/` for the provider EMAIL_BACKEND
sends through, and only while ANYMAIL_WEBHOOK_SECRET is set: anymail's own views check
that basic-auth secret, but without it they take any request, so a stranger could have
any address suppressed. Every other provider's route, and this one without the secret,
is a 404, as a path that does not exist; `check --deploy` warns (`notifications.W001`)
when mail goes through a provider whose webhook is off for want of the secret.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from anymail.exceptions import AnymailError, AnymailWebhookValidationFailure
from anymail.signals import AnymailEvent, AnymailTrackingEvent
from anymail.webhooks.base import AnymailCoreWebhookView
from django.conf import settings
from django.core import checks
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from notifications.consent.addresses import address_suppress
from notifications.models import SuppressionReason
from notifications.providers import TRACKING_VIEWS, webhook_secret_set

_STOPS = {"bounced": SuppressionReason.BOUNCED, "complained": SuppressionReason.COMPLAINED}

_BACKEND = ("anymail.backends.", ".EmailBackend")

Event = TypeVar("Event", bound=AnymailEvent)


def run_webhook(
    view: type[AnymailCoreWebhookView], request: HttpRequest, handle: Callable[[Event], None]
) -> HttpResponse:
    """A provider's post, checked and parsed by anymail's view as its own `post` does,
    each event then handled. Wrong or missing credentials are 401 (`refusal`); a body
    anymail cannot parse, which its view would answer with a 500 and the provider post
    again for ever, is 400."""
    hook = view()
    refused = refusal(hook, request)
    if refused is not None:
        return refused
    events = events_in(hook, request)
    if events is None:
        return HttpResponse(f"not a {hook.esp_name} webhook body", status=400)
    for event in events:
        handle(event)
    return HttpResponse()


def refusal(hook: AnymailCoreWebhookView, request: HttpRequest) -> HttpResponse | None:
    """A 401 when the post does not carry the webhook's credentials (anymail's own answer
    would be a 400), else None."""
    try:
        hook.run_validators(request)
    except AnymailWebhookValidationFailure:
        return HttpResponse(status=401, headers={"WWW-Authenticate": 'Basic realm="webhook"'})
    return None


def events_in(hook: AnymailCoreWebhookView, request: HttpRequest) -> list[Any] | None:
    """The events anymail reads in the post's body; None when it is no body of the
    provider's (anymail's view would answer it with a 500)."""
    try:
        return list(hook.parse_events(request))
    except (AnymailError, ValueError, TypeError, AttributeError, KeyError, IndexError):
        # ValueError: not JSON, or not UTF-8; the others: JSON of another shape.
        return None


def provider() -> str | None:
    """The provider EMAIL_BACKEND sends through, if anymail has a tracking webhook for it:
    "postmark" for `anymail.backends.postmark.EmailBackend`."""
    backend = settings.EMAIL_BACKEND or ""
    prefix, suffix = _BACKEND
    if not (backend.startswith(prefix) and backend.endswith(suffix)):
        return None
    esp = backend[len(prefix) : -len(suffix)]
    return esp if esp in TRACKING_VIEWS else None


@csrf_exempt
def tracking_webhook(request: HttpRequest, esp: str) -> HttpResponse:
    """anymail's tracking view of the configured provider, behind its secret; a 404 for
    any other provider, and for this one while no secret is set. Wrong or missing
    credentials are 401 (anymail's own answer would be a 400)."""
    if esp != provider() or not webhook_secret_set():
        raise Http404("no such webhook")
    return run_webhook(TRACKING_VIEWS[esp], request, suppress_on_bounce)


@checks.register(checks.Tags.security, deploy=True)
def check_webhook_secret(**_: Any) -> list[checks.CheckMessage]:
    esp = provider()
    if esp is None or webhook_secret_set():
        return []
    return [
        checks.Warning(
            f"Mail goes through {esp}, but its tracking webhook is off: no "
            "ANYMAIL_WEBHOOK_SECRET is set, so bounces and complaints suppress no address.",
            hint=f"Set ANYMAIL_WEBHOOK_SECRET=user:password and point {esp}'s webhook at "
            f"https://user:password@<host>/anymail/{esp}/tracking/.",
            id="notifications.W001",
        )
    ]


def suppress_on_bounce(event: AnymailTrackingEvent) -> None:
    reason = _STOPS.get(event.event_type)
    if reason is not None and event.recipient:
        esp_name = provider()
        detail = f"{esp_name}: {event.description or ''} {event.mta_response or ''}".strip()
        address_suppress(address=event.recipient, reason=reason, detail=detail)
