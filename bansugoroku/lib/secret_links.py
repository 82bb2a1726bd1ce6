"""Links that carry a secret, and the one rule that keeps their secrets out of logs.

A mailed link's secret sits in its path (`/sign-in/SECRET`, `/device/SECRET`,
`/unsubscribe/SECRET`) or in its query (`?token=...`). Every URL pattern that takes one
declares it with the `secret` converter (`<secret:link>`), and `redact` is built from
the URLconf: each such pattern's secret part is written `[redacted]`, so a new link
is covered the moment its pattern says what it takes (a test walks the URLconf for
parameters named like secrets that do not). In a query, every value is redacted but
those of the few parameters known to carry nothing secret (`PUBLIC_QUERY`), so a new
parameter starts out redacted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver, register_converter
from django.urls.converters import StringConverter

REDACTED = "[redacted]"

PUBLIC_QUERY = frozenset({"next", "not", "after", "format", "lang"})
"""Query parameters whose values are kept in logs: where to go after signing in, the
table the waiting page leaves out, the events feed's position, the schema's format."""

_VALUE = r"[^/?#&;\s\"']+"
"""A path segment or query value as a log line holds it, up to the next delimiter."""
_QUERY = re.compile(r"([?&;])([^=?&;#\s\"']+)=([^?#&;\s\"']*)")
"""A query parameter in a log line: its delimiter, name and value."""


class SecretConverter(StringConverter):
    """A path segment that is a secret: matched as `str` is, and redacted in logs."""


register_converter(SecretConverter, "secret")
# On import; the settings import this module (through `log_redaction`), so the converter
# is there before any URLconf is read.


def redact(text: str) -> str:
    """The text with every secret of a link written `[redacted]`: in time linear in
    the text, one pass per secret-taking pattern and one for queries."""
    if apps.ready:  # before, no URLconf can load and no request has been served
        for pattern in secret_paths():
            text = pattern.sub(_hide_groups, text)
    return _QUERY.sub(_hide_query_value, text)


@functools.cache
def secret_paths() -> tuple[re.Pattern[str], ...]:
    """A pattern per route that takes a secret, matching it in a log line with each
    secret part a group."""
    return tuple(_pattern(route) for route, secret in _routes(get_resolver(), "") if secret)


def _routes(resolver: URLResolver, prefix: str) -> Iterator[tuple[str, bool]]:
    """(route, whether it takes a secret) for every pattern of the URLconf."""
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry, route)
        elif isinstance(entry, URLPattern):
            converters = getattr(entry.pattern, "converters", {})
            yield route, any(isinstance(c, SecretConverter) for c in converters.values())


def _pattern(route: str) -> re.Pattern[str]:
    parts = re.split(r"<(?:(\w+):)?\w+>", route.lstrip("^").rstrip("$"))
    # re.split gives literal, converter name, literal, ...: literals at even places.
    regex = ""
    for index, part in enumerate(parts):
        if index % 2 == 0:
            regex += re.escape(part)
        else:
            regex += f"({_VALUE})" if part == "secret" else _VALUE
    return re.compile("/" + regex)


def _hide_groups(match: re.Match[str]) -> str:
    text, start = match.group(0), match.start()
    for group in range(len(match.groups()), 0, -1):
        left, right = match.start(group) - start, match.end(group) - start
        text = text[:left] + REDACTED + text[right:]
    return text


def _hide_query_value(match: re.Match[str]) -> str:
    delimiter, name, value = match.groups()
    return match.group(0) if name in PUBLIC_QUERY or not value else f"{delimiter}{name}={REDACTED}"
