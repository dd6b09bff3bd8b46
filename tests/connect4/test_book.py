"""The opening book (gamelib.connect4.book) and the solver that reads it.

The facts of the book's docstring are checked here against the package's own reader and
against gamelib's exact solver without the book, on seeded samples kept small for the
suite (benchmarks/connect_four_book.py runs a larger one).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterator

import pytest

from gamelib.connect4 import benchmark_positions
from gamelib.connect4 import book as book_module
from gamelib.connect4.bitboard import geometry
from gamelib.connect4.book import _MIRRORED, BOOK_DISCS, Book, book_key, opening_book
from gamelib.connect4.solver import Solver
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import Budget, SearchTimeout

bitbully_databases = pytest.importorskip("bitbully_databases")

GAME = ConnectFour()


@pytest.fixture(scope="module")
def book() -> Book:
    loaded = opening_book()
    assert loaded is not None, "bitbully-databases is installed, so the book must load"
    return loaded


def random_moves(rng: random.Random, discs: int, game: ConnectFour = GAME) -> str:
    """A random game of ``discs`` discs in which nobody has four yet."""
    columns = "123456789"[: game.cols]
    while True:
        moves = ""
        for _ in range(discs):
            moves += rng.choice([c for c in columns if moves.count(c) < game.rows])
            if game.finished(ConnectFour.from_moves(moves, game.rows, game.cols)):
                break
        else:
            return moves


def table_key(state: C4State) -> int:
    first, second = state
    return first + (first | second)


def package_board(state: C4State) -> list[list[int]]:
    """The package's board: rows top to bottom, 1 for X, 2 for O, 0 empty."""
    first, second = state
    board = [[0] * 7 for _ in range(6)]
    for col in range(7):
        for row in range(6):
            bit = 1 << (col * 7 + row)
            board[5 - row][col] = 1 if first & bit else 2 if second & bit else 0
    return board


def mirror(moves: str) -> str:
    return "".join(str(8 - int(c)) for c in moves)


def samples(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield random_moves(rng, BOOK_DISCS)


def test_keys_and_values_are_those_of_the_packages_reader(book: Book) -> None:
    reader = bitbully_databases.BitBullyDatabases
    for moves in samples(1, 40):
        state = ConnectFour.from_moves(moves)
        board = package_board(state)
        assert book_key(table_key(state)) == reader._to_huffman(board)
        mirrored = reader._to_huffman(reader._mirror_horiz(board))
        assert book_key(table_key(state), _MIRRORED) == mirrored
        expected = reader._get_book_value(board, _ReaderBook(book), with_distances=True)
        assert book.value(table_key(state)) == expected


class _ReaderBook:
    """The book's arrays as the package's reader sees a book: (key, value) by index."""

    def __init__(self, book: Book) -> None:
        self.book = book

    def __len__(self) -> int:
        return len(self.book)

    def __getitem__(self, index: int) -> tuple[int, int]:
        return self.book.keys[index], self.book.values[index]


def test_the_file_is_sorted_and_as_large_as_the_docstring_says(book: Book) -> None:
    assert len(book) == 4_200_899
    assert book.nbytes == 21_004_495
    keys = book.keys
    assert all(keys[i] < keys[i + 1] for i in range(0, len(keys) - 1, 997))


def test_left_out_exactly_when_the_mover_wins_at_once(book: Book) -> None:
    grid = geometry(GAME)
    left_out = threatened = 0
    for moves in samples(2, 300):
        first, second = ConnectFour.from_moves(moves)
        mask = first | second
        wins_now = grid.threats(first) & grid.playable(mask)
        value = book.value(first + mask)
        assert (value is None) == bool(wins_now), moves
        left_out += value is None
        threatened += value is not None and bool(grid.threats(second) & grid.playable(mask))
    assert left_out > 30 and threatened > 10  # both kinds occur in the sample


def test_mirror_images_have_one_value(book: Book) -> None:
    stored_once = 0
    smaller_stored = set()
    for moves in samples(3, 100):
        key, other = table_key(ConnectFour.from_moves(moves)), table_key(
            ConnectFour.from_moves(mirror(moves))
        )
        assert book.value(key) == book.value(other)
        if book.value(key) is not None and key != other:
            # Exactly one orientation is in the file, and not always the smaller key.
            found = [stored(book, book_key(key)), stored(book, book_key(other))]
            assert sorted(found) == [False, True]
            smaller_stored.add(found[0] == (book_key(key) < book_key(other)))
            stored_once += 1
    assert stored_once > 50 and smaller_stored == {True, False}


def stored(book: Book, code: int) -> bool:
    index = bisect_left(book.keys, code)
    return index < len(book) and book.keys[index] == code


def test_book_scores_equal_the_solver_without_the_book(book: Book) -> None:
    """The seeded sample's positions that the solver settles in 5,000 nodes (quick wins
    and losses: draws take longer; benchmarks/connect_four_book.py compares them all)."""
    solver = Solver(table_bits=16, book=False)
    rng = random.Random(33)
    compared = []
    while len(compared) < 12:
        state = ConnectFour.from_moves(random_moves(rng, BOOK_DISCS))
        try:
            score = solver.solve(state, budget=Budget(30, nodes=5000))
        except SearchTimeout:
            continue
        in_book = book.score(table_key(state))
        assert in_book == score or (in_book is None and book.value(table_key(state)) is None)
        compared.append((score, in_book))
    assert sum(in_book is not None for _, in_book in compared) >= 5
    assert {score > 0 for score, _ in compared} == {True, False}


def test_the_solver_answers_the_positions_the_book_leaves_out(book: Book) -> None:
    with_book, without = Solver(table_bits=16), Solver(table_bits=16, book=False)
    found = 0
    for moves in samples(4, 60):
        state = ConnectFour.from_moves(moves)
        if book.value(table_key(state)) is None:
            assert with_book.solve(state) == without.solve(state) == (43 - BOOK_DISCS) // 2
            found += 1
    assert found >= 5


def test_the_empty_board_solved_with_the_book() -> None:
    solver = Solver()
    empty = ConnectFour.from_moves("")
    assert solver.solve(empty) == 1  # the first player wins with its last disc
    assert (solver.nodes, solver.lookups) == (84_038, 36_163)
    # The best move: the centre keeps the win (the opponent's score after it is -1).
    assert solver.solve(ConnectFour.from_moves("4")) == -1
    assert solver.lookups > 0


def test_opening_positions_get_the_benchmark_sets_scores() -> None:
    """A seeded sample of Test_L1_R2 and Test_L1_R3 with at most 12 discs, whose scores
    the files give (each takes the search without the book seconds to minutes)."""
    solver = Solver()
    rng = random.Random(6)
    for name in ("L1_R2", "L1_R3"):
        opening = [(m, s) for m, s in benchmark_positions(name) if len(m) <= BOOK_DISCS]
        for moves, score in rng.sample(opening, 4):
            assert solver.solve(ConnectFour.from_moves(moves)) == score, moves
            assert solver.lookups > 0 or solver.nodes < 10


def test_positions_past_the_book_and_other_boards_are_searched_as_without_it() -> None:
    """The same score, the same nodes, no lookup: a sample of 7 x 6 positions with more
    than 12 discs (Test_L2_R1's) and of positions on other boards."""
    rng = random.Random(5)
    cases = [(GAME, moves) for moves, _ in rng.sample(benchmark_positions("L2_R1"), 3)]
    for rows, cols in ((4, 5), (5, 4), (6, 6), (7, 7)):
        game = ConnectFour(rows, cols)
        cases.append((game, random_moves(rng, rows * cols // 2 - 2, game)))
    compared = 0
    for game, moves in cases:
        state = ConnectFour.from_moves(moves, game.rows, game.cols)
        with_book = Solver(game, table_bits=16)
        without = Solver(game, table_bits=16, book=False)
        try:
            score = without.solve(state, budget=Budget(30, nodes=100_000))
        except SearchTimeout:
            continue
        assert with_book.solve(state) == score
        assert (with_book.nodes, with_book.lookups) == (without.nodes, 0)
        assert with_book.book is None or game is GAME
        compared += 1
    assert compared >= 5


def test_without_the_package_the_solver_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book_module, "_loaded", True)
    monkeypatch.setattr(book_module, "_book", None)
    solver = Solver(table_bits=16)
    assert solver.book is None
    state = ConnectFour.from_moves("32164625")  # 8 discs: the book would answer at 12
    without = Solver(table_bits=16, book=False)
    assert solver.solve(state) == without.solve(state)
    assert solver.lookups == 0 and solver.nodes == without.nodes


def test_a_node_budget_is_met_exactly() -> None:
    solver = Solver(table_bits=16, book=False)
    state = ConnectFour.from_moves("4453")
    for nodes in (1, 100, 5_000):
        with pytest.raises(SearchTimeout):
            solver.solve(state, budget=Budget(30, nodes=nodes))
        assert solver.nodes == nodes


def test_the_strength_menu_says_perfect_opening_only_with_the_book(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gamelib.session import words

    assert words.strength_label(GAME, None, None) == "strong (1 s), perfect opening"
    assert words.strength_label(ConnectFour(5, 6), None, None) == "strong (1 s)"
    monkeypatch.setattr(words, "book_installed", lambda: False)  # as in JupyterLite
    assert words.strength_label(GAME, None, None) == "strong (1 s)"


@pytest.fixture
def book_load_log(monkeypatch: pytest.MonkeyPatch, book: Book) -> list[str]:
    """The book not loaded yet (as in a new kernel); the log says when it is loaded and
    when the Connect Four player makes its budget."""
    from gamelib.connect4 import player

    log: list[str] = []
    monkeypatch.setattr(book_module, "_loaded", False)
    monkeypatch.setattr(book_module, "_load", lambda: log.append("book loaded") or book)

    class LoggedBudget(Budget):
        def __init__(self, *args: object, **kwargs: object) -> None:
            log.append("budget made")
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(player, "Budget", LoggedBudget)
    return log


def test_the_player_loads_the_book_before_its_clock_starts(book_load_log: list[str]) -> None:
    """The first opening move reads 15 MB: not inside the move's time (a Budget(0.2) once
    overshot by a second on a busy machine)."""
    from gamelib.connect4 import connect_four_move

    connect_four_move(GAME, ConnectFour.from_moves("44"), seconds=0.2, rng=random.Random(1))
    assert book_load_log == ["book loaded", "budget made"]


def test_a_player_with_a_depth_never_loads_the_book(book_load_log: list[str]) -> None:
    """A depth means the heuristic search alone: no solver, no book, even to say whether it is
    there (the loading once ran after a cancelled search, past New game's one second)."""
    from gamelib.connect4 import connect_four_move

    connect_four_move(GAME, ConnectFour.from_moves("44"), depth=2, rng=random.Random(1))
    assert book_load_log == ["budget made"]
