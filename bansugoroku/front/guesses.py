"""The page an address gets past its limit of table-code guesses (THROTTLE_JOIN): joining
by code and opening an invitation both tell a real code from a guess, so both count."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from bansugoroku.limits.throttles import join_guess_wait


def guess_refused(request: HttpRequest) -> HttpResponse | None:
    """Count one guess from the request's address: the 429 page, with when to try again,
    once it is over the limit; else None."""
    wait = join_guess_wait(request)
    if wait is None:
        return None
    response = render(request, "front/too_many.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response
