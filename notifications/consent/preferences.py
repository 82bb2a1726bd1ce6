"""Reading and changing which notices a player wants, and the one-click unsubscribe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.crypto import constant_time_compare

from bansugoroku.games.errors import TableNotFound
from bansugoroku.games.models import Player, Seat
from notifications.consent.tokens import address_tag, read_unsubscribe_token
from notifications.errors import InvalidToken
from notifications.models import Channel, EmailAddress, Kind, Preferences, TableMute


def preferences_of(player: Player) -> Preferences:
    """The player's preferences; the defaults (unsaved) when they never changed any."""
    found = Preferences.objects.filter(player=player).first()
    return found or Preferences(player=player)


def preferences_update(
    *,
    player: Player,
    email_mode: str | None = None,
    kinds: Mapping[str, Mapping[str, bool]] | None = None,
    muted_tables: Sequence[str] | None = None,
    play_by_reply: bool | None = None,
    play_by_reply_cpu: bool | None = None,
    clock_reminders: Sequence[int] | None = None,
) -> Preferences:
    """Set what is given; `muted_tables` replaces the list of muted tables, each one
    the player sits at (any other answers TableNotFound, as everywhere). The reminder
    hours are the player's own (`Player.reminder_hours`, read by the clock when a turn
    of theirs starts), and are set here beside the notices they make."""
    with transaction.atomic():
        Preferences.objects.get_or_create(player=player)
        prefs = Preferences.objects.select_for_update().get(player=player)
        if email_mode is not None:
            prefs.email_mode = email_mode
        if play_by_reply is not None:
            prefs.play_by_reply = play_by_reply
        if play_by_reply_cpu is not None:
            prefs.play_by_reply_cpu = play_by_reply_cpu
        for kind, channels in (kinds or {}).items():
            for channel, on in channels.items():
                field = prefs.email_kinds if channel == Channel.EMAIL else prefs.push_kinds
                field[kind] = on
        prefs.save()
        if muted_tables is not None:
            _mute(player, muted_tables)
        if clock_reminders is not None:
            player.reminder_hours = list(clock_reminders)
            Player.objects.filter(pk=player.pk).update(reminder_hours=player.reminder_hours)
    return prefs


def _mute(player: Player, codes: Sequence[str]) -> None:
    seats = {
        code: table_id
        for code, table_id in Seat.objects.filter(
            player=player, table__code__in=[c.upper() for c in codes]
        ).values_list("table__code", "table_id")
    }
    unknown = [code for code in codes if code.upper() not in seats]
    if unknown:
        raise TableNotFound(f"no table with code {unknown[0][:12]!r}")
    TableMute.objects.filter(player=player).exclude(table_id__in=seats.values()).delete()
    TableMute.objects.bulk_create(
        [TableMute(player=player, table_id=t) for t in seats.values()], ignore_conflicts=True
    )


def muted_codes(player: Player) -> list[str]:
    return sorted(TableMute.objects.filter(player=player).values_list("table__code", flat=True))


def unsubscribe_request(token: str) -> tuple[int, str]:
    """The player and the kind of e-mail an unsubscribe token turns off, if it was
    mailed to the player's confirmed address of now: a link from a mail to an address
    the player has changed since, or removed, does nothing."""
    player_id, kind, tag = read_unsubscribe_token(token)
    email = EmailAddress.objects.filter(player_id=player_id, confirmed_at__isnull=False).first()
    if email is None or not constant_time_compare(address_tag(email.address), tag):
        raise InvalidToken("this link is from a mail to an address the player no longer uses")
    return player_id, kind


def unsubscribe(*, player_id: int, kind: str) -> None:
    """Turn that kind of e-mail off for the player (every kind when `kind` is empty);
    from a one-click link, so without login. A player deleted since has nothing left
    to turn off."""
    if not Player.objects.filter(pk=player_id).exists():
        return
    with transaction.atomic():
        prefs, _ = Preferences.objects.select_for_update().get_or_create(player_id=player_id)
        for each in [kind] if kind in Kind.values else Kind.values:
            prefs.email_kinds[each] = False
        prefs.save(update_fields=["email_kinds"])
