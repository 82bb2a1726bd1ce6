"""House rules of a table: how a game is finished, what a closed home does, who starts.

What each value does is rules 9-15 of docs/rules.md. The values are the strings of
its interchange format, so a `Rules` goes to and from JSON without a translation table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

E = TypeVar("E", bound=StrEnum)


class Finish(StrEnum):
    IRI = "iri"
    BEAR_OFF = "bear_off"


class Muji(StrEnum):
    BIGGER = "bigger"
    ON_THE_SPOT = "on_the_spot"
    OFF = "off"


class Start(StrEnum):
    ALTERNATE = "alternate"
    ROLL = "roll"


class WinKind(StrEnum):
    """How a game was won: the rule of docs/rules.md that made the winning move a win
    (rules 9-13), the opponent's resignation, or the opponent's clock running out. The
    values are the API's and the database's; a game that ended with no result has none."""

    IRI = "iri"
    BEAR_OFF = "bear_off"
    MUJI = "muji"
    """On the spot: the move made the closed home while the opponent was on the bar."""
    MUSHI = "mushi"
    MUJO = "mujo"
    RESIGNED = "resigned"
    TIME = "time"
    """The opponent's time to move ran out (a table with a clock)."""

    @property
    def points(self) -> int:
        """What the win adds to the winner's score."""
        return 3 if self is WinKind.MUJO else 2 if self is WinKind.MUSHI else 1


class RulesError(ValueError):
    """A rules object names an unknown rule or value."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One combination of house rules; the defaults are the late-Edo rules."""

    finish: Finish = Finish.IRI
    muji: Muji = Muji.BIGGER
    start: Start = Start.ALTERNATE

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Parse `{"finish": ..., "muji": ..., "start": ...}`; omitted keys take defaults.

        >>> Rules.from_json({"finish": "bear_off"}).finish
        <Finish.BEAR_OFF: 'bear_off'>
        """
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        unknown = set(data) - {"finish", "muji", "start"}
        if unknown:
            raise RulesError(f"unknown rule {sorted(unknown)[0]!r}")
        return cls(
            finish=_choice(Finish, data.get("finish", Finish.IRI), "finish"),
            muji=_choice(Muji, data.get("muji", Muji.BIGGER), "muji"),
            start=_choice(Start, data.get("start", Start.ALTERNATE), "start"),
        )

    def to_json(self) -> dict[str, str]:
        return {"finish": self.finish.value, "muji": self.muji.value, "start": self.start.value}


def _choice(kind: type[E], value: Any, name: str) -> E:
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    choices = " or ".join(repr(str(v)) for v in kind)
    raise RulesError(f"unknown {name} {value!r}: it is {choices}")


ALL_RULES: tuple[Rules, ...] = tuple(
    Rules(finish, muji, start) for finish in Finish for muji in Muji for start in Start
)
"""Every combination of house rules, for tests and self-play."""
