"""Solve tic-tac-toe from the empty board with every search, in both representations.

For each algorithm and each state representation (tuple-of-tuples boards and int
bitboards) the script prints the value of the start, the exact counts (calls, distinct
states, cache entries) and the median time of several runs::

    python benchmarks/tictactoe.py                  # a table
    python benchmarks/tictactoe.py --json           # a JSON list, one object per row
    python benchmarks/tictactoe.py --repeat 11 --algorithm memo_minimax
    python benchmarks/tictactoe.py --clock cpu      # CPU time: steadier on a busy machine

The counts are the same on every machine and in both representations (the two games
visit the same states in the same order); the times are not, so a benchmark is never
part of the test suite. Plain minimax makes 549,946 calls and dominates the running
time: leave it out with ``--algorithm`` to measure the others quickly.

``memoize (lecture)`` is the lecture's way of memoizing: a decorator that keys the
cache by the argument tuple ``(state, player)``, over the same game object. It is the
baseline that :func:`~gamelib.search.memo.memo_minimax` is meant to beat. Like the
lecture, it counts only the calls that reach the function's body (5,478); the other
rows count every call, including those a cache answered (16,168 for memo_minimax).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Hashable
from typing import Any

from gamelib.game import Game, other
from gamelib.games import TicTacToe, TicTacToeBitboard
from gamelib.search import (
    BoundCache,
    Stats,
    alphabeta,
    bounded_alphabeta,
    center_first,
    memo_minimax,
    memoize,
    minimax,
)

Row = dict[str, Any]
Run = Callable[[Game[Any, Any], Stats], tuple[int, int]]
"""``run(game, stats) -> (value, cache_entries)``: one search from the start."""


def run_minimax(game: Game[Any, Any], stats: Stats) -> tuple[int, int]:
    return minimax(game, game.start, stats=stats), 0


def run_memoize_decorator(game: Game[Any, Any], stats: Stats) -> tuple[int, int]:
    @memoize
    def value(state: Hashable, player: str) -> int:
        stats.calls += 1
        if game.finished(state):
            return game.utility(state, player)
        o = other(game, player)
        return max([-value(n, o) for n in game.next_states(state, player)])

    result = value(game.start, game.players[0])
    stats.visited.update(state for state, _ in value.cache)  # type: ignore[attr-defined]
    return result, len(value.cache)  # type: ignore[attr-defined]


def run_memo_minimax(game: Game[Any, Any], stats: Stats) -> tuple[int, int]:
    cache: dict[Hashable, int] = {}
    return memo_minimax(game, game.start, cache=cache, stats=stats), len(cache)


def run_alphabeta(game: Game[Any, Any], stats: Stats) -> tuple[int, int]:
    return alphabeta(game, game.start, stats=stats), 0


def run_alphabeta_center_first(game: Game[Any, Any], stats: Stats) -> tuple[int, int]:
    return alphabeta(game, game.start, stats=stats, order=center_first), 0


def run_bounded_alphabeta(game: Game[Any, Any], stats: Stats) -> tuple[int, int]:
    cache = BoundCache()
    return bounded_alphabeta(game, game.start, cache=cache, stats=stats), len(cache)


ALGORITHMS: dict[str, Run] = {
    "minimax": run_minimax,
    "memoize (lecture)": run_memoize_decorator,
    "memo_minimax": run_memo_minimax,
    "alphabeta": run_alphabeta,
    "alphabeta (centre first)": run_alphabeta_center_first,
    "bounded_alphabeta": run_bounded_alphabeta,
}

REPRESENTATIONS: dict[str, Game[Any, Any]] = {"tuple": TicTacToe(), "bitboard": TicTacToeBitboard()}


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""Wall-clock time, or the CPU time of this process (which other programs do not inflate)."""


def measure(algorithm: str, representation: str, repeat: int, clock: str = "wall") -> Row:
    """One row: the counts of a run and the median time of ``repeat`` runs."""
    run, game, now = ALGORITHMS[algorithm], REPRESENTATIONS[representation], CLOCKS[clock]
    times = []
    for _ in range(repeat):
        stats = Stats()
        started = now()
        value, entries = run(game, stats)
        times.append(now() - started)
    return {
        "algorithm": algorithm,
        "representation": representation,
        "value": value,
        "calls": stats.calls,
        "states": stats.states,
        "cache_entries": entries,
        "seconds": statistics.median(times),
    }


def table(rows: list[Row]) -> str:
    """The rows as a plain-text table, times in milliseconds."""
    header = f"{'algorithm':<26}{'states as':<10}{'value':>6}{'calls':>10}{'states':>8}" \
             f"{'entries':>9}{'median ms':>11}"
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(
            f"{r['algorithm']:<26}{r['representation']:<10}{r['value']:>6}{r['calls']:>10,}"
            f"{r['states']:>8,}{r['cache_entries']:>9,}{r['seconds'] * 1000:>11.1f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    parser.add_argument("--repeat", type=int, default=5, metavar="N",
                        help="runs per row; the time is their median (default 5)")
    parser.add_argument("--algorithm", action="append", choices=list(ALGORITHMS),
                        help="measure only this algorithm (repeatable; default: all)")
    parser.add_argument("--representation", action="append", choices=list(REPRESENTATIONS),
                        help="measure only this representation (repeatable; default: both)")
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall",
                        help="wall-clock time (default) or the CPU time of this process")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    rows = [
        measure(algorithm, representation, args.repeat, args.clock)
        for algorithm in args.algorithm or ALGORITHMS
        for representation in args.representation or REPRESENTATIONS
    ]
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
