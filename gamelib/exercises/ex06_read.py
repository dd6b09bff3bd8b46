"""Exercise 6: reading an entry of a cache of (lower, upper) pairs in a window.

Lesson 5 reads a flagged entry ``('=', v)``, ``('≤', v)`` or ``('≥', v)`` by seven cases. The
student reads the entry the lesson does not show: a pair ``(lower, upper)``, both bounds of
one state at once (:mod:`gamelib.exercises.intervals`), or None. ``read(entry, alpha, beta)``
returns a triple ``(value, alpha, beta)``: ``value`` is the answer when the pair settles the
search (then the window is the one given), else None, and the window is the one still to
search, narrowed to the pair on either side or both. :func:`check_read_entry` compares the
answers with the checker's own :func:`~gamelib.exercises.intervals.read_interval` on every
pair with ends from -3 to 3 (and the infinities) in every window on that scale, then runs
Lesson 5's search with the student's read in it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from gamelib.exercises.answers import number_problem, same
from gamelib.exercises.guard import Forbidden
from gamelib.exercises.intervals import (
    Interval,
    SearchStopped,
    read_interval,
    search_lines,
)
from gamelib.exercises.report import FAIL, INFO, PASS, CheckResult, Line, show
from gamelib.exercises.run import ask, call_student, checker

__all__ = ["check_read_entry", "READ_SCALE"]

READ_SCALE: Final = range(-3, 4)
"""The values and window ends the checker tries: every integer from -3 to 3."""

_FORBIDDEN: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4",
                                       "gamelib.exercises.intervals"))
"""Every search and the checkers' own read of a pair out of reach of the student's code."""

Case = tuple[Interval | None, int, int]

_KINDS: Final = ("no entry", "exact", "at most alpha", "at least beta", "narrowed")
"""What a read comes to, as the report tallies it."""


def _cases() -> list[Case]:
    """None and every pair on :data:`READ_SCALE` (ends also -inf and inf) in every window on
    it: 21 windows x 44 entries."""
    windows = [(a, b) for a in READ_SCALE for b in READ_SCALE if a < b]
    ends = [-math.inf, *READ_SCALE, math.inf]
    entries: list[Interval | None] = [None]
    entries += [(lo, hi) for lo in ends for hi in ends
                if lo <= hi and lo < math.inf and hi > -math.inf]
    return [(entry, a, b) for entry in entries for a, b in windows]


def _kind(entry: Interval | None, alpha: int, beta: int) -> str:
    """Which of :data:`_KINDS` the read of ``entry`` in ``[alpha, beta]`` is."""
    if entry is None:
        return "no entry"
    lower, upper = entry
    if lower == upper:
        return "exact"
    if upper <= alpha:
        return "at most alpha"
    if lower >= beta:
        return "at least beta"
    return "narrowed"


def _pair(entry: Interval | None) -> str:
    if entry is None:
        return "none"
    return f"({entry[0]:g}, {entry[1]:g}), meaning {entry[0]:g} <= value <= {entry[1]:g}"


def _expected_text(value: float | None, alpha: float, beta: float) -> str:
    if value is not None:
        return f"({value:g}, {alpha:g}, {beta:g}): the answer {value:g}, no search"
    return f"(None, {alpha:g}, {beta:g}): search the window [{alpha:g}, {beta:g}]"


def _hint(entry: Interval | None, alpha: int, beta: int, answer: tuple[Any, Any, Any]) -> str:
    """What the student most likely got wrong for this entry and window."""
    got_value, got_alpha, got_beta = answer
    kind = _kind(entry, alpha, beta)
    if entry is None:
        return "without an entry nothing is known: search the whole window you were given"
    lower, upper = entry
    if kind == "exact":
        return "lower == upper: the pair gives the value itself, whatever the window"
    if kind == "at most alpha":
        edge = " (upper == alpha counts too)" if upper == alpha else ""
        return (f"every possible value is at most upper <= alpha{edge}: the three cases allow "
                "answering upper at once")
    if kind == "at least beta":
        edge = " (lower == beta counts too)" if lower == beta else ""
        return (f"every possible value is at least lower >= beta{edge}: the three cases allow "
                "answering lower at once")
    if got_value is not None:
        return ("some possible values lie inside the window, where only the exact value will "
                "do: search, in the window narrowed to the pair")
    if not (alpha <= got_alpha < got_beta <= beta):
        return ("never search a window wider than the one you were given, nor an empty one: "
                "values outside it do not interest the caller")
    return ("no value outside the pair is possible: search [max(alpha, lower), "
            "min(beta, upper)], narrowed on both sides where the pair allows it")


def _judge(entry: Interval | None, alpha: int, beta: int, answer: object) -> Line | None:
    expected = read_interval(entry, alpha, beta)
    call = f"read({show(entry)}, {alpha}, {beta})"
    details: list[tuple[str, str]] = [
        ("entry", _pair(entry)), ("window", f"[{alpha}, {beta}]"),
        ("expected", _expected_text(*expected)), ("returned", show(answer)),
    ]
    if answer is None:
        details.append(("hint", "your function returned None: is a `return` missing?"))
        return Line(FAIL, call, tuple(details))
    if not isinstance(answer, tuple) or len(answer) != 3:
        details.append(("hint", "return a triple (value, alpha, beta), value None when a "
                                "search is needed"))
        return Line(FAIL, call, tuple(details))
    if same(answer, expected):  # numbers compare as numbers: 1.0 is as good as 1
        return None
    details.append(("hint", _hint(entry, alpha, beta, answer)))
    return Line(FAIL, call, tuple(details))


def _triple_problem(answer: object) -> str:
    """What keeps the search from using ``answer`` as a read's triple, or ""."""
    if not isinstance(answer, tuple) or len(answer) != 3:
        return "return a triple (value, alpha, beta), value None when a search is needed"
    value, alpha, beta = answer
    problem = "" if value is None else number_problem(value)
    return problem or number_problem(alpha) or number_problem(beta)


@checker(forbid=_FORBIDDEN)
def check_read_entry(read: Callable[[Any, Any, Any], Any]) -> CheckResult:
    """Check the student's ``read(entry, alpha, beta)`` for a cache of pairs.

    ``entry`` is a pair ``(lower, upper)`` (the value lies in ``[lower, upper]``) or None;
    ``read`` must return ``(value, alpha, beta)`` as
    :func:`~gamelib.exercises.intervals.read_interval` does: the value itself for an exact
    pair, ``upper`` for a pair at or below ``alpha``, ``lower`` for one at or above ``beta``
    (each with the window given), else None and the window narrowed to the pair. Tried on
    no entry and every pair with ends from -3 to 3 or infinite in every window on that
    scale (924 calls); then Lesson 5's search with the student's read (and the checker's
    store) from the empty tic-tac-toe board and with one cache shared by 180 searches
    (:func:`~gamelib.exercises.intervals.search_lines`). A failure names the entry, the
    window, the expected and the returned triple and a hint; the report ends with how often
    each kind of read came up. ``facts``: ``cases`` (calls made), ``wrong``, ``by_kind``.
    Raises :class:`GameError` if ``read`` is not callable.
    """
    title = "read: a pair of bounds"
    cases = _cases()
    wrong: list[Line] = []
    by_kind: Counter[str] = Counter()
    wrong_kinds: Counter[str] = Counter()
    for index, (entry, alpha, beta) in enumerate(cases):
        answer = ask(title, "read", f"read({show(entry)}, {alpha}, {beta})", read, entry,
                     alpha, beta, first=index == 0)
        kind = _kind(entry, alpha, beta)
        by_kind[kind] += 1
        problem = _judge(entry, alpha, beta, answer)
        if problem is not None:
            wrong.append(problem)
            wrong_kinds[kind] += 1
    facts = {"cases": len(cases), "wrong": len(wrong), "by_kind": dict(by_kind)}
    tally = ", ".join(f"{kind}: {by_kind[kind]}" + (f" ({wrong_kinds[kind]} wrong)"
                                                     if wrong_kinds[kind] else "")
                      for kind in _KINDS)
    summary = Line(INFO, "calls per kind of read", (("kinds", tally),))
    if wrong:
        first = wrong[0]
        text = f"wrong in {len(wrong):,} of {len(cases):,} calls; the first: {first.text}"
        return CheckResult(title, (Line(FAIL, text, first.details), summary), facts=facts)
    right = (f"right in all {len(cases):,} calls: every pair with ends from -3 to 3 or "
             "infinite in every window on that scale, so each end equal to alpha or beta")

    def student_read(entry: Interval | None, alpha: float, beta: float) -> Any:
        answer = call_student(read, entry, alpha, beta)
        problem = _triple_problem(answer)
        if problem:
            raise SearchStopped(Line(FAIL, "the search stopped: it cannot use what your read "
                                           "returned", (("entry", show(entry)),
                                                        ("window", f"[{alpha:g}, {beta:g}]"),
                                                        ("returned", show(answer)),
                                                        ("hint", problem))))
        return answer

    lines = [Line(PASS, right), *search_lines("read", read=student_read), summary]
    return CheckResult(title, tuple(lines), facts=facts)
