"""The site's public base URL, for links that leave it (invitations, exports, e-mails).

`SITE_URL` when it is set (with DEBUG off it always is: set, or https:// and the first
of ALLOWED_HOSTS). Unset in development, links follow the host that served the request,
so that the address a phone on the same network used also comes back in its invitation
links; outside a request, `make run`'s address.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEVELOPMENT_URL = "http://127.0.0.1:8000"

_request: ContextVar[HttpRequest | None] = ContextVar("site_request", default=None)


def site_url() -> str:
    """The base URL, without a trailing slash."""
    configured: str | None = settings.SITE_URL
    if configured:
        return configured
    request = _request.get()
    if request is None:
        return DEVELOPMENT_URL
    # The host was checked against ALLOWED_HOSTS before any view ran.
    return request.build_absolute_uri("/").rstrip("/")


class RequestSiteMiddleware:
    """Makes the request being served known to `site_url()`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)
