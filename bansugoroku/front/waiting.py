"""The tables waiting for this browser's player to move: their count on every page (a
context processor, for the site's header), and the next one to go to after a turn at
another (`next_table`, which the table page's script asks when the player's turn ends).
Both come from one query (`queries.tables_waiting`), made only when a browser has a
player and a page shows the count."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from bansugoroku.front.identity import token_of
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.games.queries import tables_waiting


@dataclass(frozen=True)
class Waiting:
    count: int
    codes: list[str]
    """The longest waiting first, at most two."""

    @property
    def label(self) -> str:
        """The count in words, for screen readers and the badge's tooltip."""
        return ngettext(
            "%(count)s table waits for your move", "%(count)s tables wait for your move", self.count
        ) % {"count": self.count}

    def next_after(self, code: str) -> str | None:
        """The table page of the longest waiting table other than the one with `code`."""
        other = next((c for c in self.codes if c != code.upper()), None)
        return None if other is None else reverse("table-page", args=[other])


NOBODY = Waiting(0, [])


def waiting_of(token: str | None) -> Waiting:
    """The tables waiting for the move of the player holding `token`, of either kind."""
    return NOBODY if token is None else Waiting(*tables_waiting(token_hash(token)))


def waiting_for(request: HttpRequest) -> Waiting:
    return waiting_of(token_of(request))


def waiting(request: HttpRequest) -> dict[str, object]:
    """The context processor: `waiting`, looked up once a template reads it."""
    return {"waiting": SimpleLazyObject(lambda: waiting_for(request))}


@require_safe
@never_cache
def next_table(request: HttpRequest) -> JsonResponse:
    """`{"count": n, "label": words, "next": url or null}`: how many tables wait for the
    player's move, that count in words as the header says it, and the page of the one
    that has waited longest other than the table `not` (a code)."""
    found = waiting_for(request)
    return JsonResponse(
        {
            "count": found.count,
            "label": found.label,
            "next": found.next_after(request.GET.get("not", "")),
        }
    )
