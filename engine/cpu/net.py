"""The Hard level's network: one hidden layer of sigmoid units, five sigmoid outputs.

It estimates, for the side about to roll, the chances that

0. it wins the game,
1. it wins 2 points or more (under `muji: bigger`: a mushi or mujō win),
2. it wins 3 points (a mujō win),
3. it loses 2 points or more,
4. it loses 3 points,

so `equity` (the points it expects to win, -3 to 3) includes the bigger wins, as the
game review must. Playing needs only this module, the features and numpy: the weights
come from an .npz file that `engine.cpu.train` writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.cpu.features import COUNT

Array = npt.NDArray[np.float64]
OUTPUTS = 5


def sigmoid(x: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))


@dataclass
class Net:
    w1: Array
    """(features, hidden)"""
    b1: Array
    w2: Array
    """(hidden, outputs)"""
    b2: Array

    @classmethod
    def fresh(cls, hidden: int, seed: int) -> Net:
        """Small random weights, as TD-Gammon started from."""
        rng = np.random.default_rng(seed)
        return cls(
            rng.normal(0.0, 0.1, (COUNT, hidden)),
            np.zeros(hidden),
            rng.normal(0.0, 0.1, (hidden, OUTPUTS)),
            np.zeros(OUTPUTS),
        )

    def forward(self, x: Array) -> tuple[Array, Array]:
        """The hidden activations and the outputs for features `x` (one row each)."""
        hidden = sigmoid(x @ self.w1 + self.b1)
        return hidden, sigmoid(hidden @ self.w2 + self.b2)

    def outputs(self, x: Array) -> Array:
        return self.forward(x)[1]

    def save(self, path: Path, **notes: npt.ArrayLike) -> None:
        """Write the weights, with notes such as the command that made them."""
        arrays: dict[str, npt.ArrayLike] = {
            "w1": self.w1,
            "b1": self.b1,
            "w2": self.w2,
            "b2": self.b2,
            **notes,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:  # np.savez would add ".npz" to a name without it
            np.savez(f, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, path: Path) -> Net:
        with np.load(path) as data:
            return cls(data["w1"], data["b1"], data["w2"], data["b2"])


def equity(outputs: Array) -> Array:
    """The points the side to roll expects to win, per row of outputs."""
    win, win2, win3, lose2, lose3 = outputs.T
    points: Array = 2.0 * win - 1.0 + win2 + win3 - lose2 - lose3
    return points


def swap(outputs: Array) -> Array:
    """The same estimates seen from the other side."""
    return np.stack(
        [1.0 - outputs[..., 0], outputs[..., 3], outputs[..., 4], outputs[..., 1], outputs[..., 2]],
        axis=-1,
    )
