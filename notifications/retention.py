"""What the notices keep only for a while, deleted by the hourly purge of the games'
retention (`games.retention`), which runs `purge` as the app registered it
(`games.purges`): the sign-in links and the reply addresses once they can sign no one in
or play nothing any more, and the record of mail that came in after INBOUND_KEPT."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q

from notifications.models import InboundMail, ReplyToken, SignInLink

INBOUND_KEPT = timedelta(days=30)
"""How long the admin counts the mail that came in."""


def purge(now: datetime) -> int:
    """Delete the sign-in links and reply addresses used or expired by `now`, and the
    record of mail in from before INBOUND_KEPT; returns how many."""
    done = Q(used_at__isnull=False) | Q(expires_at__lte=now)
    links, _ = SignInLink.objects.filter(done).delete()
    tokens, _ = ReplyToken.objects.filter(done).delete()
    mails, _ = InboundMail.objects.filter(received_at__lte=now - INBOUND_KEPT).delete()
    return links + tokens + mails
