"""Sending one notice: claim it, decide, send, record.

The notice row is claimed with `SELECT ... FOR UPDATE SKIP LOCKED` and held until the
outcome is written, so two workers never send one notice twice, and a worker killed
mid-send leaves it pending for the next run. A "your turn" e-mail also locks the
player's preferences row: one at a time per player, so the spacing holds and the mail
that goes out lists every table waiting, the others being folded into it.

Before sending, a notice may be skipped (the turn was played already, the player turned
it off, muted the table, has no confirmed address or the address is suppressed, has no
browser or app that push is on for here) or
delayed (the player is looking at the table; the last "your turn" e-mail was too
recent): a delayed notice stays pending with a later `next_attempt_at`, which the
periodic `send_due` picks up, so it is never lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bansugoroku.games.models import Seat, TableState
from notifications import content, push
from notifications.channels import SENDERS, Recipient
from notifications.errors import PermanentError, TransientError
from notifications.models import (
    Attempt,
    AttemptOutcome,
    Channel,
    EmailAddress,
    EmailMode,
    Kind,
    Notice,
    NoticeStatus,
    Preferences,
    Suppression,
    SuppressionReason,
    TableMute,
)

DIGEST_SPACING = timedelta(days=1)
"""The daily digest's spacing: what the mode means, not a setting."""


@dataclass(frozen=True)
class Skip:
    why: str


@dataclass(frozen=True)
class Delay:
    until: datetime
    why: str


def send_notice(notice_id: int) -> str:
    """Send the notice if it is pending and due; returns what became of it."""
    with transaction.atomic():
        notice = (
            Notice.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("event", "table", "player")
            .filter(pk=notice_id, status=NoticeStatus.PENDING, next_attempt_at__lte=timezone.now())
            .first()
        )
        if notice is None:
            return "not due, done, or being sent by another worker"
        return _send(notice)


def _send(notice: Notice) -> str:
    now = timezone.now()
    prefs = _locked_prefs(notice)
    decided = _decide(notice, prefs, now)
    if isinstance(decided, Skip):
        _finish(notice, NoticeStatus.SKIPPED, decided.why)
        return f"skipped: {decided.why}"
    if isinstance(decided, Delay):
        notice.next_attempt_at = decided.until
        notice.save(update_fields=["next_attempt_at"])
        return f"delayed until {decided.until.isoformat()}: {decided.why}"
    return _attempt(notice, decided, prefs, now)


def _decide(notice: Notice, prefs: Preferences, now: datetime) -> Skip | Delay | Recipient:
    """Never, later, or now and to whom."""
    if notice.kind == Kind.YOUR_TURN and (about_turn := _turn_check(notice, now)):
        return about_turn
    found = _channel_check(notice, prefs)
    if (
        isinstance(found, Recipient)
        and notice.kind == Kind.YOUR_TURN
        and notice.channel == Channel.EMAIL
    ):
        return _spacing_check(prefs, now) or found
    return found


def _locked_prefs(notice: Notice) -> Preferences:
    """The player's preferences, locked for a "your turn" e-mail (one at a time per
    player: the spacing and the folding need it)."""
    prefs, _ = Preferences.objects.get_or_create(player=notice.player)
    if notice.kind == Kind.YOUR_TURN and notice.channel == Channel.EMAIL:
        prefs = Preferences.objects.select_for_update().get(pk=prefs.pk)
    return prefs


def _turn_check(notice: Notice, now: datetime) -> Skip | Delay | None:
    """A turn already played is not told; a player looking at the table is not
    disturbed until NOTICE_LOOKING_WINDOW after they last looked."""
    table, payload = notice.table, notice.event.payload
    game = table.current_game
    seat = Seat.objects.filter(table=table, player=notice.player).first()
    if (
        seat is None
        or table.state != TableState.PLAYING
        or game is None
        or game.is_over
        or (game.number, game.turn_number) != (payload["game"], payload["turn"])
        or game.turn_seat != seat.number
    ):
        return Skip("the turn was played already")
    window: timedelta = settings.NOTICE_LOOKING_WINDOW
    if window and seat.last_seen_at and seat.last_seen_at + window > now:
        return Delay(seat.last_seen_at + window, "the player is looking at the table")
    return None


def _channel_check(notice: Notice, prefs: Preferences) -> Skip | Recipient:
    if notice.channel not in SENDERS:
        return Skip(f"no sender for {notice.channel}")
    if not prefs.wants(notice.kind, notice.channel):
        return Skip(f"{notice.kind} by {notice.channel} is turned off")
    if TableMute.objects.filter(player=notice.player, table=notice.table).exists():
        return Skip("the table is muted")
    if notice.channel == Channel.PUSH:
        if prefs.push_stopped_at:
            return Skip("push failed for good")
        if not push.reachable(notice.player_id):
            return Skip("no browser or app registered on a push channel that is on here")
        return Recipient(notice.player, "")
    email = EmailAddress.objects.filter(player=notice.player).first()
    if email is None or not email.confirmed:
        return Skip("no confirmed e-mail address")
    if Suppression.objects.filter(address=email.address.lower()).exists():
        return Skip("the address is suppressed")
    return Recipient(notice.player, email.address)


def _spacing_check(prefs: Preferences, now: datetime) -> Delay | None:
    """At most one "your turn" e-mail every NOTICE_EMAIL_SPACING, or a day in digest
    mode; the next one lists every table waiting then."""
    if prefs.email_mode == EmailMode.DAILY_DIGEST:
        spacing = DIGEST_SPACING
    else:
        spacing = settings.NOTICE_EMAIL_SPACING
    if spacing and prefs.last_turn_email_at and prefs.last_turn_email_at + spacing > now:
        return Delay(prefs.last_turn_email_at + spacing, "a turn e-mail went out recently")
    return None


def _attempt(notice: Notice, recipient: Recipient, prefs: Preferences, now: datetime) -> str:
    said = content.for_notice(notice.kind, notice.event, notice.player)
    notice.attempts += 1
    try:
        SENDERS[notice.channel](recipient, notice.kind, notice.table.code, said)
    except TransientError as exc:
        Attempt.objects.create(notice=notice, outcome=AttemptOutcome.TRANSIENT, error=str(exc))
        if notice.attempts >= settings.NOTICE_MAX_ATTEMPTS:
            _finish(notice, NoticeStatus.FAILED, f"gave up after {notice.attempts} attempts")
            return "failed: too many transient errors"
        pause = settings.NOTICE_RETRY_AFTER * 2 ** (notice.attempts - 1)
        notice.next_attempt_at = now + min(pause, settings.NOTICE_RETRY_MAX_PAUSE)
        notice.save(update_fields=["attempts", "next_attempt_at"])
        return f"retry at {notice.next_attempt_at.isoformat()}"
    except PermanentError as exc:
        Attempt.objects.create(notice=notice, outcome=AttemptOutcome.PERMANENT, error=str(exc))
        _stop_channel(notice, recipient, prefs, str(exc))
        _finish(notice, NoticeStatus.FAILED, f"permanent error: {exc}"[:200])
        return "failed: permanent error"
    Attempt.objects.create(notice=notice, outcome=AttemptOutcome.SENT)
    _finish(notice, NoticeStatus.SENT, "sent")
    if notice.kind == Kind.YOUR_TURN and notice.channel == Channel.EMAIL:
        prefs.last_turn_email_at = now
        prefs.save(update_fields=["last_turn_email_at"])
        _fold_into(notice)
    return "sent"


def _stop_channel(notice: Notice, recipient: Recipient, prefs: Preferences, error: str) -> None:
    """A permanent error stops the channel: the address is suppressed, or push is
    stopped for the player until they register again."""
    if notice.channel == Channel.EMAIL:
        Suppression.objects.get_or_create(
            address=recipient.address.lower(),
            defaults={"reason": SuppressionReason.FAILED, "detail": error},
        )
    else:
        prefs.push_stopped_at = timezone.now()
        prefs.save(update_fields=["push_stopped_at"])


def _fold_into(sent: Notice) -> None:
    """The player's other pending "your turn" e-mails are told by the one just sent,
    which listed every table waiting. Rows another worker holds are left to it."""
    others = list(
        Notice.objects.select_for_update(skip_locked=True)
        .filter(
            player=sent.player,
            channel=Channel.EMAIL,
            kind=Kind.YOUR_TURN,
            status=NoticeStatus.PENDING,
        )
        .exclude(pk=sent.pk)
        .values_list("pk", flat=True)
    )
    Notice.objects.filter(pk__in=others).update(
        status=NoticeStatus.SKIPPED, done_at=timezone.now(), outcome=f"folded into {sent.pk}"
    )


def _finish(notice: Notice, status: NoticeStatus, outcome: str) -> None:
    notice.status, notice.outcome, notice.done_at = status, outcome, timezone.now()
    notice.save(update_fields=["status", "outcome", "done_at", "attempts"])


def due_notices(limit: int = 1000) -> list[int]:
    """Pending notices whose time has come: delayed, retried, or never sent because
    their task was lost (broker or worker down)."""
    return list(
        Notice.objects.filter(status=NoticeStatus.PENDING, next_attempt_at__lte=timezone.now())
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
