"""Issue 35, item 1: no false verdict on a busy machine. The limit counts the CPU time of the
thread that runs the student's code, so a check gives the same report whether the machine is
idle or saturated by other programs: for a correct solution, for a planted bug and for an
endless loop.

The busy machine is one core: the test's thread and two spinning processes pinned to it
(Linux), so the check gets at most a third of its core and its wall clock runs more than twice
its CPU time (asserted: a correct call's 0.3 s would pass the 0.6 s limit on the wall clock),
while the suite's other workers keep the other cores. Where a thread cannot be pinned, four
unpinned spinning processes saturate two cores."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import gamelib.exercises as ex
from gamelib.exercises import run
from gamelib.game import other

LIMIT = 0.6
"""Seconds of CPU time per call: a correct call takes at most half of it (about 0.3 s on a
loaded 2-core machine), several times it on the wall clock when the machine is busy."""

PINNED = hasattr(os, "sched_setaffinity")
BUSY_PROCESSES = 2 if PINNED else 4
BUSY_SECONDS = 60
"""The busy processes end by themselves after this long, even if the test is killed."""

BUSY = f"""
import time
end = time.monotonic() + {BUSY_SECONDS}
while time.monotonic() < end:
    pass
"""


@contextmanager
def busy_machine() -> Iterator[None]:
    """A saturated core: :data:`BUSY_PROCESSES` processes that loop, pinned with this thread to
    one of its cores where Linux allows it; killed (and this thread unpinned) at the end."""
    processes = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(BUSY_PROCESSES)]
    allowed = os.sched_getaffinity(0) if PINNED else set()
    try:
        if PINNED:
            core = {min(allowed)}
            for process in processes:
                os.sched_setaffinity(process.pid, core)
            os.sched_setaffinity(0, core)  # this thread only: the check runs in it
        time.sleep(0.2)  # let them start spinning
        yield
    finally:
        if PINNED:
            os.sched_setaffinity(0, allowed)
        for process in processes:
            process.kill()
        for process in processes:
            process.wait()


def memo_value(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
    if state in cache:
        return int(cache[state][0])
    if game.finished(state):
        cache[state] = (game.utility(state, player), None)
        return int(cache[state][0])
    o = other(game, player)
    best, move = max((-memo_value(game, game.play(state, m), o, cache), -i, m)
                     for i, m in enumerate(game.moves(state)))[::2]
    cache[state] = (best, move)
    return int(best)


def memo_value_wrong_sign(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
    """The planted bug: the value stored for the opponent, not for the player to move."""
    if state in cache:
        return -int(cache[state][0])
    if game.finished(state):
        cache[state] = (-game.utility(state, player), None)
        return int(game.utility(state, player))
    o = other(game, player)
    best, move = max((-memo_value_wrong_sign(game, game.play(state, m), o, cache), -i, m)
                     for i, m in enumerate(game.moves(state)))[::2]
    cache[state] = (-best, move)
    return int(best)


def endless(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
    while True: pass  # noqa: E701 - one line: the report names this line


CASES: dict[str, Callable[..., Any]] = {
    "correct": memo_value, "planted bug": memo_value_wrong_sign, "endless loop": endless}


def _report(function: Callable[..., Any]) -> str:
    run.set_time_limit(LIMIT)
    try:
        return repr(ex.check_memo_minimax(function))
    finally:
        run.set_time_limit()


@pytest.mark.slow
def test_a_busy_machine_changes_no_verdict_and_no_message() -> None:
    idle = {name: _report(function) for name, function in CASES.items()}
    assert idle["correct"].startswith("memo_value: all 5 checks passed"), idle["correct"]
    assert "the stored value has the wrong sign" in idle["planted bug"], idle["planted bug"]
    assert f"did not return within {LIMIT:g} s" in idle["endless loop"], idle["endless loop"]
    with busy_machine():
        wall, cpu = time.monotonic(), time.thread_time()
        busy = {name: _report(function) for name, function in CASES.items()}
        wall, cpu = time.monotonic() - wall, time.thread_time() - cpu
    assert busy == idle
    if PINNED:  # under half a core: on the wall clock, a correct call would pass the limit
        assert wall > 2 * cpu, (wall, cpu)
