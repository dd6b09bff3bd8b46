"""The time budget of the Connect Four solver and player: nothing runs past it, and a
cancelled budget ends the search within well under a second (issue 9).

The only timing assertions here are generous upper bounds that catch a hang.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

import gamelib.search.common as common
from gamelib.connect4.player import connect_four_move, connect_four_move_values
from gamelib.connect4.solver import Solver
from gamelib.games import ConnectFour
from gamelib.search.common import Budget, SearchTimeout
from gamelib.search.stats import Decision

MARGIN = 2.0  # seconds: a loaded machine answers late, never this late


def in_a_thread(work: object) -> tuple[threading.Thread, dict[str, object]]:
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["result"] = work()  # type: ignore[operator]
        except BaseException as error:  # noqa: BLE001 - inspected by the test
            box["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


def cancelled_after(delay: float, budget: Budget, work: object) -> dict[str, object]:
    """Run ``work`` in a thread, cancel ``budget`` after ``delay`` seconds, and check that
    the thread ends within a second of that; return what it returned or raised."""
    thread, box = in_a_thread(work)
    time.sleep(delay)
    cancelled = time.perf_counter()
    budget.cancel()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert time.perf_counter() - cancelled < 1.0
    return box


def test_a_cancelled_solver_stops_at_once() -> None:
    solver = Solver(table_bits=16)
    budget = Budget(60)  # capped at MAX_SECONDS; the empty board would take hours
    box = cancelled_after(0.3, budget, lambda: solver.solve(ConnectFour().start, budget=budget))
    assert isinstance(box.get("error"), SearchTimeout)
    # The solver stays usable, and its table is still right.
    assert solver.solve(ConnectFour.from_moves("2252576253462244111563365343671351441")) == -1


def test_an_expired_budget_stops_the_solver_before_it_starts() -> None:
    budget = Budget(1)
    budget.cancel()
    with pytest.raises(SearchTimeout):
        Solver(table_bits=10).solve(ConnectFour.from_moves("44"), budget=budget)


@pytest.mark.parametrize("depth", [12, 100])
def test_a_deep_search_ends_within_its_budget_cut_short(depth: int) -> None:
    game = ConnectFour()
    started = time.perf_counter()
    decision = connect_four_move(
        game, game.start, depth=depth, budget=Budget(0.5), rng=random.Random(0)
    )
    assert time.perf_counter() - started < 0.5 + MARGIN
    assert decision.cut_short and decision.move in game.moves(game.start)
    assert decision.stats.depth < depth  # the best move of the last finished iteration
    assert decision.summary.endswith("(cut short: the time ran out)")


def test_depth_alone_gets_the_default_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # With no seconds and no budget, the hard cap MAX_SECONDS bounds the call.
    monkeypatch.setattr(common, "MAX_SECONDS", 0.5)
    game = ConnectFour()
    started = time.perf_counter()
    decision = connect_four_move(game, game.start, depth=100, rng=random.Random(0))
    assert time.perf_counter() - started < 0.5 + MARGIN
    assert decision.cut_short
    values = connect_four_move_values(game, game.start, depth=100)
    assert set(values) == set(range(7)) and all(-1 < v < 1 for v in values.values())


def test_a_cancelled_player_returns_a_move_within_a_second() -> None:
    game = ConnectFour()
    budget = Budget(60)
    box = cancelled_after(
        0.5, budget, lambda: connect_four_move(game, game.start, depth=100, budget=budget)
    )
    decision = box["result"]
    assert isinstance(decision, Decision)
    assert decision.cut_short and decision.move in game.moves(game.start)


def test_a_cancelled_player_with_the_solver_returns_too() -> None:
    # seconds mode: the solver works first; cancelling ends it and the rest.
    game = ConnectFour()
    budget = Budget(20)
    state = ConnectFour.from_moves("44")
    box = cancelled_after(
        0.5,
        budget,
        lambda: connect_four_move(game, state, seconds=20, budget=budget, rng=random.Random(1)),
    )
    decision = box["result"]
    assert isinstance(decision, Decision) and decision.cut_short


def test_a_search_that_finishes_is_not_cut_short() -> None:
    game = ConnectFour()
    decision = connect_four_move(game, game.start, depth=2, rng=random.Random(0))
    assert not decision.cut_short and decision.stats.depth == 2
    solved = connect_four_move(
        game,
        ConnectFour.from_moves("2252576253462244111563365343671351441"),
        seconds=10,
        rng=random.Random(0),
    )
    assert solved.exact and not solved.cut_short


def test_seconds_beyond_the_cap_are_cut_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "MAX_SECONDS", 0.5)
    game = ConnectFour()
    started = time.perf_counter()
    decision = connect_four_move(game, game.start, seconds=60, rng=random.Random(0))
    assert time.perf_counter() - started < 0.5 + MARGIN
    assert decision.cut_short  # 60 s were asked for, the cap gave 0.5 s


def test_a_bad_budget_is_refused() -> None:
    from gamelib.game import GameError

    game = ConnectFour()
    with pytest.raises(GameError, match="budget must be a gamelib.search.common.Budget"):
        connect_four_move(game, game.start, depth=1, budget=1.0)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="budget must be"):
        Solver(table_bits=10).solve(game.start, budget="soon")  # type: ignore[arg-type]
