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

import lxml.html
from lxml import etree

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
    """The text an HTML part shows, a line per block, quoted and hidden blocks left out.

    libxml2 (through lxml) reads it: one pass in C, linear in its input however it is
    built, where the standard library's `HTMLParser` is quadratic on some (a body of
    `<!--` repeated); elements nested past libxml2's depth limit of 256 are dropped,
    and a mail's move is never that deep."""
    try:
        root = lxml.html.document_fromstring(html, parser=_PARSER)
    except (etree.ParserError, ValueError):  # nothing but markup, or not text at all
        return ""
    for element in list(root.iter()):
        if isinstance(element, lxml.html.HtmlElement) and _quoted_or_hidden(element):
            element.drop_tree()  # its tail, the text after it, stays
    parts: list[str] = []
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if element.tag in _BLOCKS:
            parts.append("\n")
        if event == "start":
            parts.append(element.text or "")
        else:
            parts.append(element.tail or "")
    return "".join(parts)


_PARSER = lxml.html.HTMLParser(
    recover=True, no_network=True, remove_comments=True, remove_pis=True, huge_tree=False
)


def _quoted_or_hidden(element: etree._Element) -> bool:
    if not isinstance(element.tag, str):
        return False
    classes = (element.get("class") or "").split()
    return (
        element.tag in _HIDDEN
        or element.tag == "blockquote"
        or any(name in classes for name in _QUOTE_CLASSES)
        or element.get("id") in _QUOTE_IDS
    )
