"""The heuristics: exact values on small examples, range and symmetry everywhere."""

from __future__ import annotations

import pytest
from helpers import reachable

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import tictactoe_open_lines, zero
from gamelib.search.heuristics import default_heuristic, squash


def test_zero_knows_nothing() -> None:
    assert zero(TicTacToe().start, "X") == 0.0


def test_squash_keeps_order_and_stays_inside() -> None:
    xs = [-1e12, -100.0, -4.0, -1.0, 0.0, 0.5, 4.0, 100.0, 1e12]
    ys = [squash(x, 4.0) for x in xs]
    assert ys == sorted(ys) and all(-1 < y < 1 for y in ys)
    assert squash(4.0, 4.0) == 0.5 and squash(0.0) == 0.0


# -- tic-tac-toe ---------------------------------------------------------------------------

@pytest.mark.parametrize(("moves", "x_value"), [
    ([], 0.0),
    ([(1, 1)], 4 / 9),           # the centre closes 4 of O's 8 lines
    ([(0, 0)], 3 / 9),           # a corner closes 3
    ([(0, 1)], 2 / 9),           # an edge closes 2
    ([(1, 1), (0, 0)], 1 / 9),   # X: 8 - 3 = 5 lines open, O: 8 - 4 = 4
])
def test_open_lines_on_small_examples(moves: list[tuple[int, int]], x_value: float) -> None:
    game = TicTacToe()
    state = replay(game, moves)
    assert tictactoe_open_lines(state, "X") == x_value
    assert tictactoe_open_lines(state, "O") == -x_value


def test_open_lines_in_range_symmetric_and_equal_for_both_representations() -> None:
    board_game = TicTacToe()
    for state in reachable(board_game):
        x = tictactoe_open_lines(state, "X")
        assert -1 < x < 1
        assert tictactoe_open_lines(state, "O") == -x
        assert tictactoe_open_lines(TicTacToeBitboard.from_board(state), "X") == x


def test_open_lines_refuses_an_unknown_player() -> None:
    with pytest.raises(GameError, match="unknown player 'A'"):
        tictactoe_open_lines(TicTacToe().start, "A")


def test_the_search_layer_knows_tictactoe_and_no_other_game() -> None:
    assert default_heuristic(TicTacToe()) is tictactoe_open_lines
    assert default_heuristic(TicTacToeBitboard()) is tictactoe_open_lines
    assert default_heuristic(Nim()) is zero
    assert default_heuristic(ConnectFour(4, 5)) is zero   # its own is chosen above search
