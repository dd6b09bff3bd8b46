"""Every computer move ends within a time budget, and a cancelled search ends at once.

Timing assertions here are only generous "it ended within budget + margin" checks that
catch a hang; everything else is asserted by counts and flags.
"""

from __future__ import annotations

import math
import random
import threading
import time
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from gamelib.connect4 import connect_four_heuristic
from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, RandomTurnTicTacToe, TicTacToe
from gamelib.search import (
    DEFAULT_SECONDS,
    MAX_SECONDS,
    Budget,
    choose_move,
    common,
    depth_limited,
    engine,
    iterative_deepening,
    move_values,
    zero,
)
from gamelib.search.common import SearchTimeout
from gamelib.search.expectiminimax import expectiminimax_move
from gamelib.search.stats import Decision, Stats
from gamelib.session import players

MARGIN = 2.0
"""Seconds allowed on top of a budget before a call counts as a hang (a busy machine)."""

BIG_NIM = Nim([20] * 8)


def timed(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - started


# -- the budget itself ------------------------------------------------------------------------


def test_the_one_range_of_seconds_is_up_to_max_seconds() -> None:
    assert MAX_SECONDS == 30
    assert Budget().seconds == MAX_SECONDS
    assert Budget(MAX_SECONDS).seconds == MAX_SECONDS
    assert Budget(0.5).seconds == 0.5


ABOVE = "seconds must be a positive number of seconds, at most 30 s, or None; got "


@pytest.mark.parametrize(("seconds", "shown"), [
    (30.001, "30.001"), (60, "60"), (10**9, "1000000000"), (10**400, "10000000000000000000…0"),
    (math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "nan"),
    (np.float64("nan"), "np.float64(nan)"),
    (0, "0"), (-1, "-1"), (True, "True"), (False, "False"), ("1", "'1'"), ([1], "[1]"),
])
def test_seconds_outside_the_range_are_refused_with_the_range(seconds: object,
                                                              shown: str) -> None:
    """Never capped in silence: the same message from every door."""
    game = TicTacToe()
    doors = [
        lambda: Budget(seconds),  # type: ignore[arg-type]
        lambda: choose_move(game, game.start, seconds=seconds),  # type: ignore[arg-type]
        lambda: move_values(game, game.start, seconds=seconds),  # type: ignore[arg-type]
        lambda: iterative_deepening(game, game.start, zero, seconds=seconds),  # type: ignore[arg-type]
        lambda: players.choose_move(ConnectFour(), ConnectFour().start, seconds=seconds),  # type: ignore[arg-type]
    ]
    for door in doors:
        with pytest.raises(GameError) as refused:
            door()
        assert str(refused.value) == ABOVE + shown


@pytest.mark.parametrize("seconds", [Fraction(1, 4), np.float64(0.25), np.int64(1),
                                     np.float32(0.25), 30, Fraction(30)])
def test_any_real_number_in_the_range_is_accepted(seconds: object) -> None:
    budget = Budget(seconds)  # type: ignore[arg-type]
    assert budget.seconds == float(seconds) and type(budget.seconds) is float  # type: ignore[arg-type]
    game = ConnectFour()
    state = ConnectFour.from_moves("4444")
    decision = players.choose_move(game, state, seconds=min(seconds, 0.3),  # type: ignore[type-var]
                                   rng=random.Random(0))
    assert decision.move in game.moves(state)


@pytest.mark.parametrize(("options", "message"), [
    ({"within": 5}, "within must be a gamelib.search.Budget or None, got 5 (int)"),
    ({"within": "soon"}, "within must be a gamelib.search.Budget or None, got 'soon' (str)"),
    ({"depth": 0}, "depth must be a whole number of plies, at least 1, or None; got 0"),
    ({"depth": 2.5}, "depth must be a whole number of plies, at least 1, or None; got 2.5"),
    ({"nodes": 0}, "nodes must be a whole number of plies, at least 1, or None; got 0"),
    ({"nodes": True}, "nodes must be a whole number of plies, at least 1, or None; got True"),
])
def test_a_bad_depth_nodes_or_within_is_refused(options: dict[str, object],
                                                message: str) -> None:
    with pytest.raises(GameError) as refused:
        Budget(1, **options)  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_a_nan_budget_cannot_exist_so_no_search_runs_past_the_cap() -> None:
    with pytest.raises(GameError, match="got nan$"):
        Budget(math.nan)
    assert not Budget(1).expired() and Budget(1).remaining() <= 1.0


def test_a_part_ends_with_its_budget_and_is_cancelled_with_it() -> None:
    outer = Budget(5)
    inner = outer.part(20)
    assert inner.within is outer and inner.clipped
    assert inner.deadline <= outer.deadline and inner.seconds <= 5
    assert not outer.part(2).clipped and outer.part(2).seconds == 2
    assert not inner.expired()
    outer.cancel()
    assert inner.cancelled and inner.expired() and inner.remaining() == 0.0
    assert not outer.part(1).within.within  # type: ignore[union-attr]
    assert not Budget(5).part(5).cancelled


def test_a_share_is_that_fraction_of_the_time_left() -> None:
    outer = Budget(10, depth=4)
    half = outer.share(0.5)
    assert 4.9 < half.seconds <= 5.0 and half.depth == 4 and half.within is outer
    assert outer.part(depth=1).depth == 1
    assert outer.part(-1.0).expired()  # a share computed past the deadline: nothing left


def test_a_node_limit_is_met_exactly() -> None:
    """Counts, not timings: a search given N nodes searches exactly N before it stops."""
    for nodes in (1, 7, 1000, 5000):
        budget = Budget(nodes=nodes)
        stats = Stats()
        with pytest.raises(SearchTimeout):
            depth_limited(BIG_NIM, BIG_NIM.start, 60, zero, budget=budget, stats=stats)
        assert stats.calls == nodes == budget.used


@pytest.mark.parametrize("look_seconds", [1e-6, common.LOOK_SECONDS, 10.0],
                         ids=["slow-machine", "as-set", "fast-machine"])
def test_iterative_deepening_meets_a_node_limit_exactly_at_any_pace(
        monkeypatch: pytest.MonkeyPatch, look_seconds: float) -> None:
    """Each depth's search ends between two looks at the budget; the nodes it made after
    its last look still count. Without that, a faster machine (longer steps between looks,
    simulated here through LOOK_SECONDS) was allowed more nodes: Lesson 9's Budget(nodes=7_000)
    reached depth 8 in 10,111 nodes on a fast machine and depth 7 on a slow one."""
    monkeypatch.setattr(common, "LOOK_SECONDS", look_seconds)
    c4 = ConnectFour()
    trap = ConnectFour.from_moves("5611761122133562247367317662")
    budget = Budget(nodes=7_000)
    found = iterative_deepening(c4, trap, connect_four_heuristic(c4), budget=budget,
                                rng=random.Random(1))
    assert found.cut_short and budget.used == found.stats.calls == 7_000
    assert found.stats.depth == 7 and sum(found.stats.nodes_per_depth.values()) == 5_464


@pytest.mark.parametrize("look_seconds", [1e-6, 10.0], ids=["slow-machine", "fast-machine"])
def test_expectiminimax_deepening_meets_a_node_limit_exactly_at_any_pace(
        monkeypatch: pytest.MonkeyPatch, look_seconds: float) -> None:
    monkeypatch.setattr(common, "LOOK_SECONDS", look_seconds)
    game = RandomTurnTicTacToe()
    x_moves = game.play(game.start, "X")   # the coin fell for X
    budget = Budget(nodes=2_000)
    found = expectiminimax_move(game, x_moves, heuristic=zero, budget=budget)
    assert found.cut_short and budget.used == found.stats.calls == 2_000


def test_nodes_counted_in_a_part_count_in_the_whole() -> None:
    outer = Budget(nodes=100)
    inner = outer.part(5)
    inner.count(60)
    assert outer.used == 60 and not outer.expired()
    assert inner.look(1) == 39  # never more nodes before the next look than are left
    inner.count(39)
    assert outer.out_of_nodes() and inner.expired() and outer.expired()
    with pytest.raises(SearchTimeout):
        inner.look(0)


def test_look_adapts_to_the_speed_of_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow game is looked at after a few nodes; a fast one after MAX_LOOK_NODES."""
    clock = [100.0]
    monkeypatch.setattr(common.time, "perf_counter", lambda: clock[0])
    budget = Budget(10)
    clock[0] += 0.125                              # 10 nodes took 125 ms
    assert budget.look(10) == 1
    clock[0] += 1 / 128                            # 64 nodes took 7.8 ms: 81.92 in 10 ms
    assert budget.look(64) == 81
    clock[0] += 1e-9
    assert budget.look(1000) == common.MAX_LOOK_NODES
    clock[0] += 20
    with pytest.raises(SearchTimeout):
        budget.look(1)


def test_a_slow_custom_game_does_not_overshoot_its_budget(monkeypatch: Any) -> None:
    """Each state of this Nim costs 2 ms of a fake clock: 1024 nodes between looks would be
    2 s; the budget looks about every LOOK_SECONDS, so the states run past its end take well
    under 0.1 s (31 states here: 62 ms). Depth 1, which always finishes, takes about 0.1 s
    of the 0.3 s. The clock is fake: the figures are exact, whatever the machine's load."""
    clock = [100.0]
    monkeypatch.setattr(common.time, "perf_counter", lambda: clock[0])
    late: list[float] = []

    class SlowNim(Nim):
        def finished(self, state: Any) -> bool:
            clock[0] += 0.002
            if clock[0] > 100.3:
                late.append(clock[0])
            return super().finished(state)

    game = SlowNim([6] * 4)
    decision = choose_move(game, game.start, seconds=0.3, depth=50)
    assert decision.cut_short and decision.stats.depth >= 1
    assert 0 < len(late) * 0.002 < 0.1, len(late)


def test_the_repr_shows_the_limit() -> None:
    assert repr(Budget(2, depth=3, nodes=9)).startswith("Budget(2 s, depth=3, nodes=9, ")
    cancelled = Budget(1)
    cancelled.cancel()
    assert repr(cancelled) == "Budget(1 s, cancelled)"


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
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.2)
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, rng=random.Random(0))
    assert seconds < 0.2 + MARGIN
    assert decision.cut_short and not decision.exact
    assert decision.move in BIG_NIM.moves(BIG_NIM.start)
    assert set(decision.move_values) == set(BIG_NIM.moves(BIG_NIM.start))


def test_big_nim_keeps_memory_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact search gives up once its cache passes GIVE_UP_ENTRIES (lowered here), long
    before its half of the budget is up: its cache never holds more than that plus one look's
    nodes, and the shared cache is emptied for the next search. The fallback search that
    follows is cancelled as soon as the exact one gives up: its time is not the point."""
    monkeypatch.setattr(engine, "GIVE_UP_ENTRIES", 5_000)
    monkeypatch.setattr(engine, "MAX_ENTRIES", 5_000)
    engine.clear_caches()
    budget = Budget(MAX_SECONDS)
    largest, stops = [0], []
    evaluate = engine._BudgetedSearch.evaluate

    def watched(search: Any, *args: Any) -> int:
        largest[0] = max(largest[0], len(search.cache))
        try:
            return evaluate(search, *args)
        except SearchTimeout as stop:
            if not stops:
                stops.append(str(stop))
                budget.cancel()
            raise

    monkeypatch.setattr(engine._BudgetedSearch, "evaluate", watched)
    decision = choose_move(BIG_NIM, BIG_NIM.start, budget=budget, rng=random.Random(0))
    assert stops == ["the exact search ran out of memory"]
    assert 5_000 < largest[0] <= 5_000 + common.MAX_LOOK_NODES
    assert [len(cache) for cache in engine._caches.values()] == [0]
    assert decision.cut_short and not decision.exact
    assert decision.move in BIG_NIM.moves(BIG_NIM.start)


def test_small_nim_is_still_solved_exactly() -> None:
    game = Nim((1, 2, 3))   # a lost position: 1 ^ 2 ^ 3 == 0
    decision = choose_move(game, game.start, rng=random.Random(0))
    assert decision.exact and not decision.cut_short and decision.value == -1


def test_move_values_end_within_their_budget() -> None:
    values, seconds = timed(move_values, BIG_NIM, BIG_NIM.start, seconds=0.1)
    assert seconds < 0.1 + MARGIN
    assert set(values) == set(BIG_NIM.moves(BIG_NIM.start))


def test_a_depth_without_seconds_still_ends_within_the_default_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.1)
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, depth=100)
    assert seconds < 0.1 + MARGIN
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
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.1)
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, budget=Budget(MAX_SECONDS))
    assert seconds < 0.1 + MARGIN
    assert decision.cut_short


def test_a_callers_budget_can_shorten_seconds() -> None:
    decision, seconds = timed(choose_move, BIG_NIM, BIG_NIM.start, seconds=20,
                              budget=Budget(0.1))
    assert seconds < 0.1 + MARGIN
    assert decision.cut_short


def test_a_budgets_depth_goes_down_whole_to_every_search() -> None:
    nim, c4 = Nim((3, 4, 5)), ConnectFour()
    assert choose_move(nim, nim.start, budget=Budget(5, depth=1),
                       rng=random.Random(0)).stats.depth == 1
    assert players.choose_move(c4, c4.start, budget=Budget(5, depth=2),
                       rng=random.Random(0)).stats.depth == 2
    assert iterative_deepening(nim, nim.start, zero, budget=Budget(depth=3)).stats.depth == 3
    # A depth given at the door wins over the budget's.
    assert choose_move(nim, nim.start, depth=2, budget=Budget(5, depth=1),
                       rng=random.Random(0)).stats.depth == 2


def test_iterative_deepening_stops_at_a_node_limit_with_exact_counts() -> None:
    """Every node counts, depth 1's too (which always finishes: there is always a move)."""
    budget = Budget(nodes=5000)
    decision = iterative_deepening(BIG_NIM, BIG_NIM.start, zero, budget=budget)
    per_depth = decision.stats.nodes_per_depth
    assert decision.cut_short and per_depth[1] < 5000
    assert decision.stats.calls == budget.used == 5000
