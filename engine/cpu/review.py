"""A play measured against Hard's: what the game review of a finished game shows.

For a position, the dice and the house rules, every legal play gets Hard's estimate of
what it is worth to its mover: the points they expect to win from there, -3 to 3, the
bigger wins included under `muji: bigger` (`engine.cpu.net.equity`). A play that wins is
worth exactly its points. The others are estimated as Hard plays (`engine.cpu.hard`): the
network's first estimate, and the average after the opponent's best reply for the plays
Hard compares and for the one played, so the played play and Hard's own are measured
alike. The loss of the played play is how much less it is worth than Hard's choice; a
play Hard does not compare that it would have liked better counts no loss, not a gain.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cpu.hard import estimates, stored_net
from engine.cpu.net import Net
from engine.plays import Move, Play, apply_moves, board_of, legal_outcomes
from engine.position import Position
from engine.rules import Rules


class NotAPlay(ValueError):
    """The moves are not one of the legal plays of the position and dice."""


@dataclass(frozen=True)
class PlayReview:
    plays: tuple[Play, ...]
    """Every legal play, in `legal_plays` order."""
    equities: tuple[float, ...]
    """What each play is worth to the mover, in Hard's estimate."""
    best: int
    """Hard's play."""
    played: int
    """The play made."""

    @property
    def loss(self) -> float:
        """How much less the play made is worth than Hard's, never below 0."""
        return max(0.0, self.equities[self.best] - self.equities[self.played])


def review_play(
    position: Position,
    dice: tuple[int, int],
    rules: Rules,
    moves: tuple[Move, ...] | list[Move],
    net: Net | None = None,
) -> PlayReview:
    """The review of the play `moves` made from `position` (from the mover's side);
    NotAPlay when it is no legal play there. Plays reaching the same board are one play,
    whatever the order of their moves."""
    net = net or stored_net()
    outcomes = legal_outcomes(position, dice, rules)
    try:
        board = board_of(apply_moves(position, moves))
    except (ValueError, IndexError):  # a point off the board, stones that are not there
        raise NotAPlay(f"{list(moves)} is no play from this position") from None
    played = next((i for i, o in enumerate(outcomes) if o.board == board), None)
    if played is None:
        raise NotAPlay(f"{list(moves)} is not a legal play with {dice[0]}-{dice[1]}")
    values, compared = estimates(outcomes, position.off[1], rules, net, also=(played,))
    equities = tuple(
        float(o.points) if o.points else float(v) for o, v in zip(outcomes, values, strict=True)
    )
    # Hard's choice (`hard_play`): the winning play worth most, else the best compared.
    winning = max(range(len(outcomes)), key=lambda i: outcomes[i].points)
    best = winning if outcomes[winning].points else max(compared, key=lambda i: values[i])
    plays = tuple(Play(o.moves, o.points) for o in outcomes)
    return PlayReview(plays, equities, best, played)
