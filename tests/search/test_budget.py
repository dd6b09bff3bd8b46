"""Every computer move ends within a time budget, and a cancelled search ends at once.

Timing assertions here are only generous "it ended within budget + margin" checks that
catch a hang; everything else is asserted by counts and flags.
"""

from __future__ import annotations

import math
import random
import threading
import time
from typing import Any

import numpy as np
import pytest

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.search import (
    DEFAULT_SECONDS,
    MAX_SECONDS,
    Budget,
    choose_move,
    depth_limited,
    engine,
    iterative_deepening,
    move_values,
    zero,
)
from gamelib.search.common import SearchTimeout
from gamelib.search.stats import Decision

MARGIN = 2.0
"""Seconds allowed on top of a budget before a call counts as a hang (a busy machine)."""

BIG_NIM = Nim([20] * 8)


def timed(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - started


# -- the budget itself ------------------------------------------------------------------------


def test_a_budget_is_capped_at_max_seconds() -> None:
    assert MAX_SECONDS == 30
    assert Budget(10**9).seconds == MAX_SECONDS
    assert Budget().seconds == MAX_SECONDS
    assert Budget(0.5).seconds == 0.5


def test_a_budget_within_another_ends_with_it() -> None:
    outer = Budget(5)
    inner = Budget(20, within=outer)
    assert inner.deadline == outer.deadline
    assert not inner.expired()
    outer.cancel()
    assert inner.cancelled and inner.expired() and inner.remaining() == 0.0
    assert not Budget(5, within=Budget(5)).cancelled


def test_decision_says_cut_short_last_and_false_by_default() -> None:
    fields = list(Decision.__dataclass_fields__)
    assert fields[-1] == "cut_short"
    assert Decision.__dataclass_fields__["cut_short"].default is False


# -- the exact player: tic-tac-toe finishes, big Nim is cut short -------------------------------


def test_tictactoe_exact_play_finishes_far_inside_the_default_budget() -> None:
    engine.clear_caches()
    game = TicTacToe()
    decision, seconds = timed(choose_move, game, game.start, rng=random.Random(0))
    assert decision.exact and not decision.cut_short
    assert decision.value == 0
    assert seconds < DEFAULT_SECONDS / 2


def test_big_nim_ends_within_the_default_budget_and_says_cut_short(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight heaps of 20 cannot be solved: the default budget (shortened here) ends it."""
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 1.0)
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, rng=random.Random(0))
    assert seconds < 1.0 + MARGIN
    assert decision.cut_short and not decision.exact
    assert decision.move in BIG_NIM.moves(BIG_NIM.start)
    assert set(decision.move_values) == set(BIG_NIM.moves(BIG_NIM.start))


@pytest.mark.slow
def test_big_nim_keeps_memory_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact search gives up once its cache passes GIVE_UP_ENTRIES (lowered here)."""
    monkeypatch.setattr(engine, "GIVE_UP_ENTRIES", 5_000)
    monkeypatch.setattr(engine, "MAX_ENTRIES", 5_000)
    engine.clear_caches()
    decision = choose_move(BIG_NIM, BIG_NIM.start, seconds=20, rng=random.Random(0))
    assert decision.cut_short
    assert all(len(cache) <= 5_000 + engine.CLOCK_EVERY for cache in engine._caches.values())


def test_small_nim_is_still_solved_exactly() -> None:
    game = Nim((1, 2, 3))   # a lost position: 1 ^ 2 ^ 3 == 0
    decision = choose_move(game, game.start, rng=random.Random(0))
    assert decision.exact and not decision.cut_short and decision.value == -1


def test_move_values_end_within_their_budget() -> None:
    values, seconds = timed(move_values, BIG_NIM, BIG_NIM.start, seconds=0.5)
    assert seconds < 0.5 + MARGIN
    assert set(values) == set(BIG_NIM.moves(BIG_NIM.start))


def test_a_depth_without_seconds_still_ends_within_the_default_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.5)
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, depth=100)
    assert seconds < 0.5 + MARGIN
    assert decision.cut_short


# -- cancelling from another thread ----------------------------------------------------------


@pytest.mark.parametrize("depth", [None, 50])
def test_cancel_from_another_thread_ends_the_search_at_once(depth: int | None) -> None:
    budget = Budget(MAX_SECONDS)
    result: list[Decision] = []
    worker = threading.Thread(
        target=lambda: result.append(
            choose_move(BIG_NIM, BIG_NIM.start, depth=depth, budget=budget,
                        rng=random.Random(0))))
    worker.start()
    time.sleep(0.3)
    cancelled_at = time.perf_counter()
    budget.cancel()
    worker.join(timeout=MARGIN + 5)
    assert not worker.is_alive(), "the search did not end after cancel()"
    assert time.perf_counter() - cancelled_at < 1.0 + MARGIN
    assert result and result[0].cut_short
    assert result[0].move in BIG_NIM.moves(BIG_NIM.start)


def test_a_cancelled_budget_still_gives_a_legal_move() -> None:
    budget = Budget(5)
    budget.cancel()
    game = TicTacToe()
    decision = choose_move(game, game.start, depth=9, budget=budget, rng=random.Random(0))
    assert decision.cut_short and decision.stats.depth == 1
    assert decision.move in game.moves(game.start)


# -- the lessons' searches take a budget too ------------------------------------------------


def test_iterative_deepening_stops_at_its_budget_and_says_so() -> None:
    decision, seconds = timed(iterative_deepening, BIG_NIM, BIG_NIM.start, zero, seconds=0.3)
    assert seconds < 0.3 + MARGIN
    assert decision.cut_short and not decision.exact
    assert decision.stats.depth >= 1


def test_iterative_deepening_that_finishes_is_not_cut_short() -> None:
    game = TicTacToe()
    decision = iterative_deepening(game, game.start, zero, seconds=MAX_SECONDS)
    assert decision.exact and not decision.cut_short


def test_iterative_deepening_to_its_max_depth_is_not_cut_short() -> None:
    game = TicTacToe()
    decision = iterative_deepening(game, game.start, zero, max_depth=2)
    assert not decision.cut_short and decision.stats.depth == 2


def test_depth_limited_raises_search_timeout_when_its_budget_runs_out() -> None:
    budget = Budget(0.05)
    with pytest.raises(SearchTimeout):
        depth_limited(BIG_NIM, BIG_NIM.start, 60, zero, budget=budget)


def test_depth_limited_with_time_to_spare_gives_the_same_value() -> None:
    game = TicTacToe()
    state = replay(game, [(1, 1), (0, 0)])
    assert depth_limited(game, state, 9, zero, budget=Budget(MAX_SECONDS)) == \
        depth_limited(game, state, 9, zero)


# -- clear refusals -----------------------------------------------------------------------------


def test_choose_move_on_an_invalid_state_says_it_is_invalid() -> None:
    game = TicTacToe()
    both_win = (("X", "X", "X"), ("O", "O", "O"), (" ", " ", " "))
    with pytest.raises(GameError, match="^this state is not valid: both players have three"):
        choose_move(game, both_win)
    with pytest.raises(GameError, match="^the game is over"):
        choose_move(game, replay(game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]))


def test_choose_move_on_an_invalid_connect_four_state_says_it_is_invalid() -> None:
    with pytest.raises(GameError, match="^this state is not valid"):
        choose_move(ConnectFour(), (-1, 0))


@pytest.mark.parametrize("function", ["minimax", "memo_minimax", "alphabeta", "best_move",
                                      "bounded_alphabeta", "choose_move", "move_values"])
def test_a_game_class_instead_of_a_game_is_named(function: str) -> None:
    import gamelib.search as search

    with pytest.raises(GameError, match=r"got the class TicTacToe instead of a game: pass "
                                        r"TicTacToe\(\) \(with parentheses\)"):
        getattr(search, function)(TicTacToe, TicTacToe().start)


@pytest.mark.parametrize("function", ["minimax", "memo_minimax", "alphabeta",
                                      "bounded_alphabeta", "choose_move"])
def test_none_instead_of_a_game_is_named(function: str) -> None:
    import gamelib.search as search

    with pytest.raises(GameError, match="^None is not a game .*pass a game object such as"):
        getattr(search, function)(None, TicTacToe().start)


@pytest.mark.parametrize(("estimate", "message"), [
    ("0.5", r"the heuristic's value must be a number, got '0.5' \(str\)"),
    (None, r"the heuristic's value must be a number, got None \(NoneType\)"),
    (math.nan, r"the heuristic's value must be a number, got NaN"),
    (1.0, r"the heuristic returned 1.0 for the state .*strictly between -1 and 1"),
])
def test_a_bad_heuristic_value_is_named(estimate: object, message: str) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match=message):
        depth_limited(game, game.start, 1, lambda s, p: estimate)
    with pytest.raises(GameError, match=message):
        iterative_deepening(game, game.start, lambda s, p: estimate, max_depth=2)


@pytest.mark.parametrize("number", [np.float64(0.25), np.int64(0), np.float32(-0.5), np.int8(0)])
def test_numpy_numbers_are_numbers(number: object) -> None:
    game = TicTacToe()
    value = depth_limited(game, game.start, 0, lambda s, p: number)
    assert value == float(number)  # type: ignore[arg-type]
    assert isinstance(value, float)


@pytest.mark.parametrize("bound", [np.int64(-1), np.float64(-1.0)])
def test_numpy_windows_and_depths_are_accepted(bound: object) -> None:
    game = TicTacToe()
    state = replay(game, [(1, 1), (0, 0), (2, 2)])
    assert depth_limited(game, state, np.int64(3), zero, alpha=bound, beta=1) == \
        depth_limited(game, state, 3, zero, alpha=-1, beta=1)  # type: ignore[arg-type]
    assert choose_move(game, state, depth=np.int64(2), seconds=np.float64(5),  # type: ignore[arg-type]
                       rng=random.Random(0)).move in game.moves(state)


@pytest.mark.parametrize("budget", ["soon", 5, object()])
def test_a_budget_that_is_not_a_budget_is_refused(budget: object) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="budget must be a gamelib.search.Budget or None"):
        choose_move(game, game.start, budget=budget)  # type: ignore[arg-type]


def test_a_callers_budget_does_not_lengthen_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play session passes a Budget of MAX_SECONDS to be able to cancel: the engine's
    default time still applies."""
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.5)
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, budget=Budget(MAX_SECONDS))
    assert seconds < 0.5 + MARGIN
    assert decision.cut_short


def test_a_callers_budget_can_shorten_seconds() -> None:
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, seconds=20,
                              budget=Budget(0.3))
    assert seconds < 0.3 + MARGIN
    assert decision.cut_short
