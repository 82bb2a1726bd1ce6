"""What an e-mail address is: the form we store and send to, and the mailbox that the
limits and the suppression list count by.

One mailbox has many spellings: `jo@bücher.example`, `"jo"@xn--bcher-kva.example`,
`"j\\o"@BÜCHER.example` and `jo+1@bücher.example` all reach the same inbox. Counted as
typed, each spelling had a limit of its own and escaped the suppression list, so one
inbox could be mailed five times as often per spelling. email-validator parses an
address as RFC 5322 and RFC 6531 say, removes quotes and escapes that change nothing and
maps the domain through IDNA (UTS #46: case, full-width letters, `xn--` labels alike).

- `canonical` is the address a player sets: quotes and escapes that change nothing
  removed, the domain lower-cased in its IDNA (ASCII) form; refused if it still needs its
  quotes (`"jo smith"@...`: no real player's address, and the only way to put spaces,
  so free text, into one), if its local part is not ASCII (Django's validator refused
  those before), or if its domain is a special-use name (`.test`, `.local`, ...).
- `mailbox` is the key for limits and suppression: the canonical form lower-cased,
  without a `+tag` (`bomb+1@` and `bomb@` are one inbox at every large provider), and
  at Gmail without dots in the local part (Gmail ignores them: `j.o@gmail.com` is
  `jo@gmail.com`, and `googlemail.com` is the same domain), else 2^n dot spellings of
  one Gmail inbox would each count alone. It takes any stored string, also one
  `canonical` would refuse now. Mail still goes to the address as set.
"""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

GMAIL = "gmail.com"
GMAIL_DOMAINS = frozenset({GMAIL, "googlemail.com"})


class NotAnAddress(ValueError):
    """The text is not an address we mail; the message says why, for the player."""


def canonical(address: str) -> str:
    try:
        parsed = validate_email(
            address,
            check_deliverability=False,
            allow_quoted_local=True,  # to remove the quotes that change nothing
            allow_smtputf8=False,
        )
    except EmailNotValidError as error:
        raise NotAnAddress(str(error)) from None
    if parsed.local_part.startswith('"'):
        raise NotAnAddress("An address whose part before the @-sign needs quotes is not accepted.")
    return f"{parsed.local_part}@{parsed.ascii_domain}"


def mailbox(address: str) -> str:
    try:
        parsed = validate_email(
            address,
            check_deliverability=False,
            allow_quoted_local=True,
            allow_domain_literal=True,
            globally_deliverable=False,
            test_environment=True,  # `.test` too
        )
    except EmailNotValidError:  # stored before addresses were checked this way
        return address.strip().lower()
    local, domain = parsed.local_part.lower(), (parsed.ascii_domain or parsed.domain).lower()
    base = local.split("+", 1)[0] or local
    if domain in GMAIL_DOMAINS:
        base, domain = base.replace(".", "") or base, GMAIL
    return f"{base}@{domain}"
