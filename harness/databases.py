"""The DATABASE_URL a process of our own is started with, to reach the database the
calling process is connected to.

On the embedded PostgreSQL (a clean clone's `make test`, with no DATABASE_URL) the
connection's host is the server's socket folder, which a URL carries only quoted as its
host; on CI's server it is 127.0.0.1. Every test and benchmark that starts a process on
the test database builds the URL here, so none of them works on one and not the other.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote


def database_url(settings: dict[str, Any], name: str | None = None) -> str:
    """A URL for Django connection `settings` (`connection.settings_dict`), or for the
    database `name` on the same server."""
    user = quote(settings["USER"] or "", safe="")
    password = f":{quote(settings['PASSWORD'], safe='')}" if settings.get("PASSWORD") else ""
    host = quote(settings["HOST"] or "", safe="")
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"postgres://{user}{password}@{host}{port}/{quote(name or settings['NAME'], safe='')}"
