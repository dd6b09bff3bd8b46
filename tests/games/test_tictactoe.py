"""Exact facts about tic-tac-toe, in both representations, and their agreement.

The figures are the classic ones: 5,478 reachable positions (958 of them final:
626 won by X, 316 by O, 16 drawn), a game tree of 549,946 nodes whose 255,168
leaves are 131,184 wins for X, 77,904 for O and 46,080 draws.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from gamelib.game import GameError
from gamelib.games import TicTacToe, TicTacToeBitboard
from gamelib.games.tictactoe import LINES
from gamelib.games.tictactoe_bitboard import LINE_MASKS

BOARD = TicTacToe()
BITS = TicTacToeBitboard()

STATES_PER_PLY = [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
FINISHED_PER_PLY = [0, 0, 0, 0, 0, 120, 148, 444, 168, 78]


def layers(game: Any) -> list[set[Any]]:
    """The distinct reachable states, ply by ply (layer k: after k moves)."""
    result = [{game.start}]
    while True:
        following = {
            child for state in result[-1] for child in game.next_states(state, game.to_move(state))
        }
        if not following:
            return result
        result.append(following)


LAYERS = {"tuples": layers(BOARD), "bits": layers(BITS)}
GAMES = {"tuples": BOARD, "bits": BITS}


@pytest.mark.parametrize("kind", GAMES)
def test_reachable_states_per_ply(kind: str) -> None:
    game, per_ply = GAMES[kind], LAYERS[kind]
    assert [len(layer) for layer in per_ply] == STATES_PER_PLY
    assert [sum(map(game.finished, layer)) for layer in per_ply] == FINISHED_PER_PLY
    reachable = set().union(*per_ply)
    assert len(reachable) == 5478
    finished = [s for s in reachable if game.finished(s)]
    assert len(finished) == 958
    assert Counter(game.utility(s, "X") for s in finished) == {1: 626, -1: 316, 0: 16}


@pytest.mark.parametrize("kind", GAMES)
def test_game_tree_size_and_leaves(kind: str) -> None:
    """Count root-to-state paths layer by layer: the tree naive minimax walks."""
    game = GAMES[kind]
    paths = {game.start: 1}
    nodes, leaves = 0, Counter[int]()
    for layer in LAYERS[kind]:
        for state in layer:
            nodes += paths[state]
            if game.finished(state):
                leaves[game.utility(state, "X")] += paths[state]
                continue
            for child in game.next_states(state, game.to_move(state)):
                paths[child] = paths.get(child, 0) + paths[state]
    assert nodes == 549_946
    assert sum(leaves.values()) == 255_168
    assert leaves == {1: 131_184, -1: 77_904, 0: 46_080}


def test_the_representations_agree_state_by_state() -> None:
    boards = set().union(*LAYERS["tuples"])
    ints = set().union(*LAYERS["bits"])
    assert {BITS.from_board(b) for b in boards} == ints
    assert {BITS.to_board(i) for i in ints} == boards
    for board in boards:
        state = BITS.from_board(board)
        assert BITS.to_board(state) == board
        assert BITS.finished(state) == BOARD.finished(board)
        assert BITS.to_move(state) == BOARD.to_move(board)
        assert BITS.moves(state) == BOARD.moves(board)
        assert BITS.winning_line(state) == BOARD.winning_line(board)
        assert BITS.render(state) == BOARD.render(board)
        player = BOARD.to_move(board)
        assert [BITS.to_board(s) for s in BITS.next_states(state, player)] == (
            BOARD.next_states(board, player)
        )
        if BOARD.finished(board):
            for p in BOARD.players:
                assert BITS.utility(state, p) == BOARD.utility(board, p)


def test_validate_accepts_exactly_the_reachable_boards() -> None:
    reachable = set().union(*LAYERS["tuples"])
    accepted = set()
    for cells in itertools.product(" XO", repeat=9):
        board = (cells[0:3], cells[3:6], cells[6:9])
        try:
            BOARD.validate(board)
        except GameError:
            continue
        accepted.add(board)
    assert len(accepted) == 5478
    assert accepted == reachable


def test_game_value_is_a_draw() -> None:
    """A memoized negamax over the rules: perfect play draws."""
    values: dict[int, int] = {}

    def value(state: int) -> int:  # for the player to move
        if state not in values:
            if BITS.finished(state):
                values[state] = BITS.utility(state, BITS.to_move(state))
            else:
                player = BITS.to_move(state)
                values[state] = max(-value(c) for c in BITS.next_states(state, player))
        return values[state]

    assert value(BITS.start) == 0
    assert len(values) == 5478
    # X in the top corners, O in the centre and the bottom left: X completes the top row.
    threat = BITS.from_board((("X", " ", "X"), (" ", "O", " "), ("O", " ", " ")))
    assert value(threat) == 1
    assert value(BITS.play(threat, (0, 1))) == -1  # X has won; O, to move, has lost


def test_winner_is_the_mark_on_the_first_complete_line_of_every_board() -> None:
    """utility's ``_winner`` (its eight tests written out) against its definition, the
    mark on the first complete line in the order of LINES, on all 3**9 boards, reachable
    or not (boards with lines of both marks included)."""
    from gamelib.games.tictactoe import _winner

    both = 0
    for cells in itertools.product(" XO", repeat=9):
        board: Any = (cells[0:3], cells[3:6], cells[6:9])
        complete = [board[r0][c0] for (r0, c0), (r1, c1), (r2, c2) in LINES
                    if board[r0][c0] != " " and board[r0][c0] == board[r1][c1] == board[r2][c2]]
        assert _winner(board) == (complete[0] if complete else None), board
        both += len(set(complete)) == 2
    assert both > 0     # the order of the tests mattered on some boards


def test_line_masks_match_the_lines() -> None:
    assert len(LINES) == len(set(LINES)) == 8
    for line, mask in zip(LINES, LINE_MASKS, strict=True):
        assert mask == sum(1 << (3 * r + c) for r, c in line)
        assert mask.bit_count() == 3
    # Every cell lies on its row, its column and every diagonal through it.
    assert [sum(mask >> i & 1 for mask in LINE_MASKS) for i in range(9)] == [
        3, 2, 3,
        2, 4, 2,
        3, 2, 3,
    ]  # fmt: skip


def test_bit_numbering_of_the_module_docstring() -> None:
    """The bit numbering drawn in tictactoe_bitboard's docstring is the one in use."""
    for row in range(3):
        for col in range(3):
            assert BITS.play(BITS.start, (row, col)) == 1 << (3 * row + col)
            elsewhere = (2, 2) if (row, col) == (0, 0) else (0, 0)
            x_first = BITS.play(BITS.start, elsewhere)
            assert BITS.play(x_first, (row, col)) - x_first == 1 << (9 + 3 * row + col)


def test_render_and_from_text() -> None:
    board = BOARD.from_text("X| |O\n-+-+-\n |X| \n-+-+-\n | | ")
    assert board == (("X", " ", "O"), (" ", "X", " "), (" ", " ", " "))
    assert BOARD.to_move(board) == "O"
    assert BITS.from_text(BOARD.render(board)) == BITS.from_board(board)
