"""What the student's code did wrong, and the report line that says so.

:func:`~gamelib.exercises.run.call_student` raises :class:`NotDone` for a stub,
:class:`StudentError` for an exception (:class:`Refused` for a call of a reference the exercise
forbids) and :class:`TimedOut` for a call that took too long; :func:`raised_line` turns any of
them into the FAIL line of a report, naming the line of the student's code (:func:`_where`).
"""

from __future__ import annotations

import ctypes
import functools
import sys
import sysconfig
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from gamelib.exercises.report import FAIL, Line, counted

__all__ = ["STUDENT_FAILURES", "EXPECTED_VALUES", "restore_handled", "NotDone",
           "StudentError", "Refused", "TimedOut", "raised_line", "refusal_line",
           "timeout_line", "error_line", "returned_none_line", "is_stub"]


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


@functools.lru_cache(maxsize=4096)
def _is_library(filename: str) -> bool:
    """True for a file of gamelib, of Python's standard library (frozen modules too) or of
    an installed package: code that is not the student's."""
    if filename.startswith("<frozen "):
        return True
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
    code = (frame.line or "").strip() if frame.lineno else ""
    shown = f": {code}" if code else ""
    line = f", line {frame.lineno}" if frame.lineno else ""
    return f"in {frame.name}{line}{shown}"


class TimedOut(Exception):
    """The student's function did not return within ``seconds`` of CPU time, or, with
    ``waited``, it waited ``seconds`` on the wall clock (sleeping, blocked) without
    returning; ``where`` is the line of the student's code it was running; ``swallowed``
    is True when the student's code caught the exception that stops it at least once."""

    def __init__(self, seconds: float, where: str, swallowed: bool = False,
                 waited: bool = False) -> None:
        super().__init__(seconds)
        self.seconds, self.where, self.swallowed = seconds, where, swallowed
        self.waited = waited


EXPECTED_VALUES: Final = "the checker's expected values"
"""How a refused read of a checker's expected values (:func:`~gamelib.exercises.run.expected`)
begins its name."""


def refusal_line(refused: Sequence[str]) -> Line:
    """The one FAIL line of a check in which the student's code called what it may not:
    ``refused`` names the calls, in order."""
    first = refused[0]
    if first.startswith(EXPECTED_VALUES):
        where = first.removeprefix(EXPECTED_VALUES).strip()
        return Line(FAIL, f"your function read {EXPECTED_VALUES} (`{where}`) while it was "
                          "being checked", (("hint", "a check passes only with your own code: "
                                                     "compute the answer, do not look it up"),))
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


def timeout_line(call: str, error: TimedOut) -> Line:
    """The FAIL line for a call that did not return in time."""
    details = [("where", error.where)] if error.where else []
    if error.swallowed:
        details.append(("note", "your code caught the exception that stops it (`except "
                                "BaseException:` or a bare `except:`), so it was raised "
                                "again until your function stopped: catch only what you "
                                "expect, e.g. `except ValueError:`"))
    if error.waited:
        details.append(("hint", "it waited rather than computed: does it sleep "
                                "(time.sleep) or wait for input (input())? A check needs "
                                "an answer at once"))
        return Line(FAIL, f"{call} was still waiting after {error.seconds:g} s",
                    tuple(details))
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


def returned_none_line(call: str, answer: object, name: str) -> Line | None:
    """A FAIL line if ``answer`` is None (a function that forgot ``return``), else None."""
    if answer is not None:
        return None
    return Line(FAIL, f"{call} returned None", (
        ("hint", f"is a `return` missing in {name}? A function that ends without `return` "
                 "returns None"),))


def _message(error: BaseException) -> str:
    """``str(error)``, or a word on why it cannot be shown (a student's exception class
    whose ``__str__`` raises)."""
    try:
        return str(error)
    except Exception:
        return "(its message cannot be shown)"


STUDENT_FAILURES: Final = (NotDone, StudentError, TimedOut)
"""What :func:`call_student` raises for code that is not done, raised or took too long."""


def restore_handled(before: tuple[Any, Any, Any]) -> None:
    """Make ``before`` (a ``sys.exc_info()`` taken when the check began) the exception being
    handled again, if the student's code left another one there.

    An exception raised from a trace function inside the student's ``except`` block (the
    limit raised again when the student's code swallowed it) can stay behind as "being
    handled" in CPython after the check returns; every exception raised later in the same
    cell would then carry it as its ``__context__``. Where ``ctypes`` cannot reach the
    interpreter (Pyodide), nothing is done.
    """
    if sys.exc_info()[1] is before[1]:
        return
    try:
        api = ctypes.pythonapi
        api.PyErr_SetExcInfo.argtypes = (ctypes.py_object,) * 3
        api.PyErr_SetExcInfo.restype = None
        if before[1] is None:
            api.PyErr_SetExcInfo.argtypes = (ctypes.c_void_p,) * 3
            api.PyErr_SetExcInfo(None, None, None)
        else:
            for item in before:  # PyErr_SetExcInfo steals a reference to each
                api.Py_IncRef(ctypes.py_object(item))
            api.PyErr_SetExcInfo(*before)
    except Exception:  # no ctypes or no pythonapi here: leave it
        return


def is_stub(value: object) -> bool:
    """True for ``...``, a placeholder answer."""
    return value is Ellipsis
