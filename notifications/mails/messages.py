"""E-mails: a notice, an address confirmation or sign-in links, as text and HTML in the player's
language, with a link to the notice settings; a notice with RFC 8058 one-click
unsubscribe and the same link, to the page that asks first, in its body.

A confirmation mail goes to an address nobody has confirmed yet, which anyone may have
typed: it says nothing its sender chose (not the player's name) and carries no
unsubscribe link, which would let whoever gets it turn the player's mail off."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from bansugoroku.games.models import Player
from bansugoroku.lib.site import site_url
from notifications.consent.tokens import unsubscribe_token
from notifications.mails.content import Content, player_told_apart


def unsubscribe_urls(player_id: int, kind: str, address: str) -> tuple[str, str]:
    """The one-click link for mail programs (the API's, which a POST unsubscribes), and
    the page's for the mail's body, which asks first."""
    token = unsubscribe_token(player_id, kind, address)
    return (
        site_url() + reverse("api:unsubscribe", args=[token]),
        site_url() + reverse("unsubscribe", args=[token]),
    )


def settings_url() -> str:
    """The web client's notice settings page."""
    return site_url() + reverse("settings-notices")


def _email(
    player: Player,
    address: str,
    subject: str,
    template: str,
    context: dict[str, Any],
    headers: dict[str, str],
    reply_to: str | None = None,
) -> EmailMultiAlternatives:
    context = context | {"player": player, "settings_url": settings_url()}
    with translation.override(player.locale):
        text = render_to_string(f"notifications/{template}.txt", context)
        html = render_to_string(f"notifications/{template}.html", context)
    message = EmailMultiAlternatives(
        subject, text, to=[address], headers=headers, reply_to=[reply_to] if reply_to else None
    )
    message.attach_alternative(html, "text/html")
    return message


def notice_email(
    player: Player, address: str, kind: str, content: Content
) -> EmailMultiAlternatives:
    """A notice to the player's confirmed address, with a link that stops its kind both
    in the headers and in the body, where the reader sees it. A "your turn" mail that
    can be answered with the move is replied to at its first table's reply address."""
    one_click, page = unsubscribe_urls(player.pk, kind, address)
    headers = {
        "List-Unsubscribe": f"<{one_click}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",  # RFC 3834: out-of-office replies stay away
    }
    context = {"content": content, "unsubscribe_url": page}
    return _email(player, address, content.subject, "notice", context, headers, content.reply_to)


def answer_email(player: Player, address: str, content: Content) -> EmailMultiAlternatives:
    """The answer to a reply that played a move, or did not: the player asked for it by
    replying, so it has no unsubscribe link. Replied to, it plays the turn again while
    the turn is still the player's."""
    context = {"content": content}
    headers = {"Auto-Submitted": "auto-replied"}  # RFC 3834: no responder answers it
    return _email(player, address, content.subject, "answer", context, headers, content.reply_to)


def confirmation_email(
    player: Player, address: str, token: str, days: int
) -> EmailMultiAlternatives:
    """The link that confirms an address: to the web client's page, which posts the
    token to the API's `email-confirm`."""
    link = f"{site_url()}{reverse('email-confirm')}?token={token}"
    with translation.override(player.locale):
        subject = _("Confirm your e-mail address")
    context = {"address": address, "link": link, "days": days}
    return _email(player, address, subject, "confirm", context, headers={})


def sign_in_email(
    address: str, links: Sequence[tuple[Player, str]], minutes: int
) -> EmailMultiAlternatives:
    """Sign-in links to a confirmed address, one per player who confirmed it (`links`:
    each player and their link), in the language of the first. Each link names its
    player with their open tables, for two players sharing an address may share a name."""
    player = links[0][0]
    with translation.override(player.locale):
        subject = _("Sign in to Ban-sugoroku")
        urls = [
            (player_told_apart(p), site_url() + reverse("sign-in-link", args=[link]))
            for p, link in links
        ]
    context = {"links": urls, "minutes": minutes}
    return _email(player, address, subject, "sign_in", context, headers={})
