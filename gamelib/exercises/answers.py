"""Judging the student's answers: numbers compared as numbers, yes or no, a forgotten
``return``, and :func:`check_cases`, the report on one call per test case."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from gamelib.exercises.failures import returned_none_line
from gamelib.exercises.report import FAIL, PASS, CheckResult, Line, counted, show
from gamelib.exercises.run import ask
from gamelib.game import Game, GameError
from gamelib.search.common import AnyGame

__all__ = ["MISSING", "truth", "as_float", "number_problem", "same", "check_cases",
           "require_game"]

T = TypeVar("T")


MISSING: Any = object()
"""Stands for "no such value" where None could be a student's answer."""


def truth(answer: object) -> bool | None:
    """``answer`` as a bool if it is one (``True``, ``False``, or numpy's ``np.True_`` and
    ``np.False_``), else None: a numpy comparison is a fine yes or no."""
    if isinstance(answer, bool):
        return answer
    kind = type(answer)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):
        return bool(answer)
    return None


def as_float(answer: Any) -> float:
    """A real number (one that :func:`number_problem` accepts) as a float; an int too large
    for a float (``10**400``) becomes an infinity of its sign."""
    try:
        return float(answer)
    except OverflowError:
        return math.inf if answer > 0 else -math.inf


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


def is_legal_move(game: AnyGame, state: Any, move: object) -> bool:
    """Whether the student's ``move`` is one of ``game.moves(state)`` in a running ``state``
    (False, not an error, for a move that cannot even be compared, e.g. an unhashable one)."""
    try:
        return not game.finished(state) and move in game.moves(state)
    except TypeError:
        return False


def require_game(checker: str, game: object) -> None:
    """Raise :class:`GameError` unless ``game`` is None or a game object (not its class)."""
    if isinstance(game, type):
        raise GameError(
            f"{checker} takes a game object as its second argument: {game.__name__}() with "
            f"parentheses, not the class {game.__name__}"
        )
    if game is not None and not isinstance(game, Game):
        raise GameError(
            f"{checker} takes a game of gamelib.games as its second argument, e.g. TicTacToe(), "
            f"or None (the default) for Nim; got {show(game, 60)}"
        )
