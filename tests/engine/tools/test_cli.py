"""The engine's command line, run as outside tools run it: a real subprocess and pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from engine.position import Position
from engine.tools import cli

pytestmark = pytest.mark.slow

START = Position.start().to_json()


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def legal(*requests: object) -> list[dict]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = run("legal", stdin=lines)
    assert done.returncode == 0 and done.stderr == ""
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_legal_lists_each_distinct_outcome_from_the_movers_side():
    [answer] = legal(
        {"position": START, "dice": [6, 5], "rules": {"finish": "iri", "muji": "bigger"}}
    )
    plays = answer["plays"]
    assert len(plays) == 7
    run_off = next(p for p in plays if p["moves"] == [[24, 18], [18, 13]])
    assert run_off["position"]["points"][23] == 1 and run_off["position"]["points"][12] == 6
    assert run_off["result"] is None


def test_a_winning_play_reports_the_mover_and_points():
    position = {
        "points": [2, 2, 2, 2, 3, 3, 1] + [0] * 16 + [-14],
        "bar": [0, 1],
        "off": [0, 0],
    }
    [answer] = legal({"position": position, "dice": [1, 1], "rules": {}})
    wins = {tuple(map(tuple, p["moves"])): p["result"] for p in answer["plays"]}
    assert wins[((7, 6),)] == {"winner": "mover", "points": 2}


def test_no_legal_move_gives_one_empty_play_and_the_unchanged_position():
    position = {"points": [14] + [0] * 17 + [-2, 0, 0, -2, 0, -11], "bar": [1, 0], "off": [0, 0]}
    [answer] = legal({"position": position, "dice": [6, 3]})
    assert answer == {"plays": [{"moves": [], "position": position, "result": None}]}


@pytest.mark.parametrize(
    ("request_line", "why"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "object"),
        ({"position": START}, "needs position and dice"),
        ({"position": {"points": [1] * 24}, "dice": [1, 2]}, "15 stones"),
        ({"position": START, "dice": [0, 7]}, "dice"),
        ({"position": START, "dice": [1, True]}, "dice"),
        ({"position": START, "dice": [1, 2], "rules": {"finish": "sideways"}}, "finish"),
        ({"position": START, "dice": [1, 2], "rules": {"clock": "fast"}}, "unknown rule"),
        ({"position": START, "dice": [1, 2], "extra": 1}, "unknown field"),
        ({"position": START | {"off": [1, 0]}, "dice": [1, 2]}, "15 stones"),
        ("", "empty"),
    ],
)
def test_a_bad_line_gets_an_error_line_and_the_next_line_is_answered(request_line, why):
    bad, good = legal(request_line, {"position": START, "dice": [1, 1]})
    assert set(bad) == {"error"} and why in bad["error"]
    assert len(good["plays"]) == 9


def test_a_line_that_is_not_utf8_gets_an_error_and_a_line_without_its_end_an_answer():
    good = json.dumps({"position": START, "dice": [1, 1]}).encode()
    done = subprocess.run(
        [sys.executable, "-m", "engine", "legal"],
        input=b'{"position": "\xff"}\n' + good,
        capture_output=True,
        timeout=60,
        check=True,
    )
    bad, answer = [json.loads(line) for line in done.stdout.splitlines()]
    assert "utf-8" in bad["error"] and len(answer["plays"]) == 9


def test_a_tool_holding_the_pipe_open_has_each_answer_before_it_asks_again():
    with subprocess.Popen(
        [sys.executable, "-m", "engine", "legal"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as process:
        assert process.stdin and process.stdout
        for dice in ([1, 1], [6, 5], [3, 1]):
            process.stdin.write(json.dumps({"position": START, "dice": dice}).encode() + b"\n")
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["plays"]
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_arriving_lines_hands_on_whole_lines_as_they_arrive():
    """A 1 MB line written in pieces arrives whole; the last line needs no end."""
    read, write = os.pipe()
    long = b"x" * 1_000_000

    def send() -> None:
        for piece in (long[:300_000], long[300_000:] + b"\na\nb", b"c"):
            os.write(write, piece)
        os.close(write)

    writer = threading.Thread(target=send)
    writer.start()
    lines = [line for batch in cli.arriving_lines(read) for line in batch]
    writer.join()
    os.close(read)
    assert lines == [long, b"a", b"bc"]


def test_iri_positions_cannot_have_borne_off_stones():
    position = {"points": [14] + [0] * 22 + [-15], "bar": [0, 0], "off": [1, 0]}
    [bad] = legal({"position": position, "dice": [1, 2], "rules": {"finish": "iri"}})
    assert "borne off" in bad["error"]
    [good] = legal({"position": position, "dice": [1, 2], "rules": {"finish": "bear_off"}})
    assert good["plays"]


def test_selfplay_reports_games_turns_passes_and_wins_by_value():
    done = run("selfplay", "--games", "12", "--seed", "5", "--finish", "bear_off", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 12
    assert summary["turns"] > 12 * 20
    assert sum(summary["wins_by_points"].values()) == 12
    assert sum(summary["wins_by_seat"].values()) == 12
    again = run("selfplay", "--games", "12", "--seed", "5", "--finish", "bear_off", "--json")
    assert again.stdout == done.stdout, "a seed replays the same games"
    text = run("selfplay", "--games", "3")
    assert "games: 3" in text.stdout and "wins by value" in text.stdout


def test_selfplay_refuses_bad_options():
    assert run("selfplay", "--games", "0").returncode == 2
    assert run("selfplay", "--muji", "sometimes").returncode == 2


def cpu(*requests: object, seed: str = "3") -> list[dict]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = run("cpu", "--seed", seed, stdin=lines)
    assert done.returncode == 0 and done.stderr == ""
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_cpu_answers_each_line_with_the_moves_of_a_legal_play():
    requests = [
        {"position": START, "dice": [3, 1], "rules": {}, "level": level}
        for level in ("normal", "easy", "hard")
    ]
    answers = cpu(*requests)
    legal_moves = [p["moves"] for p in legal({"position": START, "dice": [3, 1]})[0]["plays"]]
    assert answers[0] == {"moves": [[8, 5], [6, 5]]}
    assert answers[1]["moves"] in legal_moves
    assert answers[2]["moves"] in legal_moves
    assert cpu(*requests) == answers, "a seed makes the same choices"


def imported(command: str, line: dict) -> tuple[dict, set[str]]:
    """The answer to one line of `python -m engine <command>` and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "engine", command],
        input=json.dumps(line) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    modules = {row.split("|")[-1].strip() for row in done.stderr.splitlines() if "|" in row}
    return json.loads(done.stdout), modules


@pytest.mark.parametrize(
    ("command", "level"), [("legal", None), ("cpu", "easy"), ("cpu", "normal")]
)
def test_legal_easy_and_normal_start_without_numpy(command, level):
    """numpy's import was most of the command line's start-up; only Hard needs it."""
    line = {"position": START, "dice": [3, 1]} | ({"level": level} if level else {})
    answer, modules = imported(command, line)
    assert "engine.tools.cli" in modules and "numpy" not in modules
    if command == "legal":  # the rules alone: no CPU level, no match, no game record
        assert not modules & {"engine.cpu.levels", "engine.cpu.match", "engine.game"}
    assert "plays" in answer or answer["moves"]


def test_hard_still_plays_from_the_command_line():
    answer, modules = imported("cpu", {"position": START, "dice": [3, 1], "level": "hard"})
    legal_moves = [p["moves"] for p in legal({"position": START, "dice": [3, 1]})[0]["plays"]]
    assert answer["moves"] in legal_moves and "numpy" in modules


def test_cpu_passes_with_an_empty_list():
    position = {"points": [14] + [0] * 17 + [-2, 0, 0, -2, 0, -11], "bar": [1, 0], "off": [0, 0]}
    assert cpu({"position": position, "dice": [6, 3], "level": "easy"}) == [{"moves": []}]


@pytest.mark.parametrize(
    ("request_line", "why"),
    [
        ("not json", "not JSON"),
        ({"position": START, "dice": [1, 2]}, "needs a level"),
        ({"position": START, "dice": [1, 2], "level": "expert"}, "unknown level"),
        ({"position": START, "dice": [1, 2], "level": 1}, "unknown level"),
        ({"position": START, "dice": [1, 2], "level": "easy", "extra": 1}, "unknown field"),
        ({"position": START, "dice": [0, 2], "level": "easy"}, "dice"),
    ],
)
def test_cpu_answers_a_bad_line_with_an_error_and_goes_on(request_line, why):
    bad, good = cpu(request_line, {"position": START, "dice": [1, 1], "level": "normal"})
    assert set(bad) == {"error"} and why in bad["error"]
    assert "moves" in good


def test_match_reports_win_rates_points_and_times():
    done = run("match", "--a", "easy", "--b", "pipcount", "--games", "4", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "games: 4" in done.stdout and "95% CI" in done.stdout and "ms p95" in done.stdout
    again = run("match", "--a", "easy", "--b", "pipcount", "--games", "4", "--seed", "2")
    wins = [line.split("choose")[0] for line in done.stdout.splitlines()]
    assert wins == [line.split("choose")[0] for line in again.stdout.splitlines()]
    assert run("match", "--a", "grandmaster").returncode == 2
