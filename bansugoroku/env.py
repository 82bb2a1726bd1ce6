"""Strict parsing of environment variables for settings.

A value that cannot be parsed raises ImproperlyConfigured instead of silently falling
back to a default (DEBUG=maybe is an error, not False). An empty value counts as unset.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import timedelta
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_VALUES = frozenset({"1", "true", "yes", "on"})
FALSE_VALUES = frozenset({"0", "false", "no", "off"})


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str | None = None) -> str | None:
    value = _raw(name)
    return default if value is None else value


def env_required(name: str, reason: str = "") -> str:
    value = _raw(name)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set{' ' + reason if reason else ''}.")
    return value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in TRUE_VALUES:
        return True
    if lowered in FALSE_VALUES:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} must be at least {minimum}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} must be at most {maximum}.")
    return number


def env_list(name: str, default: Iterable[str] = ()) -> list[str]:
    """Comma-separated list; blanks around items are ignored."""
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: Iterable[str]) -> str:
    allowed = tuple(choices)
    value = _raw(name) or default
    if value not in allowed:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(allowed)}.")
    return value


def env_url(name: str, default: str | None = None) -> str | None:
    """An http(s) base URL without a trailing slash."""
    value = env_str(name, default)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ImproperlyConfigured(f"{name}={value!r} must be an http:// or https:// URL.")
    return value.rstrip("/")


def env_origins(name: str) -> list[str]:
    """Comma-separated web origins, each `scheme://host[:port]` and nothing more (no
    path, no trailing slash, no wildcard), as browsers send them in `Origin`."""
    origins = env_list(name)
    for origin in origins:
        parts = urlsplit(origin)
        try:
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number
        except ValueError:
            parts = parts._replace(netloc="")
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or "*" in origin
            or parts.username is not None
            or f"{parts.scheme}://{parts.netloc}" != origin
        ):
            raise ImproperlyConfigured(
                f"{name}: {origin!r} is not an origin; write scheme://host[:port], "
                "e.g. http://localhost:5173, without a path or a trailing slash."
            )
    return origins


def env_pattern(name: str, pattern: str, example: str) -> str | None:
    """A value that must match `pattern` whole, or None when unset."""
    value = _raw(name)
    if value is not None and not re.fullmatch(pattern, value):
        raise ImproperlyConfigured(f"{name}={value!r} is not valid; expected e.g. {example}.")
    return value


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def env_duration(name: str, default: timedelta, *, minimum: timedelta | None = None) -> timedelta:
    """A duration as a whole number with a unit, `90s`, `5m`, `3h` or `1d`, or plain
    seconds; `0` turns off what it paces. Less than `minimum` is refused."""
    value = _raw(name)
    if value is None:
        return default
    found = re.fullmatch(r"(\d+)\s*([smhd]?)", value.lower())
    if found is None:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a duration; write e.g. 90s, 5m, 3h, 1d or 0."
        )
    duration = timedelta(seconds=int(found[1]) * _UNITS[found[2] or "s"])
    if minimum is not None and duration < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}.")
    return duration


def env_prefixed(prefix: str) -> dict[str, str]:
    """Every set variable whose name starts with `prefix`, by the rest of its name:
    `ANYMAIL_POSTMARK_SERVER_TOKEN` is `POSTMARK_SERVER_TOKEN` for the prefix `ANYMAIL_`."""
    return {
        name.removeprefix(prefix): value
        for name in sorted(os.environ)
        if name.startswith(prefix) and len(name) > len(prefix)
        if (value := _raw(name)) is not None
    }
