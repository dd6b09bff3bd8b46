"""Lesson 9's trap, run longer than the lesson can: UCT and MCTS-Solver on one position.

The position ``5611761122133562247367317662`` (X to move; the solver: columns 2, 3 and 4
draw, 5 and 7 lose) is Lesson 9's trap. For each seed and each search (plain UCT, and
MCTS-Solver: ``mcts(..., solve=True)``) one search runs to ``--max`` iterations with
random playouts, watched by :class:`gamelib.search.root_watch.RootWatch`; at every checkpoint
the script prints column 7's share of the root's visits, the most visited column among
those the proofs allow, and (for the solver) the columns proven so far::

    python benchmarks/mcts_trap.py                        # seeds 1-5, up to 300,000
    python benchmarks/mcts_trap.py --seeds 1 2 --max 30000 --search solver
    python benchmarks/mcts_trap.py --json                 # one JSON object per run
    python benchmarks/mcts_trap.py --calibrate            # CPU per iteration and per node

``--calibrate`` measures, on Lesson 9's held-apart positions (random games of 20 plies from
the empty board, ``random.Random(9)``, kept if not finished, 24 of them), the CPU time of
one MCTS iteration (random playouts, 1,000 per position) and of one node of iterative
deepening alpha-beta with ``connect_four_heuristic`` (a budget of 3,500 nodes per
position), and prints their ratio: the lesson's exchange rate between the two budgets.

The counts are exact for a seed (the searches are seeded); the CPU seconds of each run
are printed too and vary with the machine. The chosen column here is the most visited
allowed one; :class:`~gamelib.search.mcts.MCTSResult` breaks a tie of visits by the
mean, which at these counts never comes up in the runs printed by the script.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Hashable
from typing import Any

from gamelib.connect4 import Solver, connect_four_heuristic
from gamelib.games import ConnectFour
from gamelib.search import Budget, iterative_deepening, mcts
from gamelib.search.root_watch import RootWatch

TRAP = "5611761122133562247367317662"
CHECKPOINTS = (1_000, 2_000, 3_000, 5_000, 10_000, 20_000, 30_000, 50_000, 100_000,
               200_000, 300_000)


def chosen(visits: dict[Hashable, int], proofs: dict[Hashable, float | None]) -> Hashable:
    """The most visited move, leaving out proven losses while another move is left."""
    allowed = [m for m, v in proofs.items() if v is None or v >= 0] or list(visits)
    return max(allowed, key=lambda m: visits[m])


def run(seed: int, solve: bool, most: int) -> dict[str, Any]:
    """One seeded search of ``most`` iterations on the trap, with its checkpoints."""
    game = ConnectFour()
    trap = ConnectFour.from_moves(TRAP)
    points = [n for n in CHECKPOINTS if n <= most] + ([most] if most not in CHECKPOINTS else [])
    watch = RootWatch(game.moves(trap), points)
    start = time.process_time()
    result = mcts(game, trap, iterations=most, seed=seed, solve=solve, observer=watch)
    seconds = time.process_time() - start
    rows = []
    for n in sorted(watch.visits):
        visits, proofs = watch.visits[n], watch.proofs[n]
        rows.append({"iterations": n, "share7": visits[6] / n,
                     "chosen": int(chosen(visits, proofs)) + 1,  # type: ignore[call-overload]
                     "proven": {int(m) + 1: v for m, v in proofs.items()  # type: ignore[call-overload]
                                if v is not None}})
    return {"seed": seed, "solve": solve, "iterations": result.stats.iterations,
            "nodes": result.stats.nodes, "cpu_seconds": round(seconds, 1),
            "root_proven": result.proven,
            "proven_at": {int(m) + 1: n for m, n in watch.proven_at.items()},  # type: ignore[call-overload]
            "rows": rows}


def held_apart(count: int = 24, plies: int = 20, seed: int = 9) -> list[Any]:
    """Lesson 9's rule: random games of ``plies`` plies from the empty board, kept if not
    finished, until there are ``count``."""
    game, rng = ConnectFour(), random.Random(seed)
    held: list[Any] = []
    while len(held) < count:
        state: Any = game.start
        for _ in range(plies):
            state = game.play(state, rng.choice(game.moves(state)))
            if game.finished(state):
                break
        else:
            held.append(state)
    return held


def calibrate(repeat: int = 3) -> None:
    """Print the CPU time of an MCTS iteration and of an alpha-beta node (best of ``repeat``)."""
    game = ConnectFour()
    heuristic = connect_four_heuristic(game)
    held = held_apart()
    per_iteration = per_node = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        iterations = sum(mcts(game, s, iterations=1000, seed=1).stats.iterations for s in held)
        per_iteration = min(per_iteration, (time.process_time() - start) / iterations)
        start = time.process_time()
        nodes = sum(iterative_deepening(game, s, heuristic, budget=Budget(nodes=3500),
                                        rng=random.Random(1)).stats.calls for s in held)
        per_node = min(per_node, (time.process_time() - start) / nodes)
    print(f"MCTS: {per_iteration * 1e6:.1f} us CPU per iteration; alpha-beta: "
          f"{per_node * 1e6:.1f} us per node; one iteration = {per_iteration / per_node:.2f} nodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--max", type=int, default=300_000, help="iterations per search")
    parser.add_argument("--search", choices=["uct", "solver", "both"], default="both")
    parser.add_argument("--json", action="store_true", help="one JSON object per run")
    parser.add_argument("--calibrate", action="store_true",
                        help="CPU per MCTS iteration and per alpha-beta node, then stop")
    args = parser.parse_args()
    if args.calibrate:
        calibrate()
        return
    scores = Solver(ConnectFour()).analyze(ConnectFour.from_moves(TRAP))
    if not args.json:
        print("solver's scores for X, by column:", scores)
    for solve in {"uct": (False,), "solver": (True,), "both": (False, True)}[args.search]:
        for seed in args.seeds:
            out = run(seed, solve, args.max)
            if args.json:
                print(json.dumps(out), flush=True)
                continue
            name = "MCTS-Solver" if solve else "UCT"
            print(f"{name}, seed {seed}: {out['iterations']:,} iterations, {out['nodes']:,} "
                  f"nodes, {out['cpu_seconds']} s CPU; proven at: {out['proven_at']}")
            for row in out["rows"]:
                proven = f"  proven {row['proven']}" if row["proven"] else ""
                print(f"  {row['iterations']:>8,}: column 7 has {row['share7']:6.1%} of the "
                      f"visits, chosen {row['chosen']}{proven}", flush=True)


if __name__ == "__main__":
    main()
