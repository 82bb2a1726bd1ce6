"""Signing in from any browser with a link mailed to a player's confirmed address
(`notifications.sign_in`): the page that asks for it, and the page the link opens.

The first answers the same whether or not a player has the address, and counts against
the limits of every mail anyone may ask for (`bansugoroku.limits.mail_limits`). Opening the
link only shows who this browser will play as (the "use on another device" page, with
who it plays as now); its button (POST) uses the link. The browser then holds the
player as a device link would leave it (`identity.switch`): with a token of its own,
or the one it already held for that player, and the one it played as kept; and it goes
on to the page it asked from (a full table's invitation sends `?next=/tables/CODE`),
else to the table that has waited longest for that player's move (home when none does).
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
from bansugoroku.front.forms import SignInForm, local_path
from bansugoroku.front.identity import current_player, held_token, switch
from bansugoroku.front.waiting import waiting_of
from bansugoroku.games import services
from bansugoroku.limits.mail_limits import mail_wait, mailbox_throttles
from notifications import sign_in as links
from notifications.errors import InvalidToken

GET_OR_POST = require_http_methods(["GET", "HEAD", "POST"])

MAX_LINK = 100
"""Characters: a link is 43; a longer one is refused unread."""


@GET_OR_POST
def sign_in(request: HttpRequest) -> HttpResponse:
    """ "Send me a sign-in link": GET shows the form, POST queues the mail. `next`, in
    the query and then in the form, is the page the link lands on (a table's)."""
    data = request.POST if request.method == "POST" else None
    form = SignInForm(data, initial={"next": local_path(request.GET.get("next", ""))})
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
    links.queue_sign_in(address, form.cleaned_data["next"])
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
            used = links.use_link(link)
            player = used.player
            token = held_token(request, player) or services.player_token_add(player=player)
    except InvalidToken:
        return render(request, "front/sign_in.html", {"refused": True}, status=400)
    # The page it asked from; else, the mail being most likely "your turn", the table
    # that has waited longest for the player's move.
    fallback = waiting_of(token).next_after("") or reverse("home")
    response = redirect(local_path(used.next_path) or fallback)
    switch(request, response, token)
    return response
