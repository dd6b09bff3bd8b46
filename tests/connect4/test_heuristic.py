"""Lesson 7's Connect Four heuristic: each term exact on a hand-made position.

``x`` below is the difference of the points (the heuristic's docstring) before the
squash ``h = x / (4 + |x|)``. Rows count from 1 at the bottom, columns a to g.
"""

from __future__ import annotations

import random

import pytest

from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.game import GameError
from gamelib.games import ConnectFour, TicTacToe

GAME = ConnectFour()
H = connect_four_heuristic(GAME)


def worth(moves: str, x: float) -> bool:
    """True iff X's points minus O's after ``moves`` are ``x``: h = x / (4 + |x|) for X."""
    state = ConnectFour.from_moves(moves)
    return H(state, "X") == x / (4 + abs(x)) == -H(state, "O")


def test_nothing_on_the_board_is_worth_nothing() -> None:
    assert H(GAME.start, "X") == H(GAME.start, "O") == 0.0


def test_a_centre_disc_is_worth_half_a_point() -> None:
    assert worth("4", 0.5) and H(ConnectFour.from_moves("4"), "X") == 0.5 / 4.5
    assert worth("1", 0.0)   # an edge disc: no line of four with two discs yet


def test_a_lone_odd_threat_of_the_first_player() -> None:
    # X: a1 b1 c1, O: a2 a3 g1. X's threat d1 is on row 1, odd, X's rows: 1 + 1 point;
    # X's two b1-e1 and O's two a2-a5 cancel (1/4 each).
    assert worth("112137", 2.0)


def test_a_threat_directly_above_an_opponents_threat_is_worth_nothing() -> None:
    # X: g1 a2 b2 c2, O: a1 b1 c1 g2. O's threat d1 (row 1, odd: not O's row) is worth
    # 1; X's threat d2 sits directly above it: worth nothing. One two each.
    assert worth("71122337", -1.0)


def test_a_stacked_pair_is_worth_a_point_more() -> None:
    # X: a1 b1 c1 a2 b2 c2: threats d1 (odd row: 1 + 1) and d2 (even row, directly
    # above d1: 1 + 1 stacked) = 4, and five twos (a1-d4, b1-e4 and three columns).
    # O: e1 f1 e2 f2 e3: threat e4 (even row, O's: 1 + 1) = 2 and seven twos.
    assert worth("15263516253", 4 + 5 / 4 - (2 + 7 / 4))


def test_two_threats_on_the_bottom_row() -> None:
    # X: c1 d1 e1, O: d2 e2. X: threats b1 and f1 (odd rows: 2 points each) and the
    # twos a1-d1, d1-g1; O: the twos b2-e2, c2-f2, d2-g2. A centre disc each.
    assert worth("44553", 4 + 2 / 4 - 3 / 4)


def _twos_by_windows(mine: int, theirs: int, game: ConnectFour) -> int:
    """The lines of four with exactly two of ``mine`` and none of ``theirs``, one by one."""
    count = 0
    for col in range(game.cols):
        for row in range(game.rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < game.cols and 0 <= r < game.rows for c, r in cells):
                    window = sum(1 << (c * game.height + r) for c, r in cells)
                    count += not theirs & window and (mine & window).bit_count() == 2
    return count


@pytest.mark.parametrize(("rows", "cols"), [(6, 7), (4, 4), (5, 6), (10, 10)])
def test_the_terms_counted_cell_by_cell_give_the_same_value(rows: int, cols: int) -> None:
    # A slow, plain count of every term on random positions of several board sizes.
    game, rng = ConnectFour(rows, cols), random.Random(rows * cols)
    h = connect_four_heuristic(game)
    middle = {cols // 2} if cols % 2 else {cols // 2 - 1, cols // 2}

    def threat_cells(mine: int, mask: int) -> set[tuple[int, int]]:
        found = set()
        for col in range(cols):
            for row in range(rows):
                bit = 1 << (col * game.height + row)
                if not mask & bit and game.has_four(mine | bit):
                    found.add((col, row))
        return found

    def points(mine: int, theirs: int, good: int) -> float:
        own, other = threat_cells(mine, mine | theirs), threat_cells(theirs, mine | theirs)
        live = {(c, r) for c, r in own if (c, r - 1) not in other}
        return (len(live) + sum(r % 2 == good for _, r in live)
                + sum((c, r - 1) in live for c, r in live)
                + _twos_by_windows(mine, theirs, game) / 4
                + 0.5 * sum(((mine >> (c * game.height + r)) & 1) for c in middle
                            for r in range(rows)))

    for _ in range(5):
        state = game.start
        while not game.finished(state):
            first, second = state
            x = points(first, second, 0) - points(second, first, 1)
            assert h(state, "X") == x / (4 + abs(x)) and h(state, "O") == -h(state, "X")
            assert -1 < h(state, "X") < 1
            state = game.play(state, rng.choice(game.moves(state)))


def test_connect_four_heuristic_wants_connect_four() -> None:
    with pytest.raises(GameError, match="needs a ConnectFour game"):
        connect_four_heuristic(TicTacToe())  # type: ignore[arg-type]
    with pytest.raises(GameError, match="unknown player 'A'"):
        H(GAME.start, "A")
