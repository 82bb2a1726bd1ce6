"""The "use on another device" link: made on a browser that plays as someone, opened on
another. Opening it only shows what it does; a button (POST) uses it, so a chat app
that fetches the link for a preview does not use it up.

A browser that already plays as someone else is told who that is and that their tables
leave this browser; the switch keeps them, so the settings page can switch back
(`identity.switch`): a link from a stranger must not silently cost a player the only
copy of their token."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from bansugoroku.front import devices
from bansugoroku.front.identity import KEPT, current_player, switch, switch_of, token_of
from bansugoroku.front.qr import qr_svg
from bansugoroku.games import selectors
from bansugoroku.games.models import Player
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.games.queries import player_by_token_hash
from bansugoroku.lib.site import site_url


@require_POST
def device_link_new(request: HttpRequest) -> HttpResponse:
    player, token = current_player(request), token_of(request)
    if player is None or token is None:
        return redirect("home")
    url = site_url() + reverse("device", args=[devices.make_link(token)])
    context = {"url": url, "qr": qr_svg(url), "minutes": settings.DEVICE_LINK_MINUTES}
    return render(request, "front/device_link.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def device(request: HttpRequest, link: str) -> HttpResponse:
    try:
        if request.method != "POST":
            return _ask(request, devices.check_link(link))
        token = devices.use_link(link)
    except devices.LinkUnusable:
        return render(request, "front/device_gone.html", status=410)
    response = redirect("home")
    switch(request, response, token)
    return response


def _ask(request: HttpRequest, token: str) -> HttpResponse:
    return switch_page(request, player_by_token_hash(token_hash(token)), token)


def switch_page(request: HttpRequest, player: Player | None, token: str) -> HttpResponse:
    """What using a link that makes this browser play as `player` (with `token`, or ""
    for a token yet to be made) does: who this browser will play as, and who it plays as
    now, with their tables, kept to switch back to. Its button posts to the link."""
    current = current_player(request)
    if current is not None and player is not None and current.pk == player.pk:
        current = None  # the link changes nothing here
    context = {
        "player": player,
        "current": current,
        "current_tables": len(selectors.tables_for_player(current)) if current else 0,
        "forgotten": switch_of(request, token).forgotten,
        "kept_max": KEPT,
    }
    return render(request, "front/device_use.html", context)
