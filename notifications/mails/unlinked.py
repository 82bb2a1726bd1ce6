"""A stranger's text as a notice quotes it, with nothing in it a mail program makes a
link of: mail programs link what looks like an address (`evil.example`, `https://...`,
`someone@evil.example`) even in plain text, and escaping HTML does not stop them. So
the characters that make a text look like one are swapped for ones that look alike but
that no linker reads as such: a dot between letters, the slashes after a colon, an @
between letters. Each pattern reads one character either side, so the cost is linear
in the text."""

from __future__ import annotations

import re

_SWAPS = (
    (re.compile(r"(?<=\w)\.(?=\w)"), "\u2024"),  # ONE DOT LEADER: "evil․example"
    (re.compile(r"(?<=:)//"), "\u2215\u2215"),  # DIVISION SLASH: "https:∕∕"
    (re.compile(r"(?<=\w)@(?=\w)"), "\uff20"),  # FULLWIDTH COMMERCIAL AT
)


def unlinked(text: str) -> str:
    """`text` with nothing a mail program would make a link of."""
    for pattern, alike in _SWAPS:
        text = pattern.sub(alike, text)
    return text
