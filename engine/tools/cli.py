"""`python -m engine`: the engine's command line, a stable interchange contract.

`legal` and `cpu` answer JSON lines on stdin with JSON lines on stdout, one for one and
in order, flushing each answer so a tool can hold a pipe open and ask one position at a
time. A bad line gets `{"error": ...}` and the next line is still answered. `cpu` reads
a `legal` request with a `level` ("easy", "normal" or "hard") and answers `{"moves": [...]}`,
the CPU's play (an empty list for a pass). `match` plays games between two players.

Each command imports what it needs when it runs: `legal` is read by tools that start it
for a batch of requests, so its start-up (the rules alone, no CPU) is part of its speed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from engine.cpu import PLAYERS
from engine.plays import Outcome, board_of, legal_outcomes
from engine.position import BAR, OFF, Position
from engine.rules import Finish, Muji, Rules, Start

if TYPE_CHECKING:
    import random

    from engine.cpu.match import Chooser


class RequestError(ValueError):
    """A `legal` request line that cannot be answered."""


def answer(line: str) -> str:
    """The answer line to one `legal` request line, as JSON text without the newline."""
    position, dice, rules = _request(line)
    return '{"plays": [' + _plays_json(position, legal_outcomes(position, dice, rules)) + "]}"


def _request(line: str) -> tuple[Position, tuple[int, int], Rules]:
    """The position, dice and rules of a request line, checked strictly."""
    return _request_fields(_request_object(line, set()))


def _request_object(line: str, extra: set[str]) -> dict[str, Any]:
    """A request line's JSON object, with no field but position, dice, rules and `extra`."""
    if not line.strip():
        raise RequestError("empty line")
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise RequestError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RequestError("a request is a JSON object with position, dice and rules")
    unknown = set(data) - {"position", "dice", "rules"} - extra
    if unknown:
        raise RequestError(f"unknown field {sorted(unknown)[0]!r}")
    return data


def _request_fields(data: dict[str, Any]) -> tuple[Position, tuple[int, int], Rules]:
    if "position" not in data or "dice" not in data:
        raise RequestError("a request needs position and dice")
    position = Position.from_json(data["position"])
    dice = _dice(data["dice"])
    rules = Rules.from_json(data.get("rules", {}))
    if rules.finish is Finish.IRI and position.off != (0, 0):
        raise RequestError("no stone is borne off under the iri finish")
    return position, dice, rules


def cpu_answer(line: str, rng: random.Random) -> str:
    """The answer line to one `cpu` request line: the moves of the CPU's play."""
    from engine.cpu.levels import Level, choose

    data = _request_object(line, {"level"})
    position, dice, rules = _request_fields(data)
    if "level" not in data:
        raise RequestError("a cpu request needs a level")
    level = data["level"]
    if not isinstance(level, str) or level not in set(Level):
        raise RequestError(f"unknown level {level!r}: it is 'easy', 'normal' or 'hard'")
    moves = choose(position, dice, rules, Level(level), rng)
    return json.dumps({"moves": [list(move) for move in moves]})


def _plays_json(position: Position, outcomes: list[Outcome]) -> str:
    """The plays as `json.dumps` writes them: `{"moves": ..., "position": ..., "result": ...}`.

    Written by hand: they hold only integers, whose JSON text is their `str`, in
    `json.dumps`' layout (", " between items, ": " after keys). A play changes only
    the points its moves touch, so each board's text is the starting board's with
    those points rewritten. This costs half what building dicts for `json.dumps` did;
    `tests/engine/tools/test_cli_answers.py` holds the text to `json.dumps`' byte for byte.
    """
    start = [str(n) for n in board_of(position)]
    off = position.off[1]
    plays = []
    for moves, points, b, opponent_bar in outcomes:
        texts = start.copy()
        for src, dst in moves:
            texts[src], texts[dst] = str(b[src]), str(b[dst])
        moves_text = ", ".join([f"[{src}, {dst}]" for src, dst in moves])
        result = f'{{"winner": "mover", "points": {points}}}' if points else "null"
        plays.append(
            f'{{"moves": [{moves_text}], "position": {{"points": [{", ".join(texts[1:BAR])}], '
            f'"bar": [{b[BAR]}, {opponent_bar}], "off": [{b[OFF]}, {off}]}}, "result": {result}}}'
        )
    return ", ".join(plays)


def _dice(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(d) is int and 1 <= d <= 6 for d in value)
    ):
        raise RequestError("dice must be two integers from 1 to 6")
    return value[0], value[1]


def serve_legal(batches: Iterable[list[bytes]], out: IO[str]) -> None:
    serve(answer, batches, out)


def serve(respond: Callable[[str], str], batches: Iterable[list[bytes]], out: IO[str]) -> None:
    """Answer each line with `respond`, or with an error line; write and flush the answers
    to each batch at once, so a tool asking one line at a time has its answer at once and
    a batch of thousands costs one write, not one a line."""
    for batch in batches:
        out.write("".join([_reply(respond, line) + "\n" for line in batch]))
        out.flush()


def _reply(respond: Callable[[str], str], line: bytes) -> str:
    try:
        return respond(line.decode())
    except ValueError as exc:  # UnicodeDecodeError is one
        return json.dumps({"error": str(exc)}, ensure_ascii=False)
    except Exception as exc:  # the contract: an answer line, never a traceback
        return json.dumps({"error": f"internal error: {type(exc).__name__}"})


def arriving_lines(fd: int) -> Iterator[list[bytes]]:
    """The lines read from `fd`, in the batches they arrive in: each read takes what the
    pipe holds (up to 64 KiB) and hands on its whole lines; a last line may lack its end.

    Only the new chunk is searched for a line's end, so a long line costs linear time.
    """
    pending = bytearray()
    while chunk := os.read(fd, 1 << 16):
        end = chunk.rfind(b"\n")
        if end < 0:
            pending += chunk
            continue
        lines = (bytes(pending) + chunk[:end]).split(b"\n")
        pending = bytearray(chunk[end + 1 :])
        yield lines
    if pending:
        yield [bytes(pending)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("legal", help="answer JSON lines on stdin with the legal plays")
    cpu = commands.add_parser("cpu", help="answer JSON lines on stdin with the CPU's play")
    cpu.add_argument("--seed", type=int, help="make the same choices (default: fresh)")
    match = commands.add_parser("match", help="play games between two players")
    match.add_argument("--a", choices=PLAYERS, default="normal")
    match.add_argument("--b", choices=PLAYERS, default="random")
    match.add_argument("--games", type=int, default=100)
    match.add_argument("--seed", type=int, default=1)
    match.add_argument("--no-lookahead-for-a", action="store_true", help="normal A: static only")
    match.add_argument("--no-lookahead-for-b", action="store_true", help="normal B: static only")
    _rule_options(match)
    play = commands.add_parser("selfplay", help="play random legal games and count results")
    play.add_argument("--games", type=int, default=100)
    play.add_argument("--seed", type=int, help="replay the same games (default: fresh dice)")
    _rule_options(play)
    play.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.command == "legal":
        serve_legal(arriving_lines(sys.stdin.fileno()), sys.stdout)
        return 0
    if args.command == "cpu":
        import random

        rng = random.SystemRandom() if args.seed is None else random.Random(args.seed)
        serve(lambda line: cpu_answer(line, rng), arriving_lines(sys.stdin.fileno()), sys.stdout)
        return 0
    if args.games < 1:
        parser.error("--games must be at least 1")
    rules = Rules(Finish(args.finish), Muji(args.muji), Start(args.start))
    if args.command == "match":
        from engine.cpu.match import play_match, report

        a = _named(args.a, args.no_lookahead_for_a)
        b = _named(args.b, args.no_lookahead_for_b)
        if a[0] == b[0]:
            a, b = (f"{a[0]} (A)", a[1]), (f"{b[0]} (B)", b[1])
        print(report(play_match(a, b, rules, args.games, args.seed), rules), flush=True)
        return 0
    from engine.cpu.selfplay import selfplay

    summary = selfplay(rules, args.games, args.seed).to_json()
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(rules, summary)
    return 0


def _rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--finish", choices=[f.value for f in Finish], default=Finish.IRI.value)
    parser.add_argument("--muji", choices=[m.value for m in Muji], default=Muji.BIGGER.value)
    parser.add_argument("--start", choices=[s.value for s in Start], default=Start.ALTERNATE.value)


def _named(name: str, no_lookahead: bool) -> tuple[str, Chooser]:
    from engine.cpu.match import player

    lookahead = not (name == "normal" and no_lookahead)
    return (name if lookahead else "normal, no lookahead"), player(name, lookahead)


def _print_summary(rules: Rules, summary: dict[str, Any]) -> None:
    games, turns = summary["games"], summary["turns"]
    seats, points = summary["wins_by_seat"], summary["wins_by_points"]
    print(f"rules: finish={rules.finish} muji={rules.muji} start={rules.start}")
    print(f"games: {games}")
    print(f"turns: {turns} ({turns / games:.1f} a game)")
    print(f"passes: {summary['passes']}")
    print(f"wins by seat: first {seats['first']}, second {seats['second']}")
    print(f"wins by value: 1 point {points['1']}, 2 points {points['2']}, 3 points {points['3']}")
