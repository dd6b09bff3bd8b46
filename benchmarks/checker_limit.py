"""Benchmark the cost of the time limit on the student's code.

Usage::

    python benchmarks/checker_limit.py [--calls N] [--repeat R]

Every call of the student's code in a check runs under a time limit
(:func:`gamelib.exercises.run.call_student`); a check makes thousands of calls (Exercise 5's
store rule: 17,633), so what the limit costs per call decides what a check costs. Prints
two lines, each the best of R runs (the least disturbed on a shared machine)::

    call_student: 20000 calls of a function that returns at once, 63.8 us per call (wall),
    18.7 us cpu
    check_store_bound: 17633 calls of a wrong answer, 2.59 s wall, 0.72 s cpu

(one line each; wrapped here).

To compare two versions, run the script from each checkout in one sitting, e.g.
``PYTHONPATH=../other python benchmarks/checker_limit.py`` and this checkout's, and report
the ratio. (Reading a CPU clock is a system call; in a sandbox or on a busy machine one
can cost a tenth of a millisecond, so the wall figure is the one that moved.)
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from gamelib.exercises import check_store_bound
from gamelib.exercises.run import _total_budget, call_student


def per_call(calls: int) -> tuple[float, float]:
    """Wall and CPU microseconds per call of a function that returns at once."""
    wall, cpu = time.perf_counter(), time.process_time()
    with _total_budget():
        for _ in range(calls):
            call_student(int)
    return ((time.perf_counter() - wall) / calls * 1e6,
            (time.process_time() - cpu) / calls * 1e6)


def store_check() -> tuple[int, float, float]:
    """Calls, wall seconds and CPU seconds of Exercise 5's check of an answer that is wrong
    everywhere (every case runs)."""
    count = [0]

    def wrong(*args: Any) -> None:
        count[0] += 1

    wall, cpu = time.perf_counter(), time.process_time()
    check_store_bound(wrong)
    return count[0], time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    wall, cpu = min(per_call(args.calls) for _ in range(args.repeat))
    print(f"call_student: {args.calls} calls of a function that returns at once, "
          f"{wall:.1f} us per call (wall), {cpu:.1f} us cpu")
    calls, wall, cpu = min((store_check() for _ in range(args.repeat)), key=lambda r: r[1])
    print(f"check_store_bound: {calls} calls of a wrong answer, {wall:.2f} s wall, "
          f"{cpu:.2f} s cpu")


if __name__ == "__main__":
    main()
