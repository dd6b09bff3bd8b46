"""gamelib.connect4.bitboard: threats and fours, the position triple, and the validation of
states by every public function of the Connect Four package.

Threats and fours are checked against a brute force over rows and columns on boards of
several sizes, with discs at every edge.
"""

from __future__ import annotations

import functools
import inspect
import random
import textwrap
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.connect4 import benchmark_positions
from gamelib.connect4.bitboard import geometry, position_of, threat_cells
from gamelib.connect4.player import connect_four_move, connect_four_move_values
from gamelib.connect4.solver import Solver
from gamelib.game import GameError
from gamelib.games import ConnectFour

SIZES = [(4, 4), (6, 7), (4, 10), (10, 4), (5, 9), (10, 10)]
DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]  # (drow, dcol): up, across, two diagonals


def bit(game: ConnectFour, row: int, col: int) -> int:
    return 1 << (col * game.height + row)


def lines_of_four(game: ConnectFour) -> list[list[tuple[int, int]]]:
    """Every line of four cells on the board, as (row, col) cells."""
    lines = []
    for row in range(game.rows):
        for col in range(game.cols):
            for dr, dc in DIRECTIONS:
                cells = [(row + k * dr, col + k * dc) for k in range(4)]
                if all(0 <= r < game.rows and 0 <= c < game.cols for r, c in cells):
                    lines.append(cells)
    return lines


def random_discs(game: ConnectFour, rng: random.Random, density: float) -> tuple[int, int]:
    """Two disjoint bitboards with discs anywhere (threats need no gravity)."""
    mine = theirs = 0
    for row in range(game.rows):
        for col in range(game.cols):
            roll = rng.random()
            if roll < density:
                mine |= bit(game, row, col)
            elif roll < 2 * density:
                theirs |= bit(game, row, col)
    return mine, theirs


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_threats_are_the_empty_cells_that_complete_a_line(size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    lines = lines_of_four(game)
    rng = random.Random(size[0] * 100 + size[1])
    edges_seen = set()
    for density in (0.2, 0.35, 0.5):
        for _ in range(40):
            mine, theirs = random_discs(game, rng, density)
            mask = mine | theirs
            expected = 0
            for line in lines:
                owned = [bit(game, r, c) & mine for r, c in line]
                empty = [(r, c) for r, c in line if not bit(game, r, c) & mask]
                vertical = line[0][1] == line[1][1]
                # Vertically only the cell on top of three counts: below an empty cell
                # there are never discs in a game.
                three = sum(map(bool, owned)) == 3 and len(empty) == 1
                if three and (not vertical or empty[0] == line[3]):
                    expected |= bit(game, *empty[0])
            found = threat_cells(mine, mask, *size)
            assert found == expected
            assert geometry(game).threat_cells(mine, mask) == expected
            for row, col in [(r, c) for r in range(game.rows) for c in range(game.cols)]:
                if found & bit(game, row, col):
                    edges_seen.add((row in (0, game.rows - 1), col in (0, game.cols - 1)))
    assert edges_seen == {(True, True), (True, False), (False, True), (False, False)}


def solver_threats(solver: Solver) -> Callable[[int], int]:
    """The threat computation that the solver's negamax writes out in its step 4, run on
    its own: the lines from the comment ``# lanes = threats(p), written out`` to ``# (end
    of threats)`` of the source, with negamax's own shift distances (its closure)."""
    negamax = solver._kernel.negamax
    source = inspect.getsource(negamax)
    start = source.rindex("\n", 0, source.index("# lanes = threats(p), written out")) + 1
    block = textwrap.dedent(source[start : source.index("# (end of threats)")])
    assert block.count("\n") >= 10  # the whole computation, not an empty slice
    closure = negamax.__closure__ or ()
    shifts = {
        name: cell.cell_contents
        for name, cell in zip(negamax.__code__.co_freevars, closure, strict=True)
        if name[0] in "hdu" and name[1:] in ("1", "2", "3")
    }
    assert len(shifts) == 9
    code = compile(block, "the threats in negamax", "exec")

    def threats(p: int) -> int:
        scope = {**shifts, "p": p}
        exec(code, {}, scope)
        return int(scope["lanes"])

    return threats


SOLVERS = {size: Solver(ConnectFour(*size), table_bits=10) for size in SIZES}


@functools.cache
def threats_of(size: tuple[int, int]) -> Callable[[int], int]:
    """:func:`solver_threats` of ``SOLVERS[size]``, read from the source and compiled once
    per size (a pure function of an int; the examples below only call it)."""
    return solver_threats(SOLVERS[size])


@settings(max_examples=300, deadline=None)
@given(size=st.sampled_from(SIZES), p=st.integers(min_value=0, max_value=2**800))
def test_solver_threats_are_bitboard_threats(size: tuple[int, int], p: int) -> None:
    # Any int: a board, or several boards side by side in lanes as negamax builds them.
    solver = SOLVERS[size]
    assert threats_of(size)(p) == geometry(solver.game).threats(p)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_solver_threats_of_lanes_are_the_threats_of_each_board(size: tuple[int, int]) -> None:
    # The boards after each move, in lanes as negamax lays them out (its own spread,
    # diagonal and lane shifts, from its closure): lane c of the written-out computation
    # is the threats of the board in lane c, on every board size. The lanes are one
    # board and one empty column wide, so a four across two lanes crosses an empty cell.
    game = ConnectFour(*size)
    grid = geometry(game)
    solver = SOLVERS[size]
    threats = threats_of(size)
    negamax = solver._kernel.negamax
    closure = [cell.cell_contents for cell in negamax.__closure__ or ()]
    layout = dict(zip(negamax.__code__.co_freevars, closure, strict=True))
    spread, diagonal, numbered = layout["spread"], layout["diagonal"], layout["numbered"]
    rng = random.Random(size[0] * 100 + size[1])
    positions = [ConnectFour.from_moves(moves) for moves, _ in benchmark_positions("L2_R1")[:20]]
    for _ in range(100):
        mine, theirs = random_discs(game, rng, rng.choice((0.2, 0.35, 0.5)))
        positions.append((mine, theirs))  # no gravity: threats need none
    seen = 0
    for state in positions if size == (6, 7) else positions[20:]:
        cur, mask = state[0], state[0] | state[1]
        candidates = (mask + game.bottom) & game.full
        lanes = threats(cur * spread | ((candidates * spread) & diagonal))
        for column, _, lane in numbered:
            disc = candidates & column
            if disc:
                expected = grid.threats(cur | disc) & game.full
                assert (lanes >> lane) & game.full == expected
                seen += bool(expected)
    assert seen > 50


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_winning_cells_are_the_cells_of_finished_fours(size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    lines = lines_of_four(game)
    # Every line of four on the board, alone, corners and edges included.
    for line in lines:
        discs = sum(bit(game, r, c) for r, c in line)
        assert game.winning_cells((discs, 0)) == sorted(line)
        assert game.winning_cells((0, discs)) == sorted(line)
    rng = random.Random(7)
    for _ in range(60):
        state = random_discs(game, rng, 0.4)
        expected = {
            cell
            for discs in state
            for line in lines
            if all(bit(game, *cell) & discs for cell in line)
            for cell in line
        }
        assert game.winning_cells(state) == sorted(expected)


BAD_STATES = [
    (-1, 0),
    (0, -5),
    (0,),
    (0, 0, 0),
    [0, 0],
    (True, 0),
    (0.0, 0),
    (1 << 6, 0),  # the guard bit above column 1
    (1 << 49, 0),  # beyond the board
    (10**400, 0),
    (1, 1),  # one cell, both players
    "4453",
    None,
]


@pytest.mark.parametrize("state", BAD_STATES, ids=repr)
def test_every_public_function_refuses_a_bad_state_at_once(state: object) -> None:
    game = ConnectFour()
    calls = [
        lambda: game.winning_cells(state),  # type: ignore[arg-type]
        lambda: game.winning_cells(state),  # type: ignore[arg-type]
        lambda: game.cell(state, 0, 0),  # type: ignore[arg-type]
        lambda: game.column_height(state, 0),  # type: ignore[arg-type]
        lambda: game.finished(state),  # type: ignore[arg-type]
        lambda: game.to_move(state),  # type: ignore[arg-type]
        lambda: game.moves(state),  # type: ignore[arg-type]
        lambda: game.next_states(state, "X"),  # type: ignore[arg-type]
        lambda: game.play(state, 0),  # type: ignore[arg-type]
        lambda: game.render(state),  # type: ignore[arg-type]
        lambda: game.validate(state),
        lambda: Solver(game, table_bits=10).solve(state),  # type: ignore[arg-type]
        lambda: connect_four_move(game, state, depth=1),  # type: ignore[arg-type]
        lambda: connect_four_move_values(game, state, depth=1),  # type: ignore[arg-type]
    ]
    for call in calls:
        started = time.perf_counter()
        with pytest.raises(GameError) as caught:
            call()
        assert time.perf_counter() - started < 5  # it used to loop forever
        assert "state" in str(caught.value) or "disc" in str(caught.value)


def test_position_is_the_lesson_8_triple() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("4453")
    position = position_of(game, state)
    assert position == (state[0], state[0] | state[1], 4)  # X to move
    assert position.state() == state
    after = position.play(game.bottom_masks[0])
    assert after.state() == game.play(state, 0)
    with pytest.raises(GameError):
        position_of(game, (-1, 0))


@pytest.mark.parametrize(
    "state", [(1, 1), (0, 1), (2, 0), (True, 0), [0, 0], (0, 0, 0), "ab", None]
)
def test_the_one_position_door_refuses_what_is_not_a_position(state: object) -> None:
    """The solver and the player both come in through position_of, with one message each."""
    game = ConnectFour()
    with pytest.raises(GameError) as caught:
        position_of(game, state)
    for call in (Solver(game, table_bits=10).solve, lambda s: connect_four_move(game, s, depth=1)):
        with pytest.raises(GameError) as again:
            call(state)  # type: ignore[arg-type]
        assert str(again.value) == str(caught.value)
