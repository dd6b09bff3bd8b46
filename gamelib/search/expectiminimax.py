"""Expectiminimax: minimax for games with dice, where a chance state's value is an expectation.

In a game with chance (see :class:`~gamelib.game.ChanceGame`) some states belong to no
player: a die is rolled there. Michie (1966) gave such a state the value the players can
*expect*: the average of its outcomes' values, each weighted by its probability::

    value(s) = utility(s, first)                         if finished(s)
    value(s) = max { value(n) : n in next_states(s) }    if first is to move in s
    value(s) = min { value(n) : n in next_states(s) }    if second is to move in s
    value(s) = sum { p * value(n) : (p, n) in chance_outcomes(s) }   if chance moves in s

Values are for the game's first player (``game.players[0]``), whoever moves: the
search follows ``to_move`` of every state, so a player may move twice in a row (as in
random-turn tic-tac-toe, where a coin decides). With exact ``Fraction`` probabilities and
integer utilities the value is an exact ``Fraction``. The value for the second player
is its negation (the game is zero-sum).

A state's value is its expected utility under best play of both: +1 a sure win, 0 a
draw or an even chance, and e.g. 0.2 a win more likely than a loss. So a depth-limited
search (``depth``: player moves to look ahead; chance outcomes cost none) asks a
heuristic at its horizon, and its estimates mix in with exact values.

Memoization is one dict, as in :mod:`gamelib.search.memo`: from a state (or, with a
depth limit, a pair ``(state, plies left)``) to its value for the first player.

The states of some games repeat (in Pig a 1 rolled hands the opponent the same scores,
and the same can happen back): a search to the end never ends there. It says so when it
meets a state already on its line; :func:`gamelib.search.value_iteration.value_iteration`
solves such games.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Final

from gamelib.game import CHANCE, GameError, Player, chance_outcomes, check_player
from gamelib.search.common import (
    AnyGame,
    Budget,
    Heuristic,
    check_budget,
    check_cache,
    check_depth,
    check_game,
    check_heuristic_callable,
    check_number,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.stats import Stats

__all__ = ["CYCLE", "ExpectedValue", "expectiminimax", "expectiminimax_values"]

ExpectedValue = Fraction | float
"""A value of expectiminimax: an exact Fraction (an int at a finished state) when every
probability is a Fraction and the search reached the end, a float otherwise."""

CYCLE: Final = (
    "the state {state} comes back on its own line of play (the game's states repeat): a "
    "search to the end would never end; give a depth and a heuristic, or solve the game "
    "with value_iteration"
)


class _Expectiminimax:
    """One expectiminimax search: the game, its options, the cache and the counters."""

    def __init__(self, game: AnyGame, depth: int | None, heuristic: Heuristic | None,
                 cache: dict[Hashable, ExpectedValue], stats: Stats, budget: Budget | None) -> None:
        self.game, self.depth, self.heuristic = game, depth, heuristic
        self.cache, self.stats, self.budget = cache, stats, budget
        self.first = game.players[0]
        self.line: set[Hashable] = set()
        self.left = self.step = 0 if budget is None else budget.look(0)

    def value(self, s: Hashable, depth: int | None) -> ExpectedValue:
        """The value of ``s`` for the first player, with ``depth`` player moves left
        (None: to the end)."""
        game, stats = self.game, self.stats
        if self.budget is not None:
            if not self.left:
                self.left = self.step = self.budget.look(self.step)
            self.left -= 1
        stats.calls += 1
        key = s if depth is None else (s, depth)
        cached = self.cache.get(key)
        if cached is not None:
            stats.cache_hits += 1
            return cached
        stats.visited.add(s)
        mover = game.to_move(s)
        if mover == CHANCE:
            if depth is None:
                self._enter(s)
            v: ExpectedValue = sum(p * self.value(n, depth) for p, n in chance_outcomes(game, s))
        elif game.finished(s):
            stats.terminal += 1
            v = game.utility(s, self.first)
        elif depth == 0:
            assert self.heuristic is not None
            v = self._estimate(s)
        else:
            if depth is None:
                self._enter(s)
            below = None if depth is None else depth - 1
            values = [self.value(n, below) for n in game.next_states(s, mover)]
            if not values:
                raise NoNextState(s)
            v = max(values) if mover == self.first else min(values)
        if depth is None:
            self.line.discard(s)
        self.cache[key] = v
        return v

    def _enter(self, s: Hashable) -> None:
        """Note ``s`` on the current line of play; refuse a state that is already on it."""
        if s in self.line:
            raise GameError(CYCLE.format(state=repr(s)[:60]))
        self.line.add(s)

    def _estimate(self, s: Hashable) -> float:
        """The heuristic's value of ``s`` for the first player, checked to lie in (-1, 1)."""
        assert self.heuristic is not None
        estimate = check_number(self.heuristic(s, self.first), "the heuristic's value")
        if not -1 < estimate < 1:
            raise GameError(f"the heuristic returned {estimate!r} for the state {s!r}: "
                            "estimates lie strictly between -1 and 1")
        return estimate


def _search(game: AnyGame, depth: int | None, heuristic: Heuristic | None,
            cache: dict[Hashable, ExpectedValue] | None, stats: Stats | None,
            budget: Budget | None) -> _Expectiminimax:
    """Check the options every door shares and make the search."""
    check_game(game)
    check_depth(depth, least=0, optional=True)
    if depth is not None:
        check_heuristic_callable(heuristic)
    check_cache(cache)
    check_budget(budget)
    return _Expectiminimax(game, depth, heuristic, {} if cache is None else cache,
                           Stats() if stats is None else stats, budget)


@search_door
def expectiminimax(game: AnyGame, state: Hashable, player: Player | None = None, *,
                   depth: int | None = None, heuristic: Heuristic | None = None,
                   cache: dict[Hashable, ExpectedValue] | None = None, stats: Stats | None = None,
                   budget: Budget | None = None) -> ExpectedValue:
    """The expected value of ``state`` for ``player`` under best play of both players.

    Arguments: a game, with or without chance states, and a state of it; ``player``
    (default: the first player, ``game.players[0]``); ``depth`` None searches to the end,
    a whole number ``d >= 0`` looks ``d`` player moves ahead (chance outcomes cost no
    depth) and then asks ``heuristic(state, player)``, strictly inside (-1, 1); ``cache``
    a dict to memoize in (see the module docstring; the same dict may serve several
    searches with the same depth option), a new one if None; ``budget`` bounds the
    search's time and nodes (it raises
    :class:`~gamelib.search.common.SearchTimeout` when the budget runs out).

    Result: the value (module docstring): exact (a ``Fraction`` or an int when the
    probabilities are Fractions) when the search reached the end of every line, an
    estimate otherwise. For a game without chance states and ``depth`` None it is
    minimax's value.

    ``stats``, if given, is filled: ``calls``, ``cache_hits``, ``terminal``, ``visited``
    (the states the search solved), ``cache_entries`` and ``seconds``.

    Raises :class:`GameError` for a bad player, depth, heuristic, cache or budget; for a
    chance state whose probabilities are missing, negative or do not sum to 1, or that
    has no outcomes (see :func:`~gamelib.game.chance_outcomes`); and for a search to the
    end in a game whose states repeat (:data:`CYCLE`).
    """
    search = _search(game, depth, heuristic, cache, stats, budget)
    player = game.players[0] if player is None else player
    check_player(game, player)
    with search.stats.timer():
        v = search.value(state, depth)
    search.stats.cache_entries = {"=": len(search.cache)}
    return v if player == search.first else -v


@search_door
def expectiminimax_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                          heuristic: Heuristic | None = None,
                          cache: dict[Hashable, ExpectedValue] | None = None,
                          stats: Stats | None = None,
                          budget: Budget | None = None) -> dict[Hashable, ExpectedValue]:
    """The value of each legal move in ``state`` for the player to move there (for a
    chance state: of each outcome, for the first player), as :func:`expectiminimax`
    computes it, in ``moves`` order. ``depth`` counts the move itself: ``depth=1`` asks
    the heuristic right after each move.

    Arguments and errors as :func:`expectiminimax`; also raises :class:`GameError` when
    ``state`` is finished (there is no move to value).
    """
    check_depth(depth, least=1, optional=True)
    search = _search(game, depth, heuristic, cache, stats, budget)
    if game.finished(state):
        raise GameError("the game is over in this state: there is no move to value")
    mover = game.to_move(state)
    sign = -1 if mover == game.players[1] else 1
    below = None if depth is None else depth - 1 if mover != CHANCE else depth
    values: dict[Hashable, ExpectedValue] = {}
    with search.stats.timer():
        for move in game.moves(state):
            values[move] = sign * search.value(game.play(state, move), below)
    search.stats.cache_entries = {"=": len(search.cache)}
    return values
