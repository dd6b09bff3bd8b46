"""Property tests of the public search functions, with hypothesis, on good and bad arguments.

For every entry point: a call either returns or raises :class:`GameError` with a message
(no TypeError, AttributeError, RecursionError ... escapes), and no call runs past its
time budget plus a margin. The unbounded searches (minimax, alpha-beta, ...) get games
small enough to solve; choose_move and move_values also get games far too large to
solve, with short budgets.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.game import GameError
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import (
    BoundCache,
    Budget,
    Stats,
    alphabeta,
    bounded_alphabeta,
    center_first,
    depth_limited,
    iterative_deepening,
    memo_minimax,
    minimax,
    tictactoe_open_lines,
    trace_search,
    zero,
)
from gamelib.session.players import choose_move, move_values  # Connect Four: its own player

MARGIN = 3.0
"""Seconds on top of a budget before a call counts as a hang (a busy, shared machine)."""
UNBOUNDED = 10.0
"""What an exact search of one of the small games below may take at most."""

SMALL_GAMES = [TicTacToe(), TicTacToeBitboard(), Nim((1, 2)), Nim((2, 2, 1))]
BIG_GAMES = [Nim([20] * 8), ConnectFour()]


def playout(game: Any, seed: int, plies: int) -> Any:
    """A state reached by ``plies`` random moves (fewer if the game ends first)."""
    rng, state = random.Random(seed), game.start
    for _ in range(plies):
        moves = game.moves(state)
        if not moves:
            break
        state = game.play(state, rng.choice(moves))
    return state


NOT_GAMES = st.sampled_from([None, TicTacToe, Nim, "tic-tac-toe", 3, object(), [TicTacToe()]])
JUNK_STATES = st.sampled_from([None, "x", (), (1, 2), -1, 10**400, ((1,), 0, 5), [[" "] * 3] * 3,
                               ((" ",) * 3,) * 2, math.nan, (-1, 0), ((), 0), ((-1,), 0)])
NUMBERS = st.one_of(st.integers(-3, 3), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([np.int64(0), np.float64(0.5), np.int8(-1)]))
JUNK = st.sampled_from([None, "1", [1], object(), True])
PLAYERS = st.sampled_from([None, "X", "O", "A", "B", "Z", 0, None])
DEPTHS = st.one_of(st.integers(-2, 12), st.sampled_from([None, 10**6, 2.5, "3", np.int64(2)]))
SECONDS = st.one_of(st.floats(0.001, 0.3), st.sampled_from([None, 0, -1, math.nan, math.inf,
                                                               "1", np.float64(0.1), 10**400]))


def bad_value(value: object) -> Callable[[object, object], object]:
    return lambda state, player: value


HEURISTICS = st.one_of(
    st.sampled_from([zero, tictactoe_open_lines]),
    st.builds(bad_value, st.sampled_from(["0.5", None, math.nan, 1.0, -7, np.float64(0.1),
                                          np.int64(0), [0.1]])),
    st.sampled_from([None, 0.5, "zero"]),
)


@st.composite
def game_and_state(draw: st.DrawFn, games: list[Any] = SMALL_GAMES,
                   fewest_plies: int = 0) -> tuple[Any, Any]:
    """A game (or something that is not one) and a state (or something that is not one),
    the state ``fewest_plies`` to 12 random plies from the start (fewer if the game ends)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(NOT_GAMES), TicTacToe().start
    game = draw(st.sampled_from(games))
    if draw(st.integers(0, 4)) == 0:
        return game, draw(JUNK_STATES)
    seed = draw(st.integers(0, 10**6))
    return game, playout(game, seed, draw(st.integers(fewest_plies, 12)))


def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """The result (or the GameError) of ``function`` and how long it took.

    Any other exception fails the test; so does a GameError without a message."""
    started = time.perf_counter()
    try:
        result: Any = function(*args, **kwargs)
    except GameError as error:
        assert str(error).strip(), f"{function.__name__} refused without a message"
        result = error
    return result, time.perf_counter() - started


def expected_seconds(seconds: object) -> float:
    if isinstance(seconds, (int, float)) and 0 < seconds < math.inf:
        return float(min(seconds, 30))
    return 5.0   # refused at once, or the engine's default budget (DEFAULT_SECONDS)


@settings(max_examples=150, deadline=None)
@given(game_and_state(fewest_plies=2), PLAYERS)
def test_minimax_and_memo_minimax(pair: tuple[Any, Any], player: Any) -> None:
    """States from two plies on: plain minimax from the empty tic-tac-toe board (549,946
    calls, about a second each time hypothesis draws it) runs the same code as from any
    other running state, only longer (two plies in: at most 9,400 calls)."""
    game, state = pair
    _, seconds = call(minimax, game, state, player)
    assert seconds < UNBOUNDED
    _, seconds = call(memo_minimax, game, state, player, cache=None)
    assert seconds < UNBOUNDED


@settings(max_examples=150, deadline=None)
@given(game_and_state(), st.one_of(st.builds(dict), st.builds(BoundCache),
                                   st.sampled_from([[], None, "cache", {0: "x"}, {0: (1, 1)}])))
def test_memo_minimax_caches(pair: tuple[Any, Any], cache: Any) -> None:
    game, state = pair
    before = dict(cache) if isinstance(cache, dict) else cache
    stats = Stats()
    result, _ = call(memo_minimax, game, state, cache=cache, stats=stats)
    if isinstance(call(memo_minimax, game, state)[0], GameError):
        assert isinstance(result, GameError)  # a bad game or state, whatever the cache
    elif cache is not None and not isinstance(cache, dict):
        assert isinstance(result, GameError) and "cache must be a dict" in str(result)
    elif before:  # entries that are not values: a BoundCache's (flag, v) is named as such
        assert isinstance(result, GameError) and "values -1, 0 or +1" in str(result)
        assert str(result).endswith("for bounded_alphabeta") == isinstance(before[0], tuple)
    else:  # None or empty: the exact value, one entry per state below, and the counts
        value, states, finished, edges = solved(game, state)
        assert result == value
        assert stats.calls == 1 + edges and stats.calls - stats.cache_hits == states
        assert stats.terminal == finished and len(stats.visited) == states
        assert stats.cache_entries == {"=": states}
        if cache is not None:
            assert len(cache) == states and cache[state] == value
            assert set(cache.values()) <= {-1, 0, 1}
    if isinstance(result, GameError) and isinstance(cache, dict):
        assert cache == before  # a refused call leaves the cache alone


def solved(game: Any, state: Any) -> tuple[int, int, int, int]:
    """Written here, apart from gamelib's searches: the value of ``state`` for the player to
    move, how many states are reachable from it (itself included), how many of them are
    finished and how many moves lead from one of them to another."""
    values: dict[Any, int] = {}
    edges = 0

    def value(s: Any, player: str, opponent: str) -> int:
        nonlocal edges
        if s not in values:
            children = game.next_states(s, player)
            edges += len(children)
            values[s] = (max(-value(n, opponent, player) for n in children) if children
                         else game.utility(s, player))
        return values[s]

    turn = game.to_move(state)
    first, second = game.players
    result = value(state, turn, second if turn == first else first)
    finished = sum(1 for s in values if not game.next_states(s, game.to_move(s)))
    return result, len(values), finished, edges


@settings(max_examples=200, deadline=None)
@given(game_and_state(), PLAYERS, NUMBERS, NUMBERS,
       st.sampled_from([None, center_first, 3, "centre"]))
def test_alphabeta(pair: tuple[Any, Any], player: Any, alpha: Any, beta: Any, order: Any) -> None:
    game, state = pair
    result, seconds = call(alphabeta, game, state, player, alpha, beta, order=order)
    assert seconds < UNBOUNDED
    if not isinstance(result, GameError):
        exact = memo_minimax(game, state, player)
        if alpha <= exact <= beta:
            assert result == exact


@settings(max_examples=200, deadline=None)
@given(game_and_state(), NUMBERS, NUMBERS,
       st.one_of(st.builds(BoundCache), st.sampled_from([None, [], "x"])))
def test_bounded_alphabeta(pair: tuple[Any, Any], alpha: Any, beta: Any, cache: Any) -> None:
    game, state = pair
    _, seconds = call(bounded_alphabeta, game, state, alpha, beta, cache=cache)
    assert seconds < UNBOUNDED


@settings(max_examples=200, deadline=None)
@given(game_and_state(), DEPTHS, HEURISTICS, PLAYERS, NUMBERS, NUMBERS)
def test_depth_limited(pair: tuple[Any, Any], depth: Any, heuristic: Any, player: Any,
                       alpha: Any, beta: Any) -> None:
    game, state = pair
    _, seconds = call(depth_limited, game, state, depth, heuristic, player, alpha, beta)
    assert seconds < UNBOUNDED


@settings(max_examples=150, deadline=None)
@given(game_and_state(SMALL_GAMES + BIG_GAMES), HEURISTICS, DEPTHS, SECONDS,
       st.sampled_from([None, random.Random(1), 7, "seed"]))
def test_iterative_deepening(pair: tuple[Any, Any], heuristic: Any, depth: Any, seconds: Any,
                             rng: Any) -> None:
    game, state = pair
    if isinstance(game, ConnectFour) and heuristic is tictactoe_open_lines:
        heuristic = zero
    if seconds is None and game in BIG_GAMES:
        seconds = 0.2    # iterative deepening's own cap is MAX_SECONDS: too long for a test
    result, took = call(iterative_deepening, game, state, heuristic, max_depth=depth,
                        seconds=seconds, rng=rng)
    assert took < expected_seconds(seconds) + MARGIN
    if not isinstance(result, GameError):
        assert result.move in game.moves(state)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(game_and_state(SMALL_GAMES + BIG_GAMES), DEPTHS, SECONDS,
       st.sampled_from([None, random.Random(2), 3]), st.booleans())
def test_choose_move_and_move_values(pair: tuple[Any, Any], depth: Any, seconds: Any, rng: Any,
                                     cancelled: bool) -> None:
    game, state = pair
    budget = None
    if game in BIG_GAMES or cancelled:
        # Big games get a short budget (the default of 5 s would make the test slow);
        # a cancelled one must still give a move at once.
        budget = Budget(0.2)
        if cancelled:
            budget.cancel()
    limit = 0.2 if budget is not None else expected_seconds(seconds)
    decision, took = call(choose_move, game, state, depth=depth, seconds=seconds, rng=rng,
                          budget=budget)
    assert took < limit + MARGIN
    if not isinstance(decision, GameError):
        assert decision.move in game.moves(state)
        assert set(decision.move_values) <= set(game.moves(state))
        if budget is not None and budget.cancelled and not isinstance(game, ConnectFour):
            # A cancelled budget ends the deepening after depth 1 (which always finishes):
            # the value is proven, or the search was cut short, or depth 1 was all that was
            # asked for, and then nothing was cut (see the test below).
            assert decision.cut_short or decision.exact or (
                depth == 1 and decision.stats.depth == 1)
    values, took = call(move_values, game, state, depth=depth, seconds=seconds,
                        budget=None if budget is None else Budget(0.2))
    assert took < limit + MARGIN
    if not isinstance(values, GameError):
        assert set(values) == set(game.moves(state))


def test_a_cancelled_budget_cuts_nothing_short_when_depth_1_is_all_that_was_asked() -> None:
    """Hypothesis's example: choose_move on tic-tac-toe's start with depth=1 and a cancelled
    budget. Depth 1 always finishes, so the search did all it was asked: not cut short (and
    not exact, an estimate), the same decision as without a budget. With depth=2 the same
    cancel stops it after depth 1: cut short."""
    game = TicTacToe()
    free = choose_move(game, game.start, depth=1, rng=random.Random(0))
    for asked, cut in [(1, False), (2, True)]:
        budget = Budget(0.2)
        budget.cancel()
        decision = choose_move(game, game.start, depth=asked, rng=random.Random(0),
                               budget=budget)
        assert (decision.cut_short, decision.exact, decision.stats.depth) == (cut, False, 1)
        assert (decision.move, decision.move_values) == (free.move, free.move_values)


TRACE_OPTIONS = st.dictionaries(
    st.sampled_from(["alpha", "beta", "order", "cache", "depth", "heuristic", "colour"]),
    st.one_of(NUMBERS, JUNK, st.sampled_from([center_first, zero, 0, 2, None])),
    max_size=3,
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(game_and_state(SMALL_GAMES + BIG_GAMES),
       st.sampled_from(["minimax", "alphabeta", "bounded", "depth_limited", "negamax", None]),
       TRACE_OPTIONS)
def test_trace_search(pair: tuple[Any, Any], algorithm: Any, options: dict[str, Any]) -> None:
    """A trace is refused with a message or recorded, and never runs long: MAX_EVENTS
    bounds it even on games far too large to search."""
    game, state = pair
    _, took = call(trace_search, game, state, algorithm, **options)
    assert took < UNBOUNDED
