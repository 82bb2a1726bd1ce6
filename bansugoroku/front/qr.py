"""QR codes for links a player carries to another phone: drawn on the server as inline
SVG (segno, a few kilobytes), so the page needs no image request and no script."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(scale=4, title=url, svgclass="qr"))
