"""Dice neither side can choose: the server commits to a game's seed before either seat
gives its entropy, and reveals it when the game ends."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.client import Api

DICE_PAGE = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


def post(player: Api, code: str, action: str, **body: object):
    return player.post(f"tables/{code}/{action}", {"version": player.state(code)["version"]} | body)


def test_the_seed_is_committed_before_either_seat_gives_entropy(host, guest):
    created = host.post("tables", {}).body
    commitment = created["next_game"]
    assert commitment["number"] == 1 and commitment["published_at_version"] == 1
    assert commitment["your_entropy_given"] is False and created["game"] is None
    joined = guest.post(f"tables/{created['code']}/join", {"entropy": "ben's dice"}).body
    assert joined["next_game"]["seed_sha256"] == commitment["seed_sha256"]
    assert joined["next_game"]["your_entropy_given"] is True
    code = created["code"]
    started = post(host, code, "start", entropy="aiko's dice").body
    assert started["next_game"] is None
    assert started["game"]["seed_sha256"] == commitment["seed_sha256"]

    assert post(guest, code, "resign").status == 200
    ended = host.state(code)
    second = ended["next_game"]
    assert second["number"] == 2 and second["seed_sha256"] != commitment["seed_sha256"]
    assert second["published_at_version"] == ended["version"]
    assert post(guest, code, "entropy", entropy="ben again").status == 200
    assert post(host, code, "play-again", entropy="aiko again").status == 200
    assert post(guest, code, "resign").status == 200

    for number, entropy in ((1, ("aiko's dice", "ben's dice")), (2, ("aiko again", "ben again"))):
        dice = host.get(f"tables/{code}/games/{number}/dice").body
        black, white = dice["entropy"]["black"], dice["entropy"]["white"]
        assert (black["value"], white["value"]) == entropy
        published = dice["seed_published_at_version"]
        assert published < black["given_at_version"] and published < white["given_at_version"]
        assert dice["committed_before_entropy"] and dice["all_match"]


def test_a_seat_that_gives_no_entropy_counts_as_the_empty_string(host, guest, table):
    assert post(guest, table, "resign").status == 200
    dice = host.get(f"tables/{table}/games/1/dice").body
    assert dice["entropy"]["black"] == {"value": "", "given_at_version": None}
    assert dice["all_match"] is True


def test_entropy_is_given_between_games_only(host, guest, table):
    during = post(host, table, "entropy", entropy="too late")
    assert during.status == 409 and during.body["code"] == "wrong_state"


@pytest.mark.parametrize("entropy", ["", "x" * 65, 5, None])
def test_bad_entropy_is_a_400(host, entropy):
    code = host.post("tables", {}).body["code"]
    answer = post(host, code, "entropy", entropy=entropy)
    assert answer.status == 400 and "entropy" in answer.body["errors"]


@pytest.mark.slow
def test_the_readmes_standalone_check_verifies_a_finished_game(played, finished, tmp_path):
    """The dice page's script, standard library only, checks a game from the dice answer,
    and says so when a roll is not the seed's."""
    script = re.search(r"```python verify_dice\n(.*?)```", DICE_PAGE.read_text(), re.S)
    assert script, "docs/dice.md has no verify_dice script"
    path = tmp_path / "verify_dice.py"
    path.write_text(script.group(1))
    answer = played.host.get(f"tables/{finished}/games/1/dice").body
    good = tmp_path / "dice.json"
    good.write_text(json.dumps(answer))
    checked = subprocess.run([sys.executable, path, good], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{len(answer['rolls'])} rolls" in checked.stdout
    answer["rolls"][3]["recorded"] = [7 - d for d in answer["rolls"][3]["recorded"]]
    good.write_text(json.dumps(answer))
    tampered = subprocess.run([sys.executable, path, good], capture_output=True, text=True)
    assert tampered.returncode == 1 and answer["rolls"][3]["label"] in tampered.stdout
