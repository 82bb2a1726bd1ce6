"""Who is told what, through which channel, and the record of every send.

A `Notice` is made from an outbox `Event` for one player and one channel, in the
transaction that hands the event on, and is unique per (event, player, channel): an
event delivered twice makes no second notice. Sending claims the row, tries its
channel's sender and writes an `Attempt`, so "why did I get no e-mail?" has an answer
in the admin. Where a player's browsers and apps receive push notices is kept here too.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper

from bansugoroku.games.models import Event, Player, Table


class Channel(models.TextChoices):
    EMAIL = "email"
    PUSH = "push"


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn"
    GAME_OVER = "game_over"
    OPPONENT_JOINED = "opponent_joined"
    TABLE_CLOSING = "table_closing"
    TABLE_CLOSED = "table_closed"
    CLOCK_LOW = "clock_low"
    AUTO_VACATION = "auto_vacation"
    MESSAGE = "message"


class EmailMode(models.TextChoices):
    """How often "your turn" e-mails may come; each lists every table waiting then."""

    EACH_TURN = "each_turn"
    """An e-mail each turn."""
    SPACED = "spaced"
    """At most one every NOTICE_EMAIL_SPACING (3 hours): the default."""
    DAILY_DIGEST = "daily_digest"
    """At most one a day."""


class ConfirmationMail(models.TextChoices):
    """Where the address's confirmation mail is: the worker sends it, not the request."""

    QUEUED = "queued"
    """Set; the worker has not taken the mail yet."""
    DONE = "done"
    """The worker is done with it: handed to the provider, or dropped since its mailbox
    is suppressed. One state for both, so that nothing tells them apart."""
    FAILED = "failed"
    """Not sent: the provider or the broker was down. Setting the address again resends."""


class EmailAddress(models.Model):
    """The player's one e-mail address; mail goes to it only once it is confirmed."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="email_address")
    address = models.EmailField(max_length=254)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField(auto_now=True)
    confirmation_mail = models.CharField(
        max_length=8, choices=ConfirmationMail.choices, default=ConfirmationMail.DONE
    )

    class Meta:
        verbose_name_plural = "e-mail addresses"
        indexes = [
            # The sign-in mail's lookup (`sign_in.send_sign_in`), by any case of the
            # address: without it, a scan of every address for each link asked for.
            models.Index(
                Upper("address"),
                condition=Q(confirmed_at__isnull=False),
                name="email_confirmed_address",
            ),
        ]

    def __str__(self) -> str:
        return self.address

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None


def default_kinds() -> dict[str, bool]:
    return {kind.value: True for kind in Kind}


class Preferences(models.Model):
    """Which kinds of notice a player wants on each channel, and how e-mail is paced.

    A player without a row has the defaults: every kind on both channels, "your turn"
    e-mails spaced."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="notice_prefs")
    email_kinds = models.JSONField(default=default_kinds)
    push_kinds = models.JSONField(default=default_kinds)
    email_mode = models.CharField(
        max_length=16, choices=EmailMode.choices, default=EmailMode.SPACED
    )
    last_turn_email_at = models.DateTimeField(null=True, blank=True)
    """When the latest "your turn" e-mail (or digest) went out: the next waits."""
    push_stopped_at = models.DateTimeField(null=True, blank=True)
    """When push failed for good (no subscription left); registering one clears it."""
    play_by_reply = models.BooleanField(default=True)
    """A "your turn" e-mail may be answered with the move (`notifications.inbound`)."""
    play_by_reply_cpu = models.BooleanField(default=True)
    """...at tables against the CPU too: some would rather not play a practice game by
    mail."""

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"preferences of {self.player}"

    def wants(self, kind: str, channel: str) -> bool:
        kinds = self.email_kinds if channel == Channel.EMAIL else self.push_kinds
        return bool(kinds.get(kind, True))


class TableMute(models.Model):
    """No notice at all about this table for this player, whatever the kind."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="table_mutes")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "table"], name="one_mute_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.player} mutes {self.table}"


class NoticeStatus(models.TextChoices):
    PENDING = "pending"
    SENT = "sent"
    SKIPPED = "skipped"
    """Not sent, and rightly: turned off, muted, no address, already played, folded."""
    FAILED = "failed"
    """A permanent error, or too many transient ones."""


class Notice(models.Model):
    """One notice to one player on one channel, made from an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(
        max_length=8, choices=NoticeStatus.choices, default=NoticeStatus.PENDING
    )
    next_attempt_at = models.DateTimeField()
    """When it may be sent: now, or later when delayed (player looking, spacing, retry);
    while a worker sends it, the end of its lease."""
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=200, blank=True)
    """Why it ended as it did: sent, folded into another, turned off, the error."""

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player", "channel"], name="one_notice_per_event_player_channel"
            )
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="notice_pending",
                condition=Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} by {self.channel} to {self.player}"


class AttemptOutcome(models.TextChoices):
    IN_FLIGHT = "in_flight", "In flight"
    """Written before the provider is called: its answer is awaited."""
    SENT = "sent"
    TRANSIENT = "transient"
    PERMANENT = "permanent"
    UNKNOWN = "unknown"
    """Still in flight when the notice's lease ran out: the worker stopped before it
    recorded the provider's answer, and the provider may have taken the notice."""


class Attempt(models.Model):
    """One try at sending a notice (by the notice's channel), with its outcome and the
    error if any; written before the provider is called, so that a send whose worker
    died shows too."""

    notice = models.ForeignKey(Notice, on_delete=models.CASCADE, related_name="attempts_made")
    at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=AttemptOutcome.choices)
    error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"{self.outcome} at {self.at:%Y-%m-%d %H:%M:%S}"


class SuppressionReason(models.TextChoices):
    BOUNCED = "bounced"
    COMPLAINED = "complained"
    FAILED = "failed"
    """The provider refused the address for good when we sent."""


class Suppression(models.Model):
    """An address no mail goes to: it bounced, its owner complained, or it failed."""

    address = models.EmailField(max_length=254, unique=True)
    """The mailbox (`notifications.consent.mailboxes.mailbox`): lower-cased, IDNA domain, no
    +tag, so that it stands for every spelling of the address."""
    reason = models.CharField(max_length=12, choices=SuppressionReason.choices)
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.address} ({self.reason})"


# --- Push: where a player's browsers and apps receive notices ------------------------


class PushSubscription(models.Model):
    """A browser's Web Push subscription (RFC 8030): the push service's URL for it and
    the keys its notices are encrypted to (RFC 8291). The endpoint is the browser's
    secret: whoever registers it owns it, so registering it again moves it."""

    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=2048, unique=True)
    p256dh = models.CharField(max_length=88, help_text="The browser's P-256 key, base64url.")
    auth = models.CharField(max_length=24, help_text="The 16-byte auth secret, base64url.")
    label = models.CharField(max_length=200, blank=True, help_text="Which browser: its User-Agent.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.player_id}: {self.label or urlsplit(self.endpoint).hostname}"


class Platform(models.TextChoices):
    ANDROID = "android"
    IOS = "ios"


class DeviceToken(models.Model):
    """A mobile app's Firebase Cloud Messaging registration token."""

    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="device_tokens"
    )
    token = models.CharField(max_length=1024, unique=True)
    platform = models.CharField(max_length=8, choices=Platform.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.player_id}: {self.platform} app"  # the token is what pushes to it


# --- End of push ---------------------------------------------------------------------


class SignInLink(models.Model):
    """A mailed sign-in link (`notifications.sign_in`): only its hash is kept. It works
    once (`used_at`, set by the update that uses it, so two taps racing get it once)
    and until `expires_at`; the hourly purge deletes it after (`notifications.retention`).
    `next_path` is the local page the browser asked from (a table), where using the
    link lands."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    link_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    next_path = models.CharField(max_length=200, blank=True, default="")

    def __str__(self) -> str:
        return f"sign-in link of player {self.player_id}"


# --- Playing by replying to a "your turn" e-mail (notifications.inbound) --------------


class ReplyToken(models.Model):
    """The secret in the reply address of a "your turn" e-mail, one per table the mail
    lists: `play+<token>@INBOUND_DOMAIN`. Only its hash is kept. A reply to it plays one
    turn of one table: that game's `turn_number` at `table_version`, the table as the
    mail showed it; it works once (`used_at`, set in the move's transaction) and until
    `expires_at`. The hourly purge deletes it after (`notifications.retention`)."""

    token_hash = models.CharField(max_length=64, unique=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    game_number = models.PositiveIntegerField()
    turn_number = models.PositiveIntegerField()
    table_version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"reply token of player {self.player_id} at {self.table_id}"


class InboundOutcome(models.TextChoices):
    """What became of a mail that came in. Only the first two are answered: the rest
    may come from anyone, and a reply to a forged sender is backscatter."""

    PLAYED = "played"
    """The move was played and confirmed by mail."""
    REFUSED = "refused"
    """From the player, about their turn, but not playable (illegal, incomplete, the
    table moved on, the token used or expired): they were told why."""
    UNKNOWN_TOKEN = "unknown_token"
    """No reply address of ours, or one no mail was sent with."""
    WRONG_SENDER = "wrong_sender"
    """A token of ours from an address that is not its player's confirmed one: a
    forwarded copy, or a forgery."""
    MALFORMED = "malformed"
    """A mail with no sender or no readable text."""
    TURNED_OFF = "turned_off"
    """The player turned playing by reply off since the mail went out."""
    REPEATED = "repeated"
    """The provider delivered the same mail again (same Message-ID): handled once."""
    AUTOMATIC = "automatic"
    """An automatic reply (an out-of-office notice, a bounce): `Auto-Submitted` or
    `Precedence` say so. Never read as a move nor answered, or two robots could write
    to each other for ever."""
    UNAUTHENTICATED = "unauthenticated"
    """The receiving server does not vouch for the From line's domain (no passing SPF,
    DKIM or DMARC aligned with it: `notifications.replies.sender_auth`): anyone may have written
    it, so it is neither played nor answered."""
    PENDING = "pending"
    """Stored by the webhook, not read yet: the worker reads it (`mail_play.read_inbound`)."""


class InboundMail(models.Model):
    """One mail that came in to a reply address, for the admin's counts of each outcome.
    The webhook keeps the provider's post as it came (`payload`, with its `esp` and
    `content_type`) for the worker to read, which empties it: after that neither the
    token nor the text is kept; `message_hash` (of its Message-ID) only tells a mail the
    provider posts again."""

    received_at = models.DateTimeField(auto_now_add=True, db_index=True)
    outcome = models.CharField(max_length=16, choices=InboundOutcome.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message_hash = models.CharField(max_length=64, blank=True, db_index=True)
    detail = models.CharField(max_length=200, blank=True)
    esp = models.CharField(max_length=32, blank=True)
    content_type = models.CharField(max_length=200, blank=True)
    payload = models.BinaryField(null=True, editable=False)

    class Meta:
        verbose_name = "inbound mail"
        indexes = [
            models.Index(
                fields=["received_at"], name="inbound_mail_pending", condition=Q(outcome="pending")
            )
        ]

    def __str__(self) -> str:
        return f"{self.outcome} at {self.received_at:%Y-%m-%d %H:%M:%S}"
