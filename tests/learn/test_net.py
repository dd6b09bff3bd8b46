"""gamelib.learn.net: the backward passes agree with finite differences, training lowers the
loss and fits a small problem exactly, and bad sizes get the project's message."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_gradients_match_finite_differences

from gamelib.errors import GameError
from gamelib.learn.net import (
    SoftmaxRegression,
    TwoLayerNet,
    accuracy,
    cross_entropy,
    softmax,
    train,
)


def _data(rows: int = 12, inputs: int = 5, classes: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return rng.normal(size=(rows, inputs)), rng.integers(0, classes, rows)


def test_softmax_rows_sum_to_one_and_survive_large_scores() -> None:
    p = softmax(np.array([[1000.0, 1000.0, 0.0], [0.0, 0.0, 0.0]]))
    assert np.allclose(p.sum(axis=1), 1)
    assert np.allclose(p[0], [0.5, 0.5, 0.0]) and np.allclose(p[1], 1 / 3)


def test_cross_entropy_of_a_certain_right_answer_is_zero() -> None:
    loss, delta = cross_entropy(np.array([[0.0, 1.0, 0.0]]), np.array([1]))
    assert loss == pytest.approx(0, abs=1e-9) and np.allclose(delta, 0)


@pytest.mark.parametrize("model", [SoftmaxRegression(5), TwoLayerNet(5, hidden=4, seed=3)],
                         ids=["softmax", "two-layer"])
def test_gradients_agree_with_finite_differences(model: SoftmaxRegression | TwoLayerNet) -> None:
    features, labels = _data()
    assert_gradients_match_finite_differences(model, features, labels)


def test_training_lowers_the_loss_and_fits_twelve_points() -> None:
    features, labels = _data()
    model = TwoLayerNet(5, hidden=16, seed=0)
    losses = train(model, features, labels, epochs=300, rate=0.5)
    assert len(losses) == 300 and losses[-1] < losses[0] / 10
    assert accuracy(model, features, labels) == 1.0


def test_the_same_seed_gives_the_same_weights() -> None:
    features, labels = _data()
    first, second = TwoLayerNet(5, seed=2), TwoLayerNet(5, seed=2)
    train(first, features, labels, epochs=20)
    train(second, features, labels, epochs=20)
    assert all(np.array_equal(a, b)
               for a, b in zip(first.parameters(), second.parameters(), strict=True))


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3", 100_001])
def test_bad_sizes_are_refused_with_a_message(bad: object) -> None:
    with pytest.raises(GameError, match="inputs is a whole number from 1"):
        TwoLayerNet(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 2.5, True, "3", 100_001])
def test_bad_epochs_are_refused_with_a_message(bad: object) -> None:
    model = SoftmaxRegression(2)
    with pytest.raises(GameError, match="epochs is a whole number from 0"):
        train(model, np.zeros((1, 2)), np.zeros(1, dtype=int), bad)  # type: ignore[arg-type]
    assert not model.weights.any()
