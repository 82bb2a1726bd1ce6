"""What the pages keep of their own: which "use on another device" links were used."""

from __future__ import annotations

from django.db import models


class UsedDeviceLink(models.Model):
    """A device link's nonce once it was used: the primary key makes a second use (a
    replay, a double tap racing the first) fail at the insert."""

    nonce = models.CharField(max_length=32, primary_key=True)
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.nonce
