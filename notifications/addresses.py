"""A player's e-mail address: set (a confirmation mail goes out), confirmed by the
signed link's token, suppressed when it bounces or its owner complains.

Suppression is by mailbox (`notifications.mailboxes.mailbox`), so no spelling of a
suppressed address gets mail; whoever sets one is answered as for any other address,
so that the answer does not tell whether it was suppressed."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bansugoroku.games.models import Player
from notifications.email_messages import confirmation_email
from notifications.errors import InvalidToken, MailUnavailable, NoAddress
from notifications.mailboxes import mailbox
from notifications.models import EmailAddress, Suppression, SuppressionReason
from notifications.tokens import confirm_token, read_confirm_token


def email_set(*, player: Player, address: str | None) -> EmailAddress | None:
    """Set the player's address (unconfirmed until its link is followed) and mail the
    link, unless the address is suppressed; None removes it. Setting the address already
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
            player=player, defaults={"address": address, "confirmed_at": None}
        )
    if is_suppressed(address):
        return email
    max_age = settings.NOTICE_CONFIRM_MAX_AGE
    message = confirmation_email(
        player, address, confirm_token(player.pk, address), days=max(1, max_age.days)
    )
    try:
        message.send()
    except Exception as exc:  # the provider down: the address stays, to be set again
        raise MailUnavailable(
            "the confirmation mail could not be sent now: set the address again later"
        ) from exc
    return email


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
