"""Which media type an answer comes in, from the request's Accept header.

Errors are always application/problem+json, whatever was asked for. So generated
clients add that type to the one they want ("text/plain, application/problem+json"),
and some send it alone. Neither is a reason to refuse: the problem type only says the
client can read errors, and the answer comes in the endpoint's own type.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

PROBLEM_TYPE = "application/problem+json"


class ProblemTolerantNegotiation(DefaultContentNegotiation):
    def get_accept_list(self, request: Request) -> list[str]:
        tokens: list[str] = super().get_accept_list(request)
        wanted = [t for t in tokens if t.split(";")[0].strip().lower() != PROBLEM_TYPE]
        return wanted if wanted or not tokens else ["*/*"]


class PlainTextRenderer(BaseRenderer):
    """For views that answer text themselves: lets `Accept: text/plain` through."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> Any:
        return data
