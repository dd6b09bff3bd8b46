"""Two models small enough to read, and their training, with numpy only.

Both map a row of **features** (numbers describing a position) to probabilities over a fixed
number of **classes** (for a value: loss, draw, win; for a policy: the moves):

* :class:`SoftmaxRegression`: scores = features @ weights + bias, then softmax;
* :class:`TwoLayerNet`: one hidden layer of ``tanh`` units, then the same.

Each writes its backward pass out (:meth:`TwoLayerNet.gradients`: the chain rule, layer by
layer), and :func:`train` runs full-batch gradient descent with momentum on the mean
cross-entropy. Everything is seeded: the same seed gives the same weights, to the last bit,
on the same machine and numpy. (Under a loaded machine numpy's BLAS threads can make
training many times slower: ``OPENBLAS_NUM_THREADS=1`` keeps it to one core.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from gamelib.errors import GameError, describe_text

__all__ = [
    "Array",
    "Model",
    "SoftmaxRegression",
    "TwoLayerNet",
    "accuracy",
    "cross_entropy",
    "layer",
    "softmax",
    "train",
]

Array = Any
"""A numpy array (numpy's own types are not spelled out in the signatures)."""


def softmax(scores: Array) -> Array:
    """Each row of ``scores`` turned into probabilities: exp(s) / sum(exp(s)), computed
    after subtracting the row's maximum (the same result, without overflow)."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def cross_entropy(probabilities: Array, labels: Array) -> tuple[float, Array]:
    """The mean cross-entropy of ``probabilities`` (one row per example) against the class
    index of each example in ``labels``, and its gradient with respect to the scores that
    went into the softmax: (p - onehot(label)) / n."""
    n = len(labels)
    rows = np.arange(n)
    loss = float(-np.log(probabilities[rows, labels] + 1e-12).mean())
    delta = probabilities.copy()
    delta[rows, labels] -= 1.0
    return loss, delta / n


class Model(Protocol):
    """A model of this module: class probabilities for each row, and their training."""

    def probabilities(self, features: Array) -> Array:
        """One row of class probabilities per row of ``features``."""

    def gradients(self, features: Array, labels: Array) -> tuple[float, list[Array]]:
        """The mean cross-entropy and its gradient for each of :meth:`parameters`."""

    def parameters(self) -> list[Array]:
        """The arrays that training changes in place."""


@dataclass
class SoftmaxRegression:
    """scores = features @ weights + bias; probabilities = softmax(scores).

    With three classes (loss, draw, win) this is multinomial logistic regression. The
    weights start at zero: every class equally likely.
    """

    inputs: int
    classes: int = 3
    weights: Array = field(init=False, repr=False)
    bias: Array = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_size("inputs", self.inputs)
        _check_size("classes", self.classes)
        self.weights = np.zeros((self.inputs, self.classes))
        self.bias = np.zeros(self.classes)

    def probabilities(self, features: Array) -> Array:
        """The class probabilities of each row of ``features``."""
        return softmax(features @ self.weights + self.bias)

    def gradients(self, features: Array, labels: Array) -> tuple[float, list[Array]]:
        """The loss and its gradient for each of :meth:`parameters`."""
        loss, delta = cross_entropy(self.probabilities(features), labels)
        return loss, [features.T @ delta, delta.sum(axis=0)]

    def parameters(self) -> list[Array]:
        """``[weights, bias]``: the arrays that training changes in place."""
        return [self.weights, self.bias]


@dataclass
class TwoLayerNet:
    """hidden = tanh(features @ w1 + b1); scores = hidden @ w2 + b2; softmax.

    The weights start as seeded normal numbers scaled by 1/sqrt(fan-in), the biases at 0.
    """

    inputs: int
    hidden: int = 32
    classes: int = 3
    seed: int = 0
    w1: Array = field(init=False, repr=False)
    b1: Array = field(init=False, repr=False)
    w2: Array = field(init=False, repr=False)
    b2: Array = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("inputs", "hidden", "classes"):
            _check_size(name, getattr(self, name))
        rng = np.random.default_rng(self.seed)
        self.w1, self.b1 = layer(rng, self.inputs, self.hidden)
        self.w2, self.b2 = layer(rng, self.hidden, self.classes)

    def probabilities(self, features: Array) -> Array:
        """The class probabilities of each row of ``features``."""
        return softmax(np.tanh(features @ self.w1 + self.b1) @ self.w2 + self.b2)

    def gradients(self, features: Array, labels: Array) -> tuple[float, list[Array]]:
        """The loss and its gradient for each of :meth:`parameters`: the forward pass kept,
        then the chain rule backwards, layer by layer (tanh' = 1 - tanh²)."""
        hidden = np.tanh(features @ self.w1 + self.b1)
        loss, delta = cross_entropy(softmax(hidden @ self.w2 + self.b2), labels)
        back = (delta @ self.w2.T) * (1 - hidden**2)
        return loss, [features.T @ back, back.sum(axis=0), hidden.T @ delta, delta.sum(axis=0)]

    def parameters(self) -> list[Array]:
        """``[w1, b1, w2, b2]``: the arrays that training changes in place."""
        return [self.w1, self.b1, self.w2, self.b2]


def layer(rng: Any, inputs: int, outputs: int) -> tuple[Array, Array]:
    """A layer's starting ``(weights, bias)``: weights drawn from ``rng`` (a numpy
    Generator), normal with standard deviation 1/sqrt(``inputs``) (the fan-in), so that the
    sums a layer makes start near the range of its inputs; biases 0."""
    return rng.normal(0, 1 / math.sqrt(inputs), (inputs, outputs)), np.zeros(outputs)


def train(model: Model, features: Array, labels: Array, epochs: int, rate: float = 0.5,
          momentum: float = 0.9) -> list[float]:
    """Full-batch gradient descent with momentum for ``epochs`` steps (0 to 100,000);
    returns the loss before each step. Changes the model's parameters in place."""
    if not isinstance(epochs, int) or isinstance(epochs, bool) or not 0 <= epochs <= 100_000:
        raise GameError(f"epochs is a whole number from 0 to 100,000; got {describe_text(epochs)}")
    velocity = [np.zeros_like(p) for p in model.parameters()]
    losses = []
    for _ in range(epochs):
        loss, grads = model.gradients(features, labels)
        losses.append(loss)
        for parameter, speed, grad in zip(model.parameters(), velocity, grads, strict=True):
            speed *= momentum
            speed -= rate * grad
            parameter += speed
    return losses


def accuracy(model: Model, features: Array, labels: Array) -> float:
    """The share of rows whose most probable class is the one in ``labels``."""
    return float((model.probabilities(features).argmax(axis=1) == labels).mean())


def _check_size(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100_000:
        raise GameError(f"{name} is a whole number from 1 to 100,000; got {describe_text(value)}")
