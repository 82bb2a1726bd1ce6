"""The lobby's pages (`games.lobby`), where strangers meet: the open tables, found by
house rules and clock, each with a button that takes its seat, and quick pairing, which
takes the longest waiting match or opens a table for the next who looks; and the table
page's button that puts a host's waiting table in the lobby or takes it out.

Plain forms, posted and redirected, as the home page's: the list is one form whose
buttons each take their table's seat, so that a browser without a player names itself
once, in the one name field, whichever button it presses."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from bansugoroku.front.forms import (
    LOBBY_CLOCKS,
    LOBBY_FILTERS,
    LobbyFiltersForm,
    LobbySeatForm,
    TableOpenForm,
)
from bansugoroku.front.identity import current_player, remember
from bansugoroku.front.seating import limited, player_for, refused
from bansugoroku.games import lobby, services, shapes
from bansugoroku.games.errors import ServiceError
from bansugoroku.games.models import Player, TableState
from bansugoroku.lib.local_times import local_time
from bansugoroku.limits.creation_limits import new_player_wait, new_table_wait
from bansugoroku.limits.throttles import TakeSeatThrottle, limit_wait

LISTED = 50
"""Tables the page lists, the longest waiting first: the API's page of them."""

CLOCK_WORDS = dict(LOBBY_CLOCKS)

Sit = Callable[[HttpRequest, Player, LobbySeatForm], HttpResponse]
"""What a seat form does once its browser has a player within the limits."""


@require_safe
def lobby_page(request: HttpRequest) -> HttpResponse:
    """The open tables that match the filters in the address (every one without)."""
    player = current_player(request)
    filters = LobbyFiltersForm(request.GET)
    shown = {name: filters.data.get(name, "") for name in LOBBY_FILTERS}
    seat = LobbySeatForm(needs_name=player is None, initial=shown)
    return _lobby(request, player, filters, seat, status=200 if filters.is_valid() else 400)


def _lobby(
    request: HttpRequest,
    player: Player | None,
    filters: LobbyFiltersForm,
    seat: LobbySeatForm,
    status: int = 200,
) -> HttpResponse:
    """The lobby page; with filters that are not valid, only the form that says why."""
    tables = _rows(filters.filters(), player) if filters.is_valid() else None
    context = {"player": player, "filters": filters, "seat": seat, "tables": tables}
    return render(request, "front/lobby.html", context, status=status)


def _rows(filters: lobby.Filters, viewer: Player | None) -> list[dict[str, Any]]:
    """The matching tables as the API lists them, with their time in the lobby in the
    reader's own zone, and their house rules and clock in words. The rules' words are
    written once for each set of rules listed: a few, where rendering them for each of
    the 50 rows was a quarter of the page's time."""
    tables = lobby.open_tables(timezone.now(), filters, viewer.pk if viewer else None)
    found = tables.select_related("host")[:LISTED]
    zone = viewer.time_zone if viewer else ""
    written: dict[tuple[str, str, str], str] = {}

    def rules_words(rules: shapes.RulesOut) -> str:
        key = (rules["finish"], rules["muji"], rules["start"])
        if key not in written:
            written[key] = render_to_string("front/rules_words.html", {"rules": rules})
        return written[key]

    return [
        row
        | {
            "until": local_time(datetime.fromisoformat(row["open_until"]), zone),
            "clock": clock_words(row["clock_days"]),
            "rules_words": rules_words(row["rules"]),
        }
        for row in lobby.lobby_json(found, viewer.pk if viewer else None)
    ]


def clock_words(days: int | None) -> str:
    """A listed table's clock, in the words the filter offers for it."""
    return str(CLOCK_WORDS[str(days) if days else lobby.NO_CLOCK])


@require_POST
def take(request: HttpRequest, code: str) -> HttpResponse:
    """A list's button: take the seat at the table with `code`, if still free."""

    def sit(request: HttpRequest, player: Player, form: LobbySeatForm) -> HttpResponse:
        entropy = form.cleaned_data["entropy"]
        change = services.seat_take(player=player, code=code, entropy=entropy)
        return redirect("table-page", code=change.table.code)

    return _seated(request, sit)


@require_POST
def quick(request: HttpRequest) -> HttpResponse:
    """Quick pairing with the filters the list was shown with."""
    return _seated(request, _pair)


def _pair(request: HttpRequest, player: Player, form: LobbySeatForm) -> HttpResponse:
    """The longest waiting match, someone else's; else the player's own open table that
    matches, else a new one opened for what was looked for, within the limits on
    creating tables (as `POST /api/v1/lobby/quick-pairing`)."""
    wanted = form.filters()
    change = services.quick_take(
        player=player, filters=wanted, entropy=form.cleaned_data["entropy"]
    )
    if change is None:
        try:
            wait = new_table_wait(request, player, cpu="")
        except ServiceError as error:
            return limited(request, None, error)
        if wait is not None:
            return limited(request, wait)
        change = services.table_create(
            host=player, rules=wanted.rules(), clock_days=wanted.clock_days(), open=True
        )
    return redirect("table-page", code=change.table.code)


def _seated(request: HttpRequest, sit: Sit) -> HttpResponse:
    """What both of the lobby's seat forms do around `sit`: a browser without a player
    gets one, named on the form (within the limit on new players, and remembered
    whatever follows); the seat counts against the player's limit on seats taken."""
    current = current_player(request)
    form = LobbySeatForm(request.POST, needs_name=current is None)
    if not form.is_valid():
        return _lobby(request, current, LobbyFiltersForm(request.POST), form, status=400)
    if current is None and (wait := new_player_wait(request)) is not None:
        return limited(request, wait)
    player, token = player_for(current, form)
    response = _counted(request, player, form, sit)
    if token:
        remember(response, token)
    return response


def _counted(request: HttpRequest, player: Player, form: LobbySeatForm, sit: Sit) -> HttpResponse:
    if (wait := limit_wait(TakeSeatThrottle(str(player.pk)), request)) is not None:
        return limited(request, wait, seats=True)
    try:
        return sit(request, player, form)
    except ServiceError as error:
        return refused(request, error)


@require_POST
def table_open(request: HttpRequest, code: str) -> HttpResponse:
    """The table page's button: the host puts their waiting table in the lobby or takes
    it out, then sees the table page again."""
    player = current_player(request)
    if player is None:
        return redirect("invite", code=code)  # as the table page sends a stranger
    form = TableOpenForm(request.POST)
    if not form.is_valid():
        return render(request, "front/bad_request.html", status=400)
    try:
        services.table_open(player=player, code=code, **form.cleaned_data)
    except ServiceError as error:
        return refused(request, error, table=code)
    return redirect("table-page", code=code)


def listing(state: shapes.TableStateJson, reader: Player) -> dict[str, str | None] | None:
    """What the table page tells its host of the lobby while the table waits for an
    opponent: until when it is listed there (`until` None: it is not, or no longer).
    None for anyone
    else, or once both seats are taken."""
    if not state["you"]["is_host"] or state["state"] != TableState.WAITING:
        return None
    until = state["open_until"] and datetime.fromisoformat(state["open_until"])
    if not until or until <= timezone.now():  # past its days: it has left the lobby
        return {"until": None}
    return {"until": local_time(until, reader.time_zone)}
