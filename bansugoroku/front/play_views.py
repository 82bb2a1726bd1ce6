"""The pages a game is played on: the home page's forms (a new table, joining by code),
the invitation's join button, and the table page, whose script then plays through the
REST API with the cookie. A browser without a player gets one from the first form it
sends, through the same service as POST /api/v1/players."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from bansugoroku.front import board
from bansugoroku.front.forms import JoinForm, NewTableForm, friendly_name
from bansugoroku.front.guesses import guess_refused
from bansugoroku.front.identity import current_player, remember
from bansugoroku.front.lobby_pages import listing
from bansugoroku.front.qr import qr_svg
from bansugoroku.front.seating import limited, player_for, refused
from bansugoroku.front.texts import point_names, table_texts
from bansugoroku.front.waiting import waiting_for
from bansugoroku.front.waits import closing_words, wait_words
from bansugoroku.games import selectors, services
from bansugoroku.games.errors import ServiceError, TableNotFound
from bansugoroku.games.idle import WARN_DAYS
from bansugoroku.games.models import Player
from bansugoroku.games.vocabulary import seat_holder, your_colour
from bansugoroku.limits.creation_limits import new_player_wait, new_table_wait
from engine.position import Position
from engine.rules import Rules


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    player = current_player(request)
    initial = {"name": friendly_name()}  # the same in both forms
    return _home(
        request,
        player,
        NewTableForm(needs_name=player is None, initial=initial),
        JoinForm(needs_name=player is None, initial=initial),
    )


def _home(
    request: HttpRequest,
    player: Player | None,
    new_table: NewTableForm,
    join: JoinForm,
    status: int = 200,
) -> HttpResponse:
    context = {"new_table": new_table, "join": join, "player": player}
    return render(request, "front/home.html", context, status=status)


@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    current = current_player(request)
    form = NewTableForm(request.POST, needs_name=current is None)
    if not form.is_valid():
        return _home(request, current, form, JoinForm(needs_name=current is None), status=400)
    data = form.cleaned_data
    cpu = "" if data["opponent"] == "friend" else data["opponent"]
    try:
        wait = new_table_wait(request, current, cpu) if current else new_player_wait(request)
    except ServiceError as error:
        return limited(request, None, error)
    if wait is not None:
        return limited(request, wait)
    player, token = player_for(current, form)
    rules = Rules.from_json({key: data[key] for key in ("finish", "muji", "start")})
    # Against the CPU the table page starts the first game as it opens (table.js), with
    # the browser's entropy given after the seed's hash is published.
    # A clock is for a table of two people; the CPU's tables have none.
    clock_days = None if cpu else data["clock"]
    try:
        change = services.table_create(
            host=player, rules=rules, cpu=cpu, clock_days=clock_days, open=data["open"]
        )
    except ServiceError as error:  # too many of theirs in the lobby: never a new player
        return refused(request, error)
    response = redirect("table-page", code=change.table.code)
    if token:
        remember(response, token)
    return response


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    """Take the free seat at the table with the form's code (the home page's form and
    the invitation's join button). Each try counts as a join guess from the address."""
    refused = guess_refused(request)
    if refused is not None:
        return refused
    current = current_player(request)
    form = JoinForm(request.POST, needs_name=current is None)
    if not form.is_valid():
        return _home(request, current, NewTableForm(needs_name=current is None), form, status=400)
    if current is None and (wait := new_player_wait(request)) is not None:
        return limited(request, wait)
    player, token = player_for(current, form)
    code = form.cleaned_data["code"]
    try:
        change = services.table_join(player=player, code=code, entropy=form.cleaned_data["entropy"])
        response: HttpResponse = redirect("table-page", code=change.table.code)
    except ServiceError as error:
        context = {"error": error, "code": code.upper()[:12]}
        response = render(request, "front/join_failed.html", context, status=error.status)
    if token:
        remember(response, token)  # the new player exists: keep it, whatever the join did
    return response


@require_safe
def table(request: HttpRequest, code: str) -> HttpResponse:
    """The table page. A browser that does not sit at the table is sent to its invitation
    page, which says whether a seat is free (and counts the visit as a join guess)."""
    player = current_player(request)
    if player is None:
        return redirect("invite", code=code)
    try:
        found = selectors.table_for_player(code=code, player=player)
    except TableNotFound:
        return redirect("invite", code=code)
    state = selectors.table_state(found, player)
    start = selectors.position_json(Position.start())
    shown = state["game"]["position"] if state["game"] else start
    me = state["you"]["seat"]
    your_turn = bool(state["game"] and state["game"]["turn"] and state["game"]["turn"]["yours"])
    opponent = seat_holder(found.seats.all()[1 - me])
    now = timezone.now()
    waiting = waiting_for(request)  # the header's count too: one query for both
    context = {
        "waiting": waiting,
        "next_table": None if your_turn else waiting.next_after(found.code),
        "colour": your_colour(me),
        "wait": wait_words(found, your_turn=your_turn, opponent=opponent, now=now),
        "closing": closing_words(found, now=now),
        "state": state,
        "texts": table_texts(),
        "board": board.board(shown["points"], shown["bar"], shown["off"], (me, 1 - me)),
        "config": {
            "poll_ms": settings.PLAY_POLL_MS,
            "api": reverse("api:table", args=[found.code]),
            "points": point_names(),
            "places": board.places(),
            "radius": board.RADIUS,
            "shown": board.SHOWN,
            "start": start,
            "warn_days": max(WARN_DAYS),
        },
        "qr": qr_svg(state["invite_url"]),
        "seat_free": any(seat["free"] for seat in state["seats"]),
        "lobby": listing(state, player),
    }
    return render(request, "front/table.html", context)
