"""Depth-limited search, the proven-value scale, and iterative deepening."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from functools import cache
from typing import Any

import pytest
from helpers import reachable

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import (
    Stats,
    depth_limited,
    iterative_deepening,
    memo_minimax,
    plies_to_end,
    proven_value,
    tictactoe_open_lines,
    zero,
)
from gamelib.search.common import Budget, SearchTimeout
from gamelib.search.depth_limited import deepen, describe_value, only_safe_move

GAME = TicTacToeBitboard()
STATES = reachable(GAME)
RUNNING = [s for s in STATES if not GAME.finished(s)]
TRUTH: dict[Hashable, int] = {}
memo_minimax(GAME, GAME.start, cache=TRUTH)


def never(state: Hashable, player: str) -> float:
    raise AssertionError("the heuristic was called")


def empty_squares(state: int) -> int:
    return 9 - state.bit_count()


# -- the scale -----------------------------------------------------------------------------

def test_proven_values_lie_beyond_every_estimate_and_read_back() -> None:
    for k in range(60):
        win = proven_value(1, k)
        assert 1 < win <= 2
        assert proven_value(-1, k) == -win
        assert plies_to_end(win) == plies_to_end(-win) == k
        assert proven_value(1, k + 1) < win            # a quicker win is worth more
    assert proven_value(0, 3) == 0
    assert [plies_to_end(v) for v in (1.0, 0.99, 0.0, -1.0)] == [None] * 4


@pytest.mark.parametrize(("value", "exact", "depth", "text"), [
    (1.5, True, 3, "X wins in 1 move"),
    (1.25, True, 5, "X wins in 2 moves"),
    (-1 - 1 / 3, True, 4, "O wins in 1 move"),
    (-1.2, True, 4, "O wins in 2 moves"),
    (0.0, True, 9, "draw with best play"),
    (1.0, True, None, "X wins with best play"),
    (-1.0, True, None, "O wins with best play"),
    (0.0, False, 2, "estimate +0.00 (depth 2)"),
    (-0.456, False, 6, "estimate -0.46 (depth 6)"),
])
def test_summaries(value: float, exact: bool, depth: int | None, text: str) -> None:
    assert describe_value(value, exact, "X", "O", depth) == text


# -- depth_limited -------------------------------------------------------------------------

def test_with_enough_depth_the_heuristic_is_never_asked_and_the_sign_is_exact() -> None:
    for state in random.Random(1).sample(RUNNING, 400):
        value = depth_limited(GAME, state, empty_squares(state), never)
        exact = TRUTH[state]
        assert (value > 1, value == 0, value < -1) == (exact == 1, exact == 0, exact == -1)


@cache
def scaled(state: int, ply: int) -> float:
    """The scale of depth_limited, computed by plain negamax without pruning."""
    if GAME.finished(state):
        return GAME.utility(state, GAME.to_move(state)) * (1 + 1 / (ply + 1))
    return max(-scaled(n, ply + 1) for n in GAME.next_states(state, GAME.to_move(state)))


def test_the_proven_values_are_those_of_plain_negamax_on_the_scale() -> None:
    late = [s for s in RUNNING if empty_squares(s) <= 6]
    for state in random.Random(2).sample(late, 300):
        assert depth_limited(GAME, state, 9, never) == scaled(state, 0)


def test_a_quicker_win_scores_higher() -> None:
    game = TicTacToe()
    # X to move: 3,1 completes the left column now; 2,2 would win two moves later.
    state = replay(game, [(0, 0), (0, 1), (1, 0), (0, 2)])
    assert depth_limited(game, state, 5, zero) == 1.5              # a win at ply 1
    # Searched from the successors, plies count from there: the win at once is at ply 0
    # (2.0), the win after 2,2 at ply 2 (1 + 1/3), so 2,2 scores less.
    assert -depth_limited(game, game.play(state, (2, 0)), 4, zero) == 2.0
    assert -depth_limited(game, game.play(state, (1, 1)), 4, zero) == 1 + 1 / 3
    for seed in range(10):
        assert iterative_deepening(game, state, zero, rng=random.Random(seed)).move == (2, 0)


def test_depth_zero_asks_the_heuristic_about_the_state_itself() -> None:
    game = TicTacToe()
    state = replay(game, [(1, 1)])
    assert depth_limited(game, state, 0, tictactoe_open_lines) == tictactoe_open_lines(state, "O")
    assert depth_limited(game, state, 0, tictactoe_open_lines) == -4 / 9


def test_a_finished_state_gets_its_proven_value() -> None:
    game = TicTacToe()
    won = replay(game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    assert depth_limited(game, won, 3, never) == -2.0
    assert depth_limited(game, won, 3, never, "X") == 2.0


def test_the_counts_of_a_depth_limited_search() -> None:
    stats = Stats()
    game = TicTacToe()
    assert depth_limited(game, game.start, 2, tictactoe_open_lines, stats=stats) == 1 / 9
    assert (stats.calls, stats.terminal, stats.cutoffs, stats.states) == (36, 0, 7, 36)


@pytest.mark.parametrize("window", [(-0.5, 0.5), (0, 0.2), (-1, -0.1), (0.1, 2.0), (-2, 1.5)])
def test_depth_limited_keeps_the_three_cases(window: tuple[float, float]) -> None:
    alpha, beta = window
    for state in random.Random(3).sample(RUNNING, 100):
        true = depth_limited(GAME, state, 3, tictactoe_open_lines)
        result = depth_limited(GAME, state, 3, tictactoe_open_lines, None, alpha, beta)
        if true < alpha:
            assert result <= alpha
        elif true > beta:
            assert result >= beta
        else:
            assert result == true


def test_bad_arguments_are_refused() -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="depth must be a whole number of plies, at least 0"):
        depth_limited(game, game.start, -1, zero)
    with pytest.raises(GameError, match="depth must be a whole number"):
        depth_limited(game, game.start, True, zero)
    with pytest.raises(GameError, match="alpha < beta"):
        depth_limited(game, game.start, 2, zero, None, 0.5, 0.5)
    with pytest.raises(GameError, match="strictly between -1 and 1"):
        depth_limited(game, game.start, 1, lambda s, p: 1.0)
    with pytest.raises(GameError, match="alpha must be a number, got 'a'"):
        depth_limited(game, game.start, 2, zero, None, "a", 1)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="heuristic must be a function heuristic"):
        depth_limited(game, game.start, 2, None)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="heuristic must be a function heuristic"):
        iterative_deepening(game, game.start, 0.5, max_depth=2)  # type: ignore[arg-type]


# -- iterative deepening -------------------------------------------------------------------

def test_iterative_deepening_from_the_start_searches_to_the_end() -> None:
    game, stats = TicTacToe(), Stats()
    decision = iterative_deepening(game, game.start, zero, rng=random.Random(0), stats=stats)
    assert decision.exact and decision.value == 0.0
    assert decision.summary == "draw with best play"
    assert decision.move_values == dict.fromkeys(game.moves(game.start), 0.0)
    assert stats.depth == 9
    assert stats.nodes_per_depth == {1: 9, 2: 81, 3: 207, 4: 693, 5: 1_716, 6: 3_573,
                                     7: 7_952, 8: 6_681, 9: 6_437}
    assert stats.calls == sum(stats.nodes_per_depth.values())
    assert decision.stats is stats


def test_iterative_deepening_to_a_maximum_depth() -> None:
    game, stats = TicTacToe(), Stats()
    decision = iterative_deepening(game, game.start, tictactoe_open_lines, max_depth=3,
                                   rng=random.Random(0), stats=stats)
    assert not decision.exact
    assert list(stats.nodes_per_depth) == [1, 2, 3] and stats.depth == 3
    assert stats.nodes_per_depth == {1: 9, 2: 81, 3: 208}
    assert decision.move == (1, 1)                      # the centre is best at depth 3
    assert decision.value == max(decision.move_values.values()) == 3 / 9
    assert decision.summary == "estimate +0.33 (depth 3)"
    assert all(-1 < v < 1 for v in decision.move_values.values())


def test_iterative_deepening_stops_at_a_proven_win() -> None:
    game, stats = TicTacToe(), Stats()
    state = replay(game, [(0, 0), (1, 1), (0, 1), (2, 2)])      # X wins at 1,3
    decision = iterative_deepening(game, state, zero, stats=stats)
    assert (decision.move, decision.value, decision.exact) == ((0, 2), 1.5, True)
    assert decision.summary == "X wins in 1 move"
    assert stats.depth == 1


def test_a_tiny_time_budget_still_returns_a_move_of_a_finished_iteration() -> None:
    game, stats = TicTacToe(), Stats()
    decision = iterative_deepening(game, game.start, tictactoe_open_lines, seconds=1e-9,
                                   stats=stats)
    assert decision.move in game.moves(game.start)
    assert stats.depth == 1 and list(stats.nodes_per_depth) == [1]
    assert len(decision.move_values) == 9


def test_a_time_budget_keeps_one_entry_per_finished_depth() -> None:
    game, stats = TicTacToe(), Stats()
    decision = iterative_deepening(game, game.start, tictactoe_open_lines, seconds=0.05,
                                   stats=stats)
    assert decision.move in game.moves(game.start)
    assert list(stats.nodes_per_depth) == list(range(1, stats.depth + 1))


def test_iterative_deepening_solves_nim() -> None:
    game = Nim((2, 3, 4))
    decision = iterative_deepening(game, game.start, zero, rng=random.Random(0))
    assert decision.exact and decision.value > 1       # nim-sum 2 ^ 3 ^ 4 = 5: a win
    heaps, _ = game.play(game.start, decision.move)
    assert heaps[0] ^ heaps[1] ^ heaps[2] == 0


def test_the_choice_is_reproducible() -> None:
    game = TicTacToe()
    moves = {iterative_deepening(game, game.start, zero, max_depth=2,
                                 rng=random.Random(4)).move for _ in range(3)}
    assert len(moves) == 1


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"max_depth": 0}, "max_depth must be a whole number of plies, at least 1"),
    ({"max_depth": 2.5}, "max_depth must be"),
    ({"seconds": 0}, "seconds must be a positive number"),
    ({"seconds": -1}, "seconds must be a positive number"),
    ({"seconds": math.nan}, "seconds must be a positive number"),
    ({"seconds": math.inf}, "seconds must be a positive number of seconds, at most 30 s, "
                            "or None; got inf"),
    ({"max_depth": -1}, "max_depth must be a whole number of plies, at least 1, or None; got -1"),
    ({"rng": "seed"}, "rng must be a random.Random"),
])
def test_bad_arguments_to_iterative_deepening(kwargs: dict[str, Any], message: str) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match=message):
        iterative_deepening(game, game.start, zero, **kwargs)


def test_iterative_deepening_refuses_a_finished_state() -> None:
    game = TicTacToe()
    won = replay(game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    with pytest.raises(GameError, match="the game is over"):
        iterative_deepening(game, won, zero)


def test_root_moves_restrict_the_choice_and_keep_each_moves_value() -> None:
    game = TicTacToe()
    h = tictactoe_open_lines
    whole = iterative_deepening(game, game.start, h, max_depth=3)
    corners = [(2, 2), (0, 0)]
    some = iterative_deepening(game, game.start, h, max_depth=3, root_moves=corners)
    assert list(some.move_values) == [(0, 0), (2, 2)]  # in the game's move order
    assert some.move_values == {m: whole.move_values[m] for m in corners}
    assert some.move in corners


@pytest.mark.parametrize(("root_moves", "message"), [
    ([], "at least one"),
    ([(0, 0), (0, 0)], "repeats a move"),
    ([(3, 3)], "not one of the legal moves"),
    ("00", "must be a list of legal moves"),
])
def test_bad_root_moves_are_refused(root_moves: object, message: str) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match=message):
        iterative_deepening(game, game.start, tictactoe_open_lines, max_depth=2,
                            root_moves=root_moves)  # type: ignore[arg-type]


# -- forced moves cost no depth -------------------------------------------------------------


def test_only_safe_move_names_the_one_move_that_does_not_lose_at_once() -> None:
    game = TicTacToe()
    forced = only_safe_move(game)
    # X threatens the top row; O must block in its corner, whatever else it holds.
    assert forced(replay(game, [(0, 0), (1, 1), (0, 1)])) == (0, 2)
    assert forced(game.start) is None                                   # a free choice
    assert forced(replay(game, [(0, 0), (1, 0), (0, 1), (1, 1)])) == (0, 2)  # X wins at once
    two_threats = [(1, 1), (0, 1), (0, 0), (2, 2), (2, 0)]             # at (1, 0) and (0, 2)
    assert forced(replay(game, two_threats)) is None                    # every move loses
    assert only_safe_move(ConnectFour())(ConnectFour.from_moves("11223")) == 3


def test_without_forced_the_search_is_unchanged() -> None:
    state = RUNNING[100]
    plain, nothing = Stats(), Stats()
    value = depth_limited(GAME, state, 3, tictactoe_open_lines, stats=plain)
    assert depth_limited(GAME, state, 3, tictactoe_open_lines, stats=nothing,
                         forced=lambda s: None) == value
    assert plain.calls == nothing.calls


def _extended(game: Any, state: Hashable, depth: int, forced: Any) -> float:
    """The extended search's recursion written out plainly (no pruning)."""
    player = game.to_move(state)
    if game.finished(state):
        return float(game.utility(state, player))
    move = forced(state)
    if move is not None:
        return -_extended(game, game.play(state, move), depth, forced)
    if depth == 0:
        return tictactoe_open_lines(state, player)
    return max(-_extended(game, game.play(state, m), depth - 1, forced)
               for m in game.moves(state))


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_a_forced_move_searches_one_ply_deeper_at_no_cost_in_depth(depth: int) -> None:
    # Every running state, every small depth: the sign and order of the values are
    # those of the plain recursion in which a forced move passes its depth on.
    game = TicTacToe()
    forced = only_safe_move(game)
    for state in reachable(game)[::9]:
        if game.finished(state):
            continue
        value = depth_limited(game, state, depth, tictactoe_open_lines, forced=forced)
        plain = _extended(game, state, depth, forced)
        assert (value > 1) == (plain == 1) and (value < -1) == (plain == -1)
        if -1 < plain < 1:
            assert value == plain


def test_forced_must_be_a_function() -> None:
    with pytest.raises(GameError, match="forced must be a function"):
        depth_limited(GAME, GAME.start, 1, zero, forced=3)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="forced must be a function"):
        iterative_deepening(GAME, GAME.start, zero, forced="x")  # type: ignore[arg-type]


def test_a_budget_spent_at_an_iterations_first_look_ends_the_deepening() -> None:
    """The time may run out between the check before an iteration and that search's first
    look at the budget: the deepening then ends with the values of the last finished depth;
    it does not raise SearchTimeout (the Connect Four computer did, in Pyodide at 0.05 s a
    move: "its search stopped with an internal error")."""

    class SpentAtTheLook(Budget):
        def expired(self) -> bool:
            return False

        def look(self, nodes: int) -> int:
            raise SearchTimeout("spent between the check and the look")

    game = TicTacToe()
    decision = deepen(game, game.start, zero, budget=SpentAtTheLook(5.0))
    assert decision.cut_short and decision.stats.depth == 1
    assert set(decision.move_values) == set(game.moves(game.start))
