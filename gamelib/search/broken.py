"""An exhibit: why alpha-beta's results must not be cached as if they were exact.

It is tempting to memoize alpha-beta exactly as minimax was memoized: store the number
a search returned and hand it out the next time the state comes up. But alpha-beta
returns the exact value only when that value lies inside the window it was given;
below the window it may return any number ``<= alpha``, above it any number ``>= beta``.
A number stored from one window and reused in another window is then a bound passed off
as a value, and the search can return a wrong result.

:func:`broken_alphabeta` is that mistake, kept on purpose: the lecture's max/min
alpha-beta (the one in :mod:`gamelib.search.bounded`) with a plain ``dict`` cache.
:func:`find_broken_cache_example` searches the states of a game, in a fixed order, for
the first one where it returns a wrong value, and reports which cache entry misled it.
:mod:`gamelib.search.bounded` shows the repair: store a flag with every value.

The mistake hides well. In tic-tac-toe, one search with an empty cache and the window
``[-1, 1]`` happens to return the right value from every one of the 4,520 running
states. It goes wrong as soon as the cache is kept from one search to the next, which is
just what a player does who values a position and then each of its moves: after the
search of the board with X in a corner, the cache says that O's reply in the middle of
the right edge draws, while in truth it loses.

>>> from gamelib.games import TicTacToe
>>> example = find_broken_cache_example(TicTacToe())
>>> example.true_value, example.broken_value
(1, 0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from gamelib.game import GameError
from gamelib.search.alphabeta import keeps_three_cases
from gamelib.search.bounded import BoundCache, BoundedSearch, Search
from gamelib.search.common import AnyGame, check_cache, check_game, check_window
from gamelib.search.memo import memo_minimax
from gamelib.search.stats import Stats

__all__ = ["broken_alphabeta", "find_broken_cache_example", "BrokenCacheExample"]


class BrokenSearch(BoundedSearch):
    """:class:`~gamelib.search.bounded.BoundedSearch` with a naive cache: the bug.

    ``naive`` maps a state to the last number a search of it returned. For the exhibit
    it also remembers the window each entry was computed in (``windows``) and every
    read of an entry with the window of the read (``reads``).
    """

    def __init__(self, game: AnyGame, naive: dict[Hashable, int], stats: Stats) -> None:
        super().__init__(game, BoundCache(), stats)
        self.naive = naive
        self.windows: dict[Hashable, tuple[int, int]] = {}
        self.reads: list[tuple[Hashable, int, int]] = []

    def evaluate(self, state: Hashable, f: Search, alpha: int, beta: int) -> int:
        """Like memoized minimax: a stored number is returned, whatever the window."""
        stats = self.stats
        stats.calls += 1
        stats.visited.add(state)
        if state in self.naive:                      # the bug: a bound used as a value
            stats.cache_hits += 1
            self.reads.append((state, alpha, beta))
            return self.naive[state]
        v = f(state, alpha, beta)
        self.naive[state] = v
        self.windows[state] = (alpha, beta)
        return v


def broken_alphabeta(game: AnyGame, state: Hashable, alpha: int = -1, beta: int = 1, *,
                     cache: dict[Hashable, int] | None = None,
                     stats: Stats | None = None) -> int:
    """Alpha-beta for ``game.players[0]`` with a naive cache: sometimes WRONG, on purpose.

    Arguments and counters as :func:`~gamelib.search.bounded.bounded_alphabeta`, except
    that ``cache`` is a plain dict from states to numbers. The result is what that
    search returns when every cached number is trusted as exact; it is *not* reliably
    the value of ``state`` (see :func:`find_broken_cache_example`).
    """
    check_game(game)
    check_window(alpha, beta)
    check_cache(cache)
    cache = {} if cache is None else cache
    stats = Stats() if stats is None else stats
    search = BrokenSearch(game, cache, stats)
    with stats.timer():
        result = search.value(state, alpha, beta)
    stats.cache_entries = {"=": len(cache)}
    return result


@dataclass(frozen=True)
class BrokenCacheExample:
    """A state where :func:`broken_alphabeta` errs, and the cache entry to blame.

    All values are for ``game.players[0]``; every search uses the window ``[-1, 1]``.

    - ``state``: the state whose value came out wrong;
    - ``searched_before``: the state whose search filled the cache just before, as when
      a player first values the position and then each of its moves; None if ``state``
      went wrong with an empty cache;
    - ``true_value``: the minimax value of ``state``; ``broken_value``: what the broken
      search returned;
    - ``culprit``: the first state whose cached number was read in a window where it
      broke alpha-beta's three cases (a bound taken for the exact value);
    - ``culprit_true_value``, ``stored_value``: its real value and the cached number;
    - ``stored_window``: the window ``(alpha, beta)`` the cached number was computed in;
    - ``read_window``: the window in which it was later read and trusted.
    """

    state: Hashable
    searched_before: Hashable | None
    true_value: int
    broken_value: int
    culprit: Hashable
    culprit_true_value: int
    stored_value: int
    stored_window: tuple[int, int]
    read_window: tuple[int, int]

    def explanation(self) -> str:
        """The story of the example in a few sentences."""
        a, b = self.stored_window
        c, d = self.read_window
        before = (
            "" if self.searched_before is None
            else "The cache was filled by the search of the position before it. "
        )
        return (
            f"{before}A state with true value {self.culprit_true_value} was searched in the "
            f"window [{a}, {b}], which promises only a bound for values outside the window, "
            f"and its result {self.stored_value} was stored as if exact. Read back in the "
            f"window [{c}, {d}], that number made the search return {self.broken_value} "
            f"where the true value is {self.true_value}."
        )


def find_broken_cache_example(game: AnyGame, *, max_states: int | None = None
                              ) -> BrokenCacheExample:
    """The first state, in a fixed order, whose value the naive cache gets wrong.

    The states reachable from ``game.start`` are taken breadth-first, level by level and
    each level in move order, so the result is the same on every run. Each running
    state ``s`` is searched with an empty cache, and then, with the cache that search
    left behind, each running successor of ``s`` in move order: just what a player
    does who values a position and then each of its moves. Every result is compared
    with the exact value (memoized minimax). ``max_states`` bounds how many states
    ``s`` are tried.

    Result: a :class:`BrokenCacheExample` for the first wrong result. Raises
    :class:`GameError` if none of the searches goes wrong.
    """
    check_game(game)
    if max_states is not None and (not isinstance(max_states, int) or max_states < 1):
        raise GameError(
            f"max_states must be a whole number, at least 1, or None; got {max_states!r}"
        )
    maximizer = game.players[0]
    exact: dict[Hashable, int] = {}

    def true_value(s: Hashable) -> int:
        v = memo_minimax(game, s, cache=exact)
        return v if game.to_move(s) == maximizer else -v

    tried = 0
    for state in _breadth_first(game):
        if max_states is not None and tried >= max_states:
            break
        if game.finished(state):
            continue
        tried += 1
        search = BrokenSearch(game, {}, Stats())
        successors = game.next_states(state, game.to_move(state))
        for target in [state, *(n for n in successors if not game.finished(n))]:
            search.reads.clear()
            broken = search.value(target, -1, 1)
            if broken != true_value(target):
                return _example(search, target, None if target is state else state,
                                broken, true_value)
    raise GameError(f"the naive cache gave the right values around all {tried} states tried")


def _example(search: BrokenSearch, state: Hashable, before: Hashable | None, broken: int,
             true_value: Callable[[Hashable], int]) -> BrokenCacheExample:
    """The example for a wrong result of ``search``: find the first misleading read."""
    for culprit, alpha, beta in search.reads:
        stored = search.naive[culprit]
        culprit_truth = true_value(culprit)
        if not keeps_three_cases(stored, culprit_truth, alpha, beta):
            return BrokenCacheExample(
                state=state,
                searched_before=before,
                true_value=true_value(state),
                broken_value=broken,
                culprit=culprit,
                culprit_true_value=culprit_truth,
                stored_value=stored,
                stored_window=search.windows[culprit],
                read_window=(alpha, beta),
            )
    # If every read kept the three cases, the search would have kept them too.
    raise AssertionError("a wrong result needs a cache read that broke the three cases")


def _breadth_first(game: AnyGame) -> Iterator[Hashable]:
    """The states reachable from ``game.start``, level by level, each level in move order."""
    queue, seen = deque([game.start]), {game.start}
    while queue:
        state = queue.popleft()
        yield state
        if not game.finished(state):
            for n in game.next_states(state, game.to_move(state)):
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
