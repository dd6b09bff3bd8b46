"""The opening book's cost and correctness: load time, memory, install size, and its
values against the exact solver on a seeded sample of 12-disc positions.

Usage::

    python benchmarks/connect_four_book.py [--sample N] [--seconds S] [--seed K]

It prints the load average, the package's size on disk, the time and memory (peak of
``tracemalloc`` and the growth of the process's resident size) of loading the book, the
mean time of a lookup, and then compares :meth:`Book.score
<gamelib.connect4.book.Book.score>` with :meth:`Solver.solve
<gamelib.connect4.solver.Solver.solve>` *without* the book on N random 12-disc positions
(each solve cut off after S seconds; those are counted apart, never as agreeing). It also
counts the positions the book leaves out and checks that exactly those let the player to
move win at once. Exit status 1 if any value differs.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path

from gamelib.connect4 import Solver
from gamelib.connect4.bitboard import geometry
from gamelib.games import ConnectFour
from gamelib.search.common import SearchTimeout


def random_moves(rng: random.Random, discs: int, game: ConnectFour) -> str:
    """A random game of ``discs`` discs in which nobody has four yet."""
    while True:
        moves = ""
        for _ in range(discs):
            moves += rng.choice([c for c in "1234567" if moves.count(c) < 6])
            if game.finished(ConnectFour.from_moves(moves)):
                break
        else:
            return moves


def resident() -> int:
    """The process's resident memory now, in bytes (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as file:
        return int(file.read().split()[1]) * resource.getpagesize()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=100, metavar="N")
    parser.add_argument("--seconds", type=float, default=60.0, metavar="S")
    parser.add_argument("--seed", type=int, default=2026, metavar="K")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    try:
        import bitbully_databases  # type: ignore[import-untyped]
    except ImportError:
        print("bitbully-databases is not installed: nothing to measure")
        return 1
    folder = Path(bitbully_databases.__file__).parent
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    print(f"installed package: {size / 1e6:.1f} MB in {folder}")

    from gamelib.connect4 import book as book_module

    rss_before = resident()
    tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    book = book_module.opening_book()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_after = resident()
    assert book is not None
    print(f"load: {wall:.2f} s wall, {cpu:.2f} s cpu (arrays {book.load_seconds:.2f} s); "
          f"{len(book):,} positions in {book.nbytes / 1e6:.1f} MB; peak while loading "
          f"{peak / 1e6:.1f} MB; resident size grew {(rss_after - rss_before) / 1e6:.1f} MB")

    game, rng = ConnectFour(), random.Random(args.seed)
    grid = geometry(game)
    positions = [ConnectFour.from_moves(random_moves(rng, 12, game)) for _ in range(args.sample)]
    keys = [first + (first | second) for first, second in positions]
    started = time.process_time()
    for _ in range(100):
        for key in keys:
            book.score(key)
    print(f"lookup: {1e6 * (time.process_time() - started) / len(keys) / 100:.1f} us of cpu "
          f"each (both mirror images when the first is not stored)")

    solver = Solver(table_bits=22, book=False)
    agree = differ = timeouts = left_out = 0
    signs = {1: 0, 0: 0, -1: 0}
    for (first, second), key in zip(positions, keys, strict=True):
        mask = first | second
        in_book = book.score(key)
        wins_now = bool(grid.threats(first) & grid.playable(mask))
        if (in_book is None) != wins_now:
            print(f"  left out wrongly: {first}, {second}")
            differ += 1
            continue
        left_out += in_book is None
        try:
            score = solver.solve((first, second), deadline=time.perf_counter() + args.seconds)
        except SearchTimeout:
            timeouts += 1
            continue
        # A position left out: the solver must find the win at once (15 at 12 discs).
        if in_book == score or (in_book is None and score == (43 - 12) // 2):
            agree += 1
            signs[(score > 0) - (score < 0)] += 1
        else:
            differ += 1
            print(f"  differs: book {in_book}, solver {score}")
        print(f"  {agree + differ + timeouts}/{len(keys)}: agree {agree}, differ {differ}, "
              f"over {args.seconds:g} s {timeouts}", file=sys.stderr, flush=True)
    print(f"book against the solver without it, {len(keys)} positions (seed {args.seed}): "
          f"agree {agree} (wins {signs[1]}, draws {signs[0]}, losses {signs[-1]}; "
          f"{left_out} left out by the book, the mover wins at once), differ {differ}, "
          f"not solved within {args.seconds:g} s {timeouts}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
