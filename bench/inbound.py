"""What a reply's HTML costs to read, built to cost the most: `make bench-inbound`.

For each hostile body (the inbound tests' kinds) at growing sizes, the CPU time of
`notifications.replies.text.html_text` (libxml2, through lxml) next to the standard
library's `HTMLParser` it replaced, fed the same body, and next to a plain reply of the
same size read in the same run: the reference, so that the figures compare across days
on machines whose speed drifts. The old parser is given the small sizes only: it is
quadratic on some of these bodies, and the limit's size would take it a minute.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from html.parser import HTMLParser

from notifications.replies.text import html_text

KINDS = {
    "comments": "<!--",
    "open angles": "<",
    "character references": "&#",
    "unclosed CDATA": "<![CDATA[x",
    "nested tags": "<b>",
    "nested quotes": '<blockquote class="gmail_quote">',
}
PLAIN = "<div>13/10 8/5</div><p>On Tue, Ben wrote:</p><blockquote>Your turn</blockquote>"
SIZES = (16_384, 65_536, 524_288)
OLD_SIZES = (16_384, 65_536)


def cpu_seconds(read: Callable[[str], object], body: str) -> float:
    """The least CPU time of three reads: the least is the one noise added least to."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        read(body)
        best = min(best, time.process_time() - started)
    return best


def old_reader(html: str) -> None:
    parser = HTMLParser(convert_charrefs=True)
    parser.feed(html)
    parser.close()


def main() -> None:
    print(f"{'body':<22}{'size':>9}{'lxml ms':>10}{'x plain':>9}{'HTMLParser ms':>15}")
    for size in SIZES:
        plain = cpu_seconds(html_text, (PLAIN * (size // len(PLAIN) + 1))[:size])
        print(f"{'plain reply':<22}{size:>9}{plain * 1000:>10.2f}{1:>9.1f}")
        for kind, pattern in KINDS.items():
            body = (pattern * (size // len(pattern) + 1))[:size]
            ours = cpu_seconds(html_text, body)
            old = f"{cpu_seconds(old_reader, body) * 1000:>15.1f}" if size in OLD_SIZES else ""
            print(f"{kind:<22}{size:>9}{ours * 1000:>10.2f}{ours / plain:>9.2f}{old}")


if __name__ == "__main__":
    main()
