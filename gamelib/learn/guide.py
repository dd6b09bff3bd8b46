"""A policy-and-value network for tic-tac-toe, and the guide it gives a search (PUCT).

AlphaZero's network reads a position and answers two questions at once: which moves look
worth searching (the **policy**, a probability for each move) and who is winning (the
**value**). :class:`GuideNet` is that network in miniature, built from the pieces of
:mod:`gamelib.learn.net`::

    hidden = tanh(features @ w1 + b1)                 one layer, shared by both heads
    policy = softmax(hidden @ wp + bp)                9 cells
    value  = softmax(hidden @ wv + bv)                loss, draw, win (for the mover)

The features of a board are 18 numbers seen by the player to move: 9 cells holding that
player's marks, then 9 cells holding the opponent's (:func:`board_features`). The value
the search uses is ``P(win) - P(loss)``, a number in [-1, 1] for the player to move.

Training fits both heads at once (:meth:`GuideNet.gradients`), each by the cross-entropy
against a target *distribution* (:func:`soft_cross_entropy`): the policy head to one over
the cells (in self-play, the search's visit shares), the value head to one over loss, draw
and win (a game's result; the average result where a position was met several times). The
targets of one example are one row of 12 numbers, 9 for the policy then 3 for the value,
so that :func:`~gamelib.learn.net.train` trains this model like any other.

:class:`TicTacToeGuide` turns a network into a :data:`~gamelib.search.puct.Guide`: the
priors of the legal moves (a softmax over their scores alone) and the value.
:func:`load_guide` reads the weights shipped with the package
(``gamelib/learn/data/tictactoe_guide.json``, made by ``tools/train_guide.py`` with
:func:`gamelib.learn.selfplay.self_play_training`).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final, cast

import numpy as np

from gamelib.errors import GameError, describe_text
from gamelib.games import TicTacToe
from gamelib.games.tictactoe import Board
from gamelib.learn.net import Array, layer, softmax

__all__ = [
    "CELLS",
    "FEATURES",
    "GUIDE_FILE",
    "GuideNet",
    "TicTacToeGuide",
    "board_features",
    "soft_cross_entropy",
    "load_guide",
    "save_net",
    "load_net",
]

CELLS: Final = tuple((r, c) for r in range(3) for c in range(3))
"""The nine cells in the order of the policy head's outputs: row by row."""
FEATURES: Final = 18
"""Inputs of the network: the mover's 9 cells, then the opponent's 9."""
GUIDE_FILE: Final = "tictactoe_guide.json"
"""The shipped weights, in ``gamelib/learn/data``."""


def board_features(game: TicTacToe, state: Board) -> Array:
    """The 18 features of a running tic-tac-toe ``state`` for the player to move there:
    1.0 where that player has a mark (cells 0 to 8, row by row), then 1.0 where the
    opponent has one (cells 9 to 17); 0.0 elsewhere."""
    mover = game.to_move(state)
    out = np.zeros(FEATURES)
    for k, (r, c) in enumerate(CELLS):
        mark = state[r][c]
        if mark != " ":
            out[k if mark == mover else 9 + k] = 1.0
    return out


def soft_cross_entropy(probabilities: Array, targets: Array) -> tuple[float, Array]:
    """The mean cross-entropy of ``probabilities`` against ``targets``, a distribution per
    row, -sum(t log p) / n, and its gradient with respect to the scores that went into the
    softmax: (p - t) / n. (With one-hot targets it is
    :func:`~gamelib.learn.net.cross_entropy`.)"""
    n = len(targets)
    loss = float(-(targets * np.log(probabilities + 1e-12)).sum() / n)
    return loss, (probabilities - targets) / n


@dataclass
class GuideNet:
    """One tanh hidden layer shared by a policy head (9 cells) and a value head (loss,
    draw, win), for the features of :func:`board_features`.

    Weights start as seeded normal numbers scaled by 1/sqrt(fan-in), biases at 0, as in
    :class:`~gamelib.learn.net.TwoLayerNet`."""

    hidden: int = 32
    seed: int = 0
    w1: Array = field(init=False, repr=False)
    b1: Array = field(init=False, repr=False)
    wp: Array = field(init=False, repr=False)  # the policy head
    bp: Array = field(init=False, repr=False)
    wv: Array = field(init=False, repr=False)  # the value head
    bv: Array = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.hidden, int) or isinstance(self.hidden, bool) or not (
                1 <= self.hidden <= 1000):
            raise GameError(f"hidden is a whole number from 1 to 1,000; got "
                            f"{describe_text(self.hidden)}")
        rng = np.random.default_rng(self.seed)
        self.w1, self.b1 = layer(rng, FEATURES, self.hidden)
        self.wp, self.bp = layer(rng, self.hidden, len(CELLS))
        self.wv, self.bv = layer(rng, self.hidden, 3)

    def scores(self, features: Array) -> tuple[Array, Array]:
        """The policy scores (9 per row) and the value probabilities (3 per row)."""
        hidden = np.tanh(features @ self.w1 + self.b1)
        return hidden @ self.wp + self.bp, softmax(hidden @ self.wv + self.bv)

    def probabilities(self, features: Array) -> Array:
        """The policy head's probabilities over the 9 cells, one row per position."""
        return softmax(self.scores(features)[0])

    def values(self, features: Array) -> Array:
        """The value of each position for its player to move: P(win) - P(loss)."""
        outcome = self.scores(features)[1]
        return outcome[:, 2] - outcome[:, 0]

    def gradients(self, features: Array, targets: Array) -> tuple[float, list[Array]]:
        """The loss (the policy's cross-entropy plus the value's, each against its target
        distribution) and its gradient for each of :meth:`parameters`. ``targets`` has 12
        columns: 9 for the policy, then 3 for the value (loss, draw, win).

        Backward pass: both heads' score gradients are (p - target) / n; they meet in the
        hidden layer, each through its own weights, and go through tanh' = 1 - tanh²."""
        hidden = np.tanh(features @ self.w1 + self.b1)
        policy_loss, policy_delta = soft_cross_entropy(softmax(hidden @ self.wp + self.bp),
                                                       targets[:, :9])
        value_loss, value_delta = soft_cross_entropy(softmax(hidden @ self.wv + self.bv),
                                                     targets[:, 9:])
        back = (policy_delta @ self.wp.T + value_delta @ self.wv.T) * (1 - hidden**2)
        return policy_loss + value_loss, [
            features.T @ back, back.sum(axis=0),
            hidden.T @ policy_delta, policy_delta.sum(axis=0),
            hidden.T @ value_delta, value_delta.sum(axis=0)]

    def parameters(self) -> list[Array]:
        """``[w1, b1, wp, bp, wv, bv]``: the arrays that training changes in place."""
        return [self.w1, self.b1, self.wp, self.bp, self.wv, self.bv]


class TicTacToeGuide:
    """A :data:`~gamelib.search.puct.Guide` for :class:`~gamelib.games.TicTacToe` from a
    :class:`GuideNet`: ``guide(game, state) -> (priors, value)``.

    The priors are a softmax over the policy scores of the legal moves alone (an occupied
    cell gets nothing), in the game's move order; the value is the net's P(win) - P(loss)
    for the player to move. It copies the weights when made (training the net afterwards
    does not change it) and remembers its answers (a state is asked about once)."""

    def __init__(self, net: GuideNet) -> None:
        self.net = GuideNet(net.hidden, net.seed)
        for mine, theirs in zip(self.net.parameters(), net.parameters(), strict=True):
            mine[...] = theirs
        self._answers: dict[Hashable, tuple[dict[Hashable, float], float]] = {}

    def __call__(self, game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
        known = self._answers.get(state)
        if known is not None:
            return dict(known[0]), known[1]
        if not isinstance(game, TicTacToe):
            raise GameError(f"this guide was trained on tic-tac-toe (TicTacToe()); got "
                            f"{describe_text(game)}")
        board = cast(Board, state)
        moves = game.moves(board)
        scores, outcome = self.net.scores(board_features(game, board)[None, :])
        legal = softmax(scores[:, [CELLS.index(m) for m in moves]])[0]
        answer: tuple[dict[Hashable, float], float] = (
            {m: float(p) for m, p in zip(moves, legal, strict=True)},
                  float(outcome[0, 2] - outcome[0, 0]))
        self._answers[state] = answer
        return dict(answer[0]), answer[1]


def save_net(net: GuideNet, path: Path) -> None:
    """Write ``net``'s shape and weights to ``path`` as JSON (floats written exactly)."""
    names = ["w1", "b1", "wp", "bp", "wv", "bv"]
    data = {"hidden": net.hidden, "seed": net.seed,
            **{n: getattr(net, n).tolist() for n in names}}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def load_net(text: str) -> GuideNet:
    """The :class:`GuideNet` written by :func:`save_net` (its text). Raises GameError if
    the text is not such a file."""
    try:
        data = json.loads(text)
        net = GuideNet(int(data["hidden"]), int(data["seed"]))
        for name in ["w1", "b1", "wp", "bp", "wv", "bv"]:
            array = np.array(data[name], dtype=float)
            if array.shape != getattr(net, name).shape or not np.isfinite(array).all():
                raise ValueError(name)
            setattr(net, name, array)
    except (ValueError, KeyError, TypeError) as error:
        raise GameError(f"not a guide network's weights (save_net's JSON): {error}") from None
    return net


def load_guide() -> TicTacToeGuide:
    """The guide of the network shipped with the package, trained by self-play
    (``tools/train_guide.py`` regenerates it)."""
    text = (resources.files(__package__) / "data" / GUIDE_FILE).read_text("utf-8")
    return TicTacToeGuide(load_net(text))
