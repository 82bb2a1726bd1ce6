"""The channels a notice can go by, each with one function that sends it.

A sender takes the notice's recipient and what it says, and returns once the provider
has accepted it; it raises `TransientError` or `PermanentError` (notifications.errors)
otherwise. Push goes to every browser (Web Push) and app install (FCM) the player
registered, through `notifications.channels.push`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anymail.exceptions import AnymailRecipientsRefused
from django.utils.text import Truncator

from bansugoroku.games import selectors
from bansugoroku.games.models import Player
from notifications.channels import push
from notifications.errors import PermanentError, TransientError
from notifications.mails.content import Content, table_url
from notifications.mails.messages import notice_email
from notifications.models import Channel


@dataclass(frozen=True)
class Recipient:
    player: Player
    address: str
    """The confirmed e-mail address, for the e-mail channel; empty for the others."""


Sender = Callable[[Recipient, str, str, Content], None]
"""send(recipient, kind, table code, content): the code is the table the notice is
about, which a "your turn" e-mail lists among the others waiting."""


def send_email(recipient: Recipient, kind: str, code: str, content: Content) -> None:
    """Through the configured backend (an anymail one in production). A refused address
    is permanent; anything else (the provider down, a timeout, a bad token) is worth
    trying again, and must not hold the address against its owner."""
    message = notice_email(recipient.player, recipient.address, kind, content)
    try:
        message.send()
    except AnymailRecipientsRefused as exc:
        said = exc.response.text[:500] if exc.response is not None else ""
        raise PermanentError(f"{exc}: {said}" if said else str(exc)) from exc
    except Exception as exc:  # anymail, requests and smtplib raise many kinds
        raise TransientError(f"{type(exc).__name__}: {exc}") from exc


PUSH_BODY_MAX = 600
"""Characters of a push notice's text, messages quoted: Web Push carries 4 KB at most,
and a phone shows a few lines."""


def push_sender(send_to_player: Callable[[int, dict[str, Any]], None]) -> Sender:
    """A push channel's sender, from the push module's `send_to_player`."""

    def send(recipient: Recipient, kind: str, code: str, content: Content) -> None:
        about = content.line_about(code)
        told = [*about.lines, *about.said] if about and about.lines else content.intro
        body = Truncator(" ".join(told)).chars(PUSH_BODY_MAX)
        payload = {
            "kind": kind,
            "title": content.subject,
            "body": body,
            "table": code,
            "url": table_url(code),
            # The installed app's icon shows it (the service worker sets the badge).
            "badge": selectors.tables_waiting_count(recipient.player),
        }
        send_to_player(recipient.player.pk, payload)

    return send


SENDERS: dict[str, Sender] = {
    Channel.EMAIL: send_email,
    Channel.PUSH: push_sender(push.send_to_player),
}
