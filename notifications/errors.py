"""What a channel's sender raises when a notice could not be delivered.

The pipeline tells the two apart and nothing else: a transient error (the provider is
down, a timeout, a 5xx) is tried again later with a growing pause; a permanent one (the
address bounced, the push subscription is gone) is recorded and stops that channel for
that player or address, since trying again would fail the same way.
"""


class DeliveryError(Exception):
    """A notice could not be delivered."""


class TransientError(DeliveryError):
    """Worth trying again later."""


class PermanentError(DeliveryError):
    """Trying again would fail the same way."""
