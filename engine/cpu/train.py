"""Teach the Hard level by self-play with TD(lambda), as TD-Gammon learned backgammon.

    python -m engine.cpu.train [--games N] [--seed S] [--out PATH] [--resume]

The network (`engine.cpu.net`) plays both sides, choosing each play as Hard does (the
position it leaves that the opponent likes least). After each game it learns from the
game's positions, each seen by its side to roll: the target of a position is the
lambda-return of the estimates that followed it, the last one the result itself (who
won, and how many points). The returns are computed once the game is over ("offline"),
so a whole game's positions update the weights in one batch of numpy calls.

One network serves every house rule, with the rules among its inputs: tactics (hits,
blocks, blots) are the same game under every rule, so the rules share what is learned
instead of splitting the training games six ways. Games cycle through the finish and
muji rules; the start rule changes only who rolls first, which the positions show.

Every `--eval-every` games it plays `--eval-games` games against Normal and `pipsafe`
under both finishes (muji `bigger`, the default) with the same seeded dice each time,
prints the win rates, adds them to the learning curve (a PNG) and writes a checkpoint
that `--resume` continues from. The weights with the best mean win rate against Normal
so far are written to `--out`, with the command and seed that made them. Each game's
dice come from the seed and the game's number, so a run resumed gives the same games
as one never stopped.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.cpu.baselines import pips_to_go
from engine.cpu.features import Features, encode, position_row
from engine.cpu.hard import WEIGHTS, hard_play, play_values
from engine.cpu.match import play_match, player
from engine.cpu.net import Array, Net, swap
from engine.plays import Move, board_of, legal_outcomes, position_after
from engine.position import Position
from engine.rules import Finish, Muji, Rules

Moves = tuple[Move, ...]
TRAINING_RULES = tuple(Rules(finish, muji) for finish in Finish for muji in Muji)
EVAL_RULES = (Rules(Finish.IRI), Rules(Finish.BEAR_OFF))
OPPONENTS = ("normal", "pipsafe")
MAX_TURNS = 500
"""A game not over after this many turns is scored for the side ahead in the race.

Games of a fresh network can go on for thousands of turns, both sides hitting each other
back to the bar; scoring them by the race teaches the early network to make progress.
Once it plays sensibly its games end long before this (70 to 90 turns)."""


@dataclass(frozen=True)
class Game:
    features: Features
    """Each position of the game, before its roll, seen by the side to roll."""
    result: Array
    """The last position's target: its side to roll won, with the points."""


def self_play(net: Net, rules: Rules, rng: random.Random) -> Game:
    """One game of the network against itself."""
    position = Position.start()
    seen = [encode(position_row(position), rules)[0]]
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        outcomes = legal_outcomes(position, dice, rules)
        points = max(o.points for o in outcomes)
        if points:
            won = np.array([1.0, points >= 2, points >= 3, 0.0, 0.0])
            return Game(np.array(seen), won)
        features, values = play_values(outcomes, position.off[1], rules, net)
        chosen = int(np.argmax(values))
        seen.append(features[chosen])
        position = position_after(outcomes[chosen], position.off[1])
    iri = rules.finish is Finish.IRI
    ahead = pips_to_go(board_of(position), iri) < pips_to_go(board_of(position.flipped()), iri)
    return Game(np.array(seen), np.array([ahead, 0.0, 0.0, 0.0, 0.0]))


def learn(net: Net, game: Game, alpha: float, lam: float) -> None:
    """One TD(lambda) step over a whole game: each position's outputs move toward its
    lambda-return, the estimates that followed it seen from its own side."""
    x = game.features
    hidden, y = net.forward(x)
    target = np.empty_like(y)
    target[-1] = game.result
    for t in range(len(y) - 2, -1, -1):
        target[t] = swap((1.0 - lam) * y[t + 1] + lam * target[t + 1])
    delta2 = (y - target) * y * (1.0 - y)
    delta1 = (delta2 @ net.w2.T) * hidden * (1.0 - hidden)
    net.w2 -= alpha * (hidden.T @ delta2)
    net.b2 -= alpha * delta2.sum(axis=0)
    net.w1 -= alpha * (x.T @ delta1)
    net.b1 -= alpha * delta1.sum(axis=0)


def win_rates(net: Net, games: int, seed: int) -> list[float]:
    """The net's share of games won against each of OPPONENTS under each of EVAL_RULES,
    playing by its first estimate: the curve shows what the network learned, without
    the lookahead Hard adds at play time."""

    def hard(pos: Position, dice: tuple[int, int], rules: Rules, _: random.Random) -> Moves:
        return hard_play(pos, dice, rules, net, lookahead=False).moves

    rates = []
    for name in OPPONENTS:
        for rules in EVAL_RULES:
            result = play_match(("hard", hard), (name, player(name)), rules, games, seed)
            decided = result.a.wins + result.b.wins
            rates.append(result.a.wins / decided if decided else 0.0)
    return rates


def curve_labels() -> list[str]:
    return [f"vs {name}, {rules.finish}" for name in OPPONENTS for rules in EVAL_RULES]


def save_curve(path: Path, curve: Array, title: str) -> None:
    """The learning curve as a PNG: win rates against the training games played."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=80)
    for i, label in enumerate(curve_labels()):
        ax.plot(curve[:, 0], 100 * curve[:, i + 1], marker=".", label=label)
    ax.axhline(50, color="grey", linewidth=0.5)
    ax.set_xlabel("training games")
    ax.set_ylabel("Hard's wins, %")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


@dataclass
class Run:
    """What a checkpoint holds: the net, how far training got, and the curve so far."""

    net: Net
    games: int
    curve: Array
    best: float

    def save(self, path: Path, seed: int) -> None:
        self.net.save(path, games=self.games, seed=seed, curve=self.curve, best=self.best)

    @classmethod
    def load(cls, path: Path, seed: int) -> Run:
        with np.load(path) as data:
            if int(data["seed"]) != seed:
                raise SystemExit(f"{path} was trained with --seed {int(data['seed'])}")
            net = Net(data["w1"], data["b1"], data["w2"], data["b2"])
            return cls(net, int(data["games"]), data["curve"], float(data["best"]))


def train(args: argparse.Namespace, command: str, log: Callable[[str], None]) -> Run:
    """Train as `args` say; `command` is noted with the weights written."""
    checkpoint = Path(args.checkpoint)
    if args.resume and checkpoint.exists():
        run = Run.load(checkpoint, args.seed)
        log(f"resumed from {checkpoint} at game {run.games}")
    else:
        run = Run(Net.fresh(args.hidden, args.seed), 0, np.zeros((0, 5)), -1.0)
    started, moves = time.perf_counter(), 0
    while run.games < args.games:
        rules = TRAINING_RULES[run.games % len(TRAINING_RULES)]
        game = self_play(run.net, rules, random.Random(f"{args.seed}-{run.games}"))
        run.games += 1
        learn(run.net, game, args.alpha, args.lam)
        moves += len(game.features)
        if run.games % args.progress_every == 0:
            elapsed = time.perf_counter() - started
            log(
                f"game {run.games}: {moves / args.progress_every:.0f} positions a game, "
                f"{args.progress_every / elapsed:.1f} games/s"
            )
            started, moves = time.perf_counter(), 0
        if run.games % args.eval_every == 0 or run.games == args.games:
            rates = win_rates(run.net, args.eval_games, args.seed + 1)
            run.curve = np.vstack([run.curve, [run.games, *rates]])
            results = zip(curve_labels(), rates, strict=True)
            log(f"game {run.games}: " + ", ".join(f"{n} {100 * r:.1f}%" for n, r in results))
            score = (rates[0] + rates[1]) / 2
            if score > run.best:
                run.best = score
                run.net.save(Path(args.out), command=command, seed=args.seed, games=run.games)
                log(f"best so far: written to {args.out}")
            run.save(checkpoint, args.seed)
            title = f"Hard's learning curve, {args.eval_games} games a point (seed {args.seed})"
            save_curve(Path(args.curve), run.curve, title)
            started = time.perf_counter()
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.cpu.train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=100_000, help="train up to this many games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(WEIGHTS), help="the best weights so far")
    parser.add_argument("--checkpoint", default=".train/hard-checkpoint.npz")
    parser.add_argument("--curve", default="docs/hard-learning-curve.png")
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (a fresh run)")
    parser.add_argument("--alpha", type=float, default=0.02, help="learning rate")
    parser.add_argument("--lam", type=float, default=0.7, help="TD lambda")
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--progress-every", type=int, default=500)
    argv = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "engine.cpu.train", *argv])
    train(parser.parse_args(argv), command, lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
