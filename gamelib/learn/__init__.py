"""Learning: small models fitted with numpy, for evaluation and guidance of a search.

:mod:`gamelib.learn.net` holds the models and their training (one concept, one place); the
modules beside it turn games into data and models into heuristics and priors.
This layer sits above :mod:`gamelib.connect4` and below the session and the UI: it may use
the games and the searches (for exact labels), and no UI library.
"""

from gamelib.learn.net import (
    Model,
    SoftmaxRegression,
    TwoLayerNet,
    accuracy,
    cross_entropy,
    softmax,
    train,
)

__all__ = ["Model", "SoftmaxRegression", "TwoLayerNet", "accuracy", "cross_entropy", "softmax",
           "train"]
