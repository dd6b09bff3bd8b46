"""Running the student's code: each call caught, so that a report, not a traceback, says
what went wrong and in which line of the student's code."""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import re
import signal
import sys
import sysconfig
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, ParamSpec, TypeVar, cast, overload

from gamelib.exercises.guard import (
    DelegationRefused,
    Forbidden,
    checking,
    refuse,
    refused_calls,
    refusing,
    student_running,
)
from gamelib.exercises.report import FAIL, PASS, CheckResult, Line, counted, not_done, shorten, show
from gamelib.game import Game, GameError


class NotDone(Exception):
    """The student's function is still a stub."""

    def __init__(self, where: str = "") -> None:
        super().__init__(where)
        self.where = where


class StudentError(Exception):
    """The student's function raised: ``summary`` says what and ``where`` says where."""

    def __init__(self, summary: str, where: str) -> None:
        super().__init__(summary)
        self.summary, self.where = summary, where


class Refused(StudentError):
    """The student's function called a reference the exercise forbids (``name``)."""

    def __init__(self, name: str, where: str) -> None:
        super().__init__(f"called {name}, which this exercise asks you to write yourself",
                         where)
        self.name = name


_LIBRARY_DIRS: Final = tuple(
    str(Path(p).resolve())
    for p in {
        str(Path(__file__).resolve().parents[1]),  # gamelib
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["platstdlib"],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
    }
)


def _is_library(filename: str) -> bool:
    try:
        resolved = str(Path(filename).resolve())
    except (OSError, ValueError):
        return False
    return resolved.startswith(_LIBRARY_DIRS)


def _where(error: BaseException) -> str:
    """Where in the student's code ``error`` happened: the innermost frame outside gamelib.

    The file name is left out: in a notebook it is a temporary file whose name changes on
    every run, and the line number counts from the top of the cell anyway.
    """
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not _is_library(f.filename)]
    # The checker's own frames live in gamelib, so what is left is the student's code.
    if not frames:
        return ""
    frame = frames[-1]
    code = (frame.line or "").strip()
    shown = f": {code}" if code else ""
    return f"in {frame.name}, line {frame.lineno}{shown}"




DEFAULT_TIME_LIMIT: Final = 5.0
"""Seconds a single call of the student's code may take before the checker stops it."""

MAX_TIME_LIMIT: Final = 600.0
"""The largest time limit :func:`set_time_limit` accepts."""

_limit = [DEFAULT_TIME_LIMIT]


def set_time_limit(seconds: float = DEFAULT_TIME_LIMIT) -> None:
    """Let each call of the student's code run at most ``seconds`` (a number from 0.1 to
    :data:`MAX_TIME_LIMIT`; :data:`DEFAULT_TIME_LIMIT`, 5 s, when called without one).

    How the limit works: in the kernel's main thread on Linux and macOS a ``SIGALRM`` timer
    (``signal.setitimer``) interrupts the student's code, even a ``while True: pass``; where
    there is no such timer (Windows, Pyodide/JupyterLite, a thread other than the main one)
    a trace function (``sys.settrace``) watches the clock between lines of Python, which
    makes the check slower but still stops a loop. Under a debugger (a trace function
    already set) there is no limit there. Raises GameError for a bad ``seconds``.
    """
    if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
            or not 0.1 <= seconds <= MAX_TIME_LIMIT):
        raise GameError(f"the time limit is a number of seconds from 0.1 to {MAX_TIME_LIMIT:g}, "
                        f"got {show(seconds, 40)}")
    _limit[0] = float(seconds)


def time_limit() -> float:
    """The seconds each call of the student's code may take (see :func:`set_time_limit`)."""
    return _limit[0]


class TimedOut(Exception):
    """The student's function did not return within ``seconds``; ``where`` is the line of
    the student's code it was running."""

    def __init__(self, seconds: float, where: str) -> None:
        super().__init__(seconds)
        self.seconds, self.where = seconds, where


class _Alarm(BaseException):
    """Raised inside the student's code when time is up. A BaseException, so that the
    student's ``except Exception`` does not swallow it."""


class Interrupted(BaseException):
    """The user pressed the stop button (KeyboardInterrupt) while the student's code ran;
    ``where`` is the line of the student's code it was running. :func:`checker` turns it into
    a report."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


def _can_use_alarm() -> bool:
    """True where a SIGALRM timer can interrupt Python code: Linux and macOS, main thread.
    Pyodide (emscripten) and WASI may define the names but deliver no timer signal."""
    return (hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")
            and sys.platform not in ("emscripten", "wasi")
            and threading.current_thread() is threading.main_thread())


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`_Alarm` in the code run inside when ``seconds`` have passed. Nested
    deadlines keep the earlier end; the outer timer is restored afterwards."""
    end = time.monotonic() + seconds
    if _can_use_alarm():
        outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
        outer_handler = signal.getsignal(signal.SIGALRM)
        if outer_left:
            end = min(end, time.monotonic() + outer_left)

        def ring(signum: int, frame: Any) -> None:
            # Ring again soon, in case a bare ``except:`` of the student swallowed this one.
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            raise _Alarm()

        started = time.monotonic()
        signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, max(end - time.monotonic(), 1e-3))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, outer_handler)
            if outer_left:
                left = outer_left - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
        return
    outer = sys.gettrace()
    if outer is not None and not getattr(outer, "_gamelib_deadline", False):
        yield  # a debugger or coverage tool traces: leave it alone, no limit
        return
    if outer is not None:
        end = min(end, cast(Any, outer)._gamelib_end)

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if time.monotonic() > end:
            raise _Alarm()
        return trace

    trace._gamelib_deadline = True  # type: ignore[attr-defined]
    trace._gamelib_end = end  # type: ignore[attr-defined]
    sys.settrace(trace)
    try:
        yield
    finally:
        sys.settrace(outer)


def call_student(function: Callable[..., Any], *args: Any, first: bool = False) -> Any:
    """``function(*args)`` under the time limit (:func:`time_limit`). Instead of letting the
    student's exception through it raises :class:`NotDone` (NotImplementedError: a stub),
    :class:`StudentError` (any other exception), :class:`TimedOut` (no return in time) or
    :class:`Interrupted` (the stop button). With ``first=True`` (the check's first call) an
    answer ``...`` (:func:`is_stub`), a placeholder left in the template, is a stub too."""
    seconds = time_limit()
    refused = len(refused_calls())
    try:
        with _deadline(seconds), refusing():
            answer = function(*args)
    except DelegationRefused as refusal:
        raise Refused(refusal.name, _where(refusal)) from None
    except _Alarm as alarm:
        raise TimedOut(seconds, _where(alarm)) from None
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
    except Exception as error:
        message = str(error)
        summary = f"{type(error).__name__}: {message}" if message else type(error).__name__
        raise StudentError(shorten(summary), _where(error)) from None
    calls = refused_calls()
    if len(calls) > refused:  # the student's code caught the refusal
        raise Refused(calls[refused], "")
    if first and is_stub(answer):
        raise NotDone()
    return answer


STUDENT_FAILURES: Final = (NotDone, StudentError, TimedOut)
"""What :func:`call_student` raises for code that is not done, raised or took too long."""


class CheckEnded(Exception):
    """A check that ends early with its report ``result``: raised by :func:`ask`, returned
    by the :func:`checker` around the public checker."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(result.title)
        self.result = result


def ask(title: str, name: str, call: str, function: Callable[..., Any], *args: Any,
        first: bool = False, hint: str = "",
        context: Callable[[], Sequence[tuple[str, str]]] | None = None) -> Any:
    """The student's answer ``function(*args)`` (through :func:`call_student`), or the end of
    the check: :class:`CheckEnded` with the report ``title`` on the student's function
    ``name``.

    A stub (``NotImplementedError``, or ``...`` as the answer when ``first`` says this is the
    first call) ends it with "not done yet" (:func:`not_done`); an exception or a timeout
    ends it with the line of :func:`raised_line` on ``call``, the call as the report writes
    it, with the details ``context()`` (e.g. the position) before its own and, for an
    exception, ``hint``.
    """
    try:
        return call_student(function, *args, first=first)
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
        with checking(forbid) as refused:
            try:
                result = function(*args, **kwargs)
            except CheckEnded as ended:
                result = ended.result
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

    return wrapper


def refusal_line(refused: Sequence[str]) -> Line:
    """The one FAIL line of a check in which the student's code called what it may not:
    ``refused`` names the calls, in order."""
    first = refused[0]
    if first.startswith("the checker "):
        checker_name = first.removeprefix("the checker ")
        return Line(FAIL, f"your function called the checker `{checker_name}` while it was "
                          "being checked", (("hint", "a checker calls your function, not the "
                                                     "other way round: call it only from its "
                                                     "own cell"),))
    others = len(set(refused) - {first})
    more = f" (and {counted(others, 'other reference')})" if others else ""
    return Line(FAIL, f"your function called gamelib's `{first}`{more}: this exercise asks "
                      "you to write it yourself", (
                          ("hint", "a check passes only with your own code: use what the "
                                   "exercise hands you (the game's methods, the arguments), "
                                   "not gamelib's reference"),))


def _is_callable_annotation(annotation: object) -> bool:
    """True for ``Callable[...]`` written as text (``from __future__ import annotations``)
    or as the object itself."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return re.match(r"(collections\.abc\.|typing\.)?Callable\b", text) is not None


MISSING: Any = object()
"""Stands for "no such value" where None could be a student's answer."""


def is_stub(value: object) -> bool:
    """True for ``...``, a placeholder answer."""
    return value is Ellipsis


def returned_none_line(call: str, answer: object, name: str) -> Line | None:
    """A FAIL line if ``answer`` is None (a function that forgot ``return``), else None."""
    if answer is not None:
        return None
    return Line(FAIL, f"{call} returned None", (
        ("hint", f"is a `return` missing in {name}? A function that ends without `return` "
                 "returns None"),))


def number_problem(answer: object) -> str:
    """"" if ``answer`` is a real number (int, float, a numpy number; not a bool), else what
    it is instead. Every checker compares values as numbers: ``1``, ``1.0`` and
    ``numpy.int64(1)`` are the same answer."""
    if isinstance(answer, bool) or answer is None:
        return f"{show(answer)} is not a number"
    if isinstance(answer, numbers.Real):
        if isinstance(answer, float) and math.isnan(answer):
            return "nan is not a number you can compare"
        return ""
    return f"{show(answer, 60)} of type {type(answer).__name__} is not a number"


def same(a: object, b: object) -> bool:
    """``a == b`` for values that may come from the student's code: False where the
    comparison raises or gives no truth value (a numpy array, a broken ``__eq__``)."""
    try:
        return bool(a == b)
    except Exception:
        return False


def timeout_line(call: str, error: TimedOut) -> Line:
    """The FAIL line for a call that did not return in time."""
    details = [("where", error.where)] if error.where else []
    details.append(("hint", "an endless loop? a recursion that never reaches a finished "
                            "state? (gamelib.exercises.set_time_limit(seconds) allows more "
                            "time)"))
    return Line(FAIL, f"{call} did not return within {error.seconds:g} s", tuple(details))


def error_line(call: str, error: StudentError, hint: str = "") -> Line:
    details = [("error", error.summary)]
    if error.where:
        details.append(("where", error.where))
    if hint:
        details.append(("hint", hint))
    return Line(FAIL, f"{call} raised an exception", tuple(details))


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


def check_cases(title: str, name: str, function: Callable[..., Any], cases: Sequence[T],
                 ask_about: Callable[[T], tuple[str, tuple[Any, ...]]],
                 judge: Callable[[T, str, Any], Line | None], *, noun: str, among: str,
                 right: str) -> CheckResult:
    """The report on calling the student's ``function`` once per case.

    ``ask_about(case)`` gives the call as the report writes it and its arguments;
    ``judge(case, call, answer)`` is None for a right answer, else the line saying what is
    wrong. The report ends at once with "not done yet" for a stub (``NotImplementedError``,
    or a first answer ``...``) or with the exception of the first call that raised
    one. Otherwise it is the line ``right`` if every answer was right, else the first wrong
    line with how many went wrong, e.g. "wrong on 3 of 266 positions" (``among`` "on",
    ``noun`` "position"). ``facts``: the number of cases (under ``noun + "s"``) and of
    wrong ones.
    """
    wrong: list[Line] = []
    for index, case in enumerate(cases):
        call, args = ask_about(case)
        answer = ask(title, name, call, function, *args, first=index == 0)
        line = returned_none_line(call, answer, name) or judge(case, call, answer)
        if line is not None:
            wrong.append(line)
    facts = {f"{noun}s": len(cases), "wrong": len(wrong)}
    if wrong:
        first = wrong[0]
        text = f"wrong {among} {len(wrong):,} of {counted(len(cases), noun)}; the first: "
        return CheckResult(title, (Line(FAIL, text + first.text, first.details),), facts=facts)
    return CheckResult(title, (Line(PASS, right),), facts=facts)


def require_game(checker: str, game: object) -> None:
    if game is not None and not isinstance(game, Game):
        raise GameError(
            f"{checker} takes a game of gamelib.games as its second argument, e.g. TicTacToe(), "
            f"or None (the default) for Nim; got {show(game, 60)}"
        )


def raised_line(call: str, error: NotDone | StudentError | TimedOut, hint: str = "",
                context: Sequence[tuple[str, str]] = ()) -> Line:
    """The FAIL line for a call of the student's code that raised or took too long: the
    details ``context`` (e.g. the position) first, then what happened and where; ``hint``
    is added for an exception (:func:`error_line`)."""
    if isinstance(error, Refused):
        line = refusal_line([error.name])
    elif isinstance(error, TimedOut):
        line = timeout_line(call, error)
    elif isinstance(error, NotDone):
        line = Line(FAIL, f"{call} raised NotImplementedError",
                    (("where", error.where),) if error.where else ())
    else:
        line = error_line(call, error, hint)
    return Line(FAIL, line.text, (*context, *line.details)) if context else line
