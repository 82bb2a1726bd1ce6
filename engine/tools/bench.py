"""Benchmark of legal-play generation: `python -m engine.tools.bench` (or `make bench`).

Measures `legal_plays` over a fixed, seeded set of middle-game positions (turns 10 to
60 of seeded random games, each with a seeded roll) and prints positions per second and
microseconds per position. Then it measures the `legal` command over a fixed, seeded set
of mixed requests (every third turn of whole seeded games, under each house rule in
turn: openings, entering from the bar, bearing off, wins), three ways, so they are read
together: `legal_plays` alone on those requests, the command's `answer` in this process
(reading the JSON line, generating, writing the answer line), and a real
`python -m engine legal` through a pipe, started once and warmed up, all the requests
written while the answers are read; last, a fresh process given all the requests at
once, start-up included, which is how a tool that starts it for one batch meets it.
Timing is the best of several rounds, the usual way to see past a busy machine; the
median is printed too.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from engine.cpu.selfplay import random_game
from engine.dice import SeededDice, roll
from engine.plays import legal_plays
from engine.position import Position
from engine.rules import ALL_RULES, Finish, Rules
from engine.side import Side
from engine.tools.cli import answer


def middle_game_positions(
    count: int, seed: int, rules: Rules
) -> list[tuple[Position, tuple[int, int]]]:
    """`count` positions from turns 10-60 of seeded random games, each with a fresh roll."""
    dice, choose = SeededDice(seed), random.Random(seed)
    sample: list[tuple[Position, tuple[int, int]]] = []
    while len(sample) < count:
        game = random_game(rules, dice, choose, Side(len(sample) % 2))
        sample += [(turn.position, roll(dice)) for turn in game.turns[10:60:5]]
    return sample[:count]


def measure(
    sample: list[tuple[Position, tuple[int, int]]], rules: Rules, rounds: int
) -> list[float]:
    """Seconds per round of generating every sample's plays."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for position, dice in sample:
            legal_plays(position, dice, rules)
        times.append(time.perf_counter() - start)
    return times


Case = tuple[Position, tuple[int, int], Rules]


def mixed_cases(count: int, seed: int) -> list[Case]:
    """`count` positions with a roll and the rules, from every third turn of seeded
    random games, the games taking each combination of house rules in turn."""
    dice, choose = SeededDice(seed), random.Random(seed)
    cases: list[Case] = []
    while len(cases) < count:
        rules = ALL_RULES[len(cases) % len(ALL_RULES)]
        game = random_game(rules, dice, choose, Side(len(cases) % 2))
        cases += [(turn.position, roll(dice), rules) for turn in game.turns[::3]]
    return cases[:count]


def request_line(case: Case) -> str:
    """The `legal` request line asking for a case's plays."""
    position, dice, rules = case
    return json.dumps(
        {"position": position.to_json(), "dice": list(dice), "rules": rules.to_json()}
    )


def timed(run: Callable[[], object], rounds: int) -> list[float]:
    """Seconds taken by each of `rounds` calls of `run`."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def through_pipe(lines: list[str], rounds: int) -> list[float]:
    """Seconds per round of a running `python -m engine legal` answering every line.

    One process serves all rounds; a first line is answered before the clock starts,
    so start-up is not counted. A thread writes while this one reads, as a pipe's
    buffers are too small to hold all the requests or all the answers.
    """
    command = [sys.executable, "-m", "engine", "legal"]
    root = Path(__file__).resolve().parents[2]
    with subprocess.Popen(
        command, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        stdin, stdout = process.stdin, process.stdout
        stdin.write(lines[0] + "\n")
        stdin.flush()
        stdout.readline()
        text = "".join(line + "\n" for line in lines)

        def write() -> None:
            stdin.write(text)
            stdin.flush()

        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            writer = threading.Thread(target=write)
            writer.start()
            answers = [stdout.readline() for _ in lines]
            times.append(time.perf_counter() - start)
            writer.join()
        stdin.close()
    if answers != [answer(line) + "\n" for line in lines]:
        raise RuntimeError("the command's answers differ from answer()'s")
    return times


def cold(lines: list[str], rounds: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds per round, start-up included, of a fresh `python -m engine legal`
    answering every line (as a tool that starts it for one batch meets it), of the same
    command given no line (its start-up), and of `python -c pass` (the interpreter's)."""
    root = Path(__file__).resolve().parents[2]
    text = "".join(line + "\n" for line in lines)

    def run(command: list[str], stdin: str) -> float:
        start = time.perf_counter()
        subprocess.run(
            command,
            cwd=root,
            input=text if stdin else "",
            text=True,
            capture_output=True,
            check=True,
        )
        return time.perf_counter() - start

    legal = [sys.executable, "-m", "engine", "legal"]
    rows: tuple[list[float], list[float], list[float]] = ([], [], [])
    for _ in range(rounds):
        rows[0].append(run(legal, text))
        rows[1].append(run(legal, ""))
        rows[2].append(run([sys.executable, "-c", "pass"], ""))
    return rows


def report(label: str, times: list[float], count: int) -> str:
    best, median = min(times) / count, statistics.median(times) / count
    return f"  {label}: best {best * 1e6:.1f} µs/request, median {median * 1e6:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.bench", description=__doc__)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--requests", type=int, default=3000)
    args = parser.parse_args(argv)
    for rules in (Rules(), Rules(finish=Finish.BEAR_OFF)):
        sample = middle_game_positions(args.positions, args.seed, rules)
        plays = sum(len(legal_plays(p, d, rules)) for p, d in sample)
        times = measure(sample, rules, args.rounds)
        best, median = min(times) / len(sample), statistics.median(times) / len(sample)
        print(
            f"legal_plays finish={rules.finish}: {len(sample)} positions, "
            f"{plays / len(sample):.1f} plays each; "
            f"best {1 / best:,.0f} positions/s = {best * 1e6:.1f} µs/position; "
            f"median {median * 1e6:.1f} µs/position"
        )
    cases = mixed_cases(args.requests, args.seed)
    lines = [request_line(case) for case in cases]
    plays = sum(len(legal_plays(*case)) for case in cases)
    print(
        f"legal command: {len(lines)} mixed requests under every house rule, "
        f"{plays / len(lines):.1f} plays each"
    )

    def generate() -> None:
        for case in cases:
            legal_plays(*case)

    def answer_all() -> None:
        for line in lines:
            answer(line)

    print(report("legal_plays alone", timed(generate, args.rounds), len(lines)))
    print(report("answer() in process", timed(answer_all, args.rounds), len(lines)))
    print(report("through a pipe", through_pipe(lines, args.rounds), len(lines)))
    batch, start, interpreter = (min(times) * 1e3 for times in cold(lines, args.rounds))
    print(
        f"  a fresh process answering all {len(lines)}: best {batch:.0f} ms, of which "
        f"start-up {start:.0f} ms (the interpreter's alone: {interpreter:.0f} ms)"
    )


if __name__ == "__main__":
    main()
