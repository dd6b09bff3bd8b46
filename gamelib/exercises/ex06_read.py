"""Exercise 6: reading a bound-flagged cache entry in a window (the seven cases).

The student writes ``read(entry, alpha, beta)`` for an entry ``('=', v)``, ``('≤', v)`` or
``('≥', v)`` (or None, no entry) and a window ``alpha < beta``. It returns a triple
``(value, alpha, beta)``: ``value`` is the answer when the entry settles the search (then
the window is the one given), else None, and the window is the one still to search, narrowed
where the entry allows it. This is :func:`gamelib.search.bounded.read_bound` without the case
number. :func:`check_read_entry` compares the student's answer with ``read_bound`` on every
flag, every window with ends in -3..3 and every ``v`` from -3 to 3, so each of the seven
cases is met with ``v`` equal to ``alpha``, equal to ``beta``, between and outside them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from gamelib.exercises.answers import same
from gamelib.exercises.guard import SEARCH
from gamelib.exercises.report import FAIL, INFO, PASS, CheckResult, Line, show
from gamelib.exercises.run import ask, checker
from gamelib.search.bounded import EXACT, LOWER, UPPER, Entry, read_bound

__all__ = ["check_read_entry", "READ_SCALE"]

READ_SCALE: Final = range(-3, 4)
"""The values and window ends the checker tries: every integer from -3 to 3."""

_MEANING: Final = {EXACT: "value == v", UPPER: "value <= v", LOWER: "value >= v"}

Case = tuple[Entry | None, int, int]


def _cases() -> list[Case]:
    """None and every entry on :data:`READ_SCALE` with every window on it: 3 * 7 * 21 + 21."""
    windows = [(a, b) for a in READ_SCALE for b in READ_SCALE if a < b]
    entries: list[Entry | None] = [None]
    entries += [(flag, v) for flag in (EXACT, UPPER, LOWER) for v in READ_SCALE]
    return [(entry, a, b) for entry in entries for a, b in windows]


def _where_v(v: int, alpha: int, beta: int) -> str:
    if v == alpha:
        return "v == alpha"
    if v == beta:
        return "v == beta"
    if v < alpha:
        return "v < alpha"
    if v > beta:
        return "v > beta"
    return "alpha < v < beta"


def _expected_text(value: int | None, alpha: int, beta: int) -> str:
    if value is not None:
        return f"({value}, {alpha}, {beta}): the answer {value}, no search"
    return f"(None, {alpha}, {beta}): search the window [{alpha}, {beta}]"


def _hint(entry: Entry | None, alpha: int, beta: int, answer: tuple[Any, Any, Any]) -> str:
    """What the student most likely got wrong for this entry and window."""
    got_value, got_alpha, got_beta = answer
    truth = read_bound(entry, alpha, beta)
    if entry is None:
        return "without an entry nothing is known: search the whole window you were given"
    flag, v = entry
    if flag == EXACT:
        return "an exact entry settles every window: return v itself"
    if truth.value is not None:  # cases 2 and 5: the bound settles it
        side = "at most alpha" if flag == UPPER else "at least beta"
        return (f"the entry says {_MEANING[flag]} and {_where_v(v, alpha, beta)}, so the value "
                f"is {side}: the three cases allow returning v at once (mind the boundary "
                "where v equals the end of the window)")
    if got_value is not None:
        if flag == UPPER and v < beta or flag == LOWER and v > alpha:
            return (f"the entry says only {_MEANING[flag]}: the value may lie anywhere on that "
                    "side of v, so it must still be searched, in a narrower window")
        far = "v >= beta" if flag == UPPER else "v <= alpha"
        return (f"the entry says {_MEANING[flag]} with {far}: every value in the window is "
                "still possible, so the entry settles nothing; search the window you were given")
    if truth.alpha != alpha or truth.beta != beta:  # cases 3 and 6: narrower
        end = "beta" if flag == UPPER else "alpha"
        return (f"the entry says {_MEANING[flag]} with v inside the window: no value beyond v is "
                f"possible, so v becomes the new {end}")
    if not (alpha <= got_alpha < got_beta <= beta):
        return ("never search a window wider than the one you were given, nor an empty one: "
                "values outside it do not interest the caller")
    return "this entry does not help in this window: search the window you were given"


def _judge(entry: Entry | None, alpha: int, beta: int, answer: object) -> Line | None:
    truth = read_bound(entry, alpha, beta)
    expected = (truth.value, truth.alpha, truth.beta)
    call = f"read({show(entry)}, {alpha}, {beta})"
    details: list[tuple[str, str]] = [
        ("entry", "none" if entry is None else f"{show(entry)}, meaning {_MEANING[entry[0]]}"),
        ("window", f"[{alpha}, {beta}]"),
        ("expected", _expected_text(*expected)),
        ("returned", show(answer)),
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


@checker(forbid=SEARCH)
def check_read_entry(read: Callable[[Any, Any, Any], Any]) -> CheckResult:
    """Check the student's ``read(entry, alpha, beta)`` against the seven cases.

    ``read`` must return ``(value, alpha, beta)`` as :func:`~gamelib.search.bounded.read_bound`
    does (its ``value``, ``alpha`` and ``beta``): for no entry and for each flag, every ``v``
    and every window with ends in :data:`READ_SCALE` (462 calls). A failure names the entry,
    the window, the expected and the returned triple and a hint; the report ends with a line
    per case saying how often it was met. ``facts``: ``cases`` (calls made), ``wrong``,
    ``by_case`` (calls per case number 0 to 7). Raises :class:`GameError` if ``read`` is not
    callable.
    """
    title = "read: the seven cases"
    cases = _cases()
    wrong: list[Line] = []
    by_case: Counter[int] = Counter()
    wrong_cases: Counter[int] = Counter()
    for index, (entry, alpha, beta) in enumerate(cases):
        answer = ask(title, "read", f"read({show(entry)}, {alpha}, {beta})", read, entry,
                     alpha, beta, first=index == 0)
        number = read_bound(entry, alpha, beta).case
        by_case[number] += 1
        problem = _judge(entry, alpha, beta, answer)
        if problem is not None:
            wrong.append(problem)
            wrong_cases[number] += 1
    facts = {"cases": len(cases), "wrong": len(wrong), "by_case": dict(sorted(by_case.items()))}
    tally = ", ".join(f"{n}: {by_case[n]}" + (f" ({wrong_cases[n]} wrong)" if wrong_cases[n]
                                               else "") for n in range(1, 8))
    summary = Line(INFO, "calls per case (the case numbers of Lesson 5)",
                   (("cases", tally), ("note", "case 0, no entry: "
                                                f"{by_case[0]} calls")))
    if wrong:
        first = wrong[0]
        text = f"wrong in {len(wrong):,} of {len(cases):,} calls; the first: {first.text}"
        return CheckResult(title, (Line(FAIL, text, first.details), summary), facts=facts)
    right = (f"right in all {len(cases):,} calls: every flag, every v from -3 to 3 and every "
             "window on that scale, so v equal to alpha or beta in each case")
    return CheckResult(title, (Line(PASS, right), summary), facts=facts)
