"""Who is told what, and where to reach them."""

from __future__ import annotations

from django.db import models

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
        return f"{self.player_id}: {self.label or self.endpoint[:60]}"


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
        return f"{self.player_id}: {self.platform} {self.token[:16]}..."


# --- End of push ---------------------------------------------------------------------
