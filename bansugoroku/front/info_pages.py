"""The pages that explain: the rules for players, with small board diagrams, and what the
site records and for how long."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from bansugoroku.front import board

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
"""The start from your side, as the rules' interchange format writes it."""

HIT = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 1, 0, -5, 4, 0, 0, 0, -3, 0, -4, 0, 0, 0, 0, 2]
"""Your stone from Out 1 has just cut the lone stone on Out 3 (it waits on the bar)."""

CLOSED = [2, 2, 2, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5, -4, -3, -2, 0, 0]
"""A closed home, 2-2-2-3-3-3, while the opponent has a stone on the bar: mujō-gachi."""

# The viewer plays Black in every diagram.
COLORS = (0, 1)


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    context = {
        "start": board.board(START, [0, 0], [0, 0], COLORS, show_route=True),
        "hit": board.board(HIT, [0, 1], [0, 0], COLORS),
        "closed": board.board(CLOSED, [0, 1], [0, 0], COLORS),
    }
    return render(request, "front/rules.html", context)


@require_safe
def data(request: HttpRequest) -> HttpResponse:
    context = {
        "table_days": settings.RETENTION_TABLE_DAYS,
        "player_days": settings.RETENTION_PLAYER_DAYS,
    }
    return render(request, "front/data.html", context)
