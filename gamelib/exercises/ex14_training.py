"""Exercise 14: one training step, the gradient of logistic regression.

The student writes ``gradients(weights, bias, x, y)``: the gradient of the mean
cross-entropy of softmax (multinomial logistic) regression, scores ``x @ weights + bias``,
with respect to ``weights`` and ``bias``. :func:`check_gradients` compares it with
:class:`~gamelib.learn.net.SoftmaxRegression`'s on seeded arrays of several shapes (one of
them with scores large enough to overflow a softmax computed without care), then trains
with it: :data:`EPOCHS` steps of full-batch gradient descent with momentum on Lesson 12's
tic-tac-toe data, which must end at gamelib's weights, and reports the held-out accuracy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np

from gamelib.exercises.guard import Forbidden
from gamelib.exercises.report import FAIL, PASS, CheckResult, Line, show
from gamelib.exercises.run import ask, checker
from gamelib.learn.net import SoftmaxRegression, accuracy, train
from gamelib.learn.value import tictactoe_dataset

__all__ = ["CASES", "EPOCHS", "RATE", "MOMENTUM", "check_gradients"]

CASES: Final[tuple[tuple[int, int, int, float], ...]] = (
    (4, 5, 3, 0.0),
    (1, 1, 2, 0.0),
    (7, 3, 4, 0.0),
    (12, 18, 3, 0.0),
    (3, 2, 5, 0.0),
    (6, 4, 3, 1000.0),
)
"""The hand-made cases, in the order they are checked: (rows, inputs, classes, shift). The
shift is added to every bias: the probabilities stay the same, but with a shift of 1,000
every score is above 990, and ``exp`` of it overflows."""

SEED: Final = 14
"""The seed of the cases' arrays (``numpy.random.default_rng``)."""

EPOCHS: Final = 60
"""Training steps run with the student's gradients on the tic-tac-toe data."""
RATE: Final = 0.5
MOMENTUM: Final = 0.9
"""The step size and momentum of that run, as :func:`gamelib.learn.train`'s defaults."""

TOLERANCE: Final = 1e-8
"""How far an entry of a gradient, or a trained weight, may be from gamelib's."""

Array = Any


def _case(rows: int, inputs: int, classes: int, shift: float, index: int
          ) -> tuple[Array, Array, Array, Array]:
    rng = np.random.default_rng(SEED + index)
    weights = rng.normal(0, 1, (inputs, classes))
    bias = rng.normal(0, 1, classes) + shift
    x = rng.integers(0, 2, (rows, inputs)).astype(float)
    y = rng.integers(0, classes, rows)
    return weights, bias, x, y


def _reference(weights: Array, bias: Array, x: Array, y: Array) -> tuple[Array, Array]:
    model = SoftmaxRegression(weights.shape[0], weights.shape[1])
    model.weights[...], model.bias[...] = weights, bias
    _, (d_weights, d_bias) = model.gradients(x, y)
    return d_weights, d_bias


def _pair(answer: Any, weights: Array, bias: Array) -> tuple[Array, Array] | str:
    """``answer`` as two float arrays of the shapes of ``weights`` and ``bias``, or what is
    wrong with it."""
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return f"a pair (d_weights, d_bias), not {show(answer, 40)}"
    try:
        d_weights, d_bias = (np.asarray(a, dtype=float) for a in answer)
    except (TypeError, ValueError):
        return "numbers only: two numpy arrays (or nested lists of numbers)"
    if d_weights.shape != weights.shape:
        return (f"d_weights has the shape of weights, {weights.shape} (inputs, classes), not "
                f"{d_weights.shape}: x.T @ delta")
    if d_bias.shape != bias.shape:
        return (f"d_bias has one number per class, shape {bias.shape}, not {d_bias.shape}: "
                "delta summed over the rows (axis=0)")
    return d_weights, d_bias


def _hint(got: tuple[Array, Array], want: tuple[Array, Array], case: list[Array]) -> str:
    """What the student's gradients ``got`` most likely did, against gamelib's ``want``, on
    ``case`` = [weights, bias, x, y]."""
    (gw, gb), (ww, wb) = got, want
    weights, bias, x, y = case
    if not (np.isfinite(gw).all() and np.isfinite(gb).all()):
        return ("not a number came out: exp of a large score overflows. Subtract each row's "
                "largest score before exp (the softmax stays the same)")

    def near(a: Array, b: Array) -> bool:
        return bool(np.allclose(a, b, rtol=1e-6, atol=1e-9))

    n = len(y)
    scores = x @ weights + bias
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    if near(gw, n * ww) and near(gb, n * wb):
        return "n times too large: the loss is a mean over the n rows, so divide by n"
    if near(gw, -ww) and near(gb, -wb):
        return "the sign is the wrong way round: delta is p - onehot(y), not onehot(y) - p"
    if near(gw, x.T @ p / n):
        return "subtract 1 from each row's probability of its label y: delta = p - onehot(y)"
    if near(gw, ww):
        return "d_weights is right; d_bias is delta summed over the rows (axis=0)"
    return ("delta = (p - onehot(y)) / n, where p is the softmax of the scores; then "
            "d_weights = x.T @ delta and d_bias = delta summed over the rows")


_FORBIDDEN: Final = Forbidden(modules=("gamelib.learn",))
"""gamelib's models, training and softmax out of the student's reach."""


@checker(forbid=_FORBIDDEN)
def check_gradients(gradients_: Callable[..., Any]) -> CheckResult:
    """Check the student's ``gradients(weights, bias, x, y)``.

    First on the :data:`CASES`: the answer must be a pair ``(d_weights, d_bias)`` of the
    shapes of ``weights`` and ``bias``, each entry within :data:`TOLERANCE` (relative) of
    gamelib's, and the arguments unchanged. Then :data:`EPOCHS` steps of gradient descent
    with momentum on the training part of :func:`~gamelib.learn.value.tictactoe_dataset`
    with the student's gradients must end at the weights :func:`~gamelib.learn.train`
    reaches. A failure names the case, the expected and the returned answer and a hint.
    ``facts``: ``cases``, ``epochs``, ``loss`` (gamelib's, before the last step) and
    ``held_out_accuracy`` of the trained weights. Raises :class:`GameError` if the argument
    is not callable.
    """
    title = "gradients: one training step of logistic regression"
    for index, (rows, inputs, classes, shift) in enumerate(CASES):
        weights, bias, x, y = _case(rows, inputs, classes, shift, index)
        kept = [a.copy() for a in (weights, bias, x, y)]
        call = (f"gradients(weights {weights.shape}, bias {bias.shape}, x {x.shape}, "
                f"y {show(y.tolist(), 40)})")
        answer = ask(title, "gradients", call, gradients_, weights, bias, x, y,
                     first=index == 0)
        want = _reference(*kept)
        if not all(np.array_equal(a, b) for a, b in zip((weights, bias, x, y), kept,
                                                          strict=True)):
            return CheckResult(title, (Line(FAIL, call, (
                ("hint", "your function changed its arguments: compute new arrays and "
                         "leave weights, bias, x and y as they were"),)),))
        got = _pair(answer, weights, bias)
        if isinstance(got, str) or not all(
                np.allclose(g, w, rtol=TOLERANCE, atol=TOLERANCE)
                for g, w in zip(got, want, strict=True)):
            if isinstance(got, str):
                return CheckResult(title, (Line(FAIL, call, (
                    ("returned", show(answer, 70)), ("hint", got))),))
            return CheckResult(title, (Line(FAIL, call, (
                ("d_weights", "right" if np.allclose(got[0], want[0], rtol=TOLERANCE,
                                                     atol=TOLERANCE)
                 else f"off by up to {float(np.abs(got[0] - want[0]).max()):.3g}"),
                ("expected d_bias", show(np.round(want[1], 6).tolist(), 70)),
                ("returned d_bias", show(np.round(got[1], 6).tolist(), 70)),
                ("hint", _hint(got, want, kept)),
            )),))

    data = tictactoe_dataset()
    features, labels = data.part(held_out=False)
    reference = SoftmaxRegression(features.shape[1])
    losses = train(reference, features, labels, EPOCHS, RATE, MOMENTUM)
    weights, bias = np.zeros_like(reference.weights), np.zeros_like(reference.bias)
    speeds = [np.zeros_like(weights), np.zeros_like(bias)]
    for epoch in range(EPOCHS):
        call = f"gradients(...) in step {epoch + 1} of the training run"
        answer = ask(title, "gradients", call, gradients_, weights.copy(), bias.copy(),
                     features, labels)
        got = _pair(answer, weights, bias)
        if isinstance(got, str):
            return CheckResult(title, (Line(FAIL, call, (("hint", got),)),))
        for parameter, speed, grad in zip((weights, bias), speeds, got, strict=True):
            speed *= MOMENTUM
            speed -= RATE * grad
            parameter += speed
    if not (np.allclose(weights, reference.weights, rtol=1e-6, atol=TOLERANCE)
            and np.allclose(bias, reference.bias, rtol=1e-6, atol=TOLERANCE)):
        return CheckResult(title, (Line(FAIL, f"{EPOCHS} training steps on tic-tac-toe", (
            ("expected bias", show(np.round(reference.bias, 4).tolist())),
            ("returned", show(np.round(bias, 4).tolist())),
            ("hint", "right on the hand-made cases but not in training: does your function "
                     "keep something between calls?"),
        )),))
    trained = SoftmaxRegression(features.shape[1])
    trained.weights[...], trained.bias[...] = weights, bias
    held_out = accuracy(trained, *data.part(held_out=True))
    facts = {"cases": len(CASES), "epochs": EPOCHS, "loss": losses[-1],
             "held_out_accuracy": held_out}
    return CheckResult(title, (
        Line(PASS, f"the same gradients as gamelib's in {len(CASES)} hand-made cases, "
                   "large scores included"),
        Line(PASS, f"{EPOCHS} steps of gradient descent with momentum on tic-tac-toe's "
                   f"{len(labels):,} training positions reach gamelib's weights; "
                   f"right on {held_out:.3f} of the {len(data.part(True)[1])} held-out"),
    ), facts=facts)
