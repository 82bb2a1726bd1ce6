"""The "use on another device" link: made on a browser that plays as someone, opened on
another. Opening it only shows what it does; a button (POST) uses it, so a chat app
that fetches the link for a preview does not use it up."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from bansugoroku.front import devices
from bansugoroku.front.identity import current_player, remember, token_of
from bansugoroku.front.qr import qr_svg
from bansugoroku.games.queries import player_by_token_hash
from bansugoroku.games.store import token_hash
from bansugoroku.site import site_url


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
            token = devices.check_link(link)
            player = player_by_token_hash(token_hash(token))
            return render(request, "front/device_use.html", {"player": player})
        token = devices.use_link(link)
    except devices.LinkUnusable:
        return render(request, "front/device_gone.html", status=410)
    response = redirect("home")
    remember(response, token)
    return response
