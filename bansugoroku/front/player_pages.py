"""The player's own pages: their tables, and their settings (name, language, notices, vacation,
quiet hours, the other players this browser holds).

The display name changes through the API (`PATCH /api/v1/players/me`, by the settings
page's script), which checks it as it does for the apps. The language is the page's
own form, posted to `language`, which sets Django's language cookie and, when the
browser has a player, their `locale` too, so that e-mails follow the pages. The
notices' part is `notice_pages`. A browser that a device link switched to another
player switches back here (`switch_player`, `identity.switch`); signs out every other
browser that plays as its player (`sign_out_others`), or itself (`sign_out_here`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.dates import WEEKDAYS
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.timesince import timeuntil
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from bansugoroku.front.identity import (
    current_player,
    forget,
    kept_players,
    remember,
    switch,
    token_of,
)
from bansugoroku.front.notice_pages import notices_context
from bansugoroku.front.waits import closing_words, wait_words
from bansugoroku.games import clocks, selectors, services, vacations
from bansugoroku.games.models import Player, Seat
from bansugoroku.games.vocabulary import seat_holder, table_status
from bansugoroku.lib.local_times import local_time, time_zones
from bansugoroku.lib.quiet_hours import counted
from notifications.sign_in import mailed_links_revoke


@require_safe
def my_tables(request: HttpRequest) -> HttpResponse:
    """The player's tables, those waiting for their move first, the soonest deadline
    first among them, then the longest waiting (the order of `GET /api/v1/tables`)."""
    player = current_player(request)
    rows = []
    now = timezone.now()
    if player is not None:
        for seat, other in selectors.tables_for_player(player):
            summary = selectors.table_summary(seat, other)
            opponent = seat_holder(other)
            rows.append(
                {
                    **summary,
                    "opponent_name": opponent,
                    "status": table_status(summary["state"], summary["your_turn"]),
                    "wait": wait_words(
                        seat.table, your_turn=summary["your_turn"], opponent=opponent, now=now
                    ),
                    "closing": closing_words(seat.table, now=now),
                    **deadline_words(seat, player.time_zone, now),
                    "away_until": when(away_until(other, now), player.time_zone),
                    "updated": seat.table.updated_at,
                }
            )
    return render(request, "front/my_tables.html", {"player": player, "tables": rows})


@require_safe
def settings_page(request: HttpRequest) -> HttpResponse:
    return _settings(request, current_player(request))


def _settings(
    request: HttpRequest, player: Player | None, signed_out: bool = False
) -> HttpResponse:
    kept = [other for _, other in kept_players(request)]
    context: dict[str, Any] = {"player": player, "kept": kept, "signed_out": signed_out}
    if player:
        context |= notices_context(player)
        context |= {"vacation": vacation_context(player), "quiet": quiet_hours_context(player)}
    return render(request, "front/settings.html", context)


def deadline_words(seat: Seat, time_zone: str, now: datetime) -> dict[str, str]:
    """The deadline at the seat's table in the reader's zone, and, when it is their
    turn, the time they have left: counted, so their quiet hours ahead are not in it."""
    deadline = seat.table.deadline
    if deadline is None:
        return {}
    words = {"deadline_at": local_time(deadline, time_zone)}
    if seat.table.seat_to_move == seat.number:
        assert seat.player is not None
        left = counted(clocks.quiet_hours(seat.player), now, deadline)
        words["left"] = timeuntil(now + left, now)
    return words


def when(moment: datetime | None, time_zone: str) -> str | None:
    return None if moment is None else local_time(moment, time_zone)


def away_until(seat: Seat, now: datetime) -> datetime | None:
    """When the player in `seat` is back from the vacation they are on, if they are."""
    player = seat.player
    return player.vacation_until if player and vacations.on_vacation(player, now) else None


def vacation_context(player: Player) -> dict[str, Any]:
    """What the settings page shows of the player's vacation, as the API shows it."""
    shown = vacations.shown(player, timezone.now())
    until = parse_datetime(shown["until"]) if shown["until"] else None
    return {
        **shown,
        "until": when(until, player.time_zone),
        "days_left": floatformat(shown["days_left"], 1),
    }


def quiet_hours_context(player: Player) -> dict[str, Any]:
    """What the settings page shows of the player's quiet hours, as the API shows them,
    with the menus to change them."""
    setting = selectors.quiet_hours_setting(player)
    return {
        **setting,
        "chosen": bool(player.time_zone),  # if not, the script offers the browser's zone
        "night": [  # each end's field, hour chosen and label
            ("start_hour", setting["start_hour"], gettext("Starts at")),
            ("end_hour", setting["end_hour"], gettext("Ends at")),
        ],
        "time_zones": time_zones(),
        "hours": [(hour, f"{hour:02}:00") for hour in range(24)],
        "weekdays": [(day + 1, name) for day, name in WEEKDAYS.items()],  # ISO: Monday is 1
    }


@require_POST
def sign_out_others(request: HttpRequest) -> HttpResponse:
    """Sign out every other browser and app that plays as this browser's player (a lost
    phone, a shared computer): the player's tokens are replaced, this browser keeps
    playing with the new one (`services.player_tokens_replace`), and the links mailed
    to the player before (sign-in links, reply addresses) stop working."""
    player = current_player(request)
    if player is None:
        return render(request, "front/bad_request.html", status=400)
    with transaction.atomic():
        token = services.player_tokens_replace(player=player)
        mailed_links_revoke(player=player)
    response = _settings(request, player, signed_out=True)
    remember(response, token)
    return response


@require_POST
def sign_out_here(request: HttpRequest) -> HttpResponse:
    """Sign this browser out (a shared or borrowed one): the token it holds stops working
    (`services.player_token_revoke`), and the browser is told to forget this site's
    cookies, caches and storage: the service worker's copies of pages, and the worker
    itself with its push subscription (which the page's script, `sign_out.js`, has
    removed at the server first). The other players it held stay as they are
    elsewhere, forgotten here."""
    player, token = current_player(request), token_of(request)
    if player is not None and token is not None:
        services.player_token_revoke(player=player, token=token)
    response = render(request, "front/signed_out.html", {"player": None})
    response["Clear-Site-Data"] = '"cache", "cookies", "storage"'
    forget(response)  # for browsers that do not act on Clear-Site-Data
    return response


@require_POST
def switch_player(request: HttpRequest) -> HttpResponse:
    """Play as one of the other players this browser holds (the form's `player`, an id),
    keeping the current one; then their tables. Only a player whose token the browser
    holds can be chosen."""
    chosen = request.POST.get("player", "")
    token = next((t for t, other in kept_players(request) if str(other.pk) == chosen), None)
    if token is None:
        return render(request, "front/bad_request.html", status=400)
    response = redirect("my-tables")
    switch(request, response, token)
    return response


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """Switch the pages' language (Django's language cookie), and the player's locale
    with it, so that e-mails follow; then back to the page the form was on."""
    chosen = request.POST.get("language", "")
    if chosen not in dict(settings.LANGUAGES):
        return render(request, "front/bad_request.html", status=400)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("settings")
    response = HttpResponseRedirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        chosen,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        samesite="Lax",
    )
    player = current_player(request)
    if player is not None and player.locale != chosen:
        services.player_update(player=player, locale=chosen)
    return response
