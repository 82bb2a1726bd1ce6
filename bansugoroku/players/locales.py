"""The locales players may choose, and the one a new player gets from the request's
`Accept-Language` when they name none."""

from __future__ import annotations

from typing import Final

LOCALE_NAMES: Final = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "ru": "Русский",
    "ja": "日本語",
}
LOCALES: Final = tuple(LOCALE_NAMES)
"""Supported locales, the first the fallback."""

DEFAULT_LOCALE: Final = LOCALES[0]

_MAX_HEADER = 500  # as Django's own parser; a longer header is a client's mistake or worse


def preferred_locale(accept_language: str | None) -> str:
    """The supported locale the header ranks highest (by `q`, then by order), matched by
    its language alone (`de-AT` is `de`); `en` when none is, or with no header."""
    if not accept_language or len(accept_language) > _MAX_HEADER:
        return DEFAULT_LOCALE
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(accept_language.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        params = params.strip().replace(" ", "")
        if params:
            if not params.startswith("q="):
                continue
            try:
                quality = float(params[2:])
            except ValueError:
                continue
            if not 0 < quality <= 1:  # q=0 means "not this one"
                continue
        language = tag.strip().split("-")[0].lower()
        if language in LOCALES:
            ranked.append((-quality, index, language))
    return min(ranked)[2] if ranked else DEFAULT_LOCALE
