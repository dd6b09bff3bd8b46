"""The computer player: one entry point that picks a search for the game and the budget.

It plays any game. A game with a player of its own (Connect Four's is
:mod:`gamelib.connect4.player`) gets it from the table of computer players above the search
layer, :mod:`gamelib.session.players`, through which the session and the boards play;
that table gives every other game to :func:`choose_move` and :func:`move_values` here.

* With neither ``depth`` nor ``seconds``: an exact search
  (:func:`~gamelib.search.bounded.bounded_alphabeta`). Every move gets its exact value
  -1, 0 or +1 for the player to move, and the move is drawn at random among the best:
  among those that win at once if there are any, and in a lost position among those
  that do not allow a win in one. Tic-tac-toe is solved in milliseconds. A game too
  large to solve (Nim with eight heaps of 20) gets half the budget for the exact search;
  then, or once the cache holds :data:`GIVE_UP_ENTRIES` entries, :func:`choose_move` falls
  back to iterative deepening for the rest, and the decision says ``cut_short``.
* With ``depth`` and/or ``seconds``: :func:`~gamelib.search.depth_limited.iterative_deepening`
  with the ``heuristic`` given, else the one the search layer knows for the game
  (:func:`~gamelib.search.heuristics.default_heuristic`), to at
  most ``depth`` plies and within the budget. Its values follow the scale of
  :mod:`gamelib.search.depth_limited`: estimates inside (-1, 1), proven results beyond.

The time budget
---------------
Every call ends within a time budget: ``seconds`` (more than 0, at most
:data:`~gamelib.search.common.MAX_SECONDS`, 30 s; more is refused), else
:data:`DEFAULT_SECONDS`. The door builds one :class:`~gamelib.search.common.Budget`
from them (with the ``depth``) and passes it down whole. A caller may also pass a
Budget: the search then ends at the earlier of the two deadlines, and as soon as
another thread cancels the budget. When the time runs out the player plays the best
move found so far and ``Decision.cut_short`` is True.

The exact searches keep one bound-flagged cache per game between calls, so that a game
of tic-tac-toe is solved once rather than at every move. Its entries are true bounds of
the states' values, so they never go stale; the caches are few and bounded in size.
Each cache has its own lock, and a search never waits for it: while one session's search
holds a game's cache, another session's search of the same game uses a fresh cache of
its own, so searches of different sessions never delay each other (nor a cancel).

The lessons' simple chooser, :func:`~gamelib.search.choice.best_move`, lives in
:mod:`gamelib.search.choice`.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Final

from gamelib.game import other
from gamelib.search.bounded import BoundCache, BoundedSearch, Search
from gamelib.search.common import (
    AnyGame,
    Budget,
    Heuristic,
    SearchTimeout,
    best_options,
    check_budget,
    check_depth,
    check_game,
    check_heuristic_callable,
    check_rng,
    check_running,
    check_seconds,
    default_window,
    pick,
    wins_at_once,
)
from gamelib.search.depth_limited import deepen, describe_value
from gamelib.search.door import search_door
from gamelib.search.heuristics import default_heuristic
from gamelib.search.stats import Decision, Stats

__all__ = ["DEFAULT_SECONDS", "choose_move", "move_values", "clear_caches"]

DEFAULT_SECONDS: Final = 5.0
"""The time budget of a move or hint when the caller gives no ``seconds`` (a caller's
:class:`Budget` may end it sooner; Connect Four's player has its own, shorter default).
Tic-tac-toe's exact play takes a few milliseconds; Nim with large heaps uses all of it and
plays the best move found by then."""
MAX_GAMES: Final = 4
"""How many games keep an exact-search cache at the same time (least recently used go)."""
MAX_ENTRIES: Final = 500_000
"""A game's cache is emptied before a search once it holds more entries than this."""
GIVE_UP_ENTRIES: Final = 1_000_000
"""An exact search that grows its cache past this many entries gives up and falls back to
iterative deepening, so that memory stays bounded on games too large to solve."""


class _SharedCache(BoundCache):
    """A game's exact-search cache kept between calls, with the lock of its one user."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()


_caches: OrderedDict[object, _SharedCache] = OrderedDict()
_lock = threading.Lock()
"""Guards :data:`_caches` itself, for the moment it takes to look a game up (never for a
search)."""


@search_door
def choose_move(game: AnyGame, state: Hashable, *, depth: int | None = None,
                seconds: float | None = None, rng: random.Random | None = None,
                budget: Budget | None = None, heuristic: Heuristic | None = None) -> Decision:
    """The computer's move for the player to move in ``state``, with its value and stats.

    Arguments: ``game`` and a valid, running ``state``; ``depth`` (plies, at least 1)
    and ``seconds`` (a time budget, more than 0 and at most
    :data:`~gamelib.search.common.MAX_SECONDS`) choose the search as the module
    docstring describes, both None meaning an exact search; ``rng`` breaks ties among
    the best moves (see :func:`~gamelib.search.common.pick`); ``budget``, if given, is
    an outer limit (the search ends at the earlier of it and ``seconds``, or
    :data:`DEFAULT_SECONDS`; its ``depth`` stands for ``depth`` when that is None) that
    another thread can cancel, which ends the search
    within a fraction of a second; ``heuristic`` (``h(state, player)``, inside (-1, 1)) is
    the estimate of a depth-limited search, by default
    :func:`~gamelib.search.heuristics.default_heuristic` of ``game`` (the table of
    computer players above this layer passes a game's own, so that no search names a game).

    Result: a :class:`~gamelib.search.stats.Decision` whose ``move`` is legal in
    ``state``, ``value`` is for the player to move, ``move_values`` holds the value of
    every legal move, ``summary`` is one line such as ``"X wins with best play"`` and
    ``cut_short`` says whether the budget ran out first.

    Raises :class:`GameError` if ``game`` is not a game, ``state`` is not valid or
    finished, or another argument is bad.
    """
    _check_request(game, state, depth, seconds, rng, budget, heuristic)
    return _decide(game, state, depth, seconds, rng, budget, heuristic)


@search_door
def move_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                seconds: float | None = None, budget: Budget | None = None,
                heuristic: Heuristic | None = None) -> dict[Hashable, float]:
    """The value of every legal move in ``state`` for the player to move, for hints.

    The values are those :func:`choose_move` computes with the same ``depth``,
    ``seconds``, ``budget`` and ``heuristic``, keyed by move in the game's move order. Raises
    :class:`GameError` as :func:`choose_move` does.
    """
    _check_request(game, state, depth, seconds, None, budget, heuristic)
    # The choice itself is not used: a private Random keeps the shared one untouched.
    decision = _decide(game, state, depth, seconds, random.Random(0), budget, heuristic)
    return decision.move_values


def clear_caches() -> None:
    """Forget every exact-search cache (they are rebuilt on demand)."""
    with _lock:
        _caches.clear()


def _check_request(game: AnyGame, state: Hashable, depth: object, seconds: object,
                   rng: object, budget: object, heuristic: object) -> None:
    """The door: raise :class:`GameError` unless the arguments of a request are usable.
    Nothing below it checks them again."""
    check_game(game)
    check_depth(depth, least=1, optional=True)
    check_seconds(seconds)
    check_rng(rng)
    check_budget(budget)
    if heuristic is not None:
        check_heuristic_callable(heuristic)
    check_running(game, state)


def _limit(seconds: float | None, depth: int | None, budget: Budget | None) -> Budget:
    """The one limit of a request: ``seconds`` (default :data:`DEFAULT_SECONDS`) from now
    and ``depth``, within the caller's budget (whichever deadline comes first, cancelled
    when the caller's is). The arguments were checked at the door."""
    time_limit = DEFAULT_SECONDS if seconds is None else float(seconds)
    if budget is None:
        return Budget(time_limit, depth=depth)
    return budget.part(time_limit, depth=depth)


def _decide(game: AnyGame, state: Hashable, depth: int | None, seconds: float | None,
            rng: random.Random | None, budget: Budget | None,
            heuristic: Heuristic | None) -> Decision:
    """:func:`choose_move` on checked arguments, within the caller's budget and one of
    ``seconds`` or :data:`DEFAULT_SECONDS`: one limit, carried down whole."""
    limit = _limit(seconds, depth, budget)
    heuristic = default_heuristic(game) if heuristic is None else heuristic
    if limit.depth is None and seconds is None:
        # Half the budget for the exact search; cancelling the caller's budget ends it too.
        decision = _exact_decision(game, state, rng, limit.share(0.5))
        if decision is not None:
            return decision
        # The exact search gave up; iterative deepening has the rest of the budget. Unless
        # it proves the result, the answer is not the exact one asked for: cut short.
        fallback = deepen(game, state, heuristic, budget=limit, rng=rng)
        return replace(fallback, cut_short=fallback.cut_short or not fallback.exact)
    return deepen(game, state, heuristic, budget=limit, rng=rng)


class _BudgetedSearch(BoundedSearch):
    """The bound-flagged search of the lessons, stopped by a budget and a cache size.

    It looks at ``budget`` as often as :meth:`~gamelib.search.common.Budget.look` asks
    (every few milliseconds) and raises :class:`SearchTimeout` once it has run out or the
    cache has grown past :data:`GIVE_UP_ENTRIES`.
    """

    def __init__(self, game: AnyGame, cache: BoundCache, stats: Stats, budget: Budget) -> None:
        super().__init__(game, cache, stats)
        self.budget = budget
        self.step = self.left = budget.look(0)

    def evaluate(self, state: Hashable, f: Search, alpha: int, beta: int) -> int:
        if not self.left:
            if len(self.cache) > GIVE_UP_ENTRIES:
                raise SearchTimeout("the exact search ran out of memory")
            self.step = self.left = self.budget.look(self.step)
        self.left -= 1
        return super().evaluate(state, f, alpha, beta)


def _exact_decision(game: AnyGame, state: Hashable, rng: random.Random | None,
                    budget: Budget) -> Decision | None:
    """Solve every move of ``state`` exactly and choose among the best at random; None if
    the budget ran out first.

    The stats count this decision's calls, hits and states; ``cache_entries`` stays
    empty, since the shared cache holds the work of earlier decisions too.
    """
    player = game.to_move(state)
    opponent = other(game, player)
    sign = 1 if player == game.players[0] else -1   # the cache's values are for players[0]
    stats = Stats()
    with _cache_for(game) as cache, stats.timer():
        low, high = default_window(game, None, None)   # [-1, 1], or a TreeGame's range
        try:
            search = _BudgetedSearch(game, cache, stats, budget)
            values: dict[Hashable, float] = {
                m: float(sign * search.value(game.play(state, m), low, high))  # type: ignore[arg-type]
                for m in game.moves(state)
            }
            budget.settle(search.step, search.left)   # iterative deepening may follow
        except SearchTimeout:
            if len(cache) > MAX_ENTRIES:
                cache.clear()
            return None
    optimal = best_options(values)
    best = values[optimal[0]]
    if best == 1:
        # All of them win, but a game that can be won now should not be dragged on.
        optimal = [m for m in optimal if game.finished(game.play(state, m))] or optimal
    elif best == -1:
        # All of them lose against perfect play, but a human may still go wrong:
        # do not hand over a win in one move if some move avoids that.
        optimal = [m for m in optimal if not wins_at_once(game, game.play(state, m))] or optimal
    return Decision(
        move=pick(optimal, rng),
        value=best,
        exact=True,
        stats=stats,
        move_values=values,
        summary=describe_value(best, True, player, opponent),
    )


@contextmanager
def _cache_for(game: AnyGame) -> Iterator[BoundCache]:
    """The exact-search cache of ``game``, for one search, which alone uses it meanwhile.

    Keyed by the game object itself: games hold only constants, and the dict keeps a
    reference, so a key cannot be reused by a different game. A cache that another
    search is using (another session's, in another thread) is not waited for: this
    search gets a fresh cache of its own, as does an unhashable game. A shared cache
    with more than :data:`MAX_ENTRIES` entries is emptied first.
    """
    with _lock:
        try:
            shared = _caches.get(game)
        except TypeError:
            shared = None
            hashable = False
        else:
            hashable = True
            if shared is None:
                shared = _caches[game] = _SharedCache()
            _caches.move_to_end(game)
            while len(_caches) > MAX_GAMES:
                _caches.popitem(last=False)
    if not hashable or shared is None or not shared.lock.acquire(blocking=False):
        yield BoundCache()
        return
    try:
        if len(shared) > MAX_ENTRIES:
            shared.clear()
        yield shared
    finally:
        shared.lock.release()
