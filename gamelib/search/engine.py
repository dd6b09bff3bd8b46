"""The computer player: one entry point that picks a search for the game and the budget.

The boards in :mod:`gamelib.ui` call only :func:`choose_move` and :func:`move_values`.

* Connect Four goes to its own player, :mod:`gamelib.search.c4player` (a perfect solver
  with a time budget and a fast heuristic search behind it), which takes ``depth`` and
  ``seconds`` in the same sense and has a default budget of its own.
* Any other game, with neither ``depth`` nor ``seconds``: an exact search
  (:func:`~gamelib.search.bounded.bounded_alphabeta`). Every move gets its exact value
  -1, 0 or +1 for the player to move, and the move is drawn at random among the best:
  among those that win at once if there are any, and in a lost position among those
  that do not allow a win in one.
* With ``depth`` and/or ``seconds``: :func:`~gamelib.search.depth_limited.iterative_deepening`
  with the game's heuristic (:func:`~gamelib.search.heuristics.heuristic_for`), to at
  most ``depth`` plies and within ``seconds``. Its values follow the scale of
  :mod:`gamelib.search.depth_limited`: estimates inside (-1, 1), proven results beyond.

The exact searches keep one bound-flagged cache per game between calls, so that a game
of tic-tac-toe is solved once rather than at every move. Its entries are true bounds of
the states' values, so they never go stale; the caches are few and bounded in size, and
a lock makes the engine safe to call from a background thread.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Final, cast

from gamelib.game import GameError, other
from gamelib.games import ConnectFour
from gamelib.games.connect_four import C4State
from gamelib.search.bounded import BoundCache, BoundedSearch
from gamelib.search.common import Budget
from gamelib.search.depth_limited import (
    check_depth,
    check_seconds,
    describe_value,
    iterative_deepening,
)
from gamelib.search.heuristics import heuristic_for
from gamelib.search.minimax import AnyGame, check_rng, pick
from gamelib.search.stats import Decision, Stats

__all__ = ["choose_move", "move_values", "clear_caches"]

MAX_GAMES: Final = 4
"""How many games keep an exact-search cache at the same time (least recently used go)."""
MAX_ENTRIES: Final = 500_000
"""A game's cache is emptied before a search once it holds more entries than this."""

_caches: OrderedDict[object, BoundCache] = OrderedDict()
_lock = threading.Lock()


def choose_move(game: AnyGame, state: Hashable, *, depth: int | None = None,
                seconds: float | None = None, rng: random.Random | None = None,
                budget: Budget | None = None) -> Decision:
    """The computer's move for the player to move in ``state``, with its value and stats.

    Arguments: ``game`` and a running ``state``; ``depth`` (plies, at least 1) and
    ``seconds`` (a time budget, more than 0) limit the search as the module docstring
    describes, both None meaning an exact search; ``rng`` breaks ties among the best
    moves (see :func:`~gamelib.search.minimax.pick`).

    Result: a :class:`~gamelib.search.stats.Decision` whose ``move`` is legal in
    ``state``, ``value`` is for the player to move, ``move_values`` holds the value of
    every legal move, and ``summary`` is one line such as ``"X wins with best play"``.

    Raises :class:`GameError` if ``state`` is finished or an argument is bad.
    """
    _check_request(game, state, depth, seconds, rng)
    seconds = _shim_seconds(depth, seconds, budget)
    if isinstance(game, ConnectFour):
        from gamelib.search.c4player import connect_four_move

        return connect_four_move(
            game, cast(C4State, state), seconds=seconds, depth=depth, rng=rng
        )
    if depth is None and seconds is None:
        return _exact_decision(game, state, rng)
    return iterative_deepening(
        game, state, heuristic_for(game), max_depth=depth, seconds=seconds, rng=rng
    )


def move_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                seconds: float | None = None,
                budget: Budget | None = None) -> dict[Hashable, float]:
    """The value of every legal move in ``state`` for the player to move, for hints.

    The values are those :func:`choose_move` computes with the same ``depth`` and
    ``seconds``, keyed by move in the game's move order. Raises :class:`GameError` as
    :func:`choose_move` does.
    """
    _check_request(game, state, depth, seconds, None)
    seconds = _shim_seconds(depth, seconds, budget)
    if isinstance(game, ConnectFour):
        from gamelib.search.c4player import connect_four_move_values

        values = connect_four_move_values(
            game, cast(C4State, state), seconds=seconds, depth=depth
        )
        return {column: value for column, value in values.items()}
    # The choice itself is not used: a private Random keeps the shared one untouched.
    return choose_move(game, state, depth=depth, seconds=seconds, rng=random.Random(0)).move_values


_BUDGET_SHIM: Final = True
"""SHIM (session branch): the search branch's engine replaces this whole budget handling."""


def _shim_seconds(depth: int | None, seconds: float | None, budget: Budget | None) -> float | None:
    """SHIM: a depth-limited search with no seconds gets the budget's time; nothing else."""
    if budget is None or seconds is not None or depth is None:
        return seconds
    return max(budget.remaining(), 0.001)


def clear_caches() -> None:
    """Forget every exact-search cache (they are rebuilt on demand)."""
    with _lock:
        _caches.clear()


def _check_request(game: AnyGame, state: Hashable, depth: object, seconds: object,
                   rng: object) -> None:
    """Raise :class:`GameError` unless the arguments of a request are usable."""
    check_depth(depth, least=1, optional=True)
    check_seconds(seconds)
    check_rng(rng)
    if game.finished(state):
        raise GameError("the game is over in this state: there is no move to choose")


def _exact_decision(game: AnyGame, state: Hashable, rng: random.Random | None) -> Decision:
    """Solve every move of ``state`` exactly and choose among the best at random.

    The stats count this decision's calls, hits and states; ``cache_entries`` stays
    empty, since the shared cache holds the work of earlier decisions too.
    """
    player = game.to_move(state)
    opponent = other(game, player)
    sign = 1 if player == game.players[0] else -1   # the cache's values are for players[0]
    stats = Stats()
    with _lock, stats.timer():
        search = BoundedSearch(game, _cache_for(game), stats)
        values: dict[Hashable, float] = {
            m: float(sign * search.value(game.play(state, m), -1, 1)) for m in game.moves(state)
        }
    best = max(values.values())
    optimal = [m for m, v in values.items() if v == best]
    if best == 1:
        # All of them win, but a game that can be won now should not be dragged on.
        optimal = [m for m in optimal if game.finished(game.play(state, m))] or optimal
    elif best == -1:
        # All of them lose against perfect play, but a human may still go wrong:
        # do not hand over a win in one move if some move avoids that.
        optimal = [m for m in optimal if not _wins_at_once(game, game.play(state, m))] or optimal
    return Decision(
        move=pick(optimal, rng),
        value=best,
        exact=True,
        stats=stats,
        move_values=values,
        summary=describe_value(best, True, player, opponent),
    )


def _wins_at_once(game: AnyGame, state: Hashable) -> bool:
    """Whether the player to move in ``state`` has a move that wins the game at once."""
    if game.finished(state):
        return False
    player = game.to_move(state)
    return any(game.finished(n) and game.utility(n, player) == 1
               for n in game.next_states(state, player))


def _cache_for(game: AnyGame) -> BoundCache:
    """The exact-search cache of ``game``; call with the lock held.

    Keyed by the game object itself: games hold only constants, and the dict keeps a
    reference, so a key cannot be reused by a different game. An unhashable game gets a
    fresh cache each time.
    """
    try:
        cache = _caches.get(game)
    except TypeError:
        return BoundCache()
    if cache is None or len(cache) > MAX_ENTRIES:
        cache = BoundCache()
    _caches[game] = cache
    _caches.move_to_end(game)
    while len(_caches) > MAX_GAMES:
        _caches.popitem(last=False)
    return cache
