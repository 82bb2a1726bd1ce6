"""The notice part of the settings page, and the pages the notice e-mails link to.

The page's script saves the address and the choices through the API (`PATCH
/api/v1/players/me`, `PATCH /api/v1/players/me/notices`), as the apps do, so the same
checks and limits apply. The mails' links need pages of their own. Opening a link never
changes anything, since mail scanners fetch the links of a mail before its reader does:
the confirmation and unsubscribe pages each show a button that POSTs the token. Those
work in a browser that does not play as the player (the phone's mail app opens the
link), because the signed token is the proof; Django's CSRF check guards the form.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe
from django_stubs_ext import StrPromise

from bansugoroku.games import clocks
from bansugoroku.games.models import Player
from notifications.consent import addresses, preferences
from notifications.consent.tokens import read_confirm_token
from notifications.errors import InvalidToken, NoAddress
from notifications.models import Channel, EmailAddress, EmailMode, Kind
from notifications.replies import tokens as reply_tokens

KINDS: dict[str, StrPromise] = {
    Kind.YOUR_TURN: _("Your turn"),
    Kind.GAME_OVER: _("Game over"),
    Kind.OPPONENT_JOINED: _("Opponent joined"),
    Kind.TABLE_CLOSING: _("Table closing soon"),
    Kind.TABLE_CLOSED: _("Table closed"),
    Kind.CLOCK_LOW: _("Time running out"),
    Kind.AUTO_VACATION: _("Vacation started for you"),
    Kind.MESSAGE: _("A message from your opponent"),
}
"""Each kind of notice as the page names it, in the API's order."""


def duration_text(duration: timedelta) -> str:
    """A setting's duration as a player reads it: "3 hours", "5 minutes"."""
    minutes = int(duration.total_seconds()) // 60
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def modes() -> dict[str, str]:
    """Each pace of "your turn" e-mails, saying what it does, with the spacing set."""
    return {
        EmailMode.EACH_TURN: gettext("An e-mail each time it is your turn"),
        EmailMode.SPACED: gettext("At most one e-mail every %(spacing)s, about every table waiting")
        % {"spacing": duration_text(settings.NOTICE_EMAIL_SPACING)},
        EmailMode.DAILY_DIGEST: gettext("At most one e-mail a day, about every table waiting"),
    }


def looking_text() -> str:
    """Why a turn's notice may come minutes after the move: the looking window
    (`notifications.channels.sending`), said where the pace is chosen."""
    window: timedelta = settings.NOTICE_LOOKING_WINDOW
    if not window:
        return ""
    return gettext(
        "No e-mail about a table while you have it open: it goes %(window)s after you "
        "last looked, if it is still your turn."
    ) % {"window": duration_text(window)}


MAX_TOKEN = 1000
"""Characters: a signed token is under 200; a longer one is refused unread."""

GET_OR_POST = require_http_methods(["GET", "HEAD", "POST"])


def notices_context(player: Player) -> dict[str, Any]:
    """What the settings page shows of the player's notices, read as the API reads them."""
    prefs = preferences.preferences_of(player)
    return {
        "email": EmailAddress.objects.filter(player=player).first(),
        "email_mode": prefs.email_mode,
        "modes": modes().items(),
        "looking": looking_text(),
        "kinds": [
            {
                "kind": kind,
                "label": label,
                "email": prefs.wants(kind, Channel.EMAIL),
                "push": prefs.wants(kind, Channel.PUSH),
            }
            for kind, label in KINDS.items()
        ],
        "push_on": settings.VAPID_PUBLIC_KEY is not None,
        "reply_on": reply_tokens.inbound_provider() is not None,
        "play_by_reply": prefs.play_by_reply,
        "play_by_reply_cpu": prefs.play_by_reply_cpu,
        "reminders": reminder_choices(player.reminder_hours),
    }


def reminder_choices(chosen: list[int]) -> list[dict[str, Any]]:
    """The two reminder menus, each with the hours it may have and the one it has (none:
    off)."""
    options = [
        (
            count,
            ngettext("%(count)d hour before", "%(count)d hours before", count) % {"count": count},
        )
        for count in clocks.REMINDER_HOURS
    ]
    held = [*chosen, *[None] * clocks.MOST_REMINDERS][: clocks.MOST_REMINDERS]
    return [{"number": n + 1, "chosen": hours, "options": options} for n, hours in enumerate(held)]


@require_safe
def notices(request: HttpRequest) -> HttpResponse:
    """The mails' "change or turn off these e-mails" link."""
    return HttpResponseRedirect(reverse("settings") + "#notices")


@GET_OR_POST
def email_confirm(request: HttpRequest) -> HttpResponse:
    """The confirmation link: GET shows the address and a Confirm button, POST confirms."""
    token = (request.POST if request.method == "POST" else request.GET).get("token", "")
    try:
        if len(token) > MAX_TOKEN:
            raise InvalidToken("too long")
        if request.method != "POST":
            _, address = read_confirm_token(token, settings.NOTICE_CONFIRM_MAX_AGE)
            context = {"token": token, "address": address}
            return render(request, "front/email_confirm.html", context)
        email = addresses.email_confirm_by_link(token=token)
    except (InvalidToken, NoAddress):
        return render(request, "front/email_confirm.html", {"refused": True}, status=400)
    return render(request, "front/email_confirm.html", {"confirmed": email.address})


@GET_OR_POST
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The one-click link opened in a browser: GET says what stops, POST stops it, as the
    API's `POST /api/v1/unsubscribe/{token}` does for mail programs."""
    try:
        if len(token) > MAX_TOKEN:
            raise InvalidToken("too long")
        player_id, kind = preferences.unsubscribe_request(token)
    except InvalidToken:
        return render(request, "front/unsubscribe.html", {"refused": True}, status=400)
    context = {"what": KINDS.get(kind), "done": request.method == "POST"}
    if request.method == "POST":
        preferences.unsubscribe(player_id=player_id, kind=kind)
    return render(request, "front/unsubscribe.html", context)
