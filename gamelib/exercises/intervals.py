"""The checkers' side of Exercises 5 and 6: a cache of (lower, upper) pairs.

Lesson 5 stores one bound per state, with a flag: ``('=', v)``, ``('≤', v)`` or ``('≥', v)``.
Its optional part 5a ends where these exercises begin: an entry that keeps a lower *and* an
upper bound, ``(lower, upper)``, loses nothing when two searches of a state ask different
questions. Here are the checkers' own answers, which the student never sees run:

* :func:`store_interval`: the result ``v`` of a search in ``[alpha, beta]`` narrows the pair of
  ``state`` (no entry is ``(-inf, inf)``);
* :func:`read_interval`: what a pair settles in a window, or the window still to search;
* :class:`IntervalSearch`: Lesson 5's alpha-beta in the max/min form (values for the first
  player) with such a cache, its store and read rules given, so that a checker can run the
  student's rule inside it;
* :func:`search_lines`: the report lines on that search with one of the student's rules in
  it: from the empty tic-tac-toe board against the checker's own run, then one cache shared
  by 180 searches, every result and every entry checked against the exact values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sized
from typing import Any, Final

from gamelib.exercises.answers import number_problem
from gamelib.exercises.failures import STUDENT_FAILURES, raised_line
from gamelib.exercises.positions import sample_positions, show_state
from gamelib.exercises.report import FAIL, INFO, PASS, Line, show
from gamelib.exercises.run import expected
from gamelib.games import TicTacToe
from gamelib.search.alphabeta import keeps_three_cases
from gamelib.search.common import AnyGame
from gamelib.search.memo import memo_minimax
from gamelib.search.stats import Stats

__all__ = ["Interval", "IntervalSearch", "NO_ENTRY", "SearchStopped", "WINDOWS",
           "false_entries_line", "holds", "pair_problem", "read_interval", "search_lines",
           "shared_cache_line", "store_interval", "tictactoe_values"]

Interval = tuple[float, float]
"""An entry ``(lower, upper)``: the value of its state lies in ``[lower, upper]``."""

NO_ENTRY: Final[Interval] = (-math.inf, math.inf)
"""What a state without an entry is known to be worth: anything."""

StoreRule = Callable[[dict[Any, Any], Hashable, float, float, float], Any]
ReadRule = Callable[[Any, float, float], Any]


def store_interval(cache: dict[Any, Any], state: Hashable, alpha: float, beta: float,
                   v: float) -> None:
    """File the result ``v`` of a search of ``state`` in ``[alpha, beta]`` (alpha < beta, the
    bracket property) by narrowing the pair of ``state``: ``v <= alpha`` proves
    ``value <= v``, ``v >= beta`` proves ``value >= v``, a result inside the window is the
    value. The other entries stay as they are."""
    lower, upper = cache.get(state, NO_ENTRY)
    if v <= alpha:
        upper = min(upper, v)
    elif v < beta:
        lower = upper = v
    else:
        lower = max(lower, v)
    cache[state] = (lower, upper)


def read_interval(entry: Interval | None, alpha: float, beta: float
                  ) -> tuple[float | None, float, float]:
    """``(value, a, b)``: the answer that the pair ``entry`` (or None) settles for a search in
    ``[alpha, beta]`` (then ``a, b`` is that window), or ``None`` and the window ``[a, b]``
    still to search, narrowed to the pair: exact (``lower == upper``), all at or below
    ``alpha`` (answer ``upper``), all at or above ``beta`` (answer ``lower``), or narrowed."""
    if entry is None:
        return None, alpha, beta
    lower, upper = entry
    if lower == upper:
        return lower, alpha, beta
    if upper <= alpha:
        return upper, alpha, beta
    if lower >= beta:
        return lower, alpha, beta
    return None, max(alpha, lower), min(beta, upper)


def holds(entry: Interval, value: float) -> bool:
    """True iff the pair ``entry`` is true of a state worth ``value``."""
    return entry[0] <= value <= entry[1]


class IntervalSearch:
    """Alpha-beta in the max/min form with a cache of pairs, for one game and one cache.

    Values are for ``game.players[0]``. ``store`` and ``read`` are the rules: the checker's
    own (:func:`store_interval`, :func:`read_interval`) or, wrapped by the checker, the
    student's. Every search keeps the bracket property for its window if the rules are
    right; ``stats.calls`` counts the states asked about, as Lesson 5 counts them.
    """

    def __init__(self, game: AnyGame, cache: dict[Any, Any], stats: Stats, *,
                 store: StoreRule = store_interval, read: ReadRule = read_interval) -> None:
        """A search of ``game`` that reads and fills ``cache`` with the given rules."""
        self.game, self.cache, self.stats = game, cache, stats
        self.store, self.read = store, read
        self.maximizer, self.minimizer = game.players

    def evaluate(self, state: Hashable, maximizer_moves: bool, alpha: float,
                 beta: float) -> float:
        """The value of ``state`` in ``[alpha, beta]``: read, else search and store."""
        self.stats.calls += 1
        self.stats.visited.add(state)
        known, a, b = self.read(self.cache.get(state), alpha, beta)
        if known is not None:
            self.stats.cache_hits += 1
            return float(known)
        v = self.side_value(state, maximizer_moves, a, b)
        self.store(self.cache, state, a, b, v)
        return v

    def side_value(self, state: Hashable, maximizer_moves: bool, alpha: float,
                   beta: float) -> float:
        """The first player's value of ``state`` in the window, the maximizer to move if
        ``maximizer_moves`` (max_value: raise ``v`` from ``alpha``, cut at ``beta``), else
        the minimizer (min_value: lower ``v`` from ``beta``, cut at ``alpha``)."""
        game = self.game
        if game.finished(state):
            return float(game.utility(state, self.maximizer))
        mover = self.maximizer if maximizer_moves else self.minimizer
        v = alpha if maximizer_moves else beta
        for n in game.next_states(state, mover):
            if maximizer_moves:
                v = max(v, self.evaluate(n, False, v, beta))
            else:
                v = min(v, self.evaluate(n, True, alpha, v))
            if (v >= beta) if maximizer_moves else (v <= alpha):
                return v
        return v

    def value(self, state: Hashable, alpha: float = -1, beta: float = 1) -> float:
        """The first player's value of ``state`` in ``[alpha, beta]``, through the cache."""
        return self.evaluate(state, self.game.to_move(state) == self.maximizer, alpha, beta)


# ---------------------------------------------------------------------------------------------
# The search with a student's rule in it
# ---------------------------------------------------------------------------------------------

WINDOWS: Final = ((-1, 1), (-1, 0), (0, 1))
"""The windows of the shared-cache test."""


class SearchStopped(Exception):
    """The student's rule gave the search something it cannot use; ``line`` says what."""

    def __init__(self, line: Line) -> None:
        super().__init__(line.text)
        self.line = line


def pair_problem(entry: object) -> str:
    """What is wrong with the form of a pair ``(lower, upper)``, or "" if nothing."""
    if not isinstance(entry, tuple) or len(entry) != 2:
        return "an entry is a pair (lower, upper), e.g. (0, math.inf) for 'at least 0'"
    problem = number_problem(entry[0]) or number_problem(entry[1])
    if problem:
        return f"both ends of a pair are numbers (math.inf where there is no bound): {problem}"
    if entry[0] > entry[1]:
        return ("lower <= upper: a pair whose lower end lies above its upper end leaves no "
                "value possible")
    return ""


@expected
def tictactoe_values() -> dict[Hashable, int]:
    """The exact value for X of every tic-tac-toe state that play can reach."""
    game: AnyGame = TicTacToe()
    cache: dict[Hashable, int] = {}
    memo_minimax(game, game.start, cache=cache)
    return {s: v if game.to_move(s) == "X" else -v for s, v in cache.items()}


@expected
def _reference_search() -> tuple[int, int, int]:
    """Lesson 5's search (:class:`IntervalSearch`, this module's rules) from the empty
    tic-tac-toe board with a fresh cache: its calls, its entries and how many of them are
    exact, for :func:`search_lines`; computed once per process, since every check asks the
    same."""
    game: AnyGame = TicTacToe()
    cache: dict[Any, Any] = {}
    stats = Stats()
    IntervalSearch(game, cache, stats).value(game.start)
    return stats.calls, len(cache), sum(lo == hi for lo, hi in cache.values())


def _entries_line(game: AnyGame, cache: dict[Any, Any]) -> Line | None:
    """A FAIL line on the first entry that is not a true pair about a state, or None."""
    values = tictactoe_values()
    for state, entry in cache.items():
        if state not in values:
            return Line(FAIL, "after the search the cache holds a key that is not a state",
                        (("key", show(state)), ("entry", show(entry)),
                         ("hint", "store under `state` only")))
        problem = pair_problem(entry)
        if problem:
            return Line(FAIL, "after the search the cache holds an entry the search cannot "
                              "read", (("state", show_state(game, state)),
                                       ("entry", show(entry)), ("hint", problem)))
    return false_entries_line(
        game, cache, values, holds, lambda entry: f"lies in [{entry[0]:g}, {entry[1]:g}]",
        "an entry may claim only what a search proved: a result at or beyond an end of its "
        "window is a bound on one side")


def false_entries_line(game: AnyGame, cache: Mapping[Hashable, Any],
                       values: Mapping[Hashable, int], true_of: Callable[[Any, int], bool],
                       says: Callable[[Any], str], hint: str) -> Line | None:
    """A FAIL line on the entries of ``cache`` (readable entries, keyed by states) that
    ``true_of(entry, value)`` finds false of their state's exact value (for X), showing the
    first with what it ``says`` ("the value for X " + ``says(entry)``) and ``hint``; or
    None when every entry is true."""
    false = [(s, e) for s, e in cache.items() if not true_of(e, values[s])]
    if not false:
        return None
    state, entry = false[0]
    return Line(FAIL, f"{len(false):,} of the {len(cache):,} entries are false; the first:",
                (("state", show_state(game, state)), ("entry", show(entry)),
                 ("says", f"the value for X {says(entry)}"),
                 ("truth", f"the value for X is {values[state]}"),
                 ("hint", hint)))


def search_lines(whose: str, store: StoreRule = store_interval,
                 read: ReadRule = read_interval,
                 facts: dict[str, Any] | None = None) -> list[Line]:
    """The lines on Lesson 5's search (:class:`IntervalSearch`) with ``store`` and ``read``,
    one of them the student's (``whose`` names it), wrapped by its checker so that it raises
    :class:`SearchStopped` on an answer the search cannot use.

    First from the empty tic-tac-toe board with a fresh cache, against the checker's own run
    with its own rules (the value 0 and the same numbers of calls and entries), every entry
    checked against the exact value of its state; then, if that passed, one cache shared by
    searches of 60 positions in the three :data:`WINDOWS`: every result must keep
    alpha-beta's three cases and every entry stay true. ``facts``, if given, gets the
    ``value``, ``calls``, ``entries`` and ``exact`` entries of the first search."""
    game: AnyGame = TicTacToe()
    reference_calls, reference_entries, reference_exact = _reference_search()
    want = (f"value 0, {reference_calls:,} calls, {reference_entries:,} entries, "
            f"{reference_exact} of them exact")
    cache: dict[Any, Any] = {}
    stats = Stats()
    call = f"Lesson 5's search with your {whose} from the empty board"
    try:
        result = IntervalSearch(game, cache, stats, store=store, read=read).value(game.start)
    except STUDENT_FAILURES as error:
        return [raised_line(call, error)]
    except SearchStopped as stop:
        return [stop.line]
    wrong = _entries_line(game, cache)
    if wrong is not None:
        return [wrong]
    exact = sum(lo == hi for lo, hi in cache.values())
    if facts is not None:
        facts.update(value=result, calls=stats.calls, entries=len(cache), exact=exact)
    got = f"value {result:g}, {stats.calls:,} calls, {len(cache):,} entries, {exact} of them exact"
    if (result, stats.calls, len(cache)) != (0, reference_calls, reference_entries):
        lines = [Line(FAIL, f"{call}: {got}", (("expected", want), ("hint", (
            "first make every case above right; then the search meets the same states and "
            "asks the same questions as with the right rule"))))]
        if len(cache) < reference_entries:
            if facts is not None:
                facts["safe"] = True
            lines.append(Line(INFO, f"verdict: your {whose} is safe (every entry is true) but "
                                    f"the cache keeps {len(cache):,} of the {reference_entries:,} "
                                    f"entries, so the search needs {stats.calls:,} calls "
                                    f"instead of {reference_calls:,}"))
        return lines
    lines = [Line(PASS, f"{call}: {got}; every entry is true of its state's exact value")]
    lines.append(_shared_line(game, store, read))
    return lines


def _shared_line(game: AnyGame, store: StoreRule, read: ReadRule) -> Line:
    """One cache for 180 searches in three windows: results keep the three cases, entries
    hold."""
    cache: dict[Any, Any] = {}
    search = IntervalSearch(game, cache, Stats(), store=store, read=read)
    return shared_cache_line(game, search.value, tictactoe_values(), cache,
                             lambda: _entries_line(game, cache),
                             "an entry read in a later search claimed too much")


def shared_cache_line(game: AnyGame, value: Callable[[Hashable, int, int], float],
                      values: Mapping[Hashable, int], cache: Sized,
                      entries: Callable[[], Line | None], hint: str) -> Line:
    """Run ``value(state, alpha, beta)``, a search with one cache kept between calls, on 60
    unfinished positions of ``game`` in each of the :data:`WINDOWS`. The first line: a FAIL
    (with ``hint``) for a result that breaks the three cases against the exact ``values``
    (for X), a raised error, a stop; else what ``entries()`` finds wrong in the cache
    afterwards; else a PASS that counts the searches and the ``cache``'s entries."""
    positions = [s for s in sample_positions(game, limit=120, seed=5)
                 if not game.finished(s)][:60]
    for state in positions:
        for alpha, beta in WINDOWS:
            try:
                result = value(state, alpha, beta)
            except STUDENT_FAILURES as error:
                return raised_line("a search with a shared cache", error)
            except SearchStopped as stop:
                return stop.line
            if not keeps_three_cases(result, values[state], alpha, beta):
                return Line(FAIL, f"with a shared cache, a search in [{alpha}, {beta}] returned "
                                  f"{result:g} for a state of value {values[state]} (for X)",
                            (("state", show_state(game, state)), ("hint", hint)))
    wrong = entries()
    if wrong is not None:
        return wrong
    return Line(PASS, f"one cache shared by {len(positions) * len(WINDOWS)} searches "
                      f"({len(positions)} positions, windows {', '.join(map(str, WINDOWS))}): "
                      f"every result and all {len(cache):,} entries are right")
