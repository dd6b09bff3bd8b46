"""Running the student's code: each call caught, so that a report, not a traceback, says
what went wrong and in which line of the student's code."""

from __future__ import annotations

import sysconfig
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

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




def call_student(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)``; raises :class:`NotDone` or :class:`StudentError` instead of
    letting the student's exception through."""
    try:
        return function(*args)
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


MISSING: Any = object()
"""Stands for "no such value" where None could be a student's answer."""


def is_stub(value: object) -> bool:
    return value is None or value is Ellipsis


def error_line(call: str, error: StudentError, hint: str = "") -> Line:
    details = [("error", error.summary)]
    if error.where:
        details.append(("where", error.where))
    if hint:
        details.append(("hint", hint))
    return Line(FAIL, f"{call} raised an exception", tuple(details))


def require_function(checker: str, name: str, value: object) -> None:
    if not callable(value):
        raise GameError(
            f"{checker} needs your function {name} itself (the name without parentheses), "
            f"got {show(value, 60)}"
        )


T = TypeVar("T")


def check_cases(title: str, name: str, function: Callable[..., Any], cases: Sequence[T],
                 ask: Callable[[T], tuple[str, tuple[Any, ...]]],
                 judge: Callable[[T, str, Any], Line | None], *, noun: str, among: str,
                 right: str) -> CheckResult:
    """The report on calling the student's ``function`` once per case.

    ``ask(case)`` gives the call as the report writes it and its arguments;
    ``judge(case, call, answer)`` is None for a right answer, else the line saying what is
    wrong. The report ends at once with "not done yet" for a stub (``NotImplementedError``,
    or a first answer None or ``...``) or with the exception of the first call that raised
    one. Otherwise it is the line ``right`` if every answer was right, else the first wrong
    line with how many went wrong, e.g. "wrong on 3 of 266 positions" (``among`` "on",
    ``noun`` "position"). ``facts``: the number of cases (under ``noun + "s"``) and of
    wrong ones.
    """
    wrong: list[Line] = []
    for index, case in enumerate(cases):
        call, args = ask(case)
        try:
            answer = call_student(function, *args)
        except NotDone as stub:
            return not_done(title, name, stub.where)
        except StudentError as error:
            return CheckResult(title, (error_line(call, error),))
        if index == 0 and is_stub(answer):
            return not_done(title, name)
        line = judge(case, call, answer)
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


def raised_line(call: str, error: NotDone | StudentError) -> Line:
    if isinstance(error, NotDone):
        return Line(FAIL, f"{call} raised NotImplementedError",
                    (("where", error.where),) if error.where else ())
    return error_line(call, error)
