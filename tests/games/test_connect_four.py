"""Connect Four's rules, checked against two independent implementations and exact counts.

The independent implementations are :class:`Reference` below (a plain list of
columns, the way one would first write the game) and OpenSpiel's ``connect_four``.
The counts of distinct positions per ply are OEIS A212693; the 161,029 positions of
the 4x4 board are from John Tromp's table of Connect Four position counts.
"""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import reachable

import gamelib.connect4
from gamelib.games import ConnectFour, connect_four

GAME = ConnectFour()
# The benchmark sets ship with gamelib (gamelib.connect4.benchmark_positions reads them).
DATA = Path(gamelib.connect4.__file__).parent / "data"

Key = tuple[tuple[str, ...], ...]
"""A position as the columns' marks from the bottom up, e.g. ``(("X", "O"), (), ...)``."""


class Reference:
    """Connect Four the plain way: a list of columns, each a list of marks from the bottom."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.columns: list[list[str]] = [[] for _ in range(cols)]
        self.winner: str | None = None

    def key(self) -> Key:
        return tuple(tuple(column) for column in self.columns)

    def discs(self) -> int:
        return sum(len(column) for column in self.columns)

    def over(self) -> bool:
        return self.winner is not None or self.discs() == self.rows * self.cols

    def legal(self) -> list[int]:
        if self.over():
            return []
        return [c for c in range(self.cols) if len(self.columns[c]) < self.rows]

    def drop(self, col: int) -> None:
        discs = self.discs()
        if self.winner is not None or not 0 <= col < self.cols:
            raise ValueError(f"no drop into column {col} here")
        if len(self.columns[col]) == self.rows:
            raise ValueError(f"column {col} is full")
        mark = "XO"[discs % 2]
        self.columns[col].append(mark)
        if self.four_through(len(self.columns[col]) - 1, col, mark):
            self.winner = mark

    def mark(self, row: int, col: int) -> str | None:
        if 0 <= col < self.cols and 0 <= row < len(self.columns[col]):
            return self.columns[col][row]
        return None

    def four_through(self, row: int, col: int, mark: str) -> bool:
        """Does the disc at (row, col) lie on a line of four or more of ``mark``?"""
        for d_row, d_col in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * d_row, col + sign * d_col
                while self.mark(r, c) == mark:
                    run += 1
                    r, c = r + sign * d_row, c + sign * d_col
            if run >= 4:
                return True
        return False

    def copy(self) -> Reference:
        twin = Reference(self.rows, self.cols)
        twin.columns = [list(column) for column in self.columns]
        twin.winner = self.winner
        return twin


def key_of(game: ConnectFour, state: tuple[int, int]) -> Key:
    """The columns of a gamelib state, read from the bit layout the module documents."""
    first, second = state
    columns = []
    for col in range(game.cols):
        column = []
        for row in range(game.rows):
            bit = 1 << (col * (game.rows + 1) + row)
            if first & bit:
                column.append("X")
            elif second & bit:
                column.append("O")
        columns.append(tuple(column))
    return tuple(columns)


# -- exact counts ------------------------------------------------------------------

POSITIONS_PER_PLY = [7, 49, 238, 1120, 4263, 16422, 54859, 184275]
MOVE_SEQUENCES_PER_PLY = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]
FINISHED_PER_PLY = [0, 0, 0, 0, 0, 0, 728, 1892]


@pytest.mark.slow
def test_positions_per_ply_match_the_reference() -> None:
    """Plies 1 to 6 enumerated with both implementations give the same sets."""
    reference_layer = {Reference(6, 7).key(): Reference(6, 7)}
    layer = {GAME.start}
    for ply in range(1, 7):
        following: dict[Key, Reference] = {}
        for board in reference_layer.values():
            for col in board.legal():
                child = board.copy()
                child.drop(col)
                following[child.key()] = child
        reference_layer = following
        layer = {c for s in layer for c in GAME.next_states(s, GAME.to_move(s))}
        assert len(reference_layer) == len(layer) == POSITIONS_PER_PLY[ply - 1]
        assert {key_of(GAME, s) for s in layer} == set(reference_layer)


def test_positions_move_sequences_and_finished_positions_per_ply() -> None:
    """Plies 1 to 8 (the figures for 7 and 8 were checked once with Reference, in ~15 s).

    A move sequence of 7 plies can only be cut short by a full column: 7**7 - 7.
    """
    paths = {GAME.start: 1}
    positions, sequences, finished = [], [], []
    for _ply in range(8):
        following: dict[tuple[int, int], int] = {}
        for state, count in paths.items():
            for child in GAME.next_states(state, GAME.to_move(state)):
                following[child] = following.get(child, 0) + count
        paths = following
        positions.append(len(paths))
        sequences.append(sum(paths.values()))
        finished.append(sum(map(GAME.finished, paths)))
    assert positions == POSITIONS_PER_PLY
    assert sequences == MOVE_SEQUENCES_PER_PLY
    assert sequences[6] == 7**7 - 7
    assert finished == FINISHED_PER_PLY


def test_every_position_of_the_4x4_board() -> None:
    assert len(reachable(ConnectFour(4, 4))) == 161_029


# -- the rules against the reference, on every shape ---------------------------------

SHAPES = [(4, 4), (4, 5), (5, 4), (6, 7), (7, 6), (4, 10), (10, 4), (10, 10)]


@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_random_games_agree_with_the_reference(rows: int, cols: int) -> None:
    game = ConnectFour(rows, cols)
    rng = random.Random(rows * 100 + cols)
    outcomes = set()
    for _ in range(150):
        state, board = game.start, Reference(rows, cols)
        while True:
            assert key_of(game, state) == board.key()
            assert game.moves(state) == board.legal()
            assert game.finished(state) == board.over()
            assert game.to_move(state) == "XO"[board.discs() % 2]
            if board.over():
                break
            col = rng.choice(board.legal())
            state = game.play(state, col)
            board.drop(col)
        result = game.utility(state, "X")
        assert result == {"X": 1, "O": -1, None: 0}[board.winner]
        outcomes.add(result)
    assert {1, -1} <= outcomes


# -- the rules against OpenSpiel -----------------------------------------------------

@pytest.fixture(scope="module")
def spiel_game() -> Any:
    """OpenSpiel's Connect Four (a test-only dependency)."""
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("connect_four")


def openspiel_columns(spiel_state: Any) -> Key:
    """OpenSpiel's board as columns from the bottom up.

    Its observation string has one line per row, the top row first, one character per
    column from the left: 'x' for the first player, 'o' for the second, '.' empty.
    """
    lines = str(spiel_state.observation_string(0)).split()
    assert len(lines) == 6 and all(len(line) == 7 for line in lines)
    columns = []
    for col in range(7):
        column = []
        for line in reversed(lines):
            if line[col] == ".":
                break
            column.append(line[col].upper())
        columns.append(tuple(column))
    return tuple(columns)


def test_openspiel_numbering_and_orientation(spiel_game: Any) -> None:
    """Action c drops into column c from the left; the bottom row is printed last."""
    state = spiel_game.new_initial_state()
    assert state.legal_actions() == list(range(7))
    for action in (0, 0, 6):
        state.apply_action(action)
    assert str(state.observation_string(0)).split() == [
        ".......",
        ".......",
        ".......",
        ".......",
        "o......",
        "x.....x",
    ]
    assert openspiel_columns(state) == key_of(GAME, ConnectFour.from_moves("117"))


def test_random_games_agree_with_openspiel(spiel_game: Any) -> None:
    rng = random.Random(2024)
    outcomes = {1: 0, -1: 0, 0: 0}
    for _ in range(1000):
        spiel_state = spiel_game.new_initial_state()
        state = GAME.start
        while True:
            assert GAME.finished(state) == spiel_state.is_terminal()
            if spiel_state.is_terminal():
                break
            assert GAME.moves(state) == spiel_state.legal_actions()
            assert GAME.players.index(GAME.to_move(state)) == spiel_state.current_player()
            action = rng.choice(spiel_state.legal_actions())
            spiel_state.apply_action(action)
            state = GAME.play(state, action)
        assert openspiel_columns(spiel_state) == key_of(GAME, state)
        returns = spiel_state.returns()
        assert [GAME.utility(state, p) for p in GAME.players] == returns
        outcomes[GAME.utility(state, "X")] += 1
    # Random play: the first player wins more often than the second; draws are rare.
    assert outcomes[1] > outcomes[-1] > outcomes[0]
    assert sum(outcomes.values()) == 1000


# -- the benchmark positions ---------------------------------------------------------

BENCHMARKS = {
    # file: (lines, fewest moves played, most moves played)
    "Test_L1_R1": (1000, 4, 14),
    "Test_L1_R2": (1000, 4, 14),
    "Test_L1_R3": (1000, 1, 13),
    "Test_L2_R1": (1000, 15, 28),
    "Test_L2_R2": (1000, 15, 27),
    "Test_L3_R1": (1000, 29, 41),
}


def wins_at_once(state: tuple[int, int]) -> bool:
    """Can the player to move win with one disc?"""
    player = GAME.to_move(state)
    return any(
        GAME.finished(child) and GAME.utility(child, player) == 1
        for child in GAME.next_states(state, player)
    )


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_positions_replay(name: str) -> None:
    """Every line is ``MOVES SCORE``; the moves replay and leave the game open.

    ``from_moves`` refuses moves after the end, so no prefix ended the game either.
    The score is ``22 - k`` for a win with the winner's k-th disc (negative for a
    loss), so it is bounded by how many discs each side has left. None of the
    positions offers an immediate win, which the scores confirm: none has the
    largest score possible, the one for a win with the next disc.
    """
    lines = (DATA / name).read_text().splitlines()
    lengths = []
    for line in lines:
        assert re.fullmatch(r"[1-7]+ -?[0-9]+", line), line
        moves, score_text = line.split()
        score, n = int(score_text), len(moves)
        state = ConnectFour.from_moves(moves)
        assert not GAME.finished(state)
        assert sum(column.count("X") for column in key_of(GAME, state)) == (n + 1) // 2
        mover_discs, opponent_discs = n // 2, n - n // 2
        assert -(21 - opponent_discs) <= score <= 21 - mover_discs
        assert score < 21 - mover_discs
        assert not wins_at_once(state)
        lengths.append(n)
    assert (len(lines), min(lengths), max(lengths)) == BENCHMARKS[name]


# -- the bitboard, as the module docstring draws it -------------------------------------


def test_the_docstring_picture_is_the_bit_layout() -> None:
    """Parse the table of bit numbers in the module docstring and check it cell by cell."""
    doc = inspect.getdoc(connect_four) or ""
    table = {}
    for line in doc.splitlines():
        match = re.fullmatch(r"\s*(guard|row (\d))((?:\s+\d+){7})", line)
        if match:
            row = 6 if match.group(1) == "guard" else int(match.group(2))
            table[row] = [int(n) for n in match.group(3).split()]
    assert sorted(table) == list(range(7))
    for col in range(7):
        state = GAME.start
        for row in range(6):
            before = state[0] | state[1]
            state = GAME.play(state, col)
            assert (state[0] | state[1]) - before == 1 << table[row][col]
            assert table[row][col] == col * 7 + row
        # The guard bit above a full column stays clear.
        assert not (state[0] | state[1]) >> table[6][col] & 1
    assert GAME.full == sum(1 << n for row in range(6) for n in table[row])


def test_step_sizes_of_the_four_directions() -> None:
    assert GAME.directions == (1, 7, 6, 8)
    # Up, right, down-right and up-right from (row 2, column 3), bit 23.
    for d, (row, col) in zip(GAME.directions, [(3, 3), (2, 4), (1, 4), (3, 4)], strict=True):
        assert 23 + d == col * 7 + row


FOURS = {
    "vertical": ("4545454", [(0, 3), (1, 3), (2, 3), (3, 3)]),
    "horizontal": ("1122334", [(0, 0), (0, 1), (0, 2), (0, 3)]),
    "up-right": ("12234334744", [(0, 0), (1, 1), (2, 2), (3, 3)]),
    "down-right": ("76654554144", [(0, 6), (1, 5), (2, 4), (3, 3)]),
}


@pytest.mark.parametrize("kind", FOURS)
def test_each_direction_of_four_in_a_row(kind: str) -> None:
    moves, cells = FOURS[kind]
    state = ConnectFour.from_moves(moves)
    winner = GAME.players[(len(moves) - 1) % 2]
    assert GAME.finished(state)
    assert GAME.utility(state, winner) == 1
    assert GAME.winning_cells(state) == sorted(cells)
    assert all(GAME.cell(state, row, col) == winner for row, col in cells)
    # One disc fewer and the game is still on.
    assert not GAME.finished(ConnectFour.from_moves(moves[:-1]))


# Three in a line at the edge of the board, and a fourth disc of the same colour just
# where a bitboard without guard bits (``rows`` bits per column) would continue the line.
WRAPS = {
    "up, over the top": (
        "X . . . . . .\n"
        "X . . . . . .\n"
        "X . . . . . .\n"
        "O . . . . . .\n"
        "X . . . . . .\n"
        "O X O O . . .\n"
    ),
    "up-right, over the top": (
        ". . X . . . .\n"
        ". X O . . . .\n"
        "X O X . . . .\n"
        "O X O . . . .\n"
        "X O X . . . .\n"
        "O X O O X O .\n"
    ),
    "down-right, under the bottom": (
        ". . X . . . .\n"
        ". . O . . . .\n"
        ". . X . . . .\n"
        "X . O . . . .\n"
        "O X O . . . .\n"
        "O O X . X X .\n"
    ),
}


def four_without_guard_bits(discs: list[tuple[int, int]], rows: int) -> bool:
    """``has_four`` on a layout with no guard bit: cell (row, col) is bit col * rows + row."""
    board = sum(1 << (col * rows + row) for row, col in discs)
    for d in (1, rows, rows - 1, rows + 1):
        pairs = board & (board >> d)
        if pairs & (pairs >> (2 * d)):
            return True
    return False


@pytest.mark.parametrize("kind", WRAPS)
def test_lines_do_not_wrap_between_columns(kind: str) -> None:
    state = GAME.from_text(WRAPS[kind])
    x_discs = [(r, c) for r in range(6) for c in range(7) if GAME.cell(state, r, c) == "X"]
    assert four_without_guard_bits(x_discs, rows=6)  # the trap is real...
    assert not GAME.has_four(state[0]) and not GAME.has_four(state[1])  # ...and avoided
    assert not GAME.finished(state)
    assert GAME.winning_cells(state) == []
    board = Reference(6, 7)
    board.columns = [list(column) for column in key_of(GAME, state)]
    assert not any(
        board.four_through(row, col, mark)
        for col, column in enumerate(board.columns)
        for row, mark in enumerate(column)
    )


def test_ten_columns_in_the_notation() -> None:
    game = ConnectFour(4, 10)
    assert game.format_move(9) == "10"
    assert game.parse_move("10") == 9
    assert game.render(game.play(game.start, 9)).splitlines()[-2:] == [
        ". . . . . . . . . X",
        "1 2 3 4 5 6 7 8 9 0",
    ]


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 10), (10, 4), (6, 7), (10, 10)])
def test_finished_tests_both_players_as_has_four_does(rows: int, cols: int) -> None:
    """``finished`` tests both bitboards at once (side by side in one int): on random
    cell sets, reachable or not, it agrees with ``has_four`` of each and the full board."""
    game = ConnectFour(rows, cols)
    rng = random.Random(rows * 100 + cols)
    cells = [1 << (c * game.height + r) for c in range(cols) for r in range(rows)]
    fours = 0
    for _ in range(300):
        first = second = 0
        for bit in cells:
            roll = rng.random()
            if roll < 0.3:
                first |= bit
            elif roll < 0.6:
                second |= bit
        for state in [(first, second), (second, first), (first, 0), (0, second),
                      (first | second, 0), (game.full, 0)]:
            expected = (game.has_four(state[0]) or game.has_four(state[1])
                        or (state[0] | state[1]) == game.full)
            assert game.finished(state) == expected
            fours += expected
    assert 0 < fours < 1800     # both outcomes occur


def test_moves_and_play_ask_a_subclass_s_own_finished() -> None:
    """``moves`` and ``play`` skip the check of a state ``finished`` just found running,
    unless a subclass has its own ``finished`` (here: over after two discs), which they
    then ask every time, even after the subclass's ``finished`` called the base one."""

    class Short(ConnectFour):
        def finished(self, state: Any) -> bool:
            return super().finished(state) or (state[0] | state[1]).bit_count() >= 2

    game, plain = Short(), ConnectFour()
    state = ConnectFour.from_moves("44")
    assert game.finished(state) and game.moves(state) == []
    with pytest.raises(connect_four.IllegalMoveError, match="the game is over"):
        game.play(state, 0)
    assert not plain.finished(state) and plain.moves(state) == list(range(7))
    assert plain.play(state, 0) == (state[0] | 1, state[1])
