"""What a player may be called: the one check behind the API's `name` field and the web
page's forms, so a name refused by one is refused by the other."""

from __future__ import annotations

import unicodedata

import emoji

MAX_LENGTH = 40


def describe(char: str) -> str:
    """A character as "U+202E RIGHT-TO-LEFT OVERRIDE"; control characters have no name."""
    name = unicodedata.name(char, "") or "(a control character)"
    return f"U+{ord(char):04X} {name}"


def refused_characters(name: str) -> list[str]:
    """Why `name` (NFC already) is refused, one line per character; [] when it is fine.

    No control (Cc) or format (Cf) character, which could move a terminal's cursor, ring
    its bell, reverse the text around the name (U+202E) or hide letters in it (U+200B).
    Format characters are kept only inside an emoji sequence: the joiner U+200D in a
    family or a profession, the tags in a flag like Scotland's."""
    in_emoji = {
        index
        for found in emoji.emoji_list(name)
        for index in range(found["match_start"], found["match_end"])
    }
    refused = dict.fromkeys(
        char
        for index, char in enumerate(name)
        if unicodedata.category(char) in ("Cc", "Cf")
        and not (unicodedata.category(char) == "Cf" and index in in_emoji)
    )
    return [f"{describe(c)} is not allowed" for c in refused]
