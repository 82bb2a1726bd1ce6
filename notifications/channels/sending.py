"""Sending one notice: claim it, decide, send, record; no row is locked while a
provider is called.

The claim is a short transaction. The notice's row is locked (`SELECT ... FOR UPDATE
SKIP LOCKED`) to decide what to do and, to send, to take a lease: `next_attempt_at`
moves past the longest the send can take (NOTICE_SEND_TIMEOUT for each request it
makes, and one more) and an `Attempt` "in flight" is written. It commits; the provider
is called outside any transaction; another short transaction records the outcome. So a
slow provider holds up the worker waiting for it and nobody else: not the player
changing their settings, not another notice. Until the lease runs out the notice is not
due, so two workers never send it at the same time. A worker killed mid-send leaves it
pending with its attempt in flight: once the lease has run out `send_due` claims it
again and marks that attempt "unknown", since the provider may have had it. The player
may then get it twice (at least once, never lost), and the admin shows both attempts.

A "your turn" e-mail also locks the player's preferences row in its claim and reserves
the spacing there (`last_turn_email_at`), so that a claim of the player's next one, by
any worker, waits for the spacing of the player's mode (`email_spacing`). A send that
fails gives the reservation back unless another claim took it since: as far as we know
no mail went out. A worker killed mid-send keeps it: the mail may have gone. A mail
sent folds into itself the player's other turn e-mails that were pending when it was
claimed, since it listed every table waiting then.

A message notice (`Kind.MESSAGE`: a word from the other seat, written while it was not
their move) comes at most once every NOTICE_EMAIL_SPACING on each channel (a day in
digest mode), and not at all once the player has seen the message at the table. It
lists every unread message of its table then, and so does a "your turn" notice for each
table it lists: once sent, either folds the message notices pending for those tables
into itself.

Before sending, a notice may be skipped (the turn was played already, the player turned
it off, muted the table, has no confirmed address or the address is suppressed, has no
browser or app that push is on for here) or delayed (the player is looking at the
table; the last "your turn" e-mail was too recent): a delayed notice stays pending with
a later `next_attempt_at`, which the periodic `send_due` picks up, so it is never lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from bansugoroku.games import messages, payloads
from bansugoroku.games.models import Seat
from notifications.channels import push
from notifications.channels.registry import SENDERS, Recipient
from notifications.consent.addresses import is_suppressed
from notifications.consent.mailboxes import mailbox
from notifications.errors import DeliveryError, PermanentError
from notifications.mails import content
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
LOST = "no outcome recorded: the worker stopped or failed first; the provider may have it"
"""What an attempt still in flight when its notice's lease ran out says."""


@dataclass(frozen=True)
class Skip:
    why: str


@dataclass(frozen=True)
class Delay:
    until: datetime
    why: str


@dataclass(frozen=True)
class Claim:
    """A notice leased for one attempt, with what sending and recording it need."""

    notice: Notice
    attempt: Attempt
    recipient: Recipient
    said: content.Content
    at: datetime
    """When it was claimed; a "your turn" e-mail's spacing is taken from then."""
    spacing_before: datetime | None
    """A "your turn" e-mail's: the player's `last_turn_email_at` before this claim took
    the spacing, given back if the send fails."""
    folds: list[int]
    """The notices it tells, pending when it was claimed: for a "your turn" e-mail the
    player's others, and the message notices of the tables whose messages it tells."""


def send_notice(notice_id: int) -> str:
    """Send the notice if it is pending and due; returns what became of it."""
    claim = _claim(notice_id)
    if isinstance(claim, str):
        return claim
    notice = claim.notice
    try:
        SENDERS[notice.channel](claim.recipient, notice.kind, notice.table.code, claim.said)
    except DeliveryError as error:
        return _record(claim, error)
    return _record(claim, None)


def _claim(notice_id: int) -> Claim | str:
    """Decide, and to send, lease the notice; in a transaction of its own."""
    with transaction.atomic():
        notice = (
            Notice.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("event", "table", "player")
            .filter(pk=notice_id, status=NoticeStatus.PENDING, next_attempt_at__lte=timezone.now())
            .first()
        )
        if notice is None:
            return "not due, done, or being sent by another worker"
        notice.attempts_made.filter(outcome=AttemptOutcome.IN_FLIGHT).update(
            outcome=AttemptOutcome.UNKNOWN, error=LOST
        )
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
        if notice.attempts >= settings.NOTICE_MAX_ATTEMPTS:
            return _give_up(notice)
        return _lease(notice, decided, prefs, now)


def _decide(notice: Notice, prefs: Preferences, now: datetime) -> Skip | Delay | Recipient:
    """Never, later, or now and to whom."""
    if notice.kind == Kind.YOUR_TURN and (about_turn := _turn_check(notice, now)):
        return about_turn
    if notice.kind == Kind.CLOCK_LOW and _clock_moved_on(notice):
        return Skip("the turn was played already")
    if notice.kind == Kind.MESSAGE and (about_message := _message_check(notice, now)):
        return about_message
    found = _channel_check(notice, prefs)
    if isinstance(found, Recipient) and _is_turn_email(notice):
        return _spacing_check(prefs, now) or found
    if isinstance(found, Recipient) and notice.kind == Kind.MESSAGE:
        return _message_spacing_check(notice, prefs, now) or found
    return found


def _locked_prefs(notice: Notice) -> Preferences:
    """The player's preferences, locked for a "your turn" e-mail's claim or a message
    notice's (one claim at a time per player: the spacing needs it)."""
    prefs, _ = Preferences.objects.get_or_create(player=notice.player)
    if _is_turn_email(notice) or notice.kind == Kind.MESSAGE:
        prefs = Preferences.objects.select_for_update().get(pk=prefs.pk)
    return prefs


def _clock_moved_on(notice: Notice) -> bool:
    """A reminder about a deadline that is no longer the table's: the player moved (or
    the game ended) since it was written."""
    payload: payloads.ClockLow = notice.event.payload
    deadline = notice.table.deadline
    return deadline is None or deadline != parse_datetime(payload["deadline"])


def _turn_check(notice: Notice, now: datetime) -> Skip | Delay | None:
    """A turn already played is not told; a player looking at the table is not
    disturbed until NOTICE_LOOKING_WINDOW after they last looked."""
    payload: payloads.TurnStarted = notice.event.payload
    table = notice.table
    game = table.current_game
    seat = Seat.objects.filter(table=table, player=notice.player).first()
    if (
        seat is None
        or table.seat_to_move != seat.number
        or game is None
        or (game.number, game.turn_number) != (payload["game"], payload["turn"])
    ):
        return Skip("the turn was played already")
    window: timedelta = settings.NOTICE_LOOKING_WINDOW
    if window and seat.last_seen_at and seat.last_seen_at + window > now:
        return Delay(seat.last_seen_at + window, "the player is looking at the table")
    return None


def _message_check(notice: Notice, now: datetime) -> Skip | Delay | None:
    """A message the player saw at the table, muted or reported is not told; a player
    looking at the table reads it there, so is not disturbed while they look."""
    payload: payloads.MessageWritten = notice.event.payload
    seat = Seat.objects.filter(table=notice.table, player=notice.player).first()
    if seat is None or not messages.unread(seat).filter(pk=payload["id"]).exists():
        return Skip("the message was read at the table, muted, reported or deleted")
    window: timedelta = settings.NOTICE_LOOKING_WINDOW
    if window and seat.last_seen_at and seat.last_seen_at + window > now:
        return Delay(seat.last_seen_at + window, "the player is looking at the table")
    return None


def _message_spacing_check(notice: Notice, prefs: Preferences, now: datetime) -> Delay | None:
    """At most one message notice every NOTICE_EMAIL_SPACING on each channel, or a day
    in digest mode: sent, or being sent (its attempt is in flight or its outcome lost)."""
    spacing = email_spacing(prefs.email_mode) or settings.NOTICE_EMAIL_SPACING
    last = (
        Attempt.objects.filter(
            notice__player_id=notice.player_id,
            notice__channel=notice.channel,
            notice__kind=Kind.MESSAGE,
            at__gt=now - spacing,
        )
        .exclude(outcome__in=[AttemptOutcome.TRANSIENT, AttemptOutcome.PERMANENT])
        .order_by("-at")
        .first()
    )
    if last is not None:
        return Delay(last.at + spacing, "a message notice went out recently")
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
    if is_suppressed(email.address):
        return Skip("the address is suppressed")
    return Recipient(notice.player, email.address)


def _spacing_check(prefs: Preferences, now: datetime) -> Delay | None:
    """At most one "your turn" e-mail every NOTICE_EMAIL_SPACING, or a day in digest
    mode, or none between them for each turn; the next one lists every table waiting
    then."""
    spacing = email_spacing(prefs.email_mode)
    if spacing and prefs.last_turn_email_at and prefs.last_turn_email_at + spacing > now:
        return Delay(prefs.last_turn_email_at + spacing, "a turn e-mail went out recently")
    return None


def email_spacing(mode: str) -> timedelta:
    """The least time between two "your turn" e-mails in that mode."""
    if mode == EmailMode.DAILY_DIGEST:
        return DIGEST_SPACING
    if mode == EmailMode.SPACED:
        spacing: timedelta = settings.NOTICE_EMAIL_SPACING
        return spacing
    return timedelta(0)


def _lease(notice: Notice, recipient: Recipient, prefs: Preferences, now: datetime) -> Claim:
    """Take the notice for one attempt: past the lease it is due again, should this
    worker never record the outcome."""
    spacing_before, folds = prefs.last_turn_email_at, []
    if _is_turn_email(notice):
        folds = list(
            _pending_turn_emails(notice.player_id)
            .exclude(pk=notice.pk)
            .values_list("pk", flat=True)
        )
        prefs.last_turn_email_at = now
        prefs.save(update_fields=["last_turn_email_at"])
    # Written after the folds are read: every table of theirs still waiting is listed.
    said = content.for_notice(
        notice.kind, notice.event, notice.player, by_mail=notice.channel == Channel.EMAIL
    )
    # Read after it is written: each message it tells was written before this.
    folds += _pending_message_notices(notice, said)
    # A request per device, or the one mail, each NOTICE_SEND_TIMEOUT at most; and one
    # more for the rest of the work.
    requests = push.reachable(notice.player_id) if notice.channel == Channel.PUSH else 1
    notice.attempts += 1
    notice.next_attempt_at = now + settings.NOTICE_SEND_TIMEOUT * (requests + 1)
    notice.save(update_fields=["attempts", "next_attempt_at"])
    attempt = Attempt.objects.create(notice=notice, outcome=AttemptOutcome.IN_FLIGHT)
    return Claim(notice, attempt, recipient, said, now, spacing_before, folds)


def _record(claim: Claim, error: DeliveryError | None) -> str:
    """The attempt's outcome, and what it means for the notice unless another claim took
    the notice since (its lease ran out first); in a transaction of its own."""
    if error is None:
        outcome = AttemptOutcome.SENT
    elif isinstance(error, PermanentError):
        outcome = AttemptOutcome.PERMANENT
    else:
        outcome = AttemptOutcome.TRANSIENT
    with transaction.atomic():
        Attempt.objects.filter(pk=claim.attempt.pk).update(
            outcome=outcome, error=str(error) if error else ""
        )
        notice = (
            Notice.objects.select_for_update()
            .filter(pk=claim.notice.pk, status=NoticeStatus.PENDING, attempts=claim.notice.attempts)
            .first()
        )
        if notice is None:
            return f"{outcome}, but the notice was claimed again or ended meanwhile"
        if error is None:
            _finish(notice, NoticeStatus.SENT, "sent")
            _fold_into(notice, claim.folds)
            return "sent"
        if _is_turn_email(notice):
            Preferences.objects.filter(
                player_id=notice.player_id, last_turn_email_at=claim.at
            ).update(last_turn_email_at=claim.spacing_before)
        if isinstance(error, PermanentError):
            _stop_channel(notice, claim.recipient, str(error))
            _finish(notice, NoticeStatus.FAILED, f"permanent error: {error}"[:200])
            return "failed: permanent error"
        if notice.attempts >= settings.NOTICE_MAX_ATTEMPTS:
            return _give_up(notice)
        pause = settings.NOTICE_RETRY_AFTER * 2 ** (notice.attempts - 1)
        notice.next_attempt_at = timezone.now() + min(pause, settings.NOTICE_RETRY_MAX_PAUSE)
        notice.save(update_fields=["next_attempt_at"])
        return f"retry at {notice.next_attempt_at.isoformat()}"


def _give_up(notice: Notice) -> str:
    _finish(notice, NoticeStatus.FAILED, f"gave up after {notice.attempts} attempts")
    return "failed: too many attempts"


def _stop_channel(notice: Notice, recipient: Recipient, error: str) -> None:
    """A permanent error stops the channel: the address is suppressed, or push is
    stopped for the player until they register again."""
    if notice.channel == Channel.EMAIL:
        Suppression.objects.get_or_create(
            address=mailbox(recipient.address),
            defaults={"reason": SuppressionReason.FAILED, "detail": error},
        )
    else:
        Preferences.objects.filter(player_id=notice.player_id).update(
            push_stopped_at=timezone.now()
        )


def _is_turn_email(notice: Notice) -> bool:
    return notice.kind == Kind.YOUR_TURN and notice.channel == Channel.EMAIL


def _pending_turn_emails(player_id: int) -> QuerySet[Notice]:
    return Notice.objects.filter(
        player_id=player_id,
        channel=Channel.EMAIL,
        kind=Kind.YOUR_TURN,
        status=NoticeStatus.PENDING,
    )


def _pending_message_notices(notice: Notice, said: content.Content) -> list[int]:
    """The player's message notices on the notice's channel pending for the tables whose
    messages `said` tells."""
    told = [table.code for table in said.tables if table.said]
    if not told:
        return []
    return list(
        Notice.objects.filter(
            player_id=notice.player_id,
            channel=notice.channel,
            kind=Kind.MESSAGE,
            status=NoticeStatus.PENDING,
            table__code__in=told,
        )
        .exclude(pk=notice.pk)
        .values_list("pk", flat=True)
    )


def _fold_into(sent: Notice, folds: list[int]) -> None:
    """The player's other notices pending when `sent` was claimed that it told: "your
    turn" e-mails, for it listed every table waiting then, and message notices of the
    tables whose messages it told. Those another worker is sending now (locked or in
    flight) are left to it."""
    others = list(
        Notice.objects.filter(player_id=sent.player_id, status=NoticeStatus.PENDING)
        .select_for_update(skip_locked=True)
        .filter(pk__in=folds)
        .exclude(attempts_made__outcome=AttemptOutcome.IN_FLIGHT)
        .values_list("pk", flat=True)
    )
    Notice.objects.filter(pk__in=others).update(
        status=NoticeStatus.SKIPPED, done_at=timezone.now(), outcome=f"folded into {sent.pk}"
    )


def _finish(notice: Notice, status: NoticeStatus, outcome: str) -> None:
    notice.status, notice.outcome, notice.done_at = status, outcome, timezone.now()
    notice.save(update_fields=["status", "outcome", "done_at"])


def due_notices(limit: int = 1000) -> list[int]:
    """Pending notices whose time has come: delayed, retried, never sent because their
    task was lost (broker or worker down), or leased by a worker that stopped."""
    return list(
        Notice.objects.filter(status=NoticeStatus.PENDING, next_attempt_at__lte=timezone.now())
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
