"""One error shape for the whole API: `application/problem+json` (RFC 9457).

Every error carries a stable `code` a client can switch on, a `title`, the HTTP
`status` and a human `detail`; domain errors add what helps (the current `version` on
`stale_state`, the `reason` and the offending `move` on `illegal_move`).
"""

from __future__ import annotations

import logging
from typing import Any, TypedDict

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.urls import reverse
from redis import RedisError
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import set_rollback

from bansugoroku.api.auth import unknown_token_first
from bansugoroku.api.parsers import PayloadTooLarge
from bansugoroku.games.errors import ServiceError
from bansugoroku.limits.throttles import retry_after
from engine.turn import Reason
from notifications import errors as notice_errors  # noqa: F401 - its ServiceErrors are problem types too

logger = logging.getLogger(__name__)

PROBLEM_TYPE = "application/problem+json"

RETRY_AFTER = 5
"""Seconds a client is asked to wait before trying again when the service is unavailable."""

UNAVAILABLE = ("unavailable", "Temporarily unavailable")

_DRF_CODES: list[tuple[type[exceptions.APIException], str, str]] = [
    (exceptions.ValidationError, "invalid_request", "Invalid request"),
    (exceptions.ParseError, "invalid_request", "Malformed request body"),
    (exceptions.NotAuthenticated, "not_authenticated", "A player token is needed"),
    (exceptions.AuthenticationFailed, "not_authenticated", "The player token is not valid"),
    (exceptions.PermissionDenied, "forbidden", "Not allowed"),
    (exceptions.NotFound, "not_found", "Not found"),
    (exceptions.MethodNotAllowed, "method_not_allowed", "Method not allowed"),
    (exceptions.NotAcceptable, "not_acceptable", "Not acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type", "Send JSON"),
    (PayloadTooLarge, "payload_too_large", "The request body is too large"),
    (exceptions.Throttled, "throttled", "Too many requests"),
]


def _service_errors(kind: type[ServiceError] = ServiceError) -> list[type[ServiceError]]:
    """Every kind of ServiceError, subclasses of subclasses too."""
    return [sub for child in kind.__subclasses__() for sub in (child, *_service_errors(child))]


PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    code: (kind.status_code, title) for kind, code, title in reversed(_DRF_CODES)
} | {kind.code: (kind.status, kind.title) for kind in _service_errors()}
PROBLEM_TYPES[UNAVAILABLE[0]] = (503, UNAVAILABLE[1])
"""Every error code the API answers with: its HTTP status and title."""

REASONS: dict[Reason, str] = {
    Reason.BAD_MOVE: "Not a move: moves go from a point 1-25 (25 = bar) down to 0-24 (0 = off).",
    Reason.TURN_OVER: "The turn's play is already complete: no die is left that can be used.",
    Reason.BAR_FIRST: "A stone is on the bar: it must enter before any other moves.",
    Reason.NO_STONE: "You have no stone on the point the move starts from.",
    Reason.NO_DIE: "No die left shows the distance moved.",
    Reason.BLOCKED: "The point moved to holds two or more of the opponent's stones.",
    Reason.CANNOT_BEAR_OFF: "Bearing off is not allowed yet, or not with the dice left.",
    Reason.MUST_USE_BOTH: "The move would leave a die unplayed when both dice can be played.",
    Reason.MUST_USE_HIGHER: "Only one die can be played, so it must be the higher one.",
}
"""Every `reason` an `illegal_move` problem may carry, with what it means."""


class ProblemType(TypedDict):
    """An error code: the `code` of the problems that have it, their HTTP status and title."""

    code: str
    status: int
    title: str


class IllegalMoveReason(TypedDict):
    """A `reason` an `illegal_move` problem may give, and what it means."""

    code: str
    meaning: str


class ProblemList(TypedDict):
    """Every error code the API answers with, and every reason a move is refused for."""

    problems: list[ProblemType]
    reasons: list[IllegalMoveReason]


def problem_list() -> ProblemList:
    return {
        "problems": [
            {"code": code, "status": status, "title": title}
            for code, (status, title) in sorted(PROBLEM_TYPES.items(), key=lambda c: c[1][0])
        ],
        "reasons": [{"code": reason.value, "meaning": REASONS[reason]} for reason in Reason],
    }


class ProblemResponse(Response):
    """A problem is JSON whichever renderer the request chose: an error of a text/plain
    download is application/problem+json too."""

    @property
    def rendered_content(self) -> Any:
        if not self.accepted_renderer.media_type.endswith("json"):
            self.accepted_renderer = JSONRenderer()
            self.accepted_media_type = PROBLEM_TYPE
        return super().rendered_content


def problem(status: int, code: str, title: str, detail: str, **extra: Any) -> Response:
    body = {
        "type": reverse("api:problem", args=[code]),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    return ProblemResponse(body | extra, status=status, content_type=PROBLEM_TYPE)


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    request = context.get("request")
    if request is not None and isinstance(exc, ServiceError | exceptions.APIException | Http404):
        exc = unknown_token_first(request, exc)
    if isinstance(exc, ServiceError):
        set_rollback()
        response = problem(exc.status, exc.code, exc.title, exc.detail, **exc.extra)
        if exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, OperationalError | InterfaceError | RedisError):
        # PostgreSQL (or the cache) unreachable, the connection lost, or the server
        # refusing work for now: nothing was changed, and trying again later may work.
        logger.warning("answered 503: %s: %s", type(exc).__name__, exc)
        code, title = UNAVAILABLE
        response = problem(
            503, code, title, "the service cannot reach its database; try again shortly"
        )
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, RequestDataTooBig):  # something read request.body past Django's limit
        exc = PayloadTooLarge(str(exc))
    if not isinstance(exc, exceptions.APIException):
        return None  # a bug: let Django log it and answer 500
    set_rollback()
    code, title = next(
        ((c, t) for kind, c, t in _DRF_CODES if isinstance(exc, kind)), ("error", "Error")
    )
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        detail = "some fields are missing or wrong; see errors"
        extra["errors"] = exc.detail
    else:
        detail = str(exc.detail)
    response = problem(exc.status_code, code, title, detail, **extra)
    if isinstance(exc, exceptions.Throttled):
        # Throttled.__init__ sets `wait`, seconds or None; its stubs leave it out.
        wait: float | None = exc.wait  # type: ignore[attr-defined]
        if wait is not None:
            response["Retry-After"] = str(retry_after(wait))
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        response["WWW-Authenticate"] = auth_header
    return response
