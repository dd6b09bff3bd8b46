"""The Connect Four solver: exact scores against the benchmark files and plain minimax."""

from __future__ import annotations

import concurrent.futures
import functools
import random
import time
from collections.abc import Callable

import pytest

from gamelib.connect4 import benchmark_positions
from gamelib.connect4 import solver as solver_module
from gamelib.connect4.bitboard import threat_cells
from gamelib.connect4.score import score_to_moves
from gamelib.connect4.solver import SEARCH_STACK, Solver
from gamelib.game import GameError
from gamelib.games import ConnectFour
from gamelib.games.connect_four import C4State
from gamelib.search.common import SearchTimeout


def benchmark_lines(name: str, count: int, seed: int) -> list[tuple[str, int]]:
    """``count`` lines of the benchmark set ``Test_<name>``, drawn with a seeded Random."""
    pairs = benchmark_positions(name)
    assert len(pairs) == 1000
    return random.Random(seed).sample(pairs, count)


# One solver per board size for the whole module: the table is meant to be shared.
STANDARD = Solver()


@pytest.mark.parametrize(
    ("name", "count"), [("L3_R1", 60), ("L2_R1", 40), ("L2_R2", 6), ("L1_R1", 12)]
)
def test_benchmark_sample_exact(name: str, count: int) -> None:
    for moves, expected in benchmark_lines(name, count, seed=2024):
        assert STANDARD.solve(ConnectFour.from_moves(moves)) == expected, moves


def test_benchmark_sample_weak_gives_the_sign() -> None:
    for moves, expected in benchmark_lines("L2_R1", 20, seed=7):
        state = ConnectFour.from_moves(moves)
        assert STANDARD.solve(state, weak=True) == (expected > 0) - (expected < 0), moves


@pytest.mark.slow
def test_hard_opening_position() -> None:
    # The first line of Test_L1_R2.
    moves, expected = benchmark_positions("L1_R2")[0]
    assert STANDARD.solve(ConnectFour.from_moves(moves)) == expected


# -- plain minimax with the same score, as an independent check --------------------
#
# A board of its own, written for clarity rather than speed: a tuple of columns, each a
# string of "X"/"O" from the bottom up, and a win test that walks the four lines through
# the last disc.

Columns = tuple[str, ...]


def wins_with(columns: Columns, col: int) -> bool:
    """True iff the top disc of ``col`` is part of four in a row."""
    row = len(columns[col]) - 1
    mark = columns[col][row]

    def holds(c: int, r: int) -> bool:
        return 0 <= c < len(columns) and 0 <= r < len(columns[c]) and columns[c][r] == mark

    for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            step = 1
            while holds(col + sign * step * dc, row + sign * step * dr):
                run += 1
                step += 1
        if run >= 4:
            return True
    return False


def minimax_scorer(rows: int, cols: int) -> Callable[[Columns], int]:
    """Memoized plain negamax on a board of columns, with the k-aware score.

    A win that ends the game with ``M`` discs on the board scores ``(N + 2 - M) // 2``
    for the winner, ``N`` being the number of cells: one more than the discs the
    winner still holds.
    """
    cells = rows * cols

    @functools.cache
    def score(columns: Columns) -> int:
        discs = sum(len(column) for column in columns)
        mark = "XO"[discs % 2]
        best = -cells
        for col in range(cols):
            if len(columns[col]) == rows:
                continue
            child = columns[:col] + (columns[col] + mark,) + columns[col + 1 :]
            if wins_with(child, col):
                value = (cells + 2 - (discs + 1)) // 2
            elif discs + 1 == cells:
                value = 0
            else:
                value = -score(child)
            best = max(best, value)
        return best

    return score


def as_state(columns: Columns, game: ConnectFour) -> C4State:
    """The bitboard state of ``game`` for a board of columns."""
    first = second = 0
    for col, column in enumerate(columns):
        for row, mark in enumerate(column):
            bit = 1 << (col * game.height + row)
            if mark == "X":
                first |= bit
            else:
                second |= bit
    return first, second


def unfinished_positions(rows: int, cols: int, opening: Columns, plies: int) -> list[Columns]:
    """Every position reachable from ``opening`` in at most ``plies`` moves, none won."""
    found = {opening}
    frontier = {opening}
    cells = rows * cols
    for _ in range(plies):
        grown = set()
        for columns in frontier:
            discs = sum(len(column) for column in columns)
            for col in range(cols):
                if len(columns[col]) < rows and discs + 1 < cells:
                    child = columns[:col] + (columns[col] + "XO"[discs % 2],) + columns[col + 1 :]
                    if not wins_with(child, col):
                        grown.add(child)
        frontier = grown
        found |= frontier
    return sorted(found)


def random_opening(rows: int, cols: int, discs: int, rng: random.Random) -> Columns:
    """A position with ``discs`` discs reached by random moves that win nothing."""
    while True:
        columns: Columns = ("",) * cols
        for count in range(discs):
            options = [c for c in range(cols) if len(columns[c]) < rows]
            col = rng.choice(options)
            columns = columns[:col] + (columns[col] + "XO"[count % 2],) + columns[col + 1 :]
            if wins_with(columns, col):
                break
        else:
            return columns


def test_own_board_reaches_the_same_states() -> None:
    game = ConnectFour(4, 5)
    columns: Columns = ("XO", "OX", "", "", "X")
    assert as_state(columns, game) == ConnectFour.from_moves("12215", 4, 5)


@pytest.mark.parametrize(
    ("rows", "cols", "discs", "plies", "positions", "distinct_scores"),
    [(4, 4, 4, 4, 162, 5), (5, 4, 8, 4, 200, 7), (4, 5, 8, 4, 300, 7), (5, 5, 12, 4, 231, 11)],
)
def test_agrees_with_minimax_on_small_boards(
    rows: int, cols: int, discs: int, plies: int, positions: int, distinct_scores: int
) -> None:
    game = ConnectFour(rows, cols)
    reference = minimax_scorer(rows, cols)
    solver = Solver(game, table_bits=12)
    opening = random_opening(rows, cols, discs, random.Random(rows * 100 + cols * 10 + discs))
    checked = unfinished_positions(rows, cols, opening, plies)
    scores = set()
    for columns in checked:
        state = as_state(columns, game)
        expected = reference(columns)
        assert solver.solve(state) == expected, game.render(state)
        assert solver.solve(state, weak=True) == (expected > 0) - (expected < 0)
        scores.add(expected)
    # Many positions, and not only draws: the k-aware magnitudes are really checked.
    assert (len(checked), len(scores)) == (positions, distinct_scores)


# -- whole small boards ---------------------------------------------------------------


# Win, draw or loss agree with John Tromp's published table of small boards: 4 rows by
# 6 columns is a second-player win, the others here are draws.
@pytest.mark.parametrize(
    ("rows", "cols", "score", "nodes"),
    [
        (4, 4, 0, 6_977),
        (4, 5, 0, 44_315),
        (5, 4, 0, 24_048),
        pytest.param(6, 4, 0, 200_895, marks=pytest.mark.slow),
        pytest.param(4, 6, -1, 334_980, marks=pytest.mark.slow),
        pytest.param(5, 5, 0, 507_409, marks=pytest.mark.slow),
    ],
)
def test_empty_small_boards(rows: int, cols: int, score: int, nodes: int) -> None:
    solver = Solver(ConnectFour(rows, cols))
    assert solver.solve((0, 0)) == score
    assert solver.nodes == nodes


def test_empty_4x6_board_is_lost_with_the_last_disc() -> None:
    # -1: the second player wins, but only with the 24th and last disc of the board.
    game = ConnectFour(4, 6)
    assert score_to_moves(-1, 0, game) == 12


# -- analyze --------------------------------------------------------------------------


def test_analyze_matches_solve_and_marks_full_columns() -> None:
    # A Test_L3_R1 line with score 5; columns 2, 6 and 7 are full.
    state = ConnectFour.from_moves("2762751722231276466633475674533")
    scores = STANDARD.analyze(state)
    assert scores == [-5, None, -4, 5, 4, None, None]
    assert max(s for s in scores if s is not None) == STANDARD.solve(state) == 5
    for col, score in enumerate(scores):
        if score is not None:
            assert score == -STANDARD.solve(ConnectFour().play(state, col))


def test_analyze_on_benchmark_lines() -> None:
    for moves, expected in benchmark_lines("L3_R1", 10, seed=5):
        scores = STANDARD.analyze(ConnectFour.from_moves(moves))
        assert max(s for s in scores if s is not None) == expected
        weak = STANDARD.analyze(ConnectFour.from_moves(moves), weak=True)
        assert weak == [None if s is None else (s > 0) - (s < 0) for s in scores]


def test_analyze_scores_an_immediate_win() -> None:
    # O (to move, 35 discs down) wins at once in column 5 with its 18th disc: 22 - 18.
    state = ConnectFour.from_moves("74223417356477411661335734732425665")
    assert STANDARD.analyze(state) == [1, 1, None, None, 4, 3, None]
    assert STANDARD.solve(state) == 4
    assert score_to_moves(4, 35) == 1
    assert STANDARD.analyze(state, weak=True) == [1, 1, None, None, 1, 1, None]
    # X wins at once in column 1 with its 4th disc: 22 - 4.
    assert STANDARD.solve(ConnectFour.from_moves("121212")) == 18
    assert score_to_moves(18, 6) == 1


# -- the score --------------------------------------------------------------------------


def test_score_to_moves() -> None:
    assert score_to_moves(18, 0) == 4  # the first player wins with its 4th disc
    assert score_to_moves(-18, 1) == 3  # after X's first disc, X wins with 3 more
    assert score_to_moves(1, 41) == 1  # the last disc of the board wins
    assert score_to_moves(-1, 40) == 1
    odd = ConnectFour(5, 5)
    assert score_to_moves(1, 24, odd) == 1  # X's 13th disc, the 25th of the board
    with pytest.raises(GameError):
        score_to_moves(0, 3)
    with pytest.raises(GameError):
        score_to_moves(21, 10)  # too late to win that fast
    with pytest.raises(GameError):
        score_to_moves(3, 42)


def test_threat_cells() -> None:
    state = ConnectFour.from_moves("1212122")  # X: 1,1,1 and 2; O: 2,2
    first, second = state
    mask = first | second
    cells = threat_cells(first, mask, 6, 7)
    # X wins on top of column 1 (bit 3).
    assert cells == 1 << 3
    assert threat_cells(second, mask, 6, 7) == 0
    with pytest.raises(GameError):
        threat_cells(first, mask, 3, 7)


# -- errors and deadlines --------------------------------------------------------------


def test_bad_input() -> None:
    with pytest.raises(GameError):
        STANDARD.solve(ConnectFour.from_moves("1212121"))  # X has won
    with pytest.raises(GameError):
        STANDARD.analyze(ConnectFour.from_moves("1212121"))
    with pytest.raises(GameError):
        STANDARD.solve((1, 1))  # one cell, both players
    with pytest.raises(GameError):
        STANDARD.solve((2, 0))  # a floating disc
    with pytest.raises(GameError):
        Solver(ConnectFour(), table_bits=4)
    with pytest.raises(GameError):
        Solver("connect four")  # type: ignore[arg-type]
    with pytest.raises(GameError):
        STANDARD.solve(ConnectFour.from_moves("4"), deadline="soon")  # type: ignore[arg-type]
    with pytest.raises(GameError):
        STANDARD.analyze(ConnectFour.from_moves("4"), weak=1)  # type: ignore[arg-type]
    with pytest.raises(GameError):
        Solver(ConnectFour(4, 4)).solve(ConnectFour.from_moves("4"))  # a disc off that board


def test_deadline_in_the_past() -> None:
    with pytest.raises(SearchTimeout):
        STANDARD.solve(ConnectFour.from_moves("4"), deadline=time.perf_counter() - 1)
    with pytest.raises(SearchTimeout):
        STANDARD.analyze(ConnectFour.from_moves("4"), deadline=time.perf_counter() - 1)


def test_deadline_during_a_search_leaves_a_usable_solver() -> None:
    solver = Solver()
    with pytest.raises(SearchTimeout):
        # The empty board needs far more than 50 ms of pure-Python search.
        solver.solve((0, 0), deadline=time.perf_counter() + 0.05)
    moves, expected = benchmark_lines("L2_R1", 1, seed=3)[0]
    assert solver.solve(ConnectFour.from_moves(moves)) == expected


def test_one_solver_shared_by_threads() -> None:
    solver = Solver()
    lines = benchmark_lines("L2_R1", 16, seed=12)
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        scores = list(pool.map(lambda line: solver.solve(ConnectFour.from_moves(line[0])), lines))
    assert scores == [expected for _, expected in lines]


# -- the table and the counters -----------------------------------------------------


def test_small_table_is_still_exact_and_stays_small() -> None:
    solver = Solver(table_bits=10)
    for moves, expected in benchmark_lines("L2_R1", 10, seed=99):
        assert solver.solve(ConnectFour.from_moves(moves)) == expected
        # 2**10 entries, plus what one search stores between two checks.
        assert 0 < solver.table_size <= 2**10 + 2 * 4096
    # Many short searches, none reaching the periodic check, are kept within bounds too.
    for moves, expected in benchmark_lines("L3_R1", 200, seed=8):
        assert solver.solve(ConnectFour.from_moves(moves)) == expected
        assert solver.table_size <= 2**10 + 2 * 4096
    solver.reset()
    assert solver.table_size == 0


def test_node_counts_are_pinned() -> None:
    # Exact counts from an empty table: a change of the algorithm (ordering, pruning,
    # table use) shows up here even when the scores stay right.
    solver = Solver()
    assert solver.solve(ConnectFour.from_moves("52677675164321472411331752454")) == 0
    first = solver.nodes
    solver.reset()
    assert solver.solve(ConnectFour.from_moves("6614446666373154")) == -4
    second = solver.nodes
    assert (first, second) == (647, 16723)
    assert solver.stats.calls == first + second
    # Solving again with the table filled costs far less.
    assert solver.solve(ConnectFour.from_moves("6614446666373154")) == -4
    assert solver.nodes < second // 10


def test_a_big_search_runs_in_a_frame_stack_chunk_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # _in_own_chunk's frame is bigger than a 16 KB chunk of CPython's frame stack (2,048
    # words), so each call starts a chunk of its own; the search goes through it
    # unchanged: the same score and node count with it from the first search or never.
    assert solver_module._in_own_chunk.__code__.co_stacksize > SEARCH_STACK > 2048
    state = ConnectFour.from_moves("6614446666373154")
    counts = []
    for after in (0, 10**9):
        monkeypatch.setattr(solver_module, "OWN_CHUNK_AFTER", after)
        solver = Solver()
        assert solver.solve(state) == -4
        counts.append(solver.nodes)
    assert counts == [16723, 16723]
