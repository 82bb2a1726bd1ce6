"""A player's page in the browser (`games.profiles`): their rating and record, their
tables and latest games against other players of the lobby, each game replayed for
anyone (`history_pages.replay`), and a button that blocks them or no longer.

Only players who came to the lobby have a page: any other id is the site's 404, as in
the API. Like every page with a player's name it is `no-store` (`page_caching`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST, require_safe

from bansugoroku.front.history_pages import replay
from bansugoroku.front.identity import current_player
from bansugoroku.front.lobby_pages import clock_words
from bansugoroku.front.seating import refused
from bansugoroku.games import profiles, services, shapes
from bansugoroku.games.errors import GameNotFound, PlayerNotFound, ServiceError
from bansugoroku.games.models import TableState
from bansugoroku.games.vocabulary import WIN_NAMES, points_won, table_status
from bansugoroku.lib.local_times import local_time
from engine.rules import WinKind

KIND_NAMES = {
    **WIN_NAMES,
    WinKind.RESIGNED: pgettext_lazy("a kind of win", "by resignation"),
    WinKind.TIME: pgettext_lazy("a kind of win", "on time"),
}
"""A record's kinds of win: the board wins by their names, and the two that have none
there, which the history says in a sentence of their own."""


@require_safe
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """The player's page; with a Block or Unblock button for a viewer who has a player
    of their own and is someone else."""
    viewer = current_player(request)
    try:
        page = profiles.player_page(player_id)
    except PlayerNotFound:
        raise Http404("no such player") from None
    zone = viewer.time_zone if viewer else ""
    others = viewer is not None and viewer.pk != player_id
    context = {
        "page": page,
        "kinds": _kinds(page["record"]),
        "tables": [_table_row(table) for table in page["tables"]],
        "games": [_game_row(game, zone) for game in page["recent_games"]],
        "blocked": profiles.blocks(viewer, player_id) if viewer and others else None,
    }
    return render(request, "front/profile.html", context)


@require_safe
def public_game(request: HttpRequest, player_id: int, code: str, number: int) -> HttpResponse:
    """One of the player's public games replayed, for anyone; any other is the 404 of
    a game nobody played."""
    try:
        player, game = profiles.public_game(player_id=player_id, code=code, number=number)
    except (PlayerNotFound, GameNotFound):
        raise Http404("no such game") from None
    return replay(request, game, player, public=True)


@require_POST
def block(request: HttpRequest, player_id: int, *, blocking: bool) -> HttpResponse:
    """The page's button: the viewer blocks the player (`blocking`) or no longer, then
    sees the page again. A browser with no player has no button, and only the page."""
    viewer = current_player(request)
    if viewer is not None:
        try:
            services.player_block(player=viewer, other_id=player_id, block=blocking)
        except PlayerNotFound:
            raise Http404("no such player") from None
        except ServiceError as error:  # blocking oneself
            return refused(request, error)
    return redirect("player-page", player_id=player_id)


def _kinds(record: shapes.FullRecordJson) -> list[dict[str, Any]]:
    """Games won and lost by each kind of win the player met, the board's wins first."""
    return [
        {"name": name, "won": record["wins"].get(kind, 0), "lost": record["losses"].get(kind, 0)}
        for kind, name in KIND_NAMES.items()
        if kind in record["wins"] or kind in record["losses"]
    ]


def _table_row(table: shapes.PlayerTableJson) -> dict[str, Any]:
    playing = table["state"] == TableState.PLAYING
    status = _("Playing") if playing else table_status(table["state"], your_turn=False)
    return {**table, "status": status, "clock": clock_words(table["clock_days"])}


def _game_row(game: shapes.PlayerGameJson, zone: str) -> dict[str, Any]:
    results = {"won": _("Won"), "lost": _("Lost"), "none": _("No winner")}
    kind = game["win_kind"]
    return {
        **game,
        "result_words": results[game["result"]],
        "win_name": KIND_NAMES[WinKind(kind)] if kind else None,
        "points_words": points_won(game["points"]),
        "ended": local_time(datetime.fromisoformat(game["ended_at"]), zone),
    }
