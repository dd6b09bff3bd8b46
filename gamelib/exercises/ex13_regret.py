"""Exercise 13: regret matching, the rule at the heart of CFR.

The student writes ``regret_matching(regrets)``: a probability for each action,
proportional to the positive part of its cumulative regret, uniform when no regret is
positive. :func:`check_regret_matching` checks it on hand-made regret lists first, then runs
CFR on Kuhn poker with it (:class:`~gamelib.search.cfr.CFR`'s ``matching``) beside gamelib's
own rule and compares the average strategies: the same rule gives the same strategy, and
the check reports how close to an equilibrium it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from gamelib.exercises.guard import Forbidden
from gamelib.exercises.report import FAIL, PASS, CheckResult, Line, show
from gamelib.exercises.run import CheckEnded, ask, checker
from gamelib.games.kuhn import KuhnPoker
from gamelib.search.cfr import CFR, exploitability, regret_matching

__all__ = ["check_regret_matching", "CASES", "ITERATIONS"]

CASES: Final[tuple[tuple[float, ...], ...]] = (
    (2.0, -1.0, 6.0),
    (1.0, 1.0),
    (-1.0, -3.0),
    (0.0, 0.0, 0.0),
    (5.0,),
    (0.0, 0.0, 3.0),
    (-2.0, 0.5, 0.0, 1.5),
    (1e-9, -1.0),
    (3.0, -3.0, 3.0, -3.0, 3.0, -3.0, 2.0),
    (-0.5,),
)
"""The hand-made regret lists, in the order they are checked."""

ITERATIONS: Final = 100
"""Iterations of CFR on Kuhn poker run with the student's rule."""

TOLERANCE: Final = 1e-9
"""How far a probability may be from gamelib's (float rounding)."""


def _numbers(answer: Any, size: int) -> list[float] | str:
    """``answer`` as a list of ``size`` floats, or what is wrong with it."""
    if not isinstance(answer, (list, tuple)):
        return f"a list of {size} probabilities, not {show(answer, 40)}"
    if len(answer) != size:
        return f"one probability per action: {size} numbers, not {len(answer)}"
    if not all(isinstance(p, (int, float)) and not isinstance(p, bool) and math.isfinite(p)
               for p in answer):
        return "numbers only (ints or floats, finite)"
    return [float(p) for p in answer]


def _hint(regrets: Sequence[float], got: list[float], expected: list[float]) -> str:
    if any(p < 0 for p in got):
        return "a probability is never negative: use only the positive part, max(r, 0)"
    if all(r <= 0 for r in regrets):
        return "when no regret is positive, play every action with the same probability, 1/n"
    if abs(sum(got) - 1) > 1e-6:
        return "the probabilities must add up to 1: divide by the sum of the positive parts"
    return "each action's probability is its positive regret divided by the sum of them"


_FORBIDDEN: Final = Forbidden(modules=("gamelib.search",))
"""gamelib's searches (its regret_matching and CFR among them) out of the student's reach."""


@checker(forbid=_FORBIDDEN)
def check_regret_matching(regret_matching_: Callable[[list[float]], Any]) -> CheckResult:
    """Check the student's ``regret_matching(regrets)``.

    First on the :data:`CASES` (a list of floats each; the answer must be a list or tuple of
    as many numbers, each within :data:`TOLERANCE` of gamelib's
    :func:`~gamelib.search.cfr.regret_matching`). Then :data:`ITERATIONS` iterations of CFR
    on Kuhn poker with the student's rule: its average strategy must equal gamelib's in every
    information set. A failure names the regrets, the expected and the returned answer and a
    hint. ``facts``: ``cases``, ``infosets`` (12), ``exploitability`` (of the average
    strategy after the run). Raises :class:`GameError` if the argument is not callable.
    """
    title = "regret_matching: the positive regrets, normalised"
    for index, regrets in enumerate(CASES):
        call = f"regret_matching({show(list(regrets))})"
        answer = ask(title, "regret_matching", call, regret_matching_, list(regrets),
                     first=index == 0)
        expected = regret_matching(regrets)
        got = _numbers(answer, len(regrets))
        if isinstance(got, str) or any(abs(g - e) > TOLERANCE
                                       for g, e in zip(got, expected, strict=True)):
            return CheckResult(title, (Line(FAIL, call, (
                ("expected", show(expected)),
                ("returned", show(answer, 60)),
                ("hint", got if isinstance(got, str) else _hint(regrets, got, expected)),
            )),))

    def theirs(regrets: list[float]) -> list[float]:
        answer = ask(title, "regret_matching", f"regret_matching({show(regrets, 50)})",
                     regret_matching_, list(regrets))
        got = _numbers(answer, len(regrets))
        if isinstance(got, str):
            raise CheckEnded(CheckResult(title, (Line(FAIL, f"regret_matching({show(regrets)})"
                                                      " inside CFR", (
                ("returned", show(answer, 60)), ("hint", got))),)))
        return got

    game = KuhnPoker()
    reference = CFR(game).run(ITERATIONS).average_strategy()
    average = CFR(game, matching=theirs).run(ITERATIONS).average_strategy()
    for infoset in sorted(reference):
        want, have = reference[infoset], average.get(infoset, {})
        if any(abs(have.get(a, math.nan) - p) > 1e-6 for a, p in want.items()):
            return CheckResult(title, (Line(FAIL, f"CFR on Kuhn poker, {ITERATIONS} iterations",
                                            (
                ("information set", infoset),
                ("expected", show({a: round(p, 4) for a, p in want.items()})),
                ("returned", show({a: round(p, 4) for a, p in have.items()})),
                ("hint", "right on the hand-made lists but not inside CFR: does the rule keep "
                         "state between calls, or treat some regrets (0, tiny ones) apart?"),
            )),))
    gap = exploitability(game, average)
    facts = {"cases": len(CASES), "infosets": len(average), "exploitability": gap}
    return CheckResult(title, (
        Line(PASS, f"right on {len(CASES)} hand-made regret lists"),
        Line(PASS, f"CFR on Kuhn poker with your rule: the same average strategy as gamelib's "
                   f"in all {len(average)} information sets after {ITERATIONS} iterations; "
                   f"exploitability {gap:.4f} chips a hand"),
    ), facts=facts)
