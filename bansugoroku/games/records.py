"""A player's record: their games against people that ended with a winner, won and
lost by kind of win, as the lobby shows it beside a host and the player's page in full.
Games against the CPU do not count, nor games that ended with no result (abandoned,
cancelled)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db import connection

from bansugoroku.games import shapes


@dataclass(frozen=True)
class Record:
    wins: Mapping[str, int] = field(default_factory=dict)
    """Games won, by kind of win (`WinKind`: "iri", "resigned", "time", ...)."""
    losses: Mapping[str, int] = field(default_factory=dict)

    @property
    def won(self) -> int:
        return sum(self.wins.values())

    @property
    def lost(self) -> int:
        return sum(self.losses.values())

    @property
    def played(self) -> int:
        return self.won + self.lost

    def to_json(self) -> shapes.RecordJson:
        return {"played": self.played, "won": self.won, "lost": self.lost}


_RECORDS = """
    SELECT mine.player_id, game.win_kind, game.winner = mine.number, count(*)
    FROM games_seat mine
    JOIN games_seat theirs ON theirs.table_id = mine.table_id AND theirs.number <> mine.number
    JOIN games_game game ON game.table_id = mine.table_id
    WHERE mine.player_id = ANY(%s) AND theirs.player_id IS NOT NULL
        AND game.winner IS NOT NULL
    GROUP BY 1, 2, 3
"""


def records(player_ids: Iterable[int]) -> dict[int, Record]:
    """The records of the players, in one query."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    wins: dict[int, dict[str, int]] = {player: {} for player in ids}
    losses: dict[int, dict[str, int]] = {player: {} for player in ids}
    with connection.cursor() as cursor:
        cursor.execute(_RECORDS, [ids])
        for player, kind, won, count in cursor.fetchall():
            (wins if won else losses)[player][kind] = count
    return {player: Record(wins[player], losses[player]) for player in ids}
