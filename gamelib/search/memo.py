"""Naive memoization: minimax that remembers the value of every state it has solved.

Many move orders lead to the same position (X in the corner then O in the centre, or
the other way round), so the game *tree* is far larger than the set of *states*.
Plain minimax solves every occurrence again; a memoized minimax solves each state once
and looks it up afterwards. From the empty tic-tac-toe board that is the difference
between 549,946 calls and 5,478 states.

The cache
---------
The cache is a plain ``dict`` that maps a state to its value for the player whose turn
it is in that state. The state alone is the key, not the pair ``(state, player)``: in
every call of the recursion the player is the one to move (``next_states`` is only
defined for that player), so the player is a function of the state and adding it to the
key would only cost time. A cache belongs to one game; it may be passed to several calls
to share work between them, because an exact value never goes stale.

>>> from gamelib.games import TicTacToe
>>> game, cache = TicTacToe(), {}
>>> memo_minimax(game, game.start, cache=cache), len(cache)
(0, 5478)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any, TypeVar, cast

from gamelib.game import GameError, describe_text
from gamelib.search.common import (
    AnyGame,
    check_cache,
    player_to_move,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.movers import mover_rule, opponents, turns_alternate
from gamelib.search.stats import Stats

__all__ = ["memo_minimax", "memoize"]

R = TypeVar("R")


@search_door
def memo_minimax(game: AnyGame, state: Hashable, player: str | None = None, *,
                 cache: dict[Hashable, int] | None = None, stats: Stats | None = None) -> int:
    """The value of ``state`` for ``player`` by the negamax recursion with a cache.

    Arguments: as :func:`~gamelib.search.minimax.minimax`. ``cache`` maps states to
    their values for the player to move in them (see the module docstring); a new empty
    one is used if it is None. After the call it holds every state the search solved.
    Result: -1, 0 or +1, the same value minimax returns.

    ``stats``, if given, is filled: ``calls`` (every invocation, including those the
    cache answered), ``cache_hits``, ``terminal``, ``visited``, ``cache_entries``
    (``{'=': len(cache)}``: every entry is exact) and ``seconds``. Raises
    :class:`GameError` for a bad player or a ``cache`` that is not a dict.
    """
    player = player_to_move(game, state, player)
    _check_values_cache(cache)
    cache = {} if cache is None else cache
    stats = Stats() if stats is None else stats
    # Bound once: the recursion below runs thousands of times, and a local name is the
    # cheapest lookup in Python.
    utility, next_states = game.utility, game.next_states
    who_moves, alternate = mover_rule(game), turns_alternate(game)
    opponent = opponents(game)
    size_before = len(cache)
    # Which states does the search visit? Starting from an empty cache, exactly those that
    # are keys of the cache at the end, so they are noted in one go below. A cache from
    # earlier searches can also answer for states this search never solves: then each
    # state is noted as it is looked up.
    lookup = cache.get if size_before == 0 else _noting(cache.get, stats.visited)
    edges = terminal = 0
    lowest: int = getattr(game, "value_range", (-1, 1))[0]

    def value(s: Hashable, p: str, o: str) -> int:
        """The value of ``s`` for ``p``: the player to move, unless the one who moved
        last moves again (in a game that does not promise to alternate); ``o`` is the
        other player."""
        nonlocal edges, terminal
        v = lookup(s)
        if v is not None:  # not `if v:`, which would miss every value 0
            # The cache holds the value for the player to move in s.
            return v if alternate or who_moves(s, p) == p else -v
        m = p if alternate else who_moves(s, p)   # no call where the players alternate
        if m != p:
            o = p
        # The game is over exactly when there is no next state (the Game protocol), so
        # one call of next_states does the work of finished() as well; where there is
        # none, finished() must agree (the searches' one rule, see gamelib.search.door).
        successors = next_states(s, m)
        if successors:
            edges += len(successors)
            # v = max(-value(n, o, m) for n in successors), as a plain loop: it is faster
            # (before Python 3.12 a comprehension is a function call of its own), and as
            # no value is below the game's lowest (-1 for all but a TreeGame), it is a safe
            # start.
            v = lowest
            for n in successors:
                w = -value(n, o, m)  # in n it is o's turn, unless m moves again
                if w > v:
                    v = w
        else:
            if not game.finished(s):  # the one rule: finished() says when it is over
                raise NoNextState(s)
            terminal += 1
            v = utility(s, m)
        cache[s] = v
        return v if m == p else -v

    with stats.timer():
        # For a finished state the caller may ask for either player: value() turns the
        # value for the player to move into the one asked for.
        result = value(state, player, opponent[player])
        if size_before == 0:
            # From a dict, a set takes the stored hashes: no state is hashed again.
            stats.visited.update(cache)
    # Counted without slowing down the recursion: every call but the first is made for
    # one of the successors listed in `edges`, and every call that was not answered by
    # the cache added one entry.
    calls = 1 + edges
    stats.calls += calls
    stats.cache_hits += calls - (len(cache) - size_before)
    stats.terminal += terminal
    stats.cache_entries = {"=": len(cache)}
    return result


def _check_values_cache(cache: object) -> None:
    """Raise :class:`GameError` unless ``cache`` is None or a dict of values -1, 0, +1.

    Only one entry is looked at (the check is for a mistaken argument, not a proof): a
    :class:`~gamelib.search.bounded.BoundCache`, whose entries are ``(flag, v)``, is the
    usual mistake."""
    check_cache(cache)
    if cache:
        entry = next(iter(cast(dict[Hashable, int], cache).values()))
        if entry not in (-1, 0, 1) or isinstance(entry, bool):
            raise GameError(
                f"cache must map states to values -1, 0 or +1, but holds {describe_text(entry)}"
                + (": a BoundCache is for bounded_alphabeta" if isinstance(entry, tuple) else "")
            )


def _noting(get: Callable[[Hashable], int | None],
            visited: set[Hashable]) -> Callable[[Hashable], int | None]:
    """``get`` (a cache's look-up) that also adds each state it is asked for to ``visited``."""

    def lookup(state: Hashable) -> int | None:
        visited.add(state)
        return get(state)

    return lookup


def memoize(function: Callable[..., R]) -> Callable[..., R]:
    """``function`` with a cache of its results, keyed by the tuple of its arguments.

    The cache is the dict ``wrapper.cache`` (so it can be inspected and cleared); the
    arguments must be hashable and ``function`` must be pure. Keyword arguments are not
    supported, so that each call has one key. Use it as a decorator on a recursive
    function, and its recursive calls go through the cache too::

        @memoize
        def value(state, player): ...

    Raises :class:`GameError` if ``function`` is not callable.
    """
    if not callable(function):
        raise GameError(f"memoize needs a function, got {describe_text(function)}")
    cache: dict[tuple[Any, ...], R] = {}

    @wraps(function)
    def wrapper(*args: Any) -> R:
        if args not in cache:
            cache[args] = function(*args)
        return cache[args]

    wrapper.cache = cache  # type: ignore[attr-defined]
    return wrapper
