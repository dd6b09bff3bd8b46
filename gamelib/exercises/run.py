"""Running the student's code: each call caught, so that a report, not a traceback, says
what went wrong and in which line of the student's code."""

from __future__ import annotations

import functools
import inspect
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, ParamSpec, TypeVar, overload

from gamelib.exercises.afresh import check_afresh, confirmed, wanted
from gamelib.exercises.failures import (
    EXPECTED_VALUES,
    NotDone,
    Refused,
    StudentError,
    TimedOut,
    _message,
    _where,
    is_stub,
    raised_line,
    refusal_line,
    restore_handled,
)
from gamelib.exercises.guard import (
    DelegationRefused,
    Forbidden,
    checking,
    refuse,
    refused_calls,
    refusing,
    student_running,
)
from gamelib.exercises.limit import (
    WALL_FACTOR,
    _Alarm,
    _cpu_clock,
    _deadline,
    _Rings,
    alarm_scope,
)
from gamelib.exercises.report import FAIL, CheckResult, Line, counted, not_done, shorten, show
from gamelib.exercises.settle import _settle, _TooBig
from gamelib.game import GameError

DEFAULT_TIME_LIMIT: Final = 5.0
"""Seconds a single call of the student's code may take before the checker stops it."""

MAX_TIME_LIMIT: Final = 600.0
"""The largest time limit :func:`set_time_limit` accepts."""

DEFAULT_TOTAL_LIMIT: Final = 60.0
"""Seconds all the calls of the student's code in one check may take together."""

_limit = [DEFAULT_TIME_LIMIT, DEFAULT_TOTAL_LIMIT]


def set_time_limit(seconds: float = DEFAULT_TIME_LIMIT, total: float = DEFAULT_TOTAL_LIMIT
                   ) -> None:
    """Let each call of the student's code run at most ``seconds``, and all the calls of one
    check together at most ``total`` (numbers from 0.1 to :data:`MAX_TIME_LIMIT`; by
    default 5 s and 60 s).

    The limit counts the work the student's code does, not the time that passes: the CPU
    time of the thread running it (``time.thread_time``), so that a busy machine (a shared
    JupyterHub node, ten other programs on two cores) makes no correct solution look like an
    endless loop. A call that waits instead of working (``time.sleep``, ``input()``) is
    stopped after :data:`WALL_FACTOR` times its limit on the wall clock.

    How the limit acts: in the kernel's main thread on Linux and macOS a ``SIGALRM`` timer
    (``signal.setitimer``) interrupts the student's code, even a ``while True: pass``; where
    there is no such timer (Windows, Pyodide/JupyterLite, a thread other than the main one)
    a second thread raises the exception in the student's, or, with no threads, a trace
    function (``sys.settrace``, with an event per bytecode instruction in the student's
    frames) watches the clock, which makes the student's code several times slower but
    still stops any loop of Python code. Where the running thread's CPU time cannot be read
    (a thread other than the main one on macOS or Windows), the wall clock stands in. None
    of them stops a wait inside C code (a ``time.sleep(100)``, a huge ``10**10**8``): the
    limit then acts when it returns. Code that catches the limit's exception (``except
    BaseException:``, a bare ``except:``) has it raised again at every instruction until the
    function stops, and the report says so. Under a debugger (a trace function already set)
    there is no limit off the main thread.
    Raises GameError for a bad ``seconds`` or ``total``.
    """
    for label, value in (("time limit", seconds), ("total time limit", total)):
        if (not isinstance(value, (int, float)) or isinstance(value, bool)
                or not 0.1 <= value <= MAX_TIME_LIMIT):
            raise GameError(f"the {label} is a number of seconds from 0.1 to "
                            f"{MAX_TIME_LIMIT:g}, got {show(value, 40)}")
    _limit[:] = [float(seconds), float(total)]


def time_limit() -> float:
    """The seconds each call of the student's code may take (see :func:`set_time_limit`)."""
    return _limit[0]


def total_time_limit() -> float:
    """The seconds all calls of the student's code in one check may take together."""
    return _limit[1]


class OverBudget(BaseException):
    """The calls of the student's code in one check took more than the total time limit.
    A BaseException, so that it ends the whole check: :func:`checker` reports it."""

    def __init__(self, seconds: float, calls: int, where: str) -> None:
        super().__init__(seconds)
        self.seconds, self.calls, self.where = seconds, calls, where


class Interrupted(BaseException):
    """The user pressed the stop button (KeyboardInterrupt) while the student's code ran;
    ``where`` is the line of it that ran. :func:`checker` turns it into a report."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


class _Calls:
    """The calls of the student's code in the running check: their number, the CPU seconds
    of the check's total time limit still left (None: no check runs, no total), when the
    total's wall-clock backstop ends (:data:`WALL_FACTOR` times the total), and the CPU
    time of the checking thread when the check began.

    ``left`` is a lower bound, kept without reading a CPU clock at every call (a system call
    each): a call is charged its wall-clock seconds, which are no fewer than its CPU
    seconds. Where that bound would end the check or shorten a call, :meth:`refresh` raises
    it to the other lower bound, the total less all the CPU time the thread used since the
    check began."""

    def __init__(self) -> None:
        self.count = 0
        self.left: float | None = None
        self.wall_end = 0.0
        self.cpu_start = 0.0

    def refresh(self, seconds: float) -> float | None:
        """``left``, raised to the tighter of the two bounds when it is below ``seconds``."""
        if self.left is not None and self.left < seconds:
            self.left = max(self.left, total_time_limit() - (_cpu_clock()() - self.cpu_start))
        return self.left


_CALLS: Final = _Calls()


@contextmanager
def _total_budget() -> Iterator[None]:
    """The checker's side of the total time limit: the calls of the student's code inside
    share :func:`total_time_limit` seconds of CPU time (an inner check keeps the outer
    budget)."""
    saved = (_CALLS.count, _CALLS.left, _CALLS.wall_end, _CALLS.cpu_start)
    if _CALLS.left is None:
        _CALLS.count, _CALLS.left = 0, total_time_limit()
        _CALLS.wall_end = time.monotonic() + WALL_FACTOR * total_time_limit()
        _CALLS.cpu_start = _cpu_clock()()
    try:
        with alarm_scope():
            yield
    finally:
        _CALLS.count, _CALLS.left, _CALLS.wall_end, _CALLS.cpu_start = saved


def call_student(function: Callable[..., Any], *args: Any, first: bool = False,
                 read: Callable[[], Any] | None = None) -> Any:
    """``function(*args)`` under the time limit (:func:`time_limit`). Instead of letting the
    student's exception through it raises :class:`NotDone` (NotImplementedError: a stub),
    :class:`StudentError` (any other exception, SystemExit included, or an answer too
    large to read), :class:`TimedOut` (no return in time), :class:`Refused` (a call of a
    reference the exercise forbids) or :class:`Interrupted` (the stop button); and
    :class:`OverBudget` once the calls of the running check have used up its total time
    limit. The answer is read under the limit and comes back made of plain values
    (:func:`_settle`): an iterator as a list, an object of the student's class as a
    stand-in. With ``read`` the result is the pair ``(answer, read())``: ``read`` reads what
    the call wrote into what the checker handed it (the cache, the nodes of a path), under
    the same limit, and its result is made plain the same way. With ``first=True`` (the
    check's first call) an answer ``...`` (:func:`is_stub`), a placeholder left in the
    template, is a stub too."""
    seconds = time_limit()
    budget_left = _CALLS.refresh(seconds)
    if budget_left is not None:
        if budget_left <= 0 or time.monotonic() >= _CALLS.wall_end:
            raise OverBudget(total_time_limit(), _CALLS.count, "")
        seconds = min(seconds, budget_left)
    _CALLS.count += 1
    refused = len(refused_calls())
    rings = _Rings(call_student.__code__)
    started = time.monotonic()
    try:
        try:
            with _deadline(seconds, rings), refusing():
                raw = function(*args)
                answer = _settle(raw if read is None else (raw, read()))
        finally:
            if _CALLS.left is not None:  # wall seconds: no fewer than the CPU seconds
                _CALLS.left -= time.monotonic() - started
    except DelegationRefused as refusal:
        raise Refused(refusal.name, _where(refusal)) from None
    except _Alarm as alarm:
        if budget_left is not None and seconds < time_limit() and not rings.waited:
            raise OverBudget(total_time_limit(), _CALLS.count, _where(alarm)) from None
        if rings.waited:
            raise TimedOut(WALL_FACTOR * seconds, _where(alarm), rings.swallowed,
                           waited=True) from None
        raise TimedOut(seconds, _where(alarm), rings.swallowed) from None
    except KeyboardInterrupt as stop:
        raise Interrupted(_where(stop)) from None
    except NotImplementedError as error:
        raise NotDone(_where(error)) from None
    except RecursionError as error:
        raise StudentError(
            "RecursionError: the recursion went too deep (does every call get closer to a "
            "finished state, or to an answer in the cache?)",
            _where(error),
        ) from None
    except _TooBig as error:
        raise StudentError(f"it returned {error}", "") from None
    except SystemExit as error:
        raise StudentError(f"SystemExit({show(error.code, 40)}): your code called exit() or "
                           "sys.exit(); return a value instead", _where(error)) from None
    except Exception as error:
        summary = f"{type(error).__name__}: {_message(error)}"
        raise StudentError(shorten(summary.rstrip(": ")), _where(error)) from None
    calls = refused_calls()
    if len(calls) > refused:  # the student's code caught the refusal
        raise Refused(calls[refused], "")
    if first and is_stub(raw):
        raise NotDone()
    return answer


class CheckEnded(Exception):
    """A check that ends early with its report ``result``: raised by :func:`ask`, returned
    by the :func:`checker` around the public checker."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(result.title)
        self.result = result


def ask(title: str, name: str, call: str, function: Callable[..., Any], *args: Any,
        first: bool = False, hint: str = "",
        context: Callable[[], Sequence[tuple[str, str]]] | None = None,
        read: Callable[[], Any] | None = None) -> Any:
    """The student's answer ``function(*args)`` (through :func:`call_student`), or the end of
    the check: :class:`CheckEnded` with the report ``title`` on the student's function ``name``.

    A stub (``NotImplementedError``, or ``...`` as the answer when ``first`` says this is the
    first call) ends it with "not done yet" (:func:`not_done`); an exception or a timeout
    ends it with the line of :func:`raised_line` on ``call``, the call as the report writes
    it, with the details ``context()`` (e.g. the position) before its own and, for an
    exception, ``hint``. ``read`` as for :func:`call_student`.
    """
    try:
        return call_student(function, *args, first=first, read=read)
    except NotDone as stub:
        raise CheckEnded(not_done(title, name, stub.where)) from None
    except (StudentError, TimedOut) as error:
        line = raised_line(call, error, hint, () if context is None else context())
        raise CheckEnded(CheckResult(title, (line,))) from None


@overload
def checker(function: Callable[P, CheckResult], /) -> Callable[P, CheckResult]: ...


@overload
def checker(*, forbid: Forbidden) -> Callable[[Callable[P, CheckResult]],
                                              Callable[P, CheckResult]]: ...


def checker(function: Callable[P, CheckResult] | None = None, /, *,
            forbid: Forbidden | None = None) -> Any:
    """Decorate a public checker: its door, its guard and its way out.

    The door: every parameter of the checker annotated as a ``Callable`` is a function of
    the student's, and a value that is not callable (say ``check_x(x())`` instead of
    ``check_x(x)``) is refused with :class:`~gamelib.game.GameError` before anything runs
    (:func:`require_function`). The guard (``@checker(forbid=...)``): while
    :func:`call_student` runs the student's code, the references in ``forbid`` refuse to
    run (:mod:`gamelib.exercises.guard`); a check in which the student's code called one
    fails with one line that names the call, whatever else it found. A checker called from
    inside the student's code (while its own check runs) is refused the same way. The way
    out: the stop button (KeyboardInterrupt) pressed while it runs gives a report that
    says so, not a traceback through gamelib, and a check that :func:`ask` ended early
    (:class:`CheckEnded`) gives its report.
    In nbgrader's autograde round a check that passes runs again on a copy of gamelib read
    afresh from its files (:mod:`gamelib.exercises.afresh`), out of reach of what earlier
    cells did to the kernel's gamelib, and a failure comes back as a report of a fresh
    report module.
    """
    if function is None:
        return functools.partial(_checker, forbid=forbid)
    return _checker(function, forbid=forbid)


def _checker(function: Callable[P, CheckResult], forbid: Forbidden | None
             ) -> Callable[P, CheckResult]:
    signature = inspect.signature(function)
    students = [name for name, parameter in signature.parameters.items()
                if _is_callable_annotation(parameter.annotation)]
    name = function.__name__

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> CheckResult:
        if student_running():  # the student's function calls a checker
            refuse(f"the checker {name}")
        given = signature.bind_partial(*args, **kwargs).arguments
        for student in students:
            if student in given:
                require_function(name, student, given[student])

        def run() -> CheckResult:
            with checking(forbid) as refused, _total_budget():
                try:
                    result = function(*args, **kwargs)
                except CheckEnded as ended:
                    result = ended.result
                except OverBudget as over:
                    details = (("where", over.where),) if over.where else ()
                    hint = ("is each call much slower than it needs to be? gamelib.exercises"
                            ".set_time_limit(seconds, total) allows more time")
                    return CheckResult(name, (Line(
                        FAIL, f"stopped after {counted(over.calls, 'call')} of your function: the "
                              f"check may take {over.seconds:g} s in all",
                        (*details, ("hint", hint))),))
                except (KeyboardInterrupt, Interrupted) as stop:
                    where = getattr(stop, "where", "")
                    details = (("where", where),) if where else ()
                    return CheckResult(name, (Line(
                        FAIL, "stopped: you interrupted the check (the stop button); run the cell "
                              "again to check", details),))
                if refused:
                    return CheckResult(result.title, (refusal_line(refused),),
                                       facts={"refused": list(refused)})
                return result

        before = sys.exc_info()  # see restore_handled
        try:
            result = run()
        finally:
            restore_handled(before)
        if wanted():  # nbgrader's autograde: a pass is checked on a fresh copy
            limits = (time_limit(), total_time_limit())
            return confirmed(result, lambda: check_afresh(  # type: ignore[no-any-return]
                function.__module__, name, limits, args, kwargs))
        return result

    return wrapper


def expected(function: Callable[P, T]) -> Callable[P, T]:
    """``function``, a checker's computation of its expected values, with its results kept
    (as ``functools.cache`` keeps them: computed once per process, every check asks the
    same) where only a call reaches them, and that call refused while the student's code
    runs (:func:`~gamelib.exercises.guard.refuse`): the expected values are not there for
    the taking as module attributes during a check. The checker's own calls, between the
    student's, read them as before."""
    values: dict[tuple[Any, ...], T] = {}
    name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}"

    def cached(*args: P.args, **kwargs: P.kwargs) -> T:
        if student_running():
            refuse(f"{EXPECTED_VALUES} {name}")
        key = (*args, *sorted(kwargs.items()))
        if key not in values:
            values[key] = function(*args, **kwargs)
        return values[key]

    cached.__name__, cached.__qualname__ = function.__name__, function.__qualname__
    cached.__doc__ = function.__doc__
    return cached


def _is_callable_annotation(annotation: object) -> bool:
    """True for ``Callable[...]`` written as text (``from __future__ import annotations``)
    or as the object itself."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return re.match(r"(collections\.abc\.|typing\.)?Callable\b", text) is not None


def require_function(checker: str, name: str, value: object) -> None:
    """Raise :class:`GameError` unless ``value``, the argument ``name`` of the checker
    ``checker``, is callable: a student's function itself, not its result."""
    if not callable(value):
        raise GameError(
            f"{checker} needs your function {name} itself (the name without parentheses), "
            f"got {show(value, 60)}"
        )


T = TypeVar("T")
P = ParamSpec("P")


