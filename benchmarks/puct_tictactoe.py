"""Lesson 13's measurement on every position: how often a search's choice keeps the exact
value, with 10 to 200 iterations, for plain UCT, PUCT with a uniform guide and PUCT with the
learned guide shipped with gamelib (``load_guide``).

The positions are the 3,191 running tic-tac-toe positions where some move gives the value
away (of 4,520); the judge is memoized minimax (:func:`gamelib.search.choice.keeping_moves`).
Every search is seeded (seed 1), so the shares are exact; the CPU seconds vary::

    OPENBLAS_NUM_THREADS=1 python benchmarks/puct_tictactoe.py
    python benchmarks/puct_tictactoe.py --budgets 10 50 --sample 500     # a seeded sample
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Hashable
from typing import Any

from gamelib.games import TicTacToe
from gamelib.learn.guide import load_guide
from gamelib.search import mcts
from gamelib.search.choice import keeping_moves, running_states


def uniform(game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
    """Every legal move equally likely; every position a draw."""
    moves = game.moves(state)
    return {m: 1 / len(moves) for m in moves}, 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[10, 25, 50, 100, 200])
    parser.add_argument("--sample", type=int, default=None,
                        help="a seeded sample (random.Random(13)) of this many positions")
    args = parser.parse_args()
    game: Any = TicTacToe()
    cache: dict[Hashable, int] = {}
    keep = {s: keeping_moves(game, s, cache) for s in running_states(game)}
    tricky = [s for s, k in keep.items() if len(k) < len(game.moves(s))]
    positions = tricky if args.sample is None else random.Random(13).sample(tricky, args.sample)
    print(f"{len(keep):,} running positions, {len(tricky):,} where a move loses the value; "
          f"measured on {len(positions):,}")
    guides = {"UCT": None, "PUCT, uniform": uniform, "PUCT, learned": load_guide()}
    for name, guide in guides.items():
        start = time.process_time()
        row = []
        for n in args.budgets:
            kept = sum(mcts(game, s, iterations=n, seed=1, guide=guide).move in keep[s]
                       for s in positions)
            row.append(f"{n}: {kept / len(positions):6.1%}")
        print(f"{name:14} " + "  ".join(row) + f"   ({time.process_time() - start:.0f} s CPU)",
              flush=True)


if __name__ == "__main__":
    main()
