"""gamelib.learn.guide and selfplay: the two-headed backward pass agrees with finite
differences, the guide's answers are a Guide's, the board's symmetries, seeded self-play
gives the same weights twice, and the shipped weights load."""

from __future__ import annotations

import fnmatch
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import assert_gradients_match_finite_differences

from gamelib.errors import GameError
from gamelib.game import replay
from gamelib.games import Nim, TicTacToe
from gamelib.learn.guide import (
    CELLS,
    GUIDE_FILE,
    GuideNet,
    TicTacToeGuide,
    board_features,
    load_guide,
    load_net,
    save_net,
)
from gamelib.learn.selfplay import (
    SYMMETRIES,
    distinct_examples,
    self_play_training,
    symmetric_copies,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

GAME = TicTacToe()


def _data(rows: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """Random 0/1 features, random policy distributions and value classes."""
    rng = np.random.default_rng(5)
    features = rng.integers(0, 2, (rows, 18)).astype(float)
    shares = rng.random((rows, 9))
    shares /= shares.sum(axis=1, keepdims=True)
    results = rng.random((rows, 3))
    return features, np.hstack([shares, results / results.sum(axis=1, keepdims=True)])


def test_gradients_agree_with_finite_differences() -> None:
    net = GuideNet(hidden=5, seed=3)
    features, targets = _data()
    assert_gradients_match_finite_differences(net, features, targets)


def test_features_are_seen_by_the_player_to_move() -> None:
    state = replay(GAME, [(0, 0), (1, 1), (2, 2)])      # O to move: X at 1,1 and 3,3
    features = board_features(GAME, state)
    assert list(np.flatnonzero(features)) == [4, 9 + 0, 9 + 8]


def test_the_guide_gives_priors_of_the_legal_moves_and_a_value() -> None:
    guide = TicTacToeGuide(GuideNet(seed=2))
    state = replay(GAME, [(0, 0), (1, 1)])
    priors, value = guide(GAME, state)
    assert list(priors) == GAME.moves(state)
    assert abs(sum(priors.values()) - 1) < 1e-12 and all(p > 0 for p in priors.values())
    assert -1 <= value <= 1
    assert guide(GAME, state) == (priors, value)     # remembered, the same answer
    with pytest.raises(GameError, match="trained on tic-tac-toe"):
        guide(Nim((1, 2)), (1, 2))


def test_a_guide_keeps_its_copy_of_the_weights() -> None:
    net = GuideNet(seed=2)
    guide = TicTacToeGuide(net)
    state = replay(GAME, [(1, 1)])
    before = guide(GAME, state)
    net.w1 += 1.0
    assert TicTacToeGuide(net)(GAME, state) != before
    assert guide(GAME, state) == before == TicTacToeGuide(GuideNet(seed=2))(GAME, state)


def test_the_eight_symmetries_move_a_corner_to_every_corner() -> None:
    assert SYMMETRIES[0] == tuple(range(9)) and len(set(SYMMETRIES)) == 8
    features = np.zeros((1, 18))
    features[0, 0] = 1.0                     # the mover's mark in the corner 1,1
    targets = np.zeros((1, 12))
    targets[0, 1], targets[0, 11] = 1.0, 1.0  # all visits on 1,2; a win
    x, t = symmetric_copies(features, targets)
    corners = {CELLS[int(np.flatnonzero(row)[0])] for row in x}
    edges = {CELLS[int(np.flatnonzero(row[:9])[0])] for row in t}
    assert corners == {(0, 0), (0, 2), (2, 0), (2, 2)}
    assert edges == {(0, 1), (1, 0), (1, 2), (2, 1)} and set(t[:, 11]) == {1.0}


def test_a_position_met_twice_is_one_example_with_the_mean_targets() -> None:
    features = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    targets = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    x, t = distinct_examples(features, targets)
    assert x.tolist() == [[0.0, 1.0], [1.0, 0.0]] and t.tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_seeded_self_play_gives_the_same_weights_twice() -> None:
    def tiny() -> GuideNet:
        return self_play_training(2, 2, 8, 3, seed=4, hidden=8).net
    first, second = tiny(), tiny()
    assert all(np.array_equal(a, b)
               for a, b in zip(first.parameters(), second.parameters(), strict=True))
    assert not np.array_equal(first.w1, GuideNet(8, 4).w1)        # it did train


def test_the_reports_count_the_games_and_positions() -> None:
    run = self_play_training(2, 3, 8, 5, seed=4, hidden=8)
    for k, report in enumerate(run.rounds):
        assert report.x_wins + report.draws + report.x_losses == 3
        assert 3 * 5 * (k + 1) <= report.positions <= 3 * 9 * (k + 1)
        assert report.examples <= 8 * report.positions
        assert report.loss_after < report.loss_before


def test_bad_training_counts_are_refused() -> None:
    with pytest.raises(GameError, match="games is a whole number from 1"):
        self_play_training(1, 0, 5, 1)
    with pytest.raises(GameError, match="hidden is a whole number"):
        GuideNet(hidden=0)


def test_weights_survive_saving_exactly(tmp_path: Path) -> None:
    net = GuideNet(hidden=6, seed=9)
    save_net(net, tmp_path / "g.json")
    again = load_net((tmp_path / "g.json").read_text())
    assert all(np.array_equal(a, b)
               for a, b in zip(net.parameters(), again.parameters(), strict=True))
    data = json.loads((tmp_path / "g.json").read_text())
    data["w1"] = data["w1"][:-1]
    with pytest.raises(GameError, match="not a guide network's weights"):
        load_net(json.dumps(data))


def test_the_shipped_guide_loads_and_answers() -> None:
    guide = load_guide()
    assert guide.net.hidden == 64
    win = replay(GAME, [(0, 0), (1, 1), (0, 1), (2, 2)])  # X to move wins at 1,3
    priors, value = guide(GAME, win)
    assert max(priors, key=priors.__getitem__) == (0, 2)


def test_the_weights_are_small_package_data() -> None:
    """The wheel carries them: pyproject's package data for gamelib.learn matches the file."""
    root = Path(__file__).resolve().parents[2]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["gamelib.learn"]
    assert any(fnmatch.fnmatch(f"data/{GUIDE_FILE}", p) for p in patterns)
    assert (root / "gamelib" / "learn" / "data" / GUIDE_FILE).stat().st_size < 100_000
