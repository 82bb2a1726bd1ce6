"""The admin for support: which browsers and apps a player gets notices on, and when each
last received one. Entries may be deleted (a player asks to stop); they are only ever
added by the player's own browser or app."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notifications.models import DeviceToken, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ("player", "label", "created_at", "last_success_at")
    list_select_related = ("player",)
    search_fields = ("player__name", "label")
    readonly_fields = (
        "player",
        "endpoint",
        "p256dh",
        "auth",
        "label",
        "created_at",
        "last_success_at",
    )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin[DeviceToken]):
    list_display = ("player", "platform", "created_at", "last_success_at")
    list_select_related = ("player",)
    list_filter = ("platform",)
    search_fields = ("player__name",)
    readonly_fields = ("player", "token", "platform", "created_at", "last_success_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
