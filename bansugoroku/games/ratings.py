"""Players' ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), each
rated game a rating period of its own, as correspondence sites rate a game when it ends.

The arithmetic is the `glicko2` package's (the most used on PyPI, MIT, no dependencies),
with one step corrected: its volatility iteration's f(x) reads the player's rating μ
where Glickman's step 5 has the deviation φ. The two agree at a rating of 1500 (μ = 0),
so the package's own test of Glickman's example passes either way; for anyone else its
volatility drifts. `Glicko2Player._f` puts φ back.

A game is rated when its table is (`Table.rated`: chosen by the host, never against
the CPU) and it ends with a winner; both players' rows are locked, in id order, and
written in the transaction that ends the game (`services._step`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import glicko2

from bansugoroku.games.models import Player

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale (1500, 350) and its own (0, 2.01)."""


class Glicko2Player(glicko2.Player):  # type: ignore[misc]
    """The package's player, with Glickman's step 5 as he wrote it."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi: float = self.getRd() / SCALE  # before the period: step 6 comes after this one
        tau: float = self._tau
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: 1500 and a deviation of 350 for a new player."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @classmethod
    def of(cls, player: Player) -> Rating:
        return cls(player.rating, player.rating_deviation, player.rating_volatility)

    def after(self, games: list[tuple[Rating, float]]) -> Rating:
        """This rating after a period of games: each the opponent's rating before it and
        the score (1 a win, 0 a loss)."""
        player = Glicko2Player(self.rating, self.deviation, self.volatility)
        player.update_player(
            [opponent.rating for opponent, _ in games],
            [opponent.deviation for opponent, _ in games],
            [score for _, score in games],
        )
        return Rating(player.rating, player.rd, player.vol)


def rate_game(winner_id: int, loser_id: int) -> tuple[Rating, Rating]:
    """Rate a game the first player won against the second: both rows locked (in id
    order, as every lock on two players is taken) and updated; the new ratings."""
    locked = {
        player.pk: player
        for player in Player.objects.select_for_update()
        .filter(pk__in=[winner_id, loser_id])
        .order_by("pk")
    }
    winner, loser = locked[winner_id], locked[loser_id]
    before = Rating.of(winner), Rating.of(loser)
    after = before[0].after([(before[1], 1.0)]), before[1].after([(before[0], 0.0)])
    for player, rating in zip((winner, loser), after, strict=True):
        player.rating, player.rating_deviation = rating.rating, rating.deviation
        player.rating_volatility = rating.volatility
        player.rated_games += 1
    Player.objects.bulk_update(
        [winner, loser], ["rating", "rating_deviation", "rating_volatility", "rated_games"]
    )
    return after
