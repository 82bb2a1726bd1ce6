"""The move in a reply to a "your turn" e-mail: its first line the player wrote.

Mail programs put the reply above the mail it answers, which they quote: lines opened by
`>` under a line naming its writer ("On Tue, Aiko wrote:", "Am ... schrieb ...:"), or
the whole mail under a header ("-----Original Message-----", "From: ..."), after which
nothing is the player's; in HTML, a `<blockquote>` or a quote block of the program's
own (`gmail_quote`, Apple's `<blockquote type="cite">`, Outlook's `divRplyFwdMsg`).
Anything after a signature's `-- ` line is the player's signature. So the move is the
first line that is none of these, above the quote or below it; a reply that only has an
HTML part is read as the text it shows.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_ORIGINAL = re.compile(
    r"""^(
        -+\s*(original\s+message|ursprüngliche\s+nachricht|message\s+d'origine|
              исходное\s+сообщение)\s*-+
        | (from|von|de|от|差出人)\s*:.*
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
"""Where a program that does not mark quoted lines begins the mail answered: the end."""
_ATTRIBUTION = re.compile(
    r"^.*(\b(wrote|schrieb|a\s+écrit|написал\w*)\s*:|(のメッセージ|書きました)\s*[:：]?)$",
    re.IGNORECASE,
)
"""The line above quoted lines: skipped, as they are, for the move may be below them."""
_SIGNATURE = ("--", "-- ", "__")
_QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted")
_QUOTE_IDS = ("divRplyFwdMsg", "appendonsend")
_BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table"}
_HIDDEN = {"head", "style", "script", "title"}


def move_line(text: str, html: str = "") -> str | None:
    """The first line the player wrote, its spaces made one: above the quoted mail or
    below it, not in the signature; None when there is none."""
    for line in (text or html_text(html)).splitlines():
        line = " ".join(line.split())  # and a no-break space (`&nbsp;`) is a space
        if line in _SIGNATURE or _ORIGINAL.match(line):
            return None
        if line and not line.startswith(">") and not _ATTRIBUTION.match(line):
            return line
    return None


def html_text(html: str) -> str:
    """The text an HTML part shows, a line per block, quoted blocks left out."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return "".join(reader.parts)


class _Reader(HTMLParser):
    """Collects text outside quoted and hidden elements; `depth` counts the open
    elements inside the outermost one being skipped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: str | None = None
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping is not None:
            self.depth += tag == self.skipping
            return
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if (
            tag in _HIDDEN
            or tag == "blockquote"
            or any(name in classes for name in _QUOTE_CLASSES)
            or found.get("id") in _QUOTE_IDS
        ):
            self.skipping, self.depth = tag, 1
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping is not None:
            self.depth -= tag == self.skipping
            if self.depth == 0:
                self.skipping = None
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skipping is None:
            self.parts.append(data)
