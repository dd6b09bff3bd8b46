"""The time budget of the Connect Four solver and player: nothing runs past it, and a
cancelled budget ends the search within well under a second (issue 9).

The only timing assertions here are generous upper bounds that catch a hang.
"""

from __future__ import annotations

import math
import random
import threading
import time
from fractions import Fraction

import numpy as np
import pytest

import gamelib.connect4.book as book_module
import gamelib.connect4.player as player
from gamelib.connect4.player import connect_four_move, connect_four_move_values
from gamelib.connect4.solver import Solver
from gamelib.game import GameError
from gamelib.games import ConnectFour
from gamelib.search.common import MAX_SECONDS, Budget, SearchTimeout
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
    budget = Budget()  # MAX_SECONDS; the empty board would take hours
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
        game, game.start, depth=depth, budget=Budget(0.2), rng=random.Random(0)
    )
    assert time.perf_counter() - started < 0.2 + MARGIN
    assert decision.cut_short and decision.move in game.moves(game.start)
    assert decision.stats.depth < depth  # the best move of the last finished iteration
    assert decision.summary.endswith("(cut short: the time ran out)")


def test_depth_alone_gets_the_default_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # With no seconds and no budget, the hard cap MAX_SECONDS bounds the call.
    monkeypatch.setattr(player, "MAX_SECONDS", 0.2)
    game = ConnectFour()
    started = time.perf_counter()
    decision = connect_four_move(game, game.start, depth=100, rng=random.Random(0))
    assert time.perf_counter() - started < 0.2 + MARGIN
    assert decision.cut_short
    values = connect_four_move_values(game, game.start, depth=100)
    assert set(values) == set(range(7)) and all(-1 < v < 1 for v in values.values())


def test_a_cancelled_player_returns_a_move_within_a_second() -> None:
    game = ConnectFour()
    budget = Budget(MAX_SECONDS)
    box = cancelled_after(
        0.2, budget, lambda: connect_four_move(game, game.start, depth=100, budget=budget)
    )
    decision = box["result"]
    assert isinstance(decision, Decision)
    assert decision.cut_short and decision.move in game.moves(game.start)


def test_a_cancelled_player_with_the_solver_returns_too() -> None:
    # seconds mode: the solver works first; cancelling ends it and the rest. A board with no
    # opening book (7 x 6 positions of up to 12 discs are read from it in an instant).
    game = ConnectFour(6, 8)
    budget = Budget(20)
    state = game.play(game.start, 3)
    box = cancelled_after(
        0.2,
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


@pytest.mark.parametrize("seconds", [60, 30.5, 10**400, math.inf, math.nan])
def test_seconds_beyond_the_cap_are_refused(seconds: float) -> None:
    game = ConnectFour()
    for door in (connect_four_move, connect_four_move_values):
        with pytest.raises(GameError, match="^seconds must be a positive number of seconds, "
                                            "at most 30 s, or None; got "):
            door(game, game.start, seconds=seconds)


@pytest.mark.parametrize("seconds", [Fraction(1, 5), np.float64(0.2), np.int64(1)])
def test_fractions_and_numpy_seconds_are_numbers_to_the_player(seconds: float) -> None:
    # An endgame with every column open (Test_L3_R1): the player's solver, given these
    # seconds, solves it in milliseconds instead of spending them.
    game = ConnectFour()
    state = ConnectFour.from_moves("52677675164321472411331752454")
    decision = connect_four_move(game, state, seconds=seconds, rng=random.Random(0))
    assert decision.move in game.moves(state)
    values = connect_four_move_values(game, state, seconds=seconds)
    assert set(values) == set(range(7))


@pytest.mark.parametrize(("moves", "book", "share"), [
    ("4444443333331", True, player.EXACT_SHARE),
    ("444444333333", False, player.EXACT_SHARE),
    ("", False, player.PROBE_SHARE),
    ("44444433333", False, player.PROBE_SHARE),
    ("", True, player.BOOK_SHARE),
    ("444444333333", True, player.BOOK_SHARE),
])
def test_the_player_splits_the_checked_budget(
    monkeypatch: pytest.MonkeyPatch, moves: str, book: bool, share: float
) -> None:
    """At 30 s, the most there is, the solver gets EXACT_SHARE (in the opening, with more
    than OPENING_EMPTY empty cells, PROBE_SHARE; where it reads the opening book, up to 12
    discs, BOOK_SHARE) and the heuristic the rest."""
    if book:
        pytest.importorskip("bitbully_databases")
        book_module.opening_book()  # loaded now: its first load counts against a move
    else:  # as in JupyterLite: the opening book is not there
        monkeypatch.setattr(book_module, "_loaded", True)
        monkeypatch.setattr(book_module, "_book", None)
    seen: dict[str, Budget] = {}

    def solver_gives_up(board: object, columns: list[int], root: Budget, limit: Budget,
                        **_: object) -> None:
        seen["root"], seen["columns"] = root, limit
        return None

    def heuristic(board: object, columns: list[int], limit: Budget, stats: object,
                  results: dict[int, object]) -> bool:
        seen["heuristic"] = limit
        results.update({col: player._Result(None, estimate=0.0) for col in columns})
        return False

    monkeypatch.setattr(player, "_solve_columns", solver_gives_up)
    monkeypatch.setattr(player, "_deepen", heuristic)
    game = ConnectFour()
    state = ConnectFour.from_moves(moves)
    decision = connect_four_move(game, state, seconds=30, rng=random.Random(0))
    assert decision.move in game.moves(state) and not decision.cut_short
    assert seen["columns"] is seen["root"]   # choosing a move: the columns share the root's
    assert 30 * share - 0.1 < seen["root"].seconds <= 30 * share
    assert seen["heuristic"].seconds == 30 and seen["heuristic"].remaining() > 29
    assert seen["root"].within is seen["heuristic"]


def test_a_bad_budget_is_refused() -> None:
    game = ConnectFour()
    with pytest.raises(GameError, match="^budget must be a gamelib.search.Budget or None, "
                                        "got 1.0 \\(float\\)$"):
        connect_four_move(game, game.start, depth=1, budget=1.0)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="budget must be"):
        Solver(table_bits=10).solve(game.start, budget="soon")  # type: ignore[arg-type]


@pytest.mark.parametrize("nodes", [1, 50, 3000])
def test_the_player_meets_a_node_budget_and_says_it_cut_short(nodes: int) -> None:
    """The solver stops at the budget's nodes exactly; the heuristic's first iteration
    (depth 1: the root and its 7 columns, 8 nodes with a forced-move look) still runs, so
    that there is a move, and the decision says the nodes ran out."""
    game = ConnectFour()
    state = ConnectFour.from_moves("4453")
    budget = Budget(30, nodes=nodes)
    decision = connect_four_move(game, state, budget=budget, rng=random.Random(0))
    assert decision.move in game.moves(state)
    assert decision.cut_short and decision.summary.endswith("(cut short: the nodes ran out)")
    assert budget.used >= nodes and decision.stats.calls <= nodes + 9


def test_without_the_book_the_player_says_so_in_the_opening(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(book_module, "_loaded", True)
    monkeypatch.setattr(book_module, "_book", None)
    game = ConnectFour()
    decision = connect_four_move(game, ConnectFour.from_moves("44"), depth=2,
                                 rng=random.Random(0))
    assert not decision.exact
    assert decision.summary.endswith(f"({book_module.NOT_LOADED})")
