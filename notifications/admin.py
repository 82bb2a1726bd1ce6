"""The admin answers "why did I get no e-mail?": every notice with its attempts, the
addresses and their suppressions, and the browsers and apps a player gets push notices
on. Notices and attempts are read-only; push entries may be deleted (a player asks to
stop) but are only ever added by the player's own browser or app."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin
from django.http import HttpRequest

from bansugoroku.lib.read_only_admin import ReadOnly
from notifications.consent.mailboxes import mailbox
from notifications.models import (
    Attempt,
    DeviceToken,
    EmailAddress,
    InboundMail,
    Notice,
    Preferences,
    PushSubscription,
    Suppression,
)


class AttemptInline(ReadOnly[Attempt], admin.TabularInline[Attempt, Notice]):
    """Oldest first: a send that was repeated shows as an attempt "unknown" (its worker
    stopped before recording the answer) followed by the next."""

    model = Attempt
    extra = 0
    ordering = ("pk",)


@admin.register(Notice)
class NoticeAdmin(ReadOnly[Notice], admin.ModelAdmin[Notice]):
    list_display = ["kind", "channel", "player", "table", "status", "attempts", "created_at"]
    list_filter = ["status", "channel", "kind"]
    search_fields = ["player__name", "table__code"]
    inlines = [AttemptInline]


@admin.register(Attempt)
class AttemptAdmin(ReadOnly[Attempt], admin.ModelAdmin[Attempt]):
    list_display = ["at", "outcome", "notice", "error"]
    list_filter = ["outcome", "notice__channel"]


@admin.register(EmailAddress)
class EmailAddressAdmin(admin.ModelAdmin[EmailAddress]):
    list_display = ["address", "player", "confirmed_at"]
    search_fields = ["address", "player__name"]
    raw_id_fields = ["player"]


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin[Preferences]):
    list_display = ["player", "email_mode", "last_turn_email_at", "push_stopped_at"]
    raw_id_fields = ["player"]


@admin.register(Suppression)
class SuppressionAdmin(admin.ModelAdmin[Suppression]):
    """Deleting a row lets mail go to the address again. A row added here is kept by
    mailbox, as the provider's reports are."""

    list_display = ["address", "reason", "created_at"]
    list_filter = ["reason"]
    search_fields = ["address"]

    def save_model(self, request: HttpRequest, obj: Suppression, form: Any, change: bool) -> None:
        obj.address = mailbox(obj.address)
        super().save_model(request, obj, form, change)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    """A browser's subscription, by its push service only: its endpoint and keys are
    what it takes to push to that browser, so no page shows them."""

    list_display = ("player", "label", "push_service", "created_at", "last_success_at")
    list_select_related = ("player",)
    search_fields = ("player__name", "label")
    fields = readonly_fields = ("player", "label", "push_service", "created_at", "last_success_at")

    @admin.display(description="push service")
    def push_service(self, subscription: PushSubscription) -> str:
        return urlsplit(subscription.endpoint).hostname or ""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin[DeviceToken]):
    """An app install's FCM registration, without its token: what it takes to push to it."""

    list_display = ("player", "platform", "created_at", "last_success_at")
    list_select_related = ("player",)
    list_filter = ("platform",)
    search_fields = ("player__name",)
    fields = readonly_fields = ("player", "platform", "created_at", "last_success_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(InboundMail)
class InboundMailAdmin(ReadOnly[InboundMail], admin.ModelAdmin[InboundMail]):
    """Mail that came in to a reply address, counted by outcome: the filter shows how
    many of each (unknown tokens, wrong senders, malformed, ...), none of them answered.
    A mail still waiting for the worker holds the reply's text and token: not shown."""

    fields = ["received_at", "outcome", "detail", "player", "table", "esp"]
    list_display = ["received_at", "outcome", "detail", "player", "table"]
    list_filter = ["outcome"]
    show_facets = admin.ShowFacets.ALWAYS
    date_hierarchy = "received_at"
