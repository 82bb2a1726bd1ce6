"""The API's one parser: JSON, with a size limit and nesting that can't crash it.

Python's json module parses nested arrays and objects by recursion: 2,000 levels, a few
kilobytes of `[[[[...`, exhaust the interpreter's stack and raise RecursionError, which
is not a ValueError and so escaped DRF's parser as a 500. And DRF reads a JSON body
from the request stream, bypassing Django's DATA_UPLOAD_MAX_MEMORY_SIZE, so a client
could make a worker read and parse megabytes. API bodies are tiny (a move is well under
a hundred bytes): anything over settings.API_MAX_BODY_SIZE is refused unread, 413.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions, parsers
from rest_framework.utils import json


class PayloadTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"the request body is over {limit} bytes")


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        limit: int = settings.API_MAX_BODY_SIZE
        request = parser_context.get("request")
        if request is not None:
            try:
                declared = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                declared = 0
            if declared > limit:
                raise _too_large(limit)
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise _too_large(limit)
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
            return json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deep") from None
