"""Solve two-player Pig by value iteration and compare with Neller and Presser (2004).

Neller and Presser computed optimal play of Pig to 100 points: the first player, playing
optimally against an optimal opponent, wins about 53.06% of games. This script solves
Pig to the target given (default 100) with :func:`gamelib.search.value_iteration.value_iteration`
and prints the first player's chance of winning, the number of states and of value
computations, and the CPU time::

    python benchmarks/pig.py                      # to 100: about 3 minutes of CPU
    python benchmarks/pig.py --target 30 --tolerance 1e-12

The exit status is 0 when, to 100, the first player's chance rounds to 0.5306 (the
published four digits), 1 when it does not; other targets have no published figure and
always exit 0.
"""

from __future__ import annotations

import argparse
import sys
import time

from gamelib.games.pig import Pig
from gamelib.search.stats import Stats
from gamelib.search.value_iteration import DEFAULT_TOLERANCE, value_iteration

PUBLISHED = 0.5306
"""Neller and Presser (2004): the first player's chance of winning Pig to 100, optimal play."""


def main(argv: list[str] | None = None) -> int:
    """Solve, print one line, return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=int, default=100, help="points to win (1 to 100)")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE,
                        help="value iteration stops a component when no value changes by more")
    args = parser.parse_args(argv)
    game = Pig(args.target)
    stats = Stats()
    started = time.process_time()
    values = value_iteration(game, tolerance=args.tolerance, stats=stats)
    cpu = time.process_time() - started
    chance = (1 + values[game.start]) / 2
    sweeps = max(stats.nodes_per_depth)
    print(f"Pig to {args.target}: first player wins {chance:.6f} with optimal play; "
          f"{len(values):,} states, {stats.calls:,} value computations, at most {sweeps} "
          f"sweeps per component, tolerance {args.tolerance:g}, {cpu:.1f} s CPU")
    if args.target == 100 and round(chance, 4) != PUBLISHED:
        print(f"MISMATCH: Neller and Presser (2004) give {PUBLISHED}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
