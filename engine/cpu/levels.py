"""The CPU opponent: which legal play to make, at three levels.

`choose` always answers with the moves of one of `legal_plays(position, dice, rules)`.

- `Level.NORMAL` scores the board each play leaves with an evaluation that knows this
  variant (below), then looks one roll ahead for the few best candidates: for each of
  the opponent's 21 rolls (a double moves twice) it assumes the opponent's best reply by
  the same evaluation, and keeps the candidate whose average outcome is best.
- `Level.HARD` plays by a network that taught itself by self-play (`engine.cpu.hard`).
- `Level.EASY` scores with a short-sighted evaluation (the race and made points only: it
  does not see its blots' danger) and adds noise, so it plays plausible moves a
  beginner can beat.

The evaluation, in pips from the side that just moved (the opponent moves next):

- the race: pips each side still has to travel; under `iri` only to home (point 6),
  since nothing is borne off, plus a die's worth for each stone still outside home;
- each own blot's exposure: the share of the opponent's 36 rolls that hit it (direct
  and combined shots, from the bar first when the opponent is on it) times what being
  hit costs (the pips it loses, more the stronger the opponent's home board);
- made points, by where they stand, and the longest prime while the opponent has stones
  behind it;
- an opponent on the bar in front of a home with closed points: the closed home itself
  (the muji shape) is worth most under `bigger`, where an iri win made with it is worth
  2, or 3 with the home counts 2-2-2-3-3-3 or 2-3-2-3-2-3;
- the same dangers seen from the other side, for own stones on the bar.

A play that wins is always taken, the one worth most first.
"""

from __future__ import annotations

import random
from enum import StrEnum

from engine.dice import ROLLS
from engine.plays import Move, Outcome, Play, legal_outcomes, position_after
from engine.position import BAR, OFF, Position
from engine.rules import Finish, Muji, Rules


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def choose(
    position: Position, dice: tuple[int, int], rules: Rules, level: Level, rng: random.Random
) -> tuple[Move, ...]:
    """The moves of the play the CPU makes (position from the mover's side); () when no
    move is legal."""
    if level is Level.EASY:
        return easy_play(position, dice, rules, rng).moves
    if level is Level.HARD:
        # Imported here: numpy costs most of the command line's start-up, and `legal`,
        # Easy and Normal never need it.
        from engine.cpu.hard import hard_play

        return hard_play(position, dice, rules).moves
    return best_play(position, dice, rules).moves


def _shot_masks() -> list[int]:
    """For each distance 0-24, a 36-bit mask of the ordered rolls that move a stone
    exactly that far (one die, both dice, or a double's two moves), blocks ignored."""
    masks = [0] * 25
    for i, (a, b) in enumerate((a, b) for a in range(1, 7) for b in range(1, 7)):
        for d in {a, b, a + b}:
            masks[d] |= 1 << i
    return masks


_SHOTS = _shot_masks()

# What a made point is worth (pips) by where it stands: the home points and the bar
# point block the most, and under `iri` the home points are where every stone must end.
_POINT = (0, 2.0, 3.0, 4.0, 5.0, 6.0, 6.5, 5.0, 2.5, 1.5, 1.0, 1.0, 1.0) + (0.5,) * 12
_MUJI_BONUS = {Muji.BIGGER: 45.0, Muji.ON_THE_SPOT: 0.0, Muji.OFF: 12.0}


def evaluate(b: list[int], opponent_bar: int, opponent_off: int, rules: Rules) -> float:
    """How good board list `b` (see `engine.plays`) is for the side that just made it,
    in pips; the opponent moves next."""
    iri = rules.finish is Finish.IRI
    own_pips = opp_pips = 0
    own_out = opp_out = 0
    own_back = 25 if b[BAR] else 0  # furthest own stone
    opp_back = 0 if opponent_bar else 25  # furthest opponent stone, in own numbering
    for p in range(1, 25):
        n = b[p]
        if n > 0:
            if p > own_back:
                own_back = p
            if iri:
                if p > 6:
                    own_pips += n * (p - 6)
                    own_out += n
            else:
                own_pips += n * p
        elif n < 0:
            if p < opp_back:
                opp_back = p
            q = 25 - p
            if iri:
                if q > 6:
                    opp_pips -= n * (q - 6)
                    opp_out -= n
            else:
                opp_pips -= n * q
    if iri:
        own_pips += 19 * b[BAR]
        opp_pips += 19 * opponent_bar
        own_out += b[BAR]
        opp_out += opponent_bar
        race: float = (opp_pips + 4 * opp_out) - (own_pips + 4 * own_out)
    else:
        own_pips += 25 * b[BAR]
        opp_pips += 25 * opponent_bar
        race = opp_pips - own_pips + 2.0 * (b[OFF] - opponent_off)
    if own_back <= opp_back:
        # No contact left: a pure race, where each pip counts more the nearer the end.
        total = own_pips + opp_pips + 1
        return race * (1.0 + 60.0 / total) + 0.3 * _spread(b) * (not iri)

    score = float(race)
    own_home = sum(1 for p in range(1, 7) if b[p] >= 2)
    opp_home = sum(1 for p in range(19, 25) if b[p] <= -2)

    # Made points, and the longest run of them with opponent stones behind it.
    run = best = 0
    for p in range(1, 25):
        if b[p] >= 2:
            if p > opp_back:
                score += _POINT[p]
            run += 1
            if run > best and p > opp_back:
                best = run
        else:
            run = 0
        if b[p] > 3:
            score -= 0.4 * (b[p] - 3)
    score += (0.0, 0.0, 1.0, 3.0, 6.0, 10.0, 16.0)[min(best, 6)]

    # Own blots: the rolls that hit them, times what a hit costs.
    if any(b[p] == 1 for p in range(1, 25)):
        hitters = [0] if opponent_bar else [p for p in range(1, 24) if b[p] < 0]
        lost_factor = 1.0 + 0.35 * opp_home
        for p in range(1, 25):
            if b[p] != 1:
                continue
            mask = 0
            for q in hitters:
                if q >= p:
                    break
                d = p - q
                if d <= 12:
                    mask |= _SHOTS[d]
            if mask:
                lost = (19 - max(0, p - 6) + 4 * (p <= 6) if iri else 25 - p) + 6.0
                score -= mask.bit_count() / 36.0 * lost * lost_factor

    # Stones on the bar against a home with closed points, and the muji shape.
    if opponent_bar:
        score += opponent_bar * (2.0 + own_home * own_home * 0.6)
        if own_home == 6:
            score += _MUJI_BONUS[rules.muji] + opponent_bar * 4.0
            if rules.muji is Muji.BIGGER and iri:
                home = tuple(b[1:7])
                if home in ((2, 2, 2, 3, 3, 3), (2, 3, 2, 3, 2, 3)):
                    score += 10.0
    if b[BAR]:
        score -= b[BAR] * (2.0 + opp_home * opp_home * 0.6)
        if opp_home == 6:
            score -= _MUJI_BONUS[rules.muji] + b[BAR] * 4.0
    return score


def _spread(b: list[int]) -> float:
    """Bearing off: stones spread over more home points waste fewer pips."""
    return float(sum(1 for p in range(1, 7) if b[p] > 0))


LOOKAHEAD_CANDIDATES = 8
"""How many of the statically best plays the lookahead compares."""
_WIN = 1000.0
"""A win's worth in the evaluation's pips, times its points."""


def best_play(
    position: Position, dice: tuple[int, int], rules: Rules, *, lookahead: bool = True
) -> Play:
    """The Normal level's play; `lookahead=False` keeps the static evaluation only."""
    outcomes = legal_outcomes(position, dice, rules)
    if len(outcomes) == 1:
        return Play(outcomes[0].moves, outcomes[0].points)
    winning = max(outcomes, key=lambda o: o.points)
    if winning.points:
        return Play(winning.moves, winning.points)
    oo = position.off[1]
    scored = sorted(
        ((evaluate(o.board, o.opponent_bar, oo, rules), i) for i, o in enumerate(outcomes)),
        reverse=True,
    )
    top = scored[0][1]
    if lookahead:
        candidates = [i for _, i in scored[:LOOKAHEAD_CANDIDATES]]
        if not _race(outcomes[top].board, outcomes[top].opponent_bar):
            top = max(candidates, key=lambda i: _reply_value(outcomes[i], oo, rules))
    return Play(outcomes[top].moves, outcomes[top].points)


def _race(b: list[int], opponent_bar: int) -> bool:
    """No contact is left: every own stone has passed every opponent stone."""
    if b[BAR] or opponent_bar:
        return False
    own_back = max((p for p in range(1, 25) if b[p] > 0), default=0)
    opp_back = min((p for p in range(1, 25) if b[p] < 0), default=25)
    return own_back <= opp_back


def _reply_value(outcome: Outcome, opponent_off: int, rules: Rules) -> float:
    """The average over the opponent's rolls of the board after their best reply, from
    the side that made `outcome`."""
    seen = position_after(outcome, opponent_off)
    own_off = seen.off[1]
    total = 0.0
    for roll, weight in ROLLS:
        replies = legal_outcomes(seen, roll, rules)
        best = max(r.points for r in replies) * _WIN
        if not best:
            best = max(evaluate(r.board, r.opponent_bar, own_off, rules) for r in replies)
        total -= weight * best
    return total / 36.0


def easy_play(position: Position, dice: tuple[int, int], rules: Rules, rng: random.Random) -> Play:
    """The Easy level's play: the race and made points only, with noise."""
    outcomes = legal_outcomes(position, dice, rules)
    winning = max(outcomes, key=lambda o: o.points)
    if winning.points:
        return Play(winning.moves, winning.points)
    iri = rules.finish is Finish.IRI

    def score(board: list[int]) -> float:
        pips = board[BAR] * (19 if iri else 25)
        for p in range(1, BAR):
            if board[p] > 0:
                pips += board[p] * (max(0, p - 6) if iri else p)
        made = sum(1.5 for p in range(1, 13) if board[p] >= 2)
        return -pips + made + rng.gauss(0.0, 4.0)

    chosen = max(outcomes, key=lambda o: score(o.board) + 3.0 * o.opponent_bar)
    return Play(chosen.moves, chosen.points)
