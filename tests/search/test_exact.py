"""Every exact search returns the minimax value, checked against independent solvers.

Tic-tac-toe: all 5,478 reachable states, against a solver written here on 9-character
strings (it shares no code with gamelib). Nim: against the nim-sum rule (the player to
move wins iff the xor of the heaps is not 0). Connect Four on 4x4: the algorithms agree
with each other on positions from seeded random playouts.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable
from functools import cache, reduce
from operator import xor
from typing import Any

import helpers
import pytest

from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import (
    BoundCache,
    alphabeta,
    bounded_alphabeta,
    center_first,
    choose_move,
    memo_minimax,
    minimax,
)

# -- an independent tic-tac-toe solver ------------------------------------------------

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def has_line(board: str) -> bool:
    return any(board[a] != " " and board[a] == board[b] == board[c] for a, b, c in LINES)


def mover(board: str) -> str:
    return "X" if board.count("X") == board.count("O") else "O"


def over(board: str) -> bool:
    return has_line(board) or " " not in board


@cache
def solve(board: str) -> int:
    """The value of ``board`` for the player to move."""
    if has_line(board):
        return -1                  # the player who just moved has won
    if " " not in board:
        return 0
    p = mover(board)
    return max(-solve(board[:i] + p + board[i + 1 :]) for i in range(9) if board[i] == " ")


def reachable() -> list[str]:
    boards, seen = [" " * 9], {" " * 9}
    for board in boards:
        if not over(board):
            p = mover(board)
            for i in range(9):
                if board[i] == " ":
                    child = board[:i] + p + board[i + 1 :]
                    if child not in seen:
                        seen.add(child)
                        boards.append(child)
    return boards


BOARDS = reachable()


def as_tuple(board: str) -> Any:
    return tuple(tuple(board[3 * r : 3 * r + 3]) for r in range(3))


def as_int(board: str) -> int:
    return TicTacToeBitboard.from_board(as_tuple(board))


def test_the_independent_solver_knows_the_famous_figures() -> None:
    assert len(BOARDS) == 5478
    assert sum(map(over, BOARDS)) == 958
    assert solve(" " * 9) == 0


# -- tic-tac-toe: every exact algorithm on every state --------------------------------

GAMES = [pytest.param(TicTacToe(), as_tuple, id="tuple"),
         pytest.param(TicTacToeBitboard(), as_int, id="bitboard")]


@pytest.mark.parametrize(("game", "convert"), GAMES)
def test_memo_minimax_on_every_state(game: Any, convert: Callable[[str], Hashable]) -> None:
    # Deepest states first, sharing one cache: each state is computed by the recursion
    # from its successors' cached values, so every one of them is checked.
    cache: dict[Hashable, int] = {}
    for board in reversed(BOARDS):
        assert memo_minimax(game, convert(board), cache=cache) == solve(board), board
    assert len(cache) == 5478


@pytest.mark.parametrize(("game", "convert"), GAMES)
def test_memo_minimax_with_a_fresh_cache_on_a_sample(game: Any,
                                                     convert: Callable[[str], Hashable]) -> None:
    for board in random.Random(1).sample(BOARDS, 300):
        assert memo_minimax(game, convert(board)) == solve(board), board


def test_plain_minimax_on_a_sample_of_later_states() -> None:
    game = TicTacToeBitboard()
    later = [b for b in BOARDS if b.count(" ") <= 6]
    for board in random.Random(2).sample(later, 300):
        assert minimax(game, as_int(board)) == solve(board), board


def test_alphabeta_on_every_state() -> None:
    game = TicTacToeBitboard()
    for board in BOARDS:
        assert alphabeta(game, as_int(board)) == solve(board), board


def test_alphabeta_with_center_first_order_on_a_sample() -> None:
    game = TicTacToe()
    for board in random.Random(3).sample(BOARDS, 500):
        assert alphabeta(game, as_tuple(board), order=center_first) == solve(board), board


def sign_for_first_player(board: str) -> int:
    return 1 if mover(board) == "X" else -1


def test_bounded_alphabeta_with_a_fresh_cache_on_every_state() -> None:
    game = TicTacToeBitboard()
    for board in BOARDS:
        value = bounded_alphabeta(game, as_int(board))
        assert value == sign_for_first_player(board) * solve(board), board


def test_bounded_alphabeta_sharing_one_cache_over_every_state() -> None:
    game, cache = TicTacToe(), BoundCache()
    for board in random.Random(4).sample(BOARDS, len(BOARDS)):
        value = bounded_alphabeta(game, as_tuple(board), cache=cache)
        assert value == sign_for_first_player(board) * solve(board), board


def test_the_engine_plays_optimally_in_every_running_state() -> None:
    game, rng = TicTacToeBitboard(), random.Random(5)
    for board in BOARDS:
        if over(board):
            continue
        decision = choose_move(game, as_int(board), rng=rng)
        assert decision.exact
        assert decision.value == solve(board), board
        i = 3 * decision.move[0] + decision.move[1]
        assert board[i] == " "
        child = board[:i] + mover(board) + board[i + 1 :]
        assert -solve(child) == solve(board), board
        assert decision.move_values == {
            (i // 3, i % 3): -solve(board[:i] + mover(board) + board[i + 1 :])
            for i in range(9) if board[i] == " "
        }


# -- Nim: the nim-sum rule --------------------------------------------------------------

def test_nim_states_are_counted_right() -> None:
    # Heaps h <= (2, 3, 4) are reached after between k (heaps touched) and n (objects
    # taken) moves, so with either player to move unless k == n (one object per heap).
    expected = 0
    for h in itertools.product(range(3), range(4), range(5)):
        touched = sum(a != b for a, b in zip(h, (2, 3, 4), strict=True))
        taken = sum((2, 3, 4)) - sum(h)
        expected += 1 if touched == taken else 2
    assert len(helpers.reachable(Nim((2, 3, 4)))) == expected == 112


def nim_value(state: Any) -> int:
    return 1 if reduce(xor, state[0]) else -1


def test_every_exact_search_follows_the_nim_sum_rule() -> None:
    game = Nim((2, 3, 4))
    states = helpers.reachable(game)
    assert len(states) == 112   # 60 heap sizes, all with both turns but for 8 (see below)
    cache: dict[Hashable, int] = {}
    for state in states:
        expected = nim_value(state)
        first = 1 if game.to_move(state) == "A" else -1
        assert memo_minimax(game, state, cache=cache) == expected
        assert alphabeta(game, state) == expected
        assert bounded_alphabeta(game, state) == first * expected
        if not game.finished(state):
            assert choose_move(game, state, rng=random.Random(0)).value == expected


def test_plain_minimax_follows_the_nim_sum_rule() -> None:
    game = Nim((1, 2, 3))
    for state in helpers.reachable(game):
        assert minimax(game, state) == nim_value(state)


# -- Connect Four 4x4: all algorithms agree ----------------------------------------------

def test_the_algorithms_agree_on_small_connect_four_positions() -> None:
    game, rng = ConnectFour(4, 4), random.Random(6)
    checked = 0
    while checked < 40:
        state = game.start
        for _ in range(rng.randrange(7, 11)):
            if game.finished(state):
                break
            state = game.play(state, rng.choice(game.moves(state)))
        if game.finished(state):
            continue
        checked += 1
        value = memo_minimax(game, state)
        first = 1 if game.to_move(state) == "X" else -1
        assert alphabeta(game, state) == value
        assert alphabeta(game, state, order=center_first) == value
        assert bounded_alphabeta(game, state) == first * value
        if checked <= 10:
            assert minimax(game, state) == value
