"""Training the Hard level: a few games of a small network, never a real training run."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.cpu.net import Net
from engine.cpu.train import learn, main, self_play
from engine.rules import Finish, Muji, Rules


def test_a_game_ends_with_its_result_for_the_last_side_to_roll():
    net = Net.fresh(8, seed=3)
    game = self_play(net, Rules(Finish.IRI, Muji.BIGGER), random.Random(5))
    assert game.features.shape[0] > 10
    assert game.result[0] in (0.0, 1.0) and list(game.result[3:]) == [0.0, 0.0]
    again = self_play(net, Rules(Finish.IRI, Muji.BIGGER), random.Random(5))
    assert np.array_equal(game.features, again.features), "a seed replays the same game"


def test_learning_moves_the_last_estimate_toward_the_result():
    net = Net.fresh(8, seed=4)
    game = self_play(net, Rules(Finish.BEAR_OFF), random.Random(6))
    before = np.abs(net.outputs(game.features[-1:])[0] - game.result).sum()
    learn(net, game, alpha=0.05, lam=0.7)
    after = np.abs(net.outputs(game.features[-1:])[0] - game.result).sum()
    assert after < before


@pytest.mark.slow
def test_a_tiny_run_saves_resumes_and_gives_the_same_net_as_one_never_stopped(tmp_path):
    def run(name: str, games: int, *extra: str) -> dict[str, np.ndarray]:
        out, checkpoint = tmp_path / f"{name}.npz", tmp_path / f"{name}-checkpoint.npz"
        main(
            ["--games", str(games), "--seed", "7", "--hidden", "8", "--eval-every", "100"]
            + ["--eval-games", "1", "--progress-every", "1", "--out", str(out)]
            + ["--checkpoint", str(checkpoint), "--curve", str(tmp_path / f"{name}.png"), *extra]
        )
        assert out.exists() and (tmp_path / f"{name}.png").stat().st_size > 1000
        with np.load(checkpoint) as data:
            return dict(data)

    first = run("stopped", 2)
    with np.load(tmp_path / "stopped.npz") as weights:
        assert str(weights["command"]).startswith("python -m engine.cpu.train --games 2 --seed 7")
    assert int(first["games"]) == 2 and first["curve"].shape == (1, 5)
    resumed = run("stopped", 3, "--resume")
    assert int(resumed["games"]) == 3 and resumed["curve"].shape == (2, 5)
    straight = run("straight", 3)
    assert np.array_equal(resumed["w1"], straight["w1"])
    assert not np.array_equal(resumed["w1"], first["w1"])
