"""One game ending of each kind of win, for the tests that follow a kind from the engine
to the API and the pages: the position one move before it and the move that wins.
`tests.finished_games.won_table` plays one through the API."""

from __future__ import annotations

from dataclasses import dataclass

from engine.plays import Move
from engine.position import Position
from engine.rules import Finish, Muji, Rules, WinKind
from tests.engine.helpers import make

THEIRS = {19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 24: 2}
"""The loser's 15 stones, all in their own home (the mover's 19-24)."""
ONE_ON_THE_BAR = {**THEIRS, 24: 1}
"""The same with one of them on the bar."""


@dataclass(frozen=True)
class Win:
    kind: WinKind
    rules: Rules
    before: Position
    """From the winner's side, the winner to play `dice`."""
    dice: tuple[int, int]
    moves: tuple[Move, ...]
    """The winning play; none for a resignation (the loser resigns)."""
    label: str
    """The win's name on the pages, in English."""


WINS = [
    Win(
        WinKind.IRI,
        Rules(),
        make({1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 8: 1}, THEIRS),
        (2, 1),
        ((8, 6),),
        "iri-gachi",
    ),
    Win(
        WinKind.MUSHI,
        Rules(),
        make({1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 8: 1}, ONE_ON_THE_BAR, bar=(0, 1)),
        (2, 1),
        ((8, 6),),
        "mushi-gachi",
    ),
    Win(
        WinKind.MUJO,
        Rules(),
        make({1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 2, 8: 1}, ONE_ON_THE_BAR, bar=(0, 1)),
        (2, 1),
        ((8, 6),),
        "mujō-gachi",
    ),
    # All 15 home with the opponent on the bar: on the spot, the closed home is what wins.
    Win(
        WinKind.MUJI,
        Rules(muji=Muji.ON_THE_SPOT),
        make({1: 2, 2: 2, 3: 2, 4: 3, 5: 4, 6: 1, 8: 1}, ONE_ON_THE_BAR, bar=(0, 1)),
        (2, 1),
        ((8, 6),),
        "muji-gachi",
    ),
    Win(
        WinKind.BEAR_OFF,
        Rules(finish=Finish.BEAR_OFF, muji=Muji.OFF),
        make({1: 1}, THEIRS, off=(14, 0)),
        (2, 1),
        ((1, 0),),
        "bearing off",
    ),
    Win(WinKind.RESIGNED, Rules(), Position.start(), (3, 1), (), "resignation"),
]
