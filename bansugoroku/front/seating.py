"""What the forms that seat a browser share (the home page's, the lobby's): a player for
a browser that has none yet, named on the form, and the page that says a limit was hit."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from bansugoroku.front.forms import PlayerForm
from bansugoroku.games import services
from bansugoroku.games.errors import ServiceError
from bansugoroku.games.models import Player
from bansugoroku.players.locales import preferred_locale


def player_for(player: Player | None, form: PlayerForm) -> tuple[Player, str | None]:
    """The browser's player, or a new one with the name on the form and its token."""
    if player is not None:
        return player, None
    locale = preferred_locale(translation.get_language())
    return services.player_create(name=form.cleaned_data["name"], locale=locale)


def limited(
    request: HttpRequest,
    wait: int | None,
    error: ServiceError | None = None,
    *,
    seats: bool = False,
) -> HttpResponse:
    """A new player, table or seat (`seats`) over its limit (`bansugoroku.limits`): 429
    with the wait, or the error's status (too many tables waiting)."""
    context = {"wait": wait, "error": error, "seats": seats}
    response = render(request, "front/limited.html", context, status=error.status if error else 429)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


def refused(request: HttpRequest, error: ServiceError, table: str | None = None) -> HttpResponse:
    """A change to the lobby refused (a seat someone took first, a table gone from it, too
    many tables in it), in words and with the error's status; the page leads back to the
    lobby, or to the `table` the change was for."""
    context = {"error": error, "table": table}
    return render(request, "front/lobby_refused.html", context, status=error.status)
