"""A player's e-mail address: set (a confirmation mail goes out), confirmed by the
signed link's token, suppressed when it bounces or its owner complains.

Suppression is by mailbox (`notifications.consent.mailboxes.mailbox`), so no spelling of a
suppressed address gets mail. Whoever sets one must not learn that it is suppressed,
neither from the answer nor from how long it took: so the request only stores the
address and queues its confirmation mail, and the worker decides (`send_confirmation`)
whether to send it. The request never waits for the provider, and answers the same
for a new address, a suppressed one, and a provider that is down. A mail the provider
or the broker could not take leaves the address's `confirmation_mail` failed, which
the player sees, to set it again; a suppressed mailbox's is done, as a sent one's."""

from __future__ import annotations

import functools
import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bansugoroku.games.models import Player
from bansugoroku.games.outbox import send_quietly
from notifications.consent.mailboxes import mailbox
from notifications.consent.tokens import confirm_token, read_confirm_token
from notifications.errors import InvalidToken, NoAddress
from notifications.mails.messages import confirmation_email
from notifications.models import ConfirmationMail, EmailAddress, Suppression, SuppressionReason

SEND_CONFIRMATION = "notifications.send_confirmation"

log = logging.getLogger(__name__)


def email_set(*, player: Player, address: str | None) -> EmailAddress | None:
    """Set the player's address (unconfirmed until its link is followed) and queue the
    link's mail once this commits; None removes it. Setting the address already
    confirmed changes nothing. `address` is in its canonical form."""
    with transaction.atomic():
        current = EmailAddress.objects.select_for_update().filter(player=player).first()
        if address is None:
            if current:
                current.delete()
            return None
        if current and current.address == address and current.confirmed:
            return current
        email, _ = EmailAddress.objects.update_or_create(
            player=player,
            defaults={
                "address": address,
                "confirmed_at": None,
                "confirmation_mail": ConfirmationMail.QUEUED,
            },
        )
        transaction.on_commit(functools.partial(queue_confirmation, email.pk, address))
    return email


def queue_confirmation(email_id: int, address: str) -> None:
    """Queue the confirmation mail; a broker that is away fails it, for the player to
    set the address again."""
    lost = "the confirmation mail of address %s was not queued"
    if not send_quietly(SEND_CONFIRMATION, (email_id, address), lost, email_id):
        _failed(email_id, address, ConfirmationMail.QUEUED)


def send_confirmation(email_id: int, address: str) -> str:
    """The worker's part of `email_set`: mail the link to `address` if it is still the
    address's and its mail still queued (a message delivered twice mails once), and its
    mailbox is not suppressed. Returns what was done, for the worker's log."""
    claimed = EmailAddress.objects.filter(
        pk=email_id, address=address, confirmation_mail=ConfirmationMail.QUEUED
    ).update(confirmation_mail=ConfirmationMail.DONE)
    if not claimed:
        return "nothing to send: the address changed, or its mail was sent"
    if is_suppressed(address):
        return "not sent: the mailbox is suppressed"
    email = EmailAddress.objects.select_related("player").filter(pk=email_id).first()
    if email is None:
        return "nothing to send: the address was removed"
    max_age = settings.NOTICE_CONFIRM_MAX_AGE
    token = confirm_token(email.player_id, address)
    message = confirmation_email(email.player, address, token, days=max(1, max_age.days))
    try:
        message.send()
    except Exception:  # the provider is down, or refused it: the player may send again
        log.warning("the confirmation mail of address %s failed", email_id, exc_info=True)
        _failed(email_id, address, ConfirmationMail.DONE)
        return "failed"
    return "sent"


def _failed(email_id: int, address: str, was: ConfirmationMail) -> None:
    """Record that the mail was not sent, unless the address changed since, or was set
    again (its mail queued again)."""
    EmailAddress.objects.filter(pk=email_id, address=address, confirmation_mail=was).update(
        confirmation_mail=ConfirmationMail.FAILED
    )


def email_confirm(*, player: Player, token: str) -> EmailAddress:
    """Confirm the address the token was mailed to, if it is still the player's."""
    player_id, address = read_confirm_token(token, settings.NOTICE_CONFIRM_MAX_AGE)
    if player_id != player.pk:
        raise InvalidToken("this confirmation link is for another player")
    return _confirm(player_id, address)


def email_confirm_by_link(*, token: str) -> EmailAddress:
    """Confirm from the mailed link, on any device: the signed token names the player, so
    a browser that does not play as them (a phone's mail app) confirms too."""
    return _confirm(*read_confirm_token(token, settings.NOTICE_CONFIRM_MAX_AGE))


def _confirm(player_id: int, address: str) -> EmailAddress:
    with transaction.atomic():
        email = EmailAddress.objects.select_for_update().filter(player_id=player_id).first()
        if email is None:
            raise NoAddress("you have no e-mail address to confirm: set one first")
        if email.address != address:
            raise InvalidToken("this link is for an address you no longer use")
        if email.confirmed_at is None:
            email.confirmed_at = timezone.now()
            email.save(update_fields=["confirmed_at", "changed_at"])
    return email


def address_suppress(*, address: str, reason: SuppressionReason, detail: str = "") -> None:
    """No more mail to this address's mailbox, in any spelling, from anyone."""
    Suppression.objects.update_or_create(
        address=mailbox(address), defaults={"reason": reason, "detail": detail[:2000]}
    )


def is_suppressed(address: str) -> bool:
    return Suppression.objects.filter(address=mailbox(address)).exists()
