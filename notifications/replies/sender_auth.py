"""Whether a mail that came in is from the domain its From line names.

Anyone can write any From line; the receiving server checked more, and says so in
headers it puts on top of the mail: `Authentication-Results` (RFC 8601: SPF, DKIM and
DMARC, each `method=result`) under the server's own name, its authserv-id, and
`Received-SPF` (RFC 7208 §9.1). Postmark, the default provider, writes the second and
SpamAssassin's `X-Spam-Tests`, whose `DKIM_VALID_AU` is a valid DKIM signature of the
author's domain. anymail normalizes none of these, so they are read here.

A sender can write the same headers lower down, so only what the receiving server
wrote counts: an `Authentication-Results` whose authserv-id is one of
INBOUND_AUTHSERV_IDS, and the topmost `Received-SPF` and `X-Spam-Tests`. The mail is
authentic when DMARC passed, or DKIM or SPF passed for a domain aligned with the From
line's: the same, or one a subdomain of the other (DMARC's relaxed alignment, short of
the public-suffix list). Each header is read once, left to right, by splitting and
anchored patterns: time linear in its length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_RESULT = re.compile(r"\s*([a-z0-9-]+)\s*=\s*([a-z]+)")
"""`dkim=pass`, the start of one result of an Authentication-Results header."""
_PROPERTY = re.compile(r"\b(header\.d|header\.from|smtp\.mailfrom|header\.i)\s*=\s*([^\s;]+)")
"""What a result was checked for: `header.d=example.com`, `smtp.mailfrom=a@example.com`."""
_ENVELOPE_FROM = re.compile(r"\benvelope-from\s*=\s*\"?([^\s;\"]+)")
_COMMENT = re.compile(r"\([^()]*\)")
"""A comment without comments inside; nested ones are left, and match nothing asked."""


@dataclass(frozen=True)
class Check:
    """One passing check: its method ("spf", "dkim", "dmarc"...) and the domain it vouches
    for, "" when the header names none (DMARC's is then the From line's own)."""

    method: str
    domain: str


def authentic(sender: str, headers: Sequence[tuple[str, str]], authserv_ids: Iterable[str]) -> bool:
    """Whether the receiving server vouches for the sender's domain. `headers` as they
    come, topmost first: (name, value)."""
    domain = _domain(sender)
    if not domain:
        return False
    return any(
        _aligned(check.domain, domain) or (check.method == "dmarc" and not check.domain)
        for check in passed(headers, authserv_ids, domain)
        if check.method in ("spf", "dkim", "dmarc")
    )


def passed(
    headers: Sequence[tuple[str, str]], authserv_ids: Iterable[str], author: str
) -> list[Check]:
    """The checks the receiving server says passed; `author` is the From line's domain,
    which SpamAssassin's DKIM_VALID_AU vouches for."""
    trusted = {name.lower() for name in authserv_ids}
    checks: list[Check] = []
    top: dict[str, str] = {}
    for name, value in headers:
        name = name.lower()
        if name == "authentication-results":
            checks += _results(value, trusted)
        elif name in ("received-spf", "x-spam-tests"):
            top.setdefault(name, value)
    spf = _COMMENT.sub(" ", top.get("received-spf", "").lower()).split()
    if spf and spf[0] == "pass":
        envelope = _ENVELOPE_FROM.search(" ".join(spf))
        if envelope:
            checks.append(Check("spf", _domain(envelope[1])))
    tests = top.get("x-spam-tests", "").upper().replace(" ", "").split(",")
    if "DKIM_VALID_AU" in tests:
        checks.append(Check("dkim", author))
    return checks


def _results(value: str, trusted: set[str]) -> list[Check]:
    """The passing results of one Authentication-Results header, if a trusted server
    wrote it."""
    parts = _COMMENT.sub(" ", value.lower()).split(";")
    server = parts[0].split()
    if not server or server[0] not in trusted:
        return []
    found = []
    for part in parts[1:]:
        result = _RESULT.match(part)
        if result is None or result[2] != "pass":
            continue
        vouched = _PROPERTY.search(part)
        found.append(Check(result[1], _domain(vouched[2]) if vouched else ""))
    return found


def _aligned(vouched: str, domain: str) -> bool:
    """DMARC's relaxed alignment, near enough: the same domain, or one under the other."""
    return bool(vouched) and (
        vouched == domain or vouched.endswith("." + domain) or domain.endswith("." + vouched)
    )


def _domain(address: str) -> str:
    """`example.com` of `a@Example.com.`, `<a@example.com>` or `example.com`."""
    return address.strip("<>\"' ").rpartition("@")[2].rstrip(".").lower()
