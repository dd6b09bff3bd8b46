"""alphabeta: its counts, the effect of move order, and the three-case contract."""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any

import pytest
from helpers import reachable
from hypothesis import given
from hypothesis import strategies as st

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import Stats, alphabeta, center_first, memo_minimax
from gamelib.search.alphabeta import keeps_three_cases as gamelib_keeps_three_cases

BOTH = [pytest.param(TicTacToe(), id="tuple"), pytest.param(TicTacToeBitboard(), id="bitboard")]


GAME = TicTacToeBitboard()
STATES = reachable(GAME)
TRUTH: dict[Hashable, int] = {}
memo_minimax(GAME, GAME.start, cache=TRUTH)      # checked in test_exact.py


def test_every_state_has_a_true_value() -> None:
    assert len(STATES) == len(TRUTH) == 5_478


# -- counts --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", BOTH)
def test_alphabeta_from_the_start_in_row_major_order(game: Any) -> None:
    stats = Stats()
    assert alphabeta(game, game.start, stats=stats) == 0
    assert stats.calls == 16_811           # against 549,946 for plain minimax
    assert stats.states == 2_474
    assert stats.terminal == 6_740
    assert stats.cutoffs == 7_795
    assert (stats.cache_hits, stats.cache_entries) == (0, {})


@pytest.mark.parametrize("game", BOTH)
def test_center_first_order_prunes_much_more(game: Any) -> None:
    stats = Stats()
    assert alphabeta(game, game.start, stats=stats, order=center_first) == 0
    assert stats.calls == 6_323
    assert stats.states == 1_168
    assert stats.terminal == 2_477
    assert stats.cutoffs == 2_910


def test_reversed_order_counts_the_same_by_symmetry() -> None:
    # Reversing row-major order is the half turn of the board, which maps every
    # position to an equivalent one, so the search does the same amount of work.
    def reverse(game: Any, state: Hashable, moves: list[Hashable]) -> list[Hashable]:
        return moves[::-1]

    game, stats = TicTacToe(), Stats()
    assert alphabeta(game, game.start, stats=stats, order=reverse) == 0
    assert (stats.calls, stats.states) == (16_811, 2_474)


def test_edges_first_prunes_least() -> None:
    def edges_first(game: Any, state: Hashable, moves: list[Hashable]) -> list[Hashable]:
        return center_first(game, state, moves)[::-1]

    game, stats = TicTacToe(), Stats()
    assert alphabeta(game, game.start, stats=stats, order=edges_first) == 0
    assert (stats.calls, stats.states) == (39_851, 4_082)


def test_center_first_orders() -> None:
    assert center_first(TicTacToe(), TicTacToe().start, TicTacToe().moves(TicTacToe().start)) == [
        (1, 1), (0, 0), (0, 2), (2, 0), (2, 2), (0, 1), (1, 0), (1, 2), (2, 1)]
    c4 = ConnectFour()
    assert center_first(c4, c4.start, c4.moves(c4.start)) == [3, 2, 4, 1, 5, 0, 6]
    c4_wide = ConnectFour(4, 8)
    assert center_first(c4_wide, c4_wide.start, list(range(8))) == [3, 4, 2, 5, 1, 6, 0, 7]
    with pytest.raises(GameError, match="center_first knows the moves of tic-tac-toe"):
        center_first(Nim(), Nim().start, Nim().moves(Nim().start))


# -- the three cases ---------------------------------------------------------------------

def keeps_three_cases(result: float, value: int, alpha: float, beta: float) -> bool:
    if value < alpha:
        return result <= alpha
    if value > beta:
        return result >= beta
    return result == value


windows = st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda w: w[0] < w[1])


@given(st.sampled_from(STATES), windows, st.booleans())
def test_alphabeta_keeps_the_three_cases_in_any_window(state: Hashable,
                                                       window: tuple[int, int],
                                                       ordered: bool) -> None:
    alpha, beta = window
    result = alphabeta(GAME, state, None, alpha, beta, order=center_first if ordered else None)
    assert keeps_three_cases(result, TRUTH[state], alpha, beta)


@given(st.sampled_from(STATES),
       st.tuples(st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)).filter(lambda w: w[0] < w[1]))
def test_alphabeta_keeps_the_three_cases_in_fractional_windows(state: Hashable,
                                                               window: tuple[float, float]
                                                               ) -> None:
    alpha, beta = window
    result = alphabeta(GAME, state, None, alpha, beta)  # type: ignore[arg-type]
    assert keeps_three_cases(result, TRUTH[state], alpha, beta)


def test_gamelibs_three_case_test_agrees_with_this_one() -> None:
    points = [-2, -1, -0.5, 0, 0.5, 1, 2]
    for alpha, beta in itertools.combinations(points, 2):
        for result in points:
            for value in (-1, 0, 1):
                assert (gamelib_keeps_three_cases(result, value, alpha, beta)
                        == keeps_three_cases(result, value, alpha, beta))


def test_a_narrow_window_gives_a_bound_and_prunes_more() -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0), (0, 1)])         # X to move and win
    assert memo_minimax(game, state) == 1
    wide, narrow = Stats(), Stats()
    assert alphabeta(game, state, stats=wide) == 1
    assert alphabeta(game, state, None, -1, 0, stats=narrow) == 0   # ">= beta" is all it says
    assert narrow.calls < wide.calls


# -- arguments ---------------------------------------------------------------------------

@pytest.mark.parametrize(("alpha", "beta"), [(0, 0), (1, -1), (float("nan"), 1), ("-1", 1)])
def test_an_empty_or_malformed_window_is_refused(alpha: Any, beta: Any) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="alpha"):
        alphabeta(game, game.start, None, alpha, beta)


def test_the_player_must_be_the_one_to_move() -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="it is X's turn"):
        alphabeta(game, game.start, "O")
