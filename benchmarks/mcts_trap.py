"""Lesson 9's trap, run longer than the lesson can: UCT and MCTS-Solver on one position.

The position ``5611761122133562247367317662`` (X to move; the solver: columns 2, 3 and 4
draw, 5 and 7 lose) is Lesson 9's trap. For each seed and each search (plain UCT, and
MCTS-Solver: ``mcts(..., solve=True)``) one search runs to ``--max`` iterations with
random playouts, watched by :class:`gamelib.search.mcts.RootWatch`; at every checkpoint
the script prints column 7's share of the root's visits, the most visited column among
those the proofs allow, and (for the solver) the columns proven so far::

    python benchmarks/mcts_trap.py                        # seeds 1-5, up to 300,000
    python benchmarks/mcts_trap.py --seeds 1 2 --max 30000 --search solver
    python benchmarks/mcts_trap.py --json                 # one JSON object per run

The counts are exact for a seed (the searches are seeded); the CPU seconds of each run
are printed too and vary with the machine. The chosen column here is the most visited
allowed one; :class:`~gamelib.search.mcts.MCTSResult` breaks a tie of visits by the
mean, which at these counts never comes up in the runs printed by the script.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Hashable
from typing import Any

from gamelib.connect4 import Solver
from gamelib.games import ConnectFour
from gamelib.search import mcts
from gamelib.search.mcts import RootWatch

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--max", type=int, default=300_000, help="iterations per search")
    parser.add_argument("--search", choices=["uct", "solver", "both"], default="both")
    parser.add_argument("--json", action="store_true", help="one JSON object per run")
    args = parser.parse_args()
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
