"""Exercise 14's checker: right code passes, the usual mistakes fail with their hint."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gamelib.exercises import check_gradients
from gamelib.exercises.ex14_training import CASES, EPOCHS
from gamelib.game import GameError


def probabilities(weights: Any, bias: Any, x: Any) -> Any:
    scores = x @ weights + bias
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def mine(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    """Written without gamelib's: (p - onehot) / n, then x.T @ delta and its column sums."""
    delta = probabilities(weights, bias, x)
    delta[np.arange(len(y)), y] -= 1
    delta /= len(y)
    return x.T @ delta, delta.sum(axis=0)


def test_right_code_passes_with_the_facts() -> None:
    result = check_gradients(mine)
    assert result.passed, repr(result)
    assert result.facts["cases"] == len(CASES) == 6 and result.facts["epochs"] == EPOCHS == 60
    assert 0.5 < result.facts["held_out_accuracy"] < 0.7
    assert "reach gamelib's weights" in repr(result)


def naive_softmax(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x @ weights + bias)
        delta = e / e.sum(axis=1, keepdims=True)
    delta[np.arange(len(y)), y] -= 1
    delta /= len(y)
    return x.T @ delta, delta.sum(axis=0)


def summed(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    d_weights, d_bias = mine(weights, bias, x, y)
    return len(y) * d_weights, len(y) * d_bias


def uphill(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    d_weights, d_bias = mine(weights, bias, x, y)
    return -d_weights, -d_bias


def no_onehot(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    delta = probabilities(weights, bias, x) / len(y)
    return x.T @ delta, delta.sum(axis=0)


def bias_mean(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    d_weights, d_bias = mine(weights, bias, x, y)
    return d_weights, d_bias / len(bias)


def transposed(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    d_weights, d_bias = mine(weights, bias, x, y)
    return d_weights.T, d_bias


def in_place(weights: Any, bias: Any, x: Any, y: Any) -> tuple[Any, Any]:
    answer = mine(weights, bias, x, y)
    weights -= answer[0]
    return answer


def remembers(weights: Any, bias: Any, x: Any, y: Any, seen: list[int] = []) -> Any:  # noqa: B006
    seen.append(1)
    d_weights, d_bias = mine(weights, bias, x, y)
    return (d_weights, d_bias) if len(seen) <= len(CASES) + 5 else (d_weights, 0 * d_bias)


@pytest.mark.parametrize(("wrong", "hint"), [
    (naive_softmax, "Subtract each row's largest score before exp"),
    (summed, "n times too large"),
    (uphill, "the sign is the wrong way round"),
    (no_onehot, "delta = p - onehot(y)"),
    (bias_mean, "d_bias is delta summed over the rows"),
    (transposed, "d_weights has the shape of weights"),
    (in_place, "your function changed its arguments"),
    (remembers, "right on the hand-made cases but not in training"),
])
def test_the_usual_mistakes_fail_with_their_hint(wrong: Any, hint: str) -> None:
    result = check_gradients(wrong)
    assert not result.passed and hint in repr(result), repr(result)


def test_a_stub_is_not_done_and_a_non_function_is_refused() -> None:
    def stub(weights: Any, bias: Any, x: Any, y: Any) -> Any:
        raise NotImplementedError

    result = check_gradients(stub)
    assert not result.done and "not done yet" in repr(result)
    with pytest.raises(GameError):
        check_gradients((1, 2))  # type: ignore[arg-type]
