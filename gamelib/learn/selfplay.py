"""Self-play training of the tic-tac-toe guide: AlphaZero's loop in miniature.

One **round** of :func:`self_play_training`:

1. play ``games`` games of the network against itself, each move chosen by PUCT
   (:func:`~gamelib.search.mcts.mcts` with the current :class:`TicTacToeGuide`, a fixed
   number of ``iterations``); record for every position its features, the search's
   **visit shares** over the 9 cells, and who was to move (:func:`self_play_game`);
2. label every recorded position with the game's final result for the player to move
   there (loss, draw, win);
3. fit the network (:func:`~gamelib.learn.net.train`, full batch) to all the positions
   recorded so far, each in its 8 symmetric versions (rotations and reflections of the
   board give the same problem): the policy head towards the visit shares, the value
   head towards the results. A position met several times is one example, with its
   targets averaged (:func:`distinct_examples`): tic-tac-toe has at most 4,520 of them,
   so a round's training costs the same however many games were played.

The search makes the network's priors better (visits go where the search found value),
the results make its values better, and a better network makes the next round's search
better. Moves are drawn in proportion to the visits in the first ``sampled_plies`` plies
of a game (so the games differ), then the search's own choice is played.
Everything is seeded: the same arguments give the same weights, to the last bit, on the
same machine and numpy.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, cast

import numpy as np

from gamelib.errors import GameError, describe_text
from gamelib.games import TicTacToe
from gamelib.games.tictactoe import Cell
from gamelib.learn.guide import CELLS, GuideNet, TicTacToeGuide, board_features
from gamelib.learn.net import Array, train
from gamelib.search import mcts

__all__ = ["RoundReport", "SelfPlayRun", "SYMMETRIES", "distinct_examples", "self_play_game",
           "self_play_training", "symmetric_copies"]


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the board as permutations of the 9 cell indices: new cell k
    takes the old cell ``perm[k]``."""
    def rotate(r: int, c: int) -> tuple[int, int]:
        return c, 2 - r
    perms = []
    for reflect in (False, True):
        for turns in range(4):
            perm = []
            for r, c in CELLS:
                rr, cc = (r, 2 - c) if reflect else (r, c)
                for _ in range(turns):
                    rr, cc = rotate(rr, cc)
                perm.append(CELLS.index((rr, cc)))
            perms.append(tuple(perm))
    return tuple(perms)


SYMMETRIES: Final = _symmetries()
"""The board's 8 symmetries (identity first), as permutations of the cells."""


def symmetric_copies(features: Array, targets: Array) -> tuple[Array, Array]:
    """Every row of ``features`` (18 columns) and ``targets`` (9 policy columns, then the
    value's) in its 8 symmetric versions: 8 times the rows, identity first."""
    blocks_f, blocks_t = [], []
    for perm in SYMMETRIES:
        p = list(perm)
        blocks_f.append(np.hstack([features[:, p], features[:, [9 + k for k in p]]]))
        blocks_t.append(np.hstack([targets[:, p], targets[:, 9:]]))
    return np.vstack(blocks_f), np.vstack(blocks_t)


def distinct_examples(features: Array, targets: Array) -> tuple[Array, Array]:
    """Each distinct row of ``features`` once (in sorted order), with the mean of the
    ``targets`` of its copies."""
    unique, index = np.unique(features, axis=0, return_inverse=True)
    index = index.reshape(-1)
    sums = np.zeros((len(unique), targets.shape[1]))
    np.add.at(sums, index, targets)
    return unique, sums / np.bincount(index)[:, None]


def self_play_game(guide: TicTacToeGuide, iterations: int, rng: random.Random,
                   sampled_plies: int = 2) -> tuple[Array, Array, int]:
    """One game of the guided search against itself: the features of each position, its
    targets (the root's visit shares over the 9 cells, then the final result for the
    player to move there as 3 numbers: 1 at loss, draw or win, 0 elsewhere), and the
    result for X (-1, 0, +1)."""
    game = TicTacToe()
    state = game.start
    rows, shares, movers = [], [], []
    while not game.finished(state):
        result = mcts(game, state, iterations=iterations, guide=guide, rng=rng)
        visits = [result.visits.get(cell, 0) for cell in CELLS]
        rows.append(board_features(game, state))
        shares.append(np.array(visits) / sum(visits))
        movers.append(game.to_move(state))
        move = cast(Cell, result.move)
        if len(rows) <= sampled_plies:
            move = rng.choices(CELLS, weights=visits)[0]
        state = game.play(state, move)
    results = np.eye(3)[[game.utility(state, p) + 1 for p in movers]]
    targets = np.hstack([np.array(shares), results])
    return np.array(rows), targets, game.utility(state, "X")


@dataclass(frozen=True)
class RoundReport:
    """What one round did: its games' results for X (wins, draws, losses), the positions
    recorded so far, the distinct examples trained on (after the symmetries), and the
    training loss before and after fitting."""

    x_wins: int
    draws: int
    x_losses: int
    positions: int
    examples: int
    loss_before: float
    loss_after: float


@dataclass
class SelfPlayRun:
    """The result of :func:`self_play_training`: the trained ``net`` and one
    :class:`RoundReport` per round."""

    net: GuideNet
    rounds: list[RoundReport] = field(default_factory=list)


def self_play_training(rounds: int, games: int, iterations: int, epochs: int, *,
                       seed: int = 0, hidden: int = 32, rate: float = 0.1,
                       sampled_plies: int = 2, net: GuideNet | None = None,
                       progress: Callable[[int, RoundReport], object] | None = None,
                       ) -> SelfPlayRun:
    """``rounds`` rounds of self-play and training (see the module docstring), each of
    ``games`` games whose moves are chosen by PUCT with ``iterations`` iterations, then
    ``epochs`` steps of full-batch training at ``rate`` on every position recorded so far.

    Starts from ``net`` (it is trained in place) or a new ``GuideNet(hidden, seed)``; the
    search's random source is ``random.Random(seed)``. ``progress(round, report)`` is called
    after each round. Every count is a whole number at least 1 (``epochs``: at least 0);
    raises GameError otherwise."""
    for name, value, low in (("rounds", rounds, 1), ("games", games, 1),
                             ("iterations", iterations, 1), ("epochs", epochs, 0),
                             ("sampled_plies", sampled_plies, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= 100_000:
            raise GameError(f"{name} is a whole number from {low} to 100,000; got "
                            f"{describe_text(value)}")
    rng = random.Random(seed)
    run = SelfPlayRun(net if net is not None else GuideNet(hidden, seed))
    features: list[Array] = []
    targets: list[Array] = []
    for k in range(rounds):
        guide = TicTacToeGuide(run.net)
        results = []
        for _ in range(games):
            rows, labels, result = self_play_game(guide, iterations, rng, sampled_plies)
            features.append(rows)
            targets.append(labels)
            results.append(result)
        recorded = np.vstack(features)
        x, t = distinct_examples(*symmetric_copies(recorded, np.vstack(targets)))
        losses = train(run.net, x, t, epochs, rate=rate)
        after = run.net.gradients(x, t)[0]
        report = RoundReport(results.count(1), results.count(0), results.count(-1),
                             len(recorded), len(x), losses[0] if losses else after, after)
        run.rounds.append(report)
        if progress is not None:
            progress(k, report)
    return run
