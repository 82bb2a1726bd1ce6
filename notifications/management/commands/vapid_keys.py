"""Print a new VAPID key pair for production's environment."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications.channels.keys import new_vapid_key, raw_private_key, raw_public_key


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair. Set VAPID_PRIVATE_KEY to the first line's value; the "
        "public key is derived from it. Changing the key ends every browser's subscription."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        key = new_vapid_key()
        self.stdout.write(f"VAPID_PRIVATE_KEY={raw_private_key(key)}")
        self.stdout.write(f"# public key, for reference: {raw_public_key(key)}")
