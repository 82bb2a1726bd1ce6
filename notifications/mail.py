"""E-mails: a notice or an address confirmation, as text and HTML in the player's
language, with RFC 8058 one-click unsubscribe and a link to the notice settings."""

from __future__ import annotations

from typing import Any

from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from bansugoroku.games.models import Player
from bansugoroku.site import site_url
from notifications.content import Content
from notifications.tokens import unsubscribe_token

ALL_KINDS = ""
"""The unsubscribe kind that turns every notice e-mail off."""


def unsubscribe_url(player_id: int, kind: str) -> str:
    return f"{site_url()}/api/v1/unsubscribe/{unsubscribe_token(player_id, kind)}"


def settings_url() -> str:
    """The web client's notice settings page."""
    return f"{site_url()}/settings/notices"


def _email(
    player: Player, address: str, subject: str, template: str, context: dict[str, Any], kind: str
) -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(player.pk, kind)
    context = context | {"player": player, "settings_url": settings_url()}
    with translation.override(player.locale):
        text = render_to_string(f"notifications/{template}.txt", context)
        html = render_to_string(f"notifications/{template}.html", context)
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def notice_email(
    player: Player, address: str, kind: str, content: Content
) -> EmailMultiAlternatives:
    return _email(player, address, content.subject, "notice", {"content": content}, kind)


def confirmation_email(
    player: Player, address: str, token: str, days: int
) -> EmailMultiAlternatives:
    """The link that confirms an address: to the web client's page, which posts the
    token to /api/v1/players/me/email/confirm."""
    link = f"{site_url()}/settings/email/confirm?token={token}"
    with translation.override(player.locale):
        subject = _("Confirm your e-mail address")
    context = {"address": address, "link": link, "days": days}
    return _email(player, address, subject, "confirm", context, ALL_KINDS)
