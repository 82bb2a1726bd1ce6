"""The notices API's own refusals, answered as problem+json like every ServiceError."""

from __future__ import annotations

from bansugoroku.games.errors import ServiceError


class InvalidToken(ServiceError):
    """A confirmation or unsubscribe token that is forged, mangled or expired."""

    status, code, title = 400, "invalid_token", "The token is not valid"


class NoAddress(ServiceError):
    status, code, title = 409, "no_email_address", "No e-mail address waits for confirmation"


class MailUnavailable(ServiceError):
    status, code, title = 503, "mail_unavailable", "E-mail can't be sent now"
    retry_after = 60
