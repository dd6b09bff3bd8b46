"""Issue 24, "Student code outside the limit": the student's answers are read under the time
limit with a cap on their size, the limit stops what it claims to stop (off the main thread
too, and when the student's code catches it), a check has a total limit, and plausible
mistakes get a report, never a traceback."""

from __future__ import annotations

import itertools
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib.exercises as ex
from exercises.entry_points import CHECKERS
from gamelib.exercises import limit
from gamelib.exercises.ex11_backprop import check_backpropagate
from gamelib.exercises.report import CheckResult
from gamelib.game import GameError
from gamelib.games import TicTacToe

LIMIT = 1.0
LOOP_LIMIT = 0.1  # for a student function that never returns: no more CPU is needed
HANG = 30.0
"""Seconds after which a check counts as hung: a hang detector, not a speed test (the limit's
messages and counts say that it acted; the wall clock of a loaded machine says nothing)."""


@pytest.fixture(autouse=True)
def short_limit() -> Iterator[None]:
    ex.set_time_limit(LIMIT)
    yield
    ex.set_time_limit()


def _report(result: CheckResult) -> str:
    assert isinstance(result, CheckResult)
    return repr(result)


# What the student returns ----------------------------------------------------------------


def endless(state: Any, player: Any) -> Iterator[Any]:
    while True:  # the forgotten `n += 1`
        yield state


@pytest.mark.parametrize("answer, says", [
    (endless, "more than 100,000 items"),
    (lambda s, p: itertools.count(), "more than 100,000 items"),
    (lambda s, p: [s] * 10**6, "a list of 1,000,000 items"),
])
def test_an_answer_too_large_to_read_is_refused_at_once(answer: Any, says: str) -> None:
    started = time.monotonic()
    report = _report(ex.check_next_states(answer))
    assert says in report and "✘" in report
    assert time.monotonic() - started < HANG


class Looping:
    def __repr__(self) -> str:
        while True:
            pass

    def __eq__(self, other: object) -> bool:
        while True:
            pass

    __hash__ = None  # type: ignore[assignment]


def test_a_looping_repr_or_eq_of_the_answer_meets_the_limit() -> None:
    ex.set_time_limit(LOOP_LIMIT)  # the student's code never returns (the fixture resets)
    started = time.monotonic()
    result = ex.check_finished(lambda s: Looping())
    assert not result.passed and "did not return within" in result.failures[0].text
    assert "__repr__" in _report(result)
    assert time.monotonic() - started < HANG


class Raising:
    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing")

    def __hash__(self) -> int:
        raise ValueError("no hashing")


@pytest.mark.parametrize("check", [
    lambda: ex.check_next_states(lambda s, p: [Raising()]),
    lambda: ex.check_utility(lambda s, p: Raising()),
    lambda: ex.check_finished(lambda s: Raising()),
])
def test_an_object_whose_hash_or_eq_raises_is_named(check: Callable[[], CheckResult]) -> None:
    report = _report(check())
    assert "object of type Raising whose __hash__ raised ValueError: no hashing" in report


def test_numpy_bools_are_bools_and_arrays_are_named() -> None:
    assert ex.check_finished(lambda s: np.bool_(sum(s[0]) == 0)).passed
    report = _report(ex.check_finished(lambda s: np.array([1, 2])))
    assert "return True or False" in report
    values = ex.check_nim_values(lambda s, p: [], lambda s: np.array([True, False]),
                                lambda s, p: 0)
    assert not values.passed and "not True or False" in _report(values)


def test_huge_ints_are_shortened_in_messages() -> None:
    report = _report(ex.check_utility(lambda s, p: 10**5000))
    assert "an int of about 5,000 digits" in report and len(report) < 2000
    report = _report(ex.check_finished(lambda s: 10**400))
    assert "(an int of 401 digits)" in report


def test_system_exit_in_the_students_code_is_a_report() -> None:
    def leaving(state: Any) -> bool:
        raise SystemExit(3)

    report = _report(ex.check_finished(leaving))
    assert "SystemExit(3): your code called exit() or sys.exit()" in report


def test_a_game_class_instead_of_a_game_is_refused_with_a_message() -> None:
    with pytest.raises(GameError, match=r"TicTacToe\(\) with parentheses"):
        ex.check_finished(lambda s: False, TicTacToe)  # type: ignore[arg-type]


def test_a_checker_called_from_inside_the_check_is_refused() -> None:
    def calls_its_checker(state: Any) -> bool:
        ex.check_finished(calls_its_checker)
        return False

    result = ex.check_finished(calls_its_checker)
    assert not result.passed and len(result.lines) == 1
    assert "called the checker `check_finished`" in result.failures[0].text


@pytest.mark.slow
def test_a_heuristic_bad_only_during_the_match_is_reported() -> None:
    calls = [0]

    def late_nan(state: Any, player: str) -> float:
        calls[0] += 1
        if calls[0] > 700:
            return float("nan")
        v = (bin(state[0]).count("1") - bin(state[1]).count("1")) / 50
        return v if player == "X" else -v

    ex.set_time_limit(5)
    result = ex.check_heuristic(lambda rows, cols: late_nan)
    assert not result.passed and "during the match make_heuristic(5, 6)((" in _report(result)
    assert "returned nan" in _report(result)


# The limit --------------------------------------------------------------------------------


def one_line_loop(state: Any) -> bool:
    while True: pass  # noqa: E701 - one line: no line events at all


def swallowing(state: Any) -> bool:
    while True:
        try:
            x = 0
            while True:
                x += 1
        except BaseException:  # noqa: BLE001, S110 - the student's mistake
            pass


def _in_a_thread(check: Callable[[], CheckResult]) -> CheckResult:
    results: list[CheckResult] = []
    thread = threading.Thread(target=lambda: results.append(check()), daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), "the limit did not stop the student's code"
    return results[0]


@pytest.mark.parametrize("function", [one_line_loop, swallowing])
def test_off_the_main_thread_the_limit_stops_any_python_loop(function: Any) -> None:
    ex.set_time_limit(LOOP_LIMIT)  # the student's code never returns (the fixture resets)
    result = _in_a_thread(lambda: ex.check_finished(function))
    assert f"did not return within {LOOP_LIMIT:g} s" in result.failures[0].text


def plain_loop(state: Any) -> bool:
    x = 0
    while True:
        x += 1


@pytest.mark.parametrize("function", [one_line_loop, plain_loop])
def test_without_alarm_or_second_thread_a_trace_stops_the_loop(
        function: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide's limit, run here: no SIGALRM and no way to raise in another thread, so a trace
    function raises the limit's exception (an event per instruction in a one-line loop)."""
    if sys.gettrace() is not None:
        pytest.skip("a debugger or coverage tool traces: the limit leaves its trace alone")
    monkeypatch.setattr(limit, "_can_use_alarm", lambda: False)
    monkeypatch.setattr(limit, "_async_raiser", lambda: None)
    ex.set_time_limit(LOOP_LIMIT)  # the student's code never returns (the fixture resets)
    started = time.monotonic()
    result = ex.check_finished(function)
    assert time.monotonic() - started < HANG
    assert f"did not return within {LOOP_LIMIT:g} s" in result.failures[0].text
    assert sys.gettrace() is None


def test_a_swallowed_limit_is_raised_again_and_reported() -> None:
    ex.set_time_limit(LOOP_LIMIT)  # the student's function never returns (the fixture resets)
    started = time.monotonic()
    result = ex.check_finished(swallowing)
    assert time.monotonic() - started < HANG
    assert "your code caught the exception that stops it" in _report(result)
    threaded = _in_a_thread(lambda: ex.check_finished(swallowing))
    assert "your code caught the exception that stops it" in _report(threaded)



def test_a_swallowed_limit_leaves_no_exception_behind() -> None:
    """Raised again from a trace inside the student's ``except``, the limit once stayed
    "being handled" after the check, and every later exception carried it as __context__."""
    ex.set_time_limit(LOOP_LIMIT)  # the student's function never returns (the fixture resets)
    ex.check_finished(swallowing)
    assert sys.exc_info() == (None, None, None)
    with pytest.raises(ValueError) as caught:
        raise ValueError("later")
    assert caught.value.__context__ is None
    try:
        raise KeyError("being handled by the caller")
    except KeyError as handled:
        ex.check_finished(swallowing)
        assert sys.exc_info()[1] is handled

def test_a_check_has_a_total_limit() -> None:
    def slow(state: Any) -> bool:
        end = time.thread_time() + 0.05  # the total counts CPU time, as the limit does
        while time.thread_time() < end:
            pass
        return bool(sum(state[0]) == 0)

    ex.set_time_limit(LIMIT, total=0.2)  # four calls in, the fifth is stopped
    started = time.monotonic()
    result = ex.check_finished(slow)
    assert time.monotonic() - started < HANG
    text = result.failures[0].text
    assert text.startswith("stopped after ") and "the check may take 0.2 s in all" in text


def test_a_bad_total_limit_is_refused() -> None:
    with pytest.raises(GameError, match="total time limit"):
        ex.set_time_limit(1, total=float("nan"))


# Property: no hostile answer escapes a checker as an exception ------------------------------

HOSTILE: list[Callable[[], Any]] = [
    lambda: None, lambda: ..., lambda: "text", lambda: b"bytes", lambda: float("nan"),
    lambda: float("inf"), lambda: 10**400, lambda: -(10**5000), lambda: np.array([1, 2]),
    lambda: np.bool_(True), lambda: np.float64("nan"), lambda: Raising(),
    lambda: itertools.count(), lambda: iter(range(3)), lambda: {"a": 1}, lambda: {1, 2},
    lambda: [[[]]], lambda: (1, (2, (3,))), lambda: object(), lambda: TicTacToe,
    lambda: 1 + 2j,
]


def _constant(make: Callable[[], Any]) -> Callable[..., Any]:
    def student(*args: Any) -> Any:
        return make()
    return student


ENTRY_POINTS = CHECKERS


@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRY_POINTS)
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(make=st.sampled_from(HOSTILE))
def test_a_hostile_answer_gives_a_failed_report(entry: str, make: Callable[[], Any]) -> None:
    student = _constant(make)
    if entry == "store":  # the store rule answers by what it writes into the cache
        answer = student
        student = lambda c, s, a, b, v: c.__setitem__(s, answer(c, s, a, b, v))  # noqa: E731
    result = ENTRY_POINTS[entry](student)
    assert isinstance(result, CheckResult) and not result.passed
    repr(result), result._repr_html_()


AFTER_A_THREAD = """
import gamelib.exercises as ex, threading

def swallowing(state):
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass

def stubborn(state):
    try:
        while True:
            pass
    except BaseException:
        pass
    while True:
        pass

ex.set_time_limit(0.1)
worker = threading.Thread(target=lambda: ex.check_finished(swallowing))
worker.start()
worker.join()
print(repr(ex.check_finished(stubborn)))
"""


def test_a_limit_off_the_main_thread_leaves_the_main_threads_limit_working() -> None:
    """A check run in a thread once cancelled its watchdog's last alarm with an exception of
    None, which left CPython's "exception pending" flag on: the next check in the main thread
    whose student code swallowed the limit never ended. (A subprocess, so that a hang is a
    failure, not a hung suite.)"""
    import subprocess

    done = subprocess.run([sys.executable, "-c", AFTER_A_THREAD], capture_output=True,
                          text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert "did not return within 0.1 s" in done.stdout


@pytest.mark.skipif(not hasattr(signal, "setitimer") or sys.platform == "win32",
                    reason="the limit uses SIGALRM only on Linux and macOS")
def test_an_alarm_signalled_as_the_limit_ends_neither_raises_nor_rings_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The timer may ring as the code inside returns: Python then runs the limit's handler
    late, at the latest inside the signal() call that restores the outer handler. That late
    ring must change nothing. (It re-armed the timer, which then rang under the outer
    handler: the default one killed a test worker, as it would kill a student's kernel.)"""
    real = limit._SIGNALS
    rang: list[int] = []

    class LateAlarm:
        """The signal module, with SIGALRM signalled just before the outer handler is put
        back."""

        getsignal = staticmethod(real.getsignal)

        @staticmethod
        def signal(signum: int, handler: Any) -> Any:
            if handler is outer:
                signal.raise_signal(signal.SIGALRM)
            return real.signal(signum, handler)

    def outer(signum: int, frame: Any) -> None:  # stands in for the default, which kills
        rang.append(signum)

    saved = signal.signal(signal.SIGALRM, outer)
    monkeypatch.setattr(limit, "_SIGNALS", LateAlarm)
    try:
        with limit._deadline(5.0):
            pass
        time.sleep(0.05)  # a re-armed timer (10 ms) would have rung by now
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is outer
        assert rang == []
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, saved)


# Issue 35, item 2: every kind of hostile answer, at every checker, judged under the limit ---


class RaisingEq:
    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing")

    __hash__ = object.__hash__


class RaisingHash:
    def __hash__(self) -> int:
        raise ValueError("no hashing")


class LoopingEq:
    def __eq__(self, other: object) -> bool:
        while True:
            pass

    __hash__ = object.__hash__


class EndlessIterable:
    """An iterable that is not an iterator: ``list()`` of it never ends."""

    def __iter__(self) -> Iterator[int]:
        return itertools.count()


def endless_generator() -> Iterator[int]:
    while True:
        yield 1


HOSTILE_KINDS: dict[str, tuple[Callable[[], Any], str]] = {
    "eq raises": (RaisingEq, "object of type RaisingEq whose __eq__ raised ValueError"),
    "hash raises": (RaisingHash, "object of type RaisingHash whose __hash__ raised ValueError"),
    "eq loops": (LoopingEq, "did not return within 0.1 s"),
    "iterable": (EndlessIterable, "an iterable of EndlessIterable that gave more than "
                                  "100,000 items"),
    "generator": (endless_generator, "an iterator of generator that gave more than 100,000"),
}


@pytest.mark.parametrize("kind", HOSTILE_KINDS)
@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_each_kind_of_hostile_answer_gets_its_message_at_every_checker(entry: str,
                                                                      kind: str) -> None:
    make, says = HOSTILE_KINDS[kind]
    ex.set_time_limit(0.1)  # only "eq loops" runs into it (the fixture resets it)
    result = ENTRY_POINTS[entry](_constant(make))
    assert isinstance(result, CheckResult) and not result.passed and result.done
    assert says in _report(result), _report(result)


def _writes(value: Callable[[], Any]) -> dict[str, Callable[[], CheckResult]]:
    """The checkers whose student code writes into what it is handed, each with a student
    function that writes ``value()`` there and returns a right-looking answer."""

    def memo(game: Any, state: Any, player: Any, cache: dict[Any, Any]) -> int:
        cache[state] = (value(), None)
        return 0

    def store(cache: dict[Any, Any], state: Any, alpha: Any, beta: Any, v: Any) -> None:
        cache[state] = (value(), value())

    def backprop(path: list[Any], result: int) -> None:
        for node in path:
            node.total = value()

    return {"memo": lambda: ex.check_memo_minimax(memo),
            "store": lambda: ex.check_store_bound(store),
            "backprop": lambda: check_backpropagate(backprop)}


@pytest.mark.parametrize("kind", ["eq raises", "eq loops", "iterable"])
@pytest.mark.parametrize("entry", ["memo", "store", "backprop"])
def test_what_the_student_writes_into_the_cache_or_nodes_is_read_under_the_limit(
        entry: str, kind: str) -> None:
    make, says = HOSTILE_KINDS[kind]
    ex.set_time_limit(0.1)  # only "eq loops" runs into it (the fixture resets it)
    result = _writes(make)[entry]()
    assert not result.passed and says in _report(result), _report(result)


def test_a_sleeping_eq_is_stopped_as_a_wait() -> None:
    class Sleeping:
        def __eq__(self, other: object) -> bool:
            time.sleep(HANG)
            return True

        __hash__ = object.__hash__

    ex.set_time_limit(0.1)  # a wait is stopped after WALL_FACTOR times the limit
    result = ex.check_utility(lambda s, p: Sleeping())
    assert f"was still waiting after {0.1 * limit.WALL_FACTOR:g} s" in _report(result)
    assert "in __eq__" in _report(result)


def test_a_call_is_judged_by_its_cpu_time_not_the_wall_clock() -> None:
    """The limit counts the CPU time of the student's thread: 0.3 s asleep in a call with a
    0.1 s limit is no timeout (to the wall clock, a busy machine looks the same)."""
    calls = [0]

    def slow_but_right(state: Any) -> bool:
        calls[0] += 1
        if calls[0] == 1:
            time.sleep(0.3)
        return bool(sum(state[0]) == 0)

    ex.set_time_limit(0.1)
    result = ex.check_finished(slow_but_right)
    assert result.passed, _report(result)
