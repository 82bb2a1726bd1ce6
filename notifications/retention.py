"""What the notices keep only for a while, deleted by the hourly purge of the games'
retention (`games.retention`), which runs `purge` as the app registered it
(`games.purges`): the sign-in links once they can sign no one in any more."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from notifications.models import SignInLink


def purge(now: datetime) -> int:
    """Delete the sign-in links used or expired by `now`; returns how many."""
    done = Q(used_at__isnull=False) | Q(expires_at__lte=now)
    deleted, _ = SignInLink.objects.filter(done).delete()
    return deleted
