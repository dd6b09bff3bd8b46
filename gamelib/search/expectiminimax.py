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

import random
from collections.abc import Hashable
from fractions import Fraction
from typing import Final

from gamelib.game import CHANCE, GameError, Player, chance_outcomes, check_player
from gamelib.search.common import (
    AnyGame,
    Budget,
    Heuristic,
    Observer,
    SearchTimeout,
    check_budget,
    check_cache,
    check_depth,
    check_game,
    check_heuristic_callable,
    check_number,
    check_observer,
    check_rng,
    check_running,
    check_seconds,
    nodes_to_look,
    pick_best,
    rng_or_shared,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.heuristics import zero
from gamelib.search.stats import Decision, Stats

__all__ = ["CYCLE", "ExpectedValue", "expectiminimax", "expectiminimax_values",
           "expectiminimax_move", "expectiminimax_move_values"]

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
        self.reached_horizon = False
        self.left = self.step = nodes_to_look(budget, 0)

    def value(self, s: Hashable, depth: int | None) -> ExpectedValue:
        """The value of ``s`` for the first player, with ``depth`` player moves left
        (None: to the end)."""
        game, stats = self.game, self.stats
        if not self.left:   # never, without a budget
            self.left = self.step = nodes_to_look(self.budget, self.step)
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
        self.reached_horizon = True
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
                   budget: Budget | None = None, observer: Observer | None = None) -> ExpectedValue:
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
    (the states the search solved), ``cache_entries`` and ``seconds``. ``observer`` is for
    :func:`~gamelib.search.trace.trace_search` (see :data:`~gamelib.search.common.Observer`;
    the recursive step is ``value(state, depth)``).

    Raises :class:`GameError` for a bad player, depth, heuristic, cache, budget or observer; for a
    chance state whose probabilities are missing, negative or do not sum to 1, or that
    has no outcomes (see :func:`~gamelib.game.chance_outcomes`); and for a search to the
    end in a game whose states repeat (:data:`CYCLE`).
    """
    search = _search(game, depth, heuristic, cache, stats, budget)
    player = game.players[0] if player is None else player
    check_player(game, player)
    check_observer(observer)
    if observer is not None:   # the recursion calls self.value: now the observer's
        search.value = observer(search.value)  # type: ignore[method-assign]
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


def _deepen(game: AnyGame, state: Hashable, heuristic: Heuristic, depth: int | None,
            budget: Budget, stats: Stats) -> tuple[dict[Hashable, ExpectedValue], bool, bool]:
    """The values of the moves of the running, non-chance ``state`` for its mover, by
    depth-limited expectiminimax with depth 1, 2, ... (up to ``depth`` if given) until a
    search reaches the end of every line or the budget runs out: the values of the last
    finished search, whether they are exact, and whether the budget cut the work short."""
    mover = game.to_move(state)
    sign = -1 if mover == game.players[1] else 1
    cache: dict[Hashable, ExpectedValue] = {}
    values: dict[Hashable, ExpectedValue] = {}
    d = 1
    while True:
        search = _Expectiminimax(game, d, heuristic, cache, stats, budget)
        try:
            found: dict[Hashable, ExpectedValue] = {
                m: sign * search.value(game.play(state, m), d - 1) for m in game.moves(state)}
        except SearchTimeout:
            return values, False, True
        budget.settle(search.step, search.left)
        values = found
        if not search.reached_horizon or (depth is not None and d >= depth):
            return values, not search.reached_horizon, False
        d += 1


def _chance_decision(game: AnyGame, state: Hashable, rng: random.Random | None) -> Decision:
    """The outcome of the chance state ``state``, drawn by its probability with ``rng``."""
    outcomes = chance_outcomes(game, state)
    moves = game.moves(state)
    drawn = rng_or_shared(rng).choices(range(len(moves)), weights=[float(p) for p, _ in outcomes])
    move = moves[drawn[0]]
    return Decision(move, 0.0, True, Stats(), summary=f"drew {game.format_move(move)}")


def _request(game: AnyGame, state: Hashable, depth: int | None, seconds: float | None,
             budget: Budget | None) -> Budget:
    """Check a move's or a hint's arguments; the budget to search in."""
    check_game(game)
    check_running(game, state)
    check_depth(depth, least=1, optional=True)
    check_seconds(seconds)
    check_budget(budget)
    if budget is None:
        return Budget(seconds, depth=depth)
    return budget.part(None if seconds is None else float(seconds), depth=depth)


@search_door
def expectiminimax_move(game: AnyGame, state: Hashable, *, depth: int | None = None,
                        seconds: float | None = None, rng: random.Random | None = None,
                        budget: Budget | None = None,
                        heuristic: Heuristic | None = None) -> Decision:
    """The computer's move in a game with chance: in a chance state, an outcome drawn
    with ``rng`` by its probability (the die is rolled); else a best move by
    expectiminimax for the player to move.

    The search deepens, 1, 2, ... player moves (at most ``depth``), each search asking
    ``heuristic`` (default :func:`~gamelib.search.heuristics.zero`) at its horizon,
    until one reaches the end of every line (its values are exact) or the time runs
    out: ``seconds`` (None: the budget's, or
    :data:`~gamelib.search.common.MAX_SECONDS`) within ``budget``. The move is drawn
    with ``rng`` among the best of the last finished search (depth 1 always finishes,
    unless the budget is spent already: then the first legal move).

    Result: a :class:`~gamelib.search.stats.Decision` (``value`` for the player to move,
    ``move_values``, ``exact``, ``cut_short``). Raises :class:`GameError` for a finished
    or invalid state or a bad argument.
    """
    limit = _request(game, state, depth, seconds, budget)
    check_rng(rng)
    if heuristic is not None:
        check_heuristic_callable(heuristic)
    if game.to_move(state) == CHANCE:
        return _chance_decision(game, state, rng)
    stats = Stats()
    with stats.timer():
        values, exact, cut = _deepen(game, state, zero if heuristic is None else heuristic,
                                     depth, limit, stats)
    if not values:
        move = game.moves(state)[0]
        return Decision(move, 0.0, False, stats, summary="no time to search", cut_short=True)
    move = pick_best(values, rng)
    value = float(values[move])
    summary = f"{'exact' if exact else 'estimate'} {value:+.3f} for {game.to_move(state)}"
    return Decision(move, value, exact, stats, {m: float(v) for m, v in values.items()},
                    summary, cut)


@search_door
def expectiminimax_move_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                               seconds: float | None = None, budget: Budget | None = None,
                               heuristic: Heuristic | None = None) -> dict[Hashable, float]:
    """The value of every legal move of the player to move in ``state``, for hints: those
    :func:`expectiminimax_move` computes with the same arguments. Raises
    :class:`GameError` as it does, and in a chance state (no player chooses there)."""
    limit = _request(game, state, depth, seconds, budget)
    if game.to_move(state) == CHANCE:
        raise GameError("the die is rolled in this state: no player chooses a move")
    values, _, _ = _deepen(game, state, zero if heuristic is None else heuristic, depth,
                           limit, Stats())
    return {m: float(v) for m, v in values.items()}
