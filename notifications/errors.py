"""Every error of the notices: the refusals a player gets, and what a channel's sender
raises when a notice could not be delivered.

The refusals are `ServiceError`s, answered as problem+json like the games' own
(`bansugoroku.api.problems`): push set up or not, the browsers and apps a player
registers (`subscriptions`), the e-mail address and its tokens (`addresses`, `tokens`).

The delivery errors never reach a client. The pipeline tells the two apart and nothing
else: a transient error (the provider is down, a timeout, a 5xx) is tried again later
with a growing pause; a permanent one (the address bounced, the push subscription is
gone) is recorded and stops that channel for that player or address, since trying
again would fail the same way.
"""

from __future__ import annotations

from bansugoroku.games.errors import ServiceError

# Refusals. Their order is the order of the API's list of problems (`GET /problems`).


class PushOff(ServiceError):
    status, code, title = 404, "push_off", "Push notices are not set up on this server"


class TooManySubscriptions(ServiceError):
    status, code, title = 409, "too_many_subscriptions", "Too many browsers or devices"


class SubscriptionNotFound(ServiceError):
    """None of the caller's: another player's answers the same, so none can be found by trying."""

    status, code, title = 404, "subscription_not_found", "No such push subscription or device"


class InvalidToken(ServiceError):
    """A confirmation or unsubscribe token that is forged, mangled or expired."""

    status, code, title = 400, "invalid_token", "The token is not valid"


class NoAddress(ServiceError):
    status, code, title = 409, "no_email_address", "No e-mail address waits for confirmation"


# Delivery.


class DeliveryError(Exception):
    """A notice could not be delivered."""


class TransientError(DeliveryError):
    """Worth trying again later."""


class PermanentError(DeliveryError):
    """Trying again would fail the same way."""
