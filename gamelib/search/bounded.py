"""Alpha-beta with a bound-flagged cache: memoization that is correct for pruned results.

Alpha-beta returns the exact value only when that value lies inside the window; outside
it returns a bound (as :mod:`gamelib.search.alphabeta` does: ``alpha`` itself when no move
beats it, at a cutoff the value that reached ``beta``). So a cache for alpha-beta must
remember *what kind* of number it stores. Each entry is a pair ``(flag, v)``:

===========  ==========================  =========================================
entry        meaning                     stored when the search returned ``v`` and
===========  ==========================  =========================================
``('=', v)``  ``value(s) == v``           ``alpha < v < beta``
``('≤', v)``  ``value(s) <= v``           ``v <= alpha`` (the search failed low)
``('≥', v)``  ``value(s) >= v``           ``v >= beta`` (the search failed high)
===========  ==========================  =========================================

That is the *store rule* (:func:`store_bound`). The flags are the Unicode characters
``'='``, ``'≤'`` (U+2264) and ``'≥'`` (U+2265).

Reading an entry in a new window ``[alpha, beta]`` gives one of seven cases
(:func:`read_bound`):

1. ``('=', v)``: return ``v``.
2. ``('≤', v)`` and ``v <= alpha``: the value is at most ``alpha``; return ``v``.
3. ``('≤', v)`` and ``alpha < v < beta``: search again in the narrower ``[alpha, v]``.
4. ``('≤', v)`` and ``v >= beta``: the entry does not help; search ``[alpha, beta]``.
5. ``('≥', v)`` and ``v >= beta``: the value is at least ``beta``; return ``v``.
6. ``('≥', v)`` and ``alpha < v < beta``: search again in the narrower ``[v, beta]``.
7. ``('≥', v)`` and ``v <= alpha``: the entry does not help; search ``[alpha, beta]``.

After every search the entry is replaced by what the store rule makes of the new result
in the window that was searched.

This module follows the lecture's formulation rather than negamax: values are for the
first player (``game.players[0]``), who maximizes in :func:`max_value`, while the second
player minimizes in :func:`min_value`, and :func:`evaluate` is the memoized entry point
that both call for the successors. All three keep alpha-beta's three-case contract.

From the empty tic-tac-toe board with row-major moves, the cache ends with 2,474
entries, against the 5,478 states that naive memoization stores. Only 32 of them are
exact: for most states a bound was all the search needed.

>>> from gamelib.games import TicTacToe
>>> game, cache = TicTacToe(), BoundCache()
>>> bounded_alphabeta(game, game.start, cache=cache), len(cache)
(0, 2474)
>>> cache.by_flag()
{'=': 32, '≤': 1206, '≥': 1236}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from operator import itemgetter
from typing import Final, NamedTuple

from gamelib.game import GameError
from gamelib.search.common import (
    AnyGame,
    Observer,
    check_cache,
    check_game,
    check_observer,
    check_window,
    default_window,
)
from gamelib.search.door import NO_MOVE, NoNextState, search_door
from gamelib.search.movers import mover_rule
from gamelib.search.stats import Stats

__all__ = [
    "EXACT",
    "UPPER",
    "LOWER",
    "FLAGS",
    "Entry",
    "BoundCache",
    "BoundRead",
    "store_bound",
    "read_bound",
    "bounded_alphabeta",
    "BoundedSearch",
]

EXACT: Final = "="
"""The flag of an exact value."""
UPPER: Final = "\u2264"
"""``'≤'``: the stored value is an upper bound of the true value."""
LOWER: Final = "\u2265"
"""``'≥'``: the stored value is a lower bound of the true value."""
FLAGS: Final = (EXACT, UPPER, LOWER)

Entry = tuple[str, int]
"""``(flag, v)`` with flag ``'='``, ``'≤'`` or ``'≥'``."""


class BoundCache(dict[Hashable, Entry]):
    """A dict from states to ``(flag, v)`` entries; values are for ``game.players[0]``.

    Iterating over it gives the states, ``.items()`` the ``(state, (flag, v))`` pairs,
    as for any dict. Invariant, for the true value ``value(s)`` of every state ``s``::

        cache[s] == ('=', v)  ->  value(s) == v
        cache[s] == ('≤', v)  ->  value(s) <= v
        cache[s] == ('≥', v)  ->  value(s) >= v

    A cache belongs to one game and may be shared by several searches of that game:
    each entry stays true, so it never goes stale.
    """

    def by_flag(self) -> dict[str, int]:
        """How many entries carry each flag, e.g. ``{'=': 32, '≤': 1206, '≥': 1236}``.

        Every flag is a key, in the order ``'='``, ``'≤'``, ``'≥'``, even when its count is 0.
        """
        return _by_flag(self)


def _by_flag(cache: dict[Hashable, Entry]) -> dict[str, int]:
    """:meth:`BoundCache.by_flag` for any dict of entries."""
    counts = Counter(map(itemgetter(0), cache.values()))
    return {flag: counts[flag] for flag in FLAGS}


def store_bound(cache: dict[Hashable, Entry], state: Hashable, alpha: int, beta: int,
                v: int) -> None:
    """Store the result ``v`` of a search of ``state`` in the window ``[alpha, beta]``.

    The store rule: ``v <= alpha`` gives ``('≤', v)``, ``alpha < v < beta`` gives
    ``('=', v)`` and ``v >= beta`` gives ``('≥', v)``. By alpha-beta's three cases the
    entry is then true of the state's value. Precondition: ``alpha < beta``, and ``v``
    was returned by a search that keeps the three cases for this window.
    """
    if v <= alpha:
        cache[state] = (UPPER, v)
    elif v < beta:
        cache[state] = (EXACT, v)
    else:
        cache[state] = (LOWER, v)


class BoundRead(NamedTuple):
    """What a cache entry says in the window ``[alpha, beta]``: :func:`read_bound`'s result.

    ``case`` is 0 (no entry) or the lecture's case number 1 to 7. If ``value`` is not
    None it is the answer; otherwise the state must be searched in ``[alpha, beta]``,
    which is the given window or a narrower one.
    """

    case: int
    value: int | None
    alpha: int
    beta: int


def read_bound(entry: Entry | None, alpha: int, beta: int) -> BoundRead:
    """The seven cases of reading the cache ``entry`` (or None) in the window ``[alpha, beta]``.

    Returns a :class:`BoundRead`: either a value that satisfies the three cases of
    alpha-beta for ``[alpha, beta]`` without any search (cases 1, 2 and 5) or the
    window to search, narrowed where the entry allows it (cases 3 and 6). Precondition:
    ``alpha < beta``. Raises :class:`GameError` for an entry that is not ``(flag, v)``
    with one of the three flags.
    """
    if entry is None:
        return BoundRead(0, None, alpha, beta)
    try:
        flag, v = entry
    except (TypeError, ValueError):
        raise GameError(f"a cache entry is a pair (flag, v), got {entry!r}") from None
    if flag == EXACT:
        return BoundRead(1, v, alpha, beta)
    if flag == UPPER:
        if v <= alpha:
            return BoundRead(2, v, alpha, beta)
        if v < beta:
            return BoundRead(3, None, alpha, v)
        return BoundRead(4, None, alpha, beta)
    if flag == LOWER:
        if v >= beta:
            return BoundRead(5, v, alpha, beta)
        if v > alpha:
            return BoundRead(6, None, v, beta)
        return BoundRead(7, None, alpha, beta)
    raise GameError(f"unknown flag {flag!r}: a cache entry's flag is '=', '≤' or '≥'")


Search = Callable[[Hashable, int, int], int]
"""``f(state, alpha, beta)``: :meth:`BoundedSearch.max_value` or ``min_value``."""

StoreRule = Callable[[BoundCache, Hashable, int, int, int], object]
"""``store(cache, state, alpha, beta, v)``: files a search's result, as :func:`store_bound`."""


class BoundedSearch:
    """The three mutually recursive functions of the lecture, for one game and one cache.

    Values are for ``game.players[0]``. :meth:`max_value` is called only on states where
    the first player moves, :meth:`min_value` only where the second player moves. All
    three keep alpha-beta's three-case contract for their window.
    """

    def __init__(self, game: AnyGame, cache: BoundCache, stats: Stats,
                 store: StoreRule = store_bound) -> None:
        """A search of ``game`` that reads and fills ``cache`` and counts in ``stats``.

        ``store`` is the store rule that files every result in the cache: the lecture's
        :func:`store_bound` unless the caller brings its own (the exercise checker does).
        """
        self.game, self.cache, self.stats = game, cache, stats
        self.store = store
        self.maximizer, self.minimizer = game.players
        self.who_moves = mover_rule(game)

    def evaluate(self, state: Hashable, f: Search, alpha: int, beta: int) -> int:
        """The value of ``state`` in ``[alpha, beta]``, read from the cache or by ``f``."""
        stats = self.stats
        stats.calls += 1
        stats.visited.add(state)
        read = read_bound(self.cache.get(state), alpha, beta)
        if read.value is not None:
            stats.cache_hits += 1
            return read.value
        v = f(state, read.alpha, read.beta)
        self.store(self.cache, state, read.alpha, read.beta, v)
        return v

    def max_value(self, state: Hashable, alpha: int, beta: int) -> int:
        """The value of ``state`` for the maximizer, who is to move, in ``[alpha, beta]``.

        It is called for the states after the minimizer's moves; where the minimizer
        moves again (a game that does not promise to alternate), it is
        :meth:`min_value`'s business."""
        game = self.game
        if game.finished(state):
            self.stats.terminal += 1
            return game.utility(state, self.maximizer)
        if self.who_moves(state, self.maximizer) != self.maximizer:
            return self.min_value(state, alpha, beta)
        v, n = alpha, NO_MOVE
        for n in game.next_states(state, self.maximizer):
            v = max(v, self.evaluate(n, self.min_value, v, beta))
            if v >= beta:
                self.stats.cutoffs += 1
                return v
        if n is NO_MOVE:   # the loop ran zero times: a running state without next states
            raise NoNextState(state)
        return v

    def min_value(self, state: Hashable, alpha: int, beta: int) -> int:
        """The value of ``state`` for the maximizer, the minimizer to move, in ``[alpha, beta]``
        (the maximizer's, where the maximizer moves again: :meth:`max_value`)."""
        game = self.game
        if game.finished(state):
            self.stats.terminal += 1
            return game.utility(state, self.maximizer)
        if self.who_moves(state, self.minimizer) != self.minimizer:
            return self.max_value(state, alpha, beta)
        v, n = beta, NO_MOVE
        for n in game.next_states(state, self.minimizer):
            v = min(v, self.evaluate(n, self.max_value, alpha, v))
            if v <= alpha:
                self.stats.cutoffs += 1
                return v
        if n is NO_MOVE:   # the loop ran zero times: a running state without next states
            raise NoNextState(state)
        return v

    def value(self, state: Hashable, alpha: int, beta: int) -> int:
        """:meth:`evaluate` with ``max_value`` or ``min_value``, whichever moves in ``state``."""
        f = self.max_value if self.game.to_move(state) == self.maximizer else self.min_value
        return self.evaluate(state, f, alpha, beta)


@search_door
def bounded_alphabeta(game: AnyGame, state: Hashable, alpha: float | None = None,
                      beta: float | None = None, *,
                      cache: BoundCache | None = None, stats: Stats | None = None,
                      observer: Observer | None = None) -> int:
    """The value of ``state`` for ``game.players[0]`` in ``[alpha, beta]``, with a bound cache.

    Arguments: ``game``, ``state`` and the window ``alpha < beta`` (default: ``[-1, 1]``,
    or the game's ``value_range``, see :func:`~gamelib.search.common.default_window`).
    ``cache`` is a
    :class:`BoundCache` of this game to read and extend (a new one if None). Note that,
    as in the lecture, the value is for the *first* player whoever is to move.

    Result: alpha-beta's three cases for the first player's value (exact inside the
    window; with the default ``[-1, 1]`` always exact). Afterwards every entry of
    ``cache`` is true of its state (see :class:`BoundCache`).

    ``stats``, if given, is filled: ``calls`` (calls of ``evaluate``, one per visit of
    a state), ``cache_hits`` (visits answered by cases 1, 2 or 5), ``terminal``,
    ``cutoffs``, ``visited``, ``cache_entries`` (the cache's entries by flag at the end)
    and ``seconds``. ``observer`` is for :func:`~gamelib.search.trace.trace_search`:
    it wraps :meth:`BoundedSearch.evaluate`. Raises :class:`GameError` for a bad game or
    window, or a ``cache`` that is not a dict.
    """
    check_game(game)
    alpha, beta = default_window(game, alpha, beta)
    check_window(alpha, beta)
    check_cache(cache, "a BoundCache")
    check_observer(observer)
    if cache is None:
        cache = BoundCache()
    search = BoundedSearch(game, cache, Stats() if stats is None else stats)
    if observer is not None:   # the recursion calls self.evaluate: now the observer's
        search.evaluate = observer(search.evaluate)  # type: ignore[method-assign]
    with search.stats.timer():
        # The searches' own types say int: the values of the games other than TreeGame.
        result = search.value(state, alpha, beta)  # type: ignore[arg-type]
    if stats is not None:   # counting the entries takes a walk over the whole cache
        stats.cache_entries = _by_flag(cache)
    return result
