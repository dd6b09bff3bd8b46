"""Tic-tac-toe with readable states: a tuple of three rows of ``" "``, ``"X"`` or ``"O"``.

This is the representation a student would write first. It is slower than
:class:`~gamelib.games.TicTacToeBitboard`, but every state prints as what it is.

The helpers at the end of the module name the nine cells with letters, row by row::

    a | b | c
    --+---+--
    d | e | f
    --+---+--
    g | h | i

Unpacking a state into these nine names once, instead of indexing ``state[r][c]`` in
loops, is what keeps :meth:`TicTacToe.next_states` fast enough for a search.
"""

from __future__ import annotations

import re
from typing import Final, TypeGuard

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import Player, check_player, not_a_state, not_finished, state_checked

__all__ = ["TicTacToe", "Board", "Cell", "LINES", "parse_cell", "format_cell"]

Board = tuple[tuple[str, str, str], tuple[str, str, str], tuple[str, str, str]]
"""A state: three rows of three marks, each ``" "``, ``"X"`` or ``"O"``."""

Cell = tuple[int, int]
"""A move: ``(row, col)``, both from 0 to 2, row 0 at the top."""

EMPTY: Final = " "

LINES: Final[tuple[tuple[Cell, Cell, Cell], ...]] = (
    *(((r, 0), (r, 1), (r, 2)) for r in range(3)),
    *(((0, c), (1, c), (2, c)) for c in range(3)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
)
"""The eight lines of three: three rows, three columns and two diagonals."""

_PICTURE: Final = "a board is three rows like 'X| |O' separated by lines '-+-+-'"
_CELL_PATTERN: Final = re.compile(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*")
_NOTATION: Final = "a move is written 'row,col' with row and col from 1 to 3, e.g. '2,3'"


def parse_cell(text: object) -> Cell:
    """Read ``'row,col'`` (1-based) as a 0-based cell; raise MoveFormatError otherwise."""
    if not isinstance(text, str):
        raise MoveFormatError(f"expected text, got {type(text).__name__}: {_NOTATION}")
    if not text.strip():
        raise MoveFormatError(f"no move given: {_NOTATION}")
    match = _CELL_PATTERN.fullmatch(text) if len(text) <= 40 else None
    if match is None:
        raise MoveFormatError(f"{describe_text(text)} is not a move: {_NOTATION}")
    row, col = int(match.group(1)), int(match.group(2))
    if not (1 <= row <= 3 and 1 <= col <= 3):
        raise MoveFormatError(f"{describe_text(text)} is off the board: {_NOTATION}")
    return row - 1, col - 1


def format_cell(cell: Cell) -> str:
    """A 0-based cell in the 1-based notation ``'row,col'``."""
    row, col = cell
    return f"{row + 1},{col + 1}"


class TicTacToe:
    """Tic-tac-toe on tuple-of-tuples states; ``"X"`` moves first.

    >>> game = TicTacToe()
    >>> state = game.play(game.start, (1, 1))
    >>> state = game.play(state, game.parse_move("1,3"))
    >>> state
    ((' ', ' ', 'O'), (' ', 'X', ' '), (' ', ' ', ' '))
    >>> game.to_move(state), game.moves(state)[:3]
    ('X', [(0, 0), (0, 1), (1, 0)])
    >>> print(game.render(game.play(state, (2, 2))).replace(" ", "."))
    .|.|O
    -+-+-
    .|X|.
    -+-+-
    .|.|X
    """

    name: Final = "Tic-tac-toe"
    players: Final[tuple[Player, Player]] = ("X", "O")
    start: Final[Board] = ((EMPTY,) * 3,) * 3
    text_round_trips: Final = True
    turns_alternate: Final = True
    """X and O take turns (see :func:`gamelib.search.movers.turns_alternate`)."""

    # -- the six-tuple -------------------------------------------------------------

    @state_checked
    def next_states(self, state: Board, player: Player) -> list[Board]:
        """The states after each move of ``player``, in row-major order of the cells.

        Precondition: ``player == to_move(state)``. Raises :class:`GameError` when
        ``player`` is neither ``"X"`` nor ``"O"``, or when ``state`` is not a board.
        """
        if player != "X" and player != "O":
            check_player(self, player)  # raises
        if _has_line(state):
            return []
        # A full board has no empty cell, so it gets no next state without a test of its own.
        return _children(state, player)

    @state_checked
    def finished(self, state: Board) -> bool:
        """True iff a line is complete or the board is full.

        Raises :class:`GameError` when ``state`` is not a board.
        """
        return _has_line(state) or EMPTY not in _cells(state)

    @state_checked
    def utility(self, state: Board, player: Player) -> int:
        """+1 if ``player`` has a line, -1 if the opponent has one, 0 for a full board.

        Raises :class:`GameError` when ``state`` is not finished or not a board, or
        ``player`` unknown.
        """
        check_player(self, player)
        winner = _winner(state)
        if winner is not None:
            return 1 if winner == player else -1
        if EMPTY in _cells(state):
            raise not_finished()
        return 0

    # -- what play and search need on top ----------------------------------------

    @state_checked
    def to_move(self, state: Board) -> Player:
        """``"X"`` when both have made as many marks, else ``"O"``.

        Raises :class:`GameError` when ``state`` is not a board.
        """
        # X and O have as many marks exactly when an odd number of the nine cells is empty:
        # one count, not two (every search asks this in every running state).
        return "X" if _cells(state).count(EMPTY) & 1 else "O"

    @state_checked
    def moves(self, state: Board) -> list[Cell]:
        """The empty cells in row-major order; none once the game is finished.

        Raises :class:`GameError` when ``state`` is not a board.
        """
        return [] if self.finished(state) else self._empty(state)

    @state_checked
    def play(self, state: Board, move: Cell) -> Board:
        """The state after the player to move marks the cell ``move``.

        Raises :class:`IllegalMoveError` when ``move`` is not a pair of ints from 0 to 2,
        when its cell is taken, or when the game is over; :class:`GameError` when
        ``state`` is not a board.
        """
        _check_cell(move)
        if self.finished(state):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        row, col = move
        if state[row][col] != EMPTY:
            free = " ".join(format_cell(c) for c in self._empty(state))
            raise IllegalMoveError(
                f"cell {format_cell(move)} is taken by {state[row][col]}; free cells: {free}"
            )
        return _put(state, move, self.to_move(state))

    def parse_move(self, text: str) -> Cell:
        """``'row,col'`` with 1-based row and column, e.g. ``'1,3'`` is the top right.

        Spaces around the numbers are allowed. Raises :class:`MoveFormatError` for
        anything else, including numbers outside 1 to 3 and non-text.
        """
        return parse_cell(text)

    def format_move(self, move: Cell) -> str:
        """The 1-based notation ``'row,col'`` of a cell (precondition: a cell on the board)."""
        return format_cell(move)

    def render(self, state: Board) -> str:
        """Rows joined by ``|``, separated by ``-+-+-``; :meth:`from_text` reads it back.

        Any three rows of three marks are drawn, reachable or not. Raises
        :class:`GameError` when ``state`` is not such a board.
        """
        if not _is_board(state):
            raise not_a_state(self, state)
        return "\n-+-+-\n".join("|".join(row) for row in state)

    def from_text(self, text: str) -> Board:
        """The state that :meth:`render` drew as ``text``.

        Raises :class:`GameError` unless ``text`` is such a picture of a position that
        play can reach (see :meth:`validate`).
        """
        if not isinstance(text, str):
            raise GameError(f"expected text, got {type(text).__name__}: {_PICTURE}")
        cells = [row.split("|") for row in text.split("\n-+-+-\n")]
        if len(cells) != 3 or any(len(r) != 3 or not set(r) <= {EMPTY, "X", "O"} for r in cells):
            raise GameError(f"{describe_text(text)} is not a tic-tac-toe board: {_PICTURE}")
        board: Board = tuple(tuple(r) for r in cells)  # type: ignore[assignment]
        self.validate(board)
        return board

    def validate(self, state: object) -> None:
        """Raise :class:`GameError` unless ``state`` is a position that play can reach.

        That is: three rows of three marks ``" "``, ``"X"`` or ``"O"``; X has as many
        marks as O or one more; at most one player has a line, and if one has, that
        player made the last move. Exactly 5,478 boards pass.
        """
        if not _is_board(state):
            raise GameError(
                "a tic-tac-toe state is a tuple of three rows, each a tuple of three marks "
                "' ', 'X' or 'O'"
            )
        xs = sum(row.count("X") for row in state)
        os = sum(row.count("O") for row in state)
        if xs - os not in (0, 1):
            raise GameError(
                f"X has {xs} marks and O has {os}: X must have as many as O or one more"
            )
        x_line, o_line = _has_line_of(state, "X"), _has_line_of(state, "O")
        if x_line and o_line:
            raise GameError("both players have three in a row: the game ends at the first line")
        if x_line and xs == os:
            raise GameError("X has three in a row but O moved afterwards: the game was over")
        if o_line and xs > os:
            raise GameError("O has three in a row but X moved afterwards: the game was over")

    def winning_line(self, state: Board) -> tuple[Cell, Cell, Cell] | None:
        """The first complete line of ``state``, or None."""
        for line in LINES:
            (r0, c0), (r1, c1), (r2, c2) = line
            if state[r0][c0] != EMPTY and state[r0][c0] == state[r1][c1] == state[r2][c2]:
                return line
        return None

    def __repr__(self) -> str:
        return "TicTacToe()"

    @staticmethod
    def _empty(state: Board) -> list[Cell]:
        (a, b, c), (d, e, f), (g, h, i) = state
        return [cell for cell, mark in zip(_ROW_MAJOR, (a, b, c, d, e, f, g, h, i), strict=True)
                if mark == EMPTY]


def _is_board(state: object) -> TypeGuard[Board]:
    """Is ``state`` three rows (tuples) of three marks ``" "``, ``"X"`` or ``"O"``?"""
    return (
        isinstance(state, tuple)
        and len(state) == 3
        and all(isinstance(row, tuple) and len(row) == 3 for row in state)
        and all(mark in (EMPTY, "X", "O") for row in state for mark in row)
    )


_ROW_MAJOR: Final[tuple[Cell, ...]] = tuple((r, c) for r in range(3) for c in range(3))
_CELLS: Final = frozenset(_ROW_MAJOR)


def _check_cell(move: object) -> None:
    # The usual case first: a tuple of two plain ints on the board, found in one set
    # lookup (anything else, an int subclass included, gets the full test below).
    if (type(move) is tuple and len(move) == 2 and type(move[0]) is int
            and type(move[1]) is int and move in _CELLS):
        return
    if (
        not isinstance(move, tuple)
        or len(move) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in move)
    ):
        raise IllegalMoveError(f"{describe_text(move)} is not a cell: a move is (row, col), 0 to 2")
    if not (0 <= move[0] <= 2 and 0 <= move[1] <= 2):
        raise IllegalMoveError(f"cell {move} is off the board: row and col go from 0 to 2")


def _put(state: Board, cell: Cell, mark: str) -> Board:
    row, col = cell
    line = state[row]
    new_row = line[:col] + (mark,) + line[col + 1 :]
    return state[:row] + (new_row,) + state[row + 1 :]  # type: ignore[return-value]


def _cells(state: Board) -> tuple[str, ...]:
    """The nine marks of ``state`` in one tuple, row by row: ``a, b, c, d, ..., i``."""
    top, middle, bottom = state
    return top + middle + bottom


def _lines(state: Board) -> tuple[tuple[str, str, str], ...]:
    """The marks on the eight lines of ``state``, in the order of :data:`LINES`."""
    top, middle, bottom = state
    (a, b, c), (d, e, f), (g, h, i) = state
    return (top, middle, bottom, (a, d, g), (b, e, h), (c, f, i), (a, e, i), (c, e, g))


def _has_line(state: Board) -> bool:
    """Does a line of ``state`` hold three equal marks (either player's)?

    Every line passes through the corner ``a``, the centre ``e`` or the corner ``i``,
    so three groups of tests cover all eight lines. Each group starts by asking if its
    cell is taken at all, which settles most groups with one comparison.
    """
    (a, b, c), (d, e, f), (g, h, i) = state
    return (
        (a != EMPTY and (a == b == c or a == d == g or a == e == i))  # top, left, diagonal
        or (e != EMPTY and (d == e == f or b == e == h or c == e == g))  # middle ones, diagonal
        or (i != EMPTY and (g == h == i or c == f == i))  # bottom row, right column
    )


def _has_line_of(state: Board, mark: str) -> bool:
    return (mark, mark, mark) in _lines(state)


def _winner(state: Board) -> str | None:
    """The mark on the first complete line in the order of :data:`LINES`, or None."""
    for first, second, third in _lines(state):
        if first != EMPTY and first == second == third:
            return first
    return None


def _children(state: Board, mark: str) -> list[Board]:
    """The states after ``mark`` is put in each empty cell of ``state``, row by row.

    A child gets one new row; it shares the other two rows with ``state``.
    """
    top, middle, bottom = state
    (a, b, c), (d, e, f), (g, h, i) = state
    children: list[Board] = []
    if a == EMPTY:
        children.append(((mark, b, c), middle, bottom))
    if b == EMPTY:
        children.append(((a, mark, c), middle, bottom))
    if c == EMPTY:
        children.append(((a, b, mark), middle, bottom))
    if d == EMPTY:
        children.append((top, (mark, e, f), bottom))
    if e == EMPTY:
        children.append((top, (d, mark, f), bottom))
    if f == EMPTY:
        children.append((top, (d, e, mark), bottom))
    if g == EMPTY:
        children.append((top, middle, (mark, h, i)))
    if h == EMPTY:
        children.append((top, middle, (g, mark, i)))
    if i == EMPTY:
        children.append((top, middle, (g, h, mark)))
    return children
