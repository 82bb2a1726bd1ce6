"""Signing in from any browser with a link mailed to a player's confirmed address
(`notifications.sign_in`): the page that asks for it, and the page the link opens.

The first answers the same whether or not a player has the address, and counts against
the limits of every mail anyone may ask for (`bansugoroku.mail_limits`). Opening the
link only shows who this browser will play as (the "use on another device" page, with
who it plays as now); its button (POST) uses the link. The browser then holds the
player as a device link would leave it (`identity.switch`): with a token of its own,
or the one it already held for that player, and the one it played as kept; and it goes
to the table that has waited longest for that player's move (home when none does).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from bansugoroku.front.device_views import switch_page
from bansugoroku.front.forms import SignInForm
from bansugoroku.front.identity import current_player, held_token, switch
from bansugoroku.front.waiting import waiting_of
from bansugoroku.games import services
from bansugoroku.mail_limits import mail_wait, mailbox_throttles
from notifications import sign_in as links
from notifications.errors import InvalidToken

GET_OR_POST = require_http_methods(["GET", "HEAD", "POST"])

MAX_LINK = 100
"""Characters: a link is 43; a longer one is refused unread."""


@GET_OR_POST
def sign_in(request: HttpRequest) -> HttpResponse:
    """ "Send me a sign-in link": GET shows the form, POST queues the mail."""
    form = SignInForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"form": form, "player": current_player(request)}
    if request.method != "POST":
        return render(request, "front/sign_in.html", context)
    if not form.is_valid():
        return render(request, "front/sign_in.html", context, status=400)
    address = form.cleaned_data["email"]
    wait = mail_wait(request, mailbox_throttles(address))
    if wait is not None:
        response = render(request, "front/sign_in.html", context | {"wait": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response
    links.queue_sign_in(address)
    context |= {"sent": True, "minutes": settings.SIGN_IN_LINK_MINUTES}
    return render(request, "front/sign_in.html", context)


@GET_OR_POST
def sign_in_link(request: HttpRequest, link: str) -> HttpResponse:
    """The mailed link: GET asks, POST signs this browser in as the link's player."""
    try:
        if len(link) > MAX_LINK:
            raise InvalidToken("too long")
        if request.method != "POST":
            player = links.link_player(link)
            return switch_page(request, player, held_token(request, player) or "")
        with transaction.atomic():
            player = links.use_link(link)
            token = held_token(request, player) or services.player_token_add(player=player)
    except InvalidToken:
        return render(request, "front/sign_in.html", {"refused": True}, status=400)
    # The mail was most likely "your turn": straight to the table that waits longest.
    response = redirect(waiting_of(token).next_after("") or reverse("home"))
    switch(request, response, token)
    return response
