"""Benchmark the Connect Four solver on the standard test sets.

Usage::

    python benchmarks/connect_four.py L3_R1 L2_R1 [--limit N] [--weak] [--repeat R]
    python benchmarks/connect_four.py L1_R2 L1_R3 --max-discs 12 [--no-book]

Each SET is the name of a benchmark set shipped with gamelib (``L3_R1`` or ``Test_L3_R1``,
read by :func:`gamelib.connect4.benchmark_positions`) or a file of ``MOVES SCORE`` lines.
Every position of a set is solved
by one :class:`~gamelib.connect4.solver.Solver`, whose table is kept from one position to
the next (as in the reference measurement, which solved a whole set in one process),
and the result is compared with the file's score (with ``--weak``: with its sign).

While a set runs, a progress line on standard error shows how far it is. At the end of
each set one line goes to standard output::

    L3_R1: 1000/1000 correct, mean 0.194 ms, median 0.050 ms, mean cpu 0.190 ms, ...

The times measure :meth:`Solver.solve` alone, not reading the file or building the
position: wall-clock time (mean and median per position) and the process's CPU time
(mean per position), which other work on a shared machine disturbs less. With
``--repeat R`` each set is run R times, each time with a fresh solver, and the line of
the run with the least CPU time is printed (on a shared machine the best run is the one
least disturbed). ``--no-book`` solves without the opening book (the solver reads it
at 12 discs on 7 x 6 by default), ``--max-discs D`` keeps the positions with at most D
discs (before ``--limit``); the line then counts the book's lookups too. ``--seconds S``
gives each position at most S seconds: one not solved by then counts as wrong, its time
as S, and the line says how many ran out. Exit
status: 0 when every answer was right, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from gamelib.connect4 import BENCHMARK_SETS, Solver, benchmark_positions
from gamelib.game import GameError
from gamelib.games import ConnectFour
from gamelib.search.common import SearchTimeout


def read_set(name: str) -> tuple[str, list[tuple[str, int]]]:
    """``(label, positions)`` of the set ``name``: a set's name, or a file's path."""
    try:
        return name.removeprefix("Test_"), benchmark_positions(name)
    except GameError:
        pass
    path = Path(name)
    if not path.is_file():
        raise FileNotFoundError(
            f"no test set {name!r}: give a file or one of {', '.join(BENCHMARK_SETS)}"
        )
    pairs = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return path.name.removeprefix("Test_"), [(moves, int(score)) for moves, score in pairs]


def run_set(
    name: str, limit: int | None, weak: bool, table_bits: int, book: bool = True,
    max_discs: int | None = None, seconds: float | None = None,
) -> tuple[bool, float, str]:
    """Solve the set; ``(every score right, CPU seconds in solve, the summary line)``."""
    label, lines = read_set(name)
    if max_discs is not None:
        lines = [(moves, score) for moves, score in lines if len(moves) <= max_discs]
    if limit is not None:
        lines = lines[:limit]
    solver = Solver(table_bits=table_bits, book=book)
    times: list[float] = []
    cpu = 0.0
    nodes: list[int] = []
    lookups = 0
    timeouts = 0
    correct = 0
    wrong: list[str] = []
    started = time.perf_counter()
    # On a terminal one progress line is redrawn every 1%; in a log file every 10%.
    interactive = sys.stderr.isatty()
    step = max(1, len(lines) // (100 if interactive else 10))
    for index, (moves, expected) in enumerate(lines, start=1):
        state = ConnectFour.from_moves(moves)
        if weak:
            expected = (expected > 0) - (expected < 0)
        before = time.perf_counter()
        before_cpu = time.process_time()
        try:
            deadline = None if seconds is None else before + seconds
            score: int | None = solver.solve(state, weak=weak, deadline=deadline)
        except SearchTimeout:
            score = None
            timeouts += 1
        cpu += time.process_time() - before_cpu
        times.append(time.perf_counter() - before)
        nodes.append(solver.nodes)
        lookups += solver.lookups
        if score == expected:
            correct += 1
        else:
            wrong.append(f"{moves}: expected {expected}, got {score}")
        if index % step == 0 or index == len(lines):
            print(
                f"{label}: {index}/{len(lines)}, mean {1000 * statistics.fmean(times):.3f} ms, "
                f"{time.perf_counter() - started:.0f} s",
                end="\r" if interactive else "\n",
                file=sys.stderr,
                flush=True,
            )
    if interactive:
        print(file=sys.stderr)
    for line in wrong[:10]:
        print(f"  wrong: {line}")
    count = len(lines)
    summary = (
        f"{label}{' (weak)' if weak else ''}{'' if book else ' (no book)'}: "
        f"{correct}/{count} correct, "
        f"mean {1000 * statistics.fmean(times):.3f} ms, "
        f"median {1000 * statistics.median(times):.3f} ms, "
        f"mean cpu {1000 * cpu / count:.3f} ms, "
        f"mean {statistics.fmean(nodes):.1f} nodes, "
        f"mean {lookups / count:.1f} lookups, "
        f"{sum(nodes) / sum(times) / 1000:.0f} k nodes/s, "
        f"{sum(times):.1f} s in solve"
        + (f", {timeouts} over {seconds:g} s" if seconds is not None else "")
    )
    return correct == count, cpu, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Solve Connect Four test sets and report correctness, time and nodes."
    )
    parser.add_argument(
        "sets", nargs="+", metavar="SET", help="a file of 'MOVES SCORE' lines, or a name like L3_R1"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="solve only the first N positions")
    parser.add_argument("--weak", action="store_true", help="only win/draw/loss (the sign)")
    parser.add_argument(
        "--table-bits", type=int, default=20, metavar="B", help="table of 2**B slots (default 20)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="R", help="run each set R times, print the best"
    )
    parser.add_argument("--no-book", action="store_true", help="solve without the opening book")
    parser.add_argument("--max-discs", type=int, metavar="D", help="only positions of <= D discs")
    parser.add_argument("--seconds", type=float, metavar="S", help="at most S s a position")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    for name in args.sets:
        try:
            read_set(name)
        except (FileNotFoundError, ValueError) as error:
            parser.error(str(error))
    ok = True
    for name in args.sets:
        runs = [
            run_set(name, args.limit, args.weak, args.table_bits, not args.no_book, args.max_discs,
                    args.seconds)
            for _ in range(args.repeat)
        ]
        ok &= all(run[0] for run in runs)
        print(min(runs, key=lambda run: run[1])[2], flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
