"""What a browser, and the installed app's service worker, may keep of a page.

A page with a player's tables, name, address or a link's secret must not outlive the
visit on a shared or lost phone, so every HTML page is `Cache-Control: no-store` unless
it sets its own, and the service worker keeps no page that says so (`sw.js`). The few
the installed app shows offline (`KEPT_OFFLINE`: "my tables", a table as last loaded,
the rules) are `private, no-cache`: kept by this browser only, and asked for again
each time while the network answers. "Sign out of this browser" drops those too
(`player_pages.sign_out_here`, Clear-Site-Data).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

KEPT_OFFLINE = frozenset({"my-tables", "table-page", "rules"})
"""The pages' URL names that the installed app shows when the network is gone."""


class PageCachingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" in response or not response.get("Content-Type", "").startswith(
            "text/html"
        ):
            return response
        match = request.resolver_match
        kept = match is not None and not match.namespace and match.url_name in KEPT_OFFLINE
        response["Cache-Control"] = "private, no-cache" if kept else "no-store"
        return response
