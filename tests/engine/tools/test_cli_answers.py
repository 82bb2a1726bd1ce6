"""The `legal` command's output pinned byte for byte, in process.

`cli_answers.txt` holds request lines, each followed by the exact line the command
wrote for it (then a blank line): from seeded random games, and a few made by hand,
to cover entering from the bar, passes, single-die plays, bearing off and wins of
every value and house rule, plus bad lines. `slow_answer` below is the obvious way to
answer a request, kept so that the fast path in `engine.tools.cli` is checked against it
over the benchmark's mixed requests (another seed).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.plays import apply_moves, legal_plays
from engine.position import Position
from engine.rules import Finish, Rules
from engine.tools import cli
from engine.tools.bench import mixed_cases, request_line

ANSWERS = Path(__file__).with_name("cli_answers.txt")


def pinned() -> list[tuple[str, str]]:
    lines = ANSWERS.read_text(encoding="utf-8").split("\n")
    return [(lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, 3)]


def served(requests: list[str]) -> list[str]:
    out = io.StringIO()
    cli.serve_legal([[request.encode() for request in requests]], out)
    return out.getvalue().splitlines()


def slow_answer(line: str) -> str:
    """The answer line built the plain way: apply each play to a checked Position."""
    try:
        data = json.loads(line)
        position = Position.from_json(data["position"])
        rules = Rules.from_json(data.get("rules", {}))
        assert not (rules.finish is Finish.IRI and position.off != (0, 0))
        dice = (data["dice"][0], data["dice"][1])
    except (ValueError, KeyError, AssertionError):
        return "bad request"
    plays = [
        {
            "moves": [list(move) for move in play.moves],
            "position": apply_moves(position, play.moves).to_json(),
            "result": {"winner": "mover", "points": play.points} if play.points else None,
        }
        for play in legal_plays(position, dice, rules)
    ]
    return json.dumps({"plays": plays}, ensure_ascii=False)


def test_the_pinned_answers_cover_what_they_claim():
    answers = " ".join(answer for _, answer in pinned())
    for needle in ('"points": 1}', '"points": 2}', '"points": 3}', "[25, ", ", 0]]", '"error"'):
        assert needle in answers
    assert '{"plays": [{"moves": [], ' in answers


def test_the_command_writes_the_pinned_answers_byte_for_byte():
    requests, answers = zip(*pinned(), strict=True)
    assert served(list(requests)) == list(answers)


@pytest.mark.slow
def test_the_command_answers_as_the_slow_obvious_way_does():
    requests = [request_line(case) for case in mixed_cases(2000, 11)]
    assert served(requests) == [slow_answer(request) for request in requests]
