"""The admin answers "why did I get no e-mail?": every notice with its attempts, the
addresses and their suppressions. Notices and attempts are read-only."""

from __future__ import annotations

from django.contrib import admin

from bansugoroku.games.admin import ReadOnly
from notifications.models import Attempt, EmailAddress, Notice, Preferences, Suppression


class AttemptInline(ReadOnly[Attempt], admin.TabularInline[Attempt, Notice]):
    model = Attempt
    extra = 0


@admin.register(Notice)
class NoticeAdmin(ReadOnly[Notice], admin.ModelAdmin[Notice]):
    list_display = ["kind", "channel", "player", "table", "status", "attempts", "created_at"]
    list_filter = ["status", "channel", "kind"]
    search_fields = ["player__name", "table__code"]
    inlines = [AttemptInline]


@admin.register(Attempt)
class AttemptAdmin(ReadOnly[Attempt], admin.ModelAdmin[Attempt]):
    list_display = ["at", "channel", "outcome", "notice", "error"]
    list_filter = ["outcome", "channel"]


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
    """Deleting a row lets mail go to the address again."""

    list_display = ["address", "reason", "created_at"]
    list_filter = ["reason"]
    search_fields = ["address"]
