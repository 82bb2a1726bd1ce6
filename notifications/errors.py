"""Why a notice could not be delivered, so the caller knows whether trying again can help."""

from __future__ import annotations


class DeliveryError(Exception):
    """A notice was not delivered."""


class TransientError(DeliveryError):
    """The channel failed in a way that may pass (network, rate limit, server error):
    worth retrying later."""


class PermanentError(DeliveryError):
    """The channel will not accept this notice however often it is sent: do not retry."""
