#!/usr/bin/env python3
"""Lesson 12's two measures of a learned value, on a larger scale than the lesson can afford.

Trains the lesson's two Connect Four models (logistic regression and the two-layer net, same
data, seeds, epochs and rates), then for each depth asked:

* the value kept: of the 300 held-apart positions of ``connect_four_choices()``, how many a
  search to that depth with the heuristic keeps the exact value in (Lesson 7's heuristic for
  comparison);
* a match of each learned value against Lesson 7's heuristic at that depth: ``--openings``
  seeded openings (two random discs), each played twice with the colours swapped, reported
  with ``match_score`` (score, 95% interval, Elo).

Deterministic: the same arguments print the same lines (CPU seconds aside)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/learned_value.py --depths 1 2 3 --openings 50
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Hashable
from typing import cast

from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.games import ConnectFour
from gamelib.learn import SoftmaxRegression, TwoLayerNet, train
from gamelib.learn.value import (
    connect_four_choices,
    connect_four_dataset,
    connect_four_features,
    learned_heuristic,
)
from gamelib.search import iterative_deepening, match_score
from gamelib.search.common import Heuristic

GAME = ConnectFour()


def move(state: Hashable, h: Heuristic, depth: int, rng: random.Random) -> int:
    return cast(int, iterative_deepening(GAME, state, h, max_depth=depth, rng=rng).move)


def kept(h: Heuristic, depth: int) -> int:
    rng = random.Random(0)
    return sum(c.keeps(move(c.state, h, depth, rng)) for c in connect_four_choices())


def match(a: Heuristic, b: Heuristic, depth: int, openings: int) -> tuple[int, int, int]:
    """(wins of a, draws, wins of b): as the lesson's match."""
    rng = random.Random(0)
    wins = draws = losses = 0
    for _ in range(openings):
        opening = [rng.randrange(GAME.cols) for _ in range(2)]
        for a_side, b_side in (("X", "O"), ("O", "X")):
            side, state = {a_side: a, b_side: b}, GAME.start
            for col in opening:
                state = GAME.play(state, col)
            while not GAME.finished(state):
                state = GAME.play(state, move(state, side[GAME.to_move(state)], depth, rng))
            result = GAME.utility(state, a_side)
            wins, draws, losses = (wins + (result > 0), draws + (result == 0),
                                   losses + (result < 0))
    return wins, draws, losses


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--openings", type=int, default=50)
    args = parser.parse_args(argv)
    if not all(1 <= d <= 6 for d in args.depths) or not 1 <= args.openings <= 1000:
        parser.error("depths from 1 to 6, openings from 1 to 1000")
    data = connect_four_dataset(test_share=0.2, seed=0)
    x, y = data.part(held_out=False)
    logistic, net = SoftmaxRegression(inputs=10), TwoLayerNet(inputs=10, hidden=16, seed=0)
    for model in (logistic, net):
        train(model, x, y, epochs=300, rate=0.1)
    features = connect_four_features(GAME)
    lesson_7 = connect_four_heuristic(GAME)
    learned = {"logistic": learned_heuristic(logistic, features, GAME),
               "net": learned_heuristic(net, features, GAME)}
    for depth in args.depths:
        started = time.process_time()
        shares = {name: kept(h, depth) for name, h in {"lesson 7": lesson_7, **learned}.items()}
        print(f"depth {depth}: value kept in 300 positions: {shares}", flush=True)
        for name, h in learned.items():
            wins, draws, losses = match(h, lesson_7, depth, args.openings)
            print(f"depth {depth}: {name} against Lesson 7's, {2 * args.openings} games: "
                  f"{match_score(wins, draws, losses).summary}", flush=True)
        print(f"depth {depth}: {time.process_time() - started:.1f} s of CPU", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
