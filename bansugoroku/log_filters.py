"""Tokens out of the logs.

A mail's links carry signed tokens in their path or query: `/api/v1/unsubscribe/TOKEN`,
`/unsubscribe/TOKEN`, `/settings/email/confirm?token=...`. The web process's access log
(tornado's, `tornado.access`) and Django's request warnings print the full path, so
whoever reads the logs could turn a player's mail off or confirm an address; this filter
writes those parts as `[redacted]` before any handler sees the line.
"""

from __future__ import annotations

import logging
import re

SECRET = re.compile(r"(/unsubscribe/|[?&;]token=)[^\s?&;#\"']+")
"""An unsubscribe path's last segment, and the value of any `token` query parameter."""


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = SECRET.sub(r"\1[redacted]", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True
