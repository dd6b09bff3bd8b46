"""Exercise 5: the store rule, for a cache of (lower, upper) pairs, and merging two flagged
entries."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any, Final

from gamelib.exercises.answers import MISSING, same
from gamelib.exercises.failures import returned_none_line
from gamelib.exercises.guard import Forbidden, handed
from gamelib.exercises.intervals import (
    NO_ENTRY,
    Interval,
    SearchStopped,
    false_entries_line,
    pair_problem,
    search_lines,
    shared_cache_line,
    tictactoe_values,
)
from gamelib.exercises.intervals import store_interval as store_interval_reference
from gamelib.exercises.positions import show_state
from gamelib.exercises.report import (
    FAIL,
    PASS,
    CheckResult,
    Line,
    show,
)
from gamelib.exercises.run import ask, call_student, checker
from gamelib.games import TicTacToe
from gamelib.search import bounded
from gamelib.search.bounded import (
    EXACT,
    FLAGS,
    LOWER,
    UPPER,
    BoundCache,
    BoundedSearch,
    Entry,
)
from gamelib.search.common import AnyGame
from gamelib.search.stats import Stats

# ---------------------------------------------------------------------------------------------
# Exercise 5: the store rule of a cache of pairs
# ---------------------------------------------------------------------------------------------

_FORBIDDEN: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4",
                                       "gamelib.exercises.ex05_store",
                                       "gamelib.exercises.intervals"),
                              allowed=(BoundCache,))
"""Every search, the checkers' own store rule for pairs and this module's own merge out of
reach of the student's code; the cache it writes into is handed."""

_POINTS: Final = (-1, -0.5, 0, 0.5, 1)
"""The values and window ends of the case-by-case test of a store rule."""

_ENDS: Final = (-math.inf, *_POINTS, math.inf)
"""The ends of the older pairs in the case-by-case test."""

"""The windows of the shared-cache test."""


def _store_cases() -> list[tuple[Interval | None, float, float, float]]:
    """Every ``(old, alpha, beta, v)``: ``alpha < beta`` and ``v`` from :data:`_POINTS`, and
    as ``old`` no entry or every pair with ends from :data:`_ENDS` that a search in that
    window could have found ``v`` for (some value fits both the pair and the result)."""
    olds: list[Interval | None] = [None]
    olds += [(lo, hi) for lo in _ENDS for hi in _ENDS
             if lo <= hi and lo < math.inf and hi > -math.inf]
    cases = []
    for alpha in _POINTS:
        for beta in _POINTS:
            if alpha >= beta:
                continue
            for v in _POINTS:
                for old in olds:
                    lower, upper = old or NO_ENTRY
                    if v <= alpha and lower > v or v >= beta and upper < v or (
                            alpha < v < beta and not lower <= v <= upper):
                        continue  # no value fits both: never met in a search
                    cases.append((old, alpha, beta, v))
    return cases


def _store_hint(old: Interval | None, alpha: float, beta: float, v: float,
                entry: object) -> str:
    """What the student most likely got wrong when storing ``v`` over ``old``."""
    problem = pair_problem(entry)
    if problem:
        return problem
    fresh: dict[Any, Any] = {}
    store_interval_reference(fresh, "s", alpha, beta, v)
    if old is not None and same(entry, fresh["s"]):
        return ("keep what the old pair knew: the new pair is the old one narrowed by what "
                "this result proves, not a fresh pair")
    if v <= alpha:
        edge = ("v == alpha counts as failing low: alpha-beta may return alpha for any value "
                "up to alpha" if v == alpha else "v < alpha: the search failed low")
        return f"{edge}, so the value is at most v: the upper end becomes min(upper, v)"
    if v >= beta:
        edge = ("v == beta counts as failing high: alpha-beta may return beta for any value "
                "from beta on" if v == beta else "v > beta: the search failed high")
        return f"{edge}, so the value is at least v: the lower end becomes max(lower, v)"
    return "alpha < v < beta: inside the window the result is the value: the pair (v, v)"


@checker(forbid=_FORBIDDEN)
def check_store_bound(store_interval: Callable[[dict[Any, Any], Any, Any, Any, Any], Any]
                      ) -> CheckResult:
    """Check the student's store rule for a cache of pairs,
    ``store_interval(cache, state, alpha, beta, v)``.

    Its contract: an entry is a pair ``(lower, upper)``, the value of its state lies in
    ``[lower, upper]`` (no entry: ``(-inf, inf)``); the result ``v`` of a search of ``state``
    in ``[alpha, beta]`` narrows the pair of ``state``: ``v <= alpha`` makes the upper end
    at most ``v``, ``v >= beta`` the lower end at least ``v``, a ``v`` inside the window
    makes the pair ``(v, v)``; the other entries stay as they are. Lesson 5 stores one flagged
    bound instead and forgets the old one. The checker (its expected pairs from
    :func:`gamelib.exercises.intervals.store_interval`, run outside the student's calls)
    tries:

    * the rule on its own: every window and result with ends from -1, -0.5, 0, 0.5, 1,
      without an older entry and with every older pair (ends from -inf, -1, ..., 1, inf)
      that a search could meet with that result;
    * Lesson 5's search with the student's rule (and the checker's read,
      :func:`~gamelib.exercises.intervals.read_interval`) from the empty tic-tac-toe board:
      value 0, 4,316 calls, 2,474 entries, 57 of them exact, each true of its state; and one
      cache shared by 180 searches (:func:`~gamelib.exercises.intervals.search_lines`).

    Result: a :class:`CheckResult`. Raises :class:`GameError` if ``store_interval`` is not
    callable.
    """
    title = "store_interval"
    cases = _store_cases()
    wrong: list[Line] = []
    stored_some = False
    for old, alpha, beta, v in cases:
        before: dict[Any, Any] = {"t": (0, 0)}
        if old is not None:
            before["s"] = old
        cache = dict(before)
        expected_cache = dict(before)
        store_interval_reference(expected_cache, "s", alpha, beta, v)
        expected = expected_cache["s"]
        call = f"store_interval(cache, s, alpha={alpha:g}, beta={beta:g}, v={v:g})"
        _, cache = ask(title, "store_interval", call, store_interval, cache, "s", alpha, beta,
                       v, read=cache.copy)  # what it wrote, read under the limit
        stored_some = stored_some or (old is None and "s" in cache)
        if same(cache, expected_cache):
            continue
        details = [("cache before", show(before)), ("expected", f"cache['s'] == {expected!r}")]
        if "s" not in cache:
            details += [("stored", "nothing under s"),
                        ("hint", "write the pair into the dict: cache[state] = (lower, upper)")]
        elif not same({k: e for k, e in cache.items() if k != "s"}, {"t": (0, 0)}):
            details += [("cache after", show(cache)),
                        ("hint", "store under `state` only and leave the other entries alone")]
        else:
            details += [("stored", f"cache['s'] == {show(cache['s'])}"),
                        ("hint", _store_hint(old, alpha, beta, v, cache["s"]))]
        wrong.append(Line(FAIL, call, tuple(details)))
    lines: list[Line] = []
    if wrong and not stored_some:  # a rule that never writes into the cache
        wrong[0] = Line(FAIL, wrong[0].text, (*wrong[0].details[:-1], (
            "hint", "write the pair into the dict: cache[state] = (lower, upper)")))
    facts: dict[str, Any] = {"cases": len(cases), "wrong_cases": len(wrong)}
    if wrong:
        first = wrong[0]
        lines.append(Line(FAIL, f"wrong in {len(wrong)} of {len(cases)} cases; the first: "
                                f"{first.text}", first.details))
    else:
        lines.append(Line(PASS, f"the rule is right in all {len(cases)} cases of a window, a "
                                "result and an older pair (or none)"))

    def store(cache: dict[Any, Any], state: Hashable, alpha: float, beta: float,
              v: float) -> None:
        size, known = len(cache), state in cache
        if _stored(store_interval, cache, state, alpha, beta, v) > size + (not known):
            raise SearchStopped(Line(
                FAIL, "the search stopped: your rule added entries for other states",
                (("hint", "store under `state` only and leave the other entries alone"),)))
        problem = pair_problem(cache[state]) if state in cache else ""
        if problem:
            raise SearchStopped(Line(
                FAIL, "the search stopped: it cannot read an entry your rule stored",
                (("entry", show(cache.get(state))), ("hint", problem))))

    lines += search_lines("store rule", store=store, facts=facts)
    return CheckResult(title, tuple(lines), facts=facts)


def _stored(rule: Callable[..., Any], cache: dict[Any, Any], state: Hashable, alpha: float,
            beta: float, v: float) -> int:
    """Call the student's store ``rule``; the size of the cache afterwards. The entry it
    left under ``state`` is read under the limit and written back made of plain values, so
    that the search reads no object of the student's."""
    _, (size, entry) = call_student(rule, cache, state, alpha, beta, v,
                                    read=lambda: (len(cache), cache.get(state, MISSING)))
    if entry is not MISSING:
        cache[state] = entry
    return int(size)


def _entry_problem(entry: object, v: float) -> str:
    """What is wrong with the form of a stored entry, or "" if it is a proper (flag, v)."""
    if not isinstance(entry, tuple) or len(entry) != 2:
        return "an entry is a tuple (flag, v), e.g. ('≤', 0)"
    flag, bound = entry
    if flag not in FLAGS:
        return ("the flags are the one-character strings '=', '≤' and '≥'; "
                "`from gamelib.search import EXACT, UPPER, LOWER` gives all three")
    if not same(bound, v):
        return "store the result v itself as the bound"
    return ""


def _student_search(game: AnyGame, cache: BoundCache, stats: Stats,
                    rule: Callable[..., Any]) -> BoundedSearch:
    """The lecture's bounded alpha-beta with the student's store ``rule`` in place of
    :func:`~gamelib.search.bounded.store_bound`, and a check of every entry it stores."""

    def store(cache: BoundCache, state: Hashable, alpha: int, beta: int, v: int) -> None:
        size, known = len(cache), state in cache
        if _stored(rule, cache, state, alpha, beta, v) > size + (not known):
            raise SearchStopped(Line(
                FAIL, "the search stopped: your rule added entries for other states",
                (("state", show_state(game, state)),
                 ("hint", "store under `state` only and leave the other entries alone"))))
        entry = cache.get(state)
        if entry is not None:
            problem = _entry_problem(entry, v)
            if problem:
                raise SearchStopped(Line(
                    FAIL, "the search stopped: it cannot read an entry your rule stored",
                    (("state", show_state(game, state)), ("entry", show(entry)),
                     ("hint", problem))))

    return BoundedSearch(game, cache, stats, store)


def _holds(entry: Entry, value: int) -> bool:
    flag, bound = entry
    return value == bound if flag == EXACT else value <= bound if flag == UPPER else (
        value >= bound)


def _malformed_entry(game: AnyGame, cache: BoundCache,
                     values: dict[Hashable, int]) -> Line | None:
    """A line on the first entry that is not ``state: (flag, bound)``, or None."""
    for state, entry in cache.items():
        if state not in values:
            hint = "the key is not a state of the game: store under `state` only"
        elif not isinstance(entry, tuple) or len(entry) != 2 or entry[0] not in FLAGS:
            hint = "an entry is a tuple (flag, v) with the flag '=', '≤' or '≥'"
        else:
            continue
        return Line(FAIL, "after the search the cache holds an entry the search cannot read",
                    (("key", show(state)), ("entry", show(entry)), ("hint", hint)))
    return None


def _false_entries(game: AnyGame, cache: BoundCache, values: dict[Hashable, int]) -> Line | None:
    return false_entries_line(
        game, cache, values, _holds, _says,
        "an entry may claim only what the window lets the search know: a result at or "
        "beyond an end of the window is a bound")


_CLAIMS: Final = {EXACT: "exactly", UPPER: "at most", LOWER: "at least"}


def _says(entry: Entry) -> str:
    flag, bound = entry
    return f"is {_CLAIMS[flag]} {bound:g}"


def _shared_cache_line(rule: Callable[..., Any], values: dict[Hashable, int]) -> Line:
    """One cache for 180 searches in three windows: results keep the three cases, entries hold."""
    game: AnyGame = TicTacToe()
    cache, stats = BoundCache(), Stats()
    search = _student_search(game, cache, stats, rule)
    return shared_cache_line(
        game, search.value, values, cache,
        lambda: _malformed_entry(game, cache, values) or _false_entries(game, cache, values),
        "an entry read in a later search was wrong")



# ---------------------------------------------------------------------------------------------
# Merging two entries for one state
# ---------------------------------------------------------------------------------------------


_Bound = tuple[str, float]
"""An entry whose bound may be a float (the merge check's cases)."""


def _interval(entry: _Bound) -> tuple[float, float]:
    """The values an entry allows, as a closed interval within [-inf, inf]."""
    flag, v = entry
    return (v, v) if flag == EXACT else (-math.inf, v) if flag == UPPER else (v, math.inf)


def _merge_cases() -> list[tuple[_Bound, _Bound]]:
    """Every pair of entries with bounds from :data:`_POINTS` that can both be true."""
    entries = [(flag, v) for flag in FLAGS for v in _POINTS]
    cases = []
    for old in entries:
        for new in entries:
            (lo1, hi1), (lo2, hi2) = _interval(old), _interval(new)
            if max(lo1, lo2) <= min(hi1, hi2):
                cases.append((old, new))
    return cases


def _merged(old: _Bound, new: _Bound) -> list[_Bound]:
    """The right answers for merging ``old`` and ``new``: the entry that claims exactly what
    both together prove, or either one where no single entry can (a bound on each side)."""
    lo = max(_interval(old)[0], _interval(new)[0])
    hi = min(_interval(old)[1], _interval(new)[1])
    if lo == hi:
        return [(EXACT, lo)]
    if hi == math.inf:
        return [(LOWER, lo)]
    if lo == -math.inf:
        return [(UPPER, hi)]
    return [new, old]


@checker(forbid=_FORBIDDEN)
def check_merge_entries(merge: Callable[[Any, Any], Any]) -> CheckResult:
    """Check the student's ``merge(old, new)``: two true entries ``(flag, v)`` about one state
    (from two searches) give one entry that claims all that the two prove together.

    The right answer: an exact entry if one of them is exact or if a lower and an upper
    bound meet (``('≥', v)`` and ``('≤', v)`` give ``('=', v)``); the tighter bound if both
    bound the same side; and, for a lower and an upper bound that do not meet, either one
    (one entry cannot hold both). Tried on every pair of entries with bounds from -1, -0.5,
    0, 0.5 and 1 that can both be true. Then the lecture's bounded alpha-beta stores with
    Lesson 5's rule followed by the student's merge on one cache shared by 180 searches:
    every entry must stay true. Result: a :class:`CheckResult`; GameError if ``merge`` is
    not callable.
    """
    title = "merge"
    cases = _merge_cases()
    wrong: list[Line] = []
    for index, (old, new) in enumerate(cases):
        call = f"merge({old!r}, {new!r})"
        answer = ask(title, "merge", call, merge, old, new, first=index == 0)
        right = _merged(old, new)
        line = returned_none_line(call, answer, "merge")
        if line is None and not any(same(answer, r) for r in right):
            problem = (_entry_problem(answer, answer[1])
                       if isinstance(answer, tuple) and len(answer) == 2 else
                       "an entry is a tuple (flag, v), e.g. ('≤', 0)")
            lo = max(_interval(old)[0], _interval(new)[0])
            hi = min(_interval(old)[1], _interval(new)[1])
            if problem:
                hint = problem
            elif lo == hi:
                hint = ("together the two entries leave one value possible: the entry is "
                        "exact")
            elif right[0][0] != EXACT and len(right) == 1:
                hint = "both bound the same side: keep the bound that says more"
            else:
                hint = ("the value lies between the two bounds; one entry cannot say both, "
                        "so keep one of them as it is")
            line = Line(FAIL, call, (("expected", " or ".join(map(repr, right))),
                                     ("returned", show(answer)), ("hint", hint)))
        if line is not None:
            wrong.append(line)
    if wrong:
        first = wrong[0]
        return CheckResult(title, (Line(FAIL, f"wrong in {len(wrong)} of {len(cases)} pairs; "
                                              f"the first: {first.text}", first.details),),
                           facts={"pairs": len(cases), "wrong": len(wrong)})
    lines = [Line(PASS, f"right on all {len(cases)} pairs of entries that can both be true")]
    lines.append(_merging_search_line(merge))
    return CheckResult(title, tuple(lines), facts={"pairs": len(cases), "wrong": 0})


def _merging_search_line(merge: Callable[..., Any]) -> Line:
    """One shared cache, 180 searches, Lesson 5's rule and then the student's merge."""
    values = tictactoe_values()

    def rule(cache: BoundCache, state: Hashable, alpha: int, beta: int, v: int) -> None:
        old = cache.get(state)
        bounded.store_bound(cache, state, alpha, beta, v)
        if old is not None:
            cache[state] = call_student(merge, old, cache[state])

    line = _shared_cache_line(handed(rule), values)  # the checker's rule: it may store
    if line.status != PASS:
        return line
    return Line(PASS, "with your merge in the store rule, " + line.text)
