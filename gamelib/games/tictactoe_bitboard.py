"""Tic-tac-toe with integer states: the same game as :class:`TicTacToe`, packed in bits.

Square ``(row, col)`` has the index ``i = 3 * row + col``. A state is one ``int``: bit
``i`` is set when X holds square ``i``, bit ``9 + i`` when O holds it::

    O's marks: bits 17..9        X's marks: bits 8..0
    +----+----+----+             +---+---+---+
    |  9 | 10 | 11 |             | 0 | 1 | 2 |
    | 12 | 13 | 14 |             | 3 | 4 | 5 |
    | 15 | 16 | 17 |             | 6 | 7 | 8 |
    +----+----+----+             +---+---+---+

A line is then a 9-bit mask, and "X has a line" is ``state & mask == mask``.
Moves, notation and move order are those of :class:`TicTacToe`, so both games visit
the same states in the same order; :meth:`to_board` and :meth:`from_board` translate.
"""

from __future__ import annotations

from typing import Final

from gamelib.errors import GameError, IllegalMoveError
from gamelib.game import Player, check_player, not_finished, state_checked
from gamelib.games.tictactoe import (
    LINES,
    Board,
    Cell,
    TicTacToe,
    _check_cell,
    format_cell,
    parse_cell,
)

__all__ = ["TicTacToeBitboard", "LINE_MASKS", "HAS_LINE"]

FULL: Final = 0b111_111_111
LINE_MASKS: Final[tuple[int, ...]] = tuple(
    sum(1 << (3 * r + c) for r, c in line) for line in LINES
)
"""The eight lines as 9-bit masks, in the order of :data:`~gamelib.games.tictactoe.LINES`."""


HAS_LINE: Final[tuple[bool, ...]] = tuple(
    any(marks & mask == mask for mask in LINE_MASKS) for marks in range(1 << 9)
)
"""``HAS_LINE[marks]``: does the 9-bit set of squares ``marks`` contain a line?

One look-up in a table of 512 answers instead of eight tests per call; this is
what makes :meth:`TicTacToeBitboard.finished` cheap.
"""

_SQUARES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(1 << i for i in range(9) if free >> i & 1) for free in range(1 << 9)
)
"""``_SQUARES[free]``: the one-bit masks of the squares in ``free``, in row-major order."""

_NEW_MARKS: Final[dict[Player, tuple[tuple[int, ...], ...]]] = {
    "X": _SQUARES,
    "O": tuple(tuple(square << 9 for square in squares) for squares in _SQUARES),
}
"""``_NEW_MARKS[player][free]``: the bit of a mark of ``player`` on each square in ``free``."""

_CELLS: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(divmod(i, 3) for i in range(9) if free >> i & 1) for free in range(1 << 9)
)
"""``_CELLS[free]``: the cells ``(row, col)`` of the squares in ``free``, row-major."""


class TicTacToeBitboard:
    """Tic-tac-toe on ``int`` states; behaves exactly like :class:`TicTacToe`.

    >>> game = TicTacToeBitboard()
    >>> state = game.play(game.start, (1, 1))
    >>> state == 1 << 4, game.to_move(state)
    (True, 'O')
    """

    name: Final = "Tic-tac-toe (bitboard)"
    players: Final[tuple[Player, Player]] = ("X", "O")
    start: Final[int] = 0
    text_round_trips: Final = True
    turns_alternate: Final = True
    """X and O take turns (see :func:`gamelib.search.movers.turns_alternate`)."""

    @state_checked
    def next_states(self, state: int, player: Player) -> list[int]:
        """As :meth:`TicTacToe.next_states`: the states after each move of ``player``, in
        row-major order of the cells, with the same precondition and errors."""
        if player != "X" and player != "O":
            check_player(self, player)  # raises
        xs, os = state & FULL, state >> 9
        if HAS_LINE[xs] or HAS_LINE[os]:
            return []
        # A full board has no free square, so it gets no next state without a test of
        # its own. (The loop is faster than a list comprehension, which is a function
        # call of its own before Python 3.12.)
        children = []
        for mark in _NEW_MARKS[player][~(xs | os) & FULL]:
            children.append(state | mark)
        return children

    @state_checked
    def finished(self, state: int) -> bool:
        """True iff a line is complete or all nine squares are taken.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        xs, os = state & FULL, state >> 9
        return xs | os == FULL or HAS_LINE[xs] or HAS_LINE[os]

    @state_checked
    def utility(self, state: int, player: Player) -> int:
        """+1 if ``player`` has a line, -1 if the opponent has one, 0 for a full board.

        Raises :class:`GameError` when ``state`` is not finished or not a state, or
        ``player`` unknown.
        """
        check_player(self, player)
        xs, os = state & FULL, state >> 9
        if HAS_LINE[xs]:
            return 1 if player == "X" else -1
        if HAS_LINE[os]:
            return 1 if player == "O" else -1
        if xs | os != FULL:
            raise not_finished()
        return 0

    @state_checked
    def to_move(self, state: int) -> Player:
        """``"X"`` when both have made as many marks, else ``"O"``.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        return "X" if (state & FULL).bit_count() == (state >> 9).bit_count() else "O"

    @state_checked
    def moves(self, state: int) -> list[Cell]:
        """The empty cells in row-major order; none once the game is finished.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        if self.finished(state):
            return []
        return list(_CELLS[~(state | state >> 9) & FULL])

    @state_checked
    def play(self, state: int, move: Cell) -> int:
        """The state after the player to move marks the cell ``move``.

        Raises :class:`IllegalMoveError` as :meth:`TicTacToe.play` does, and
        :class:`GameError` when ``state`` is not a state.
        """
        _check_cell(move)
        if self.finished(state):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        i = 3 * move[0] + move[1]
        if (state | state >> 9) >> i & 1:
            taken_by = "X" if state >> i & 1 else "O"
            free = " ".join(format_cell(c) for c in self.moves(state))
            raise IllegalMoveError(
                f"cell {format_cell(move)} is taken by {taken_by}; free cells: {free}"
            )
        shift = 0 if self.to_move(state) == "X" else 9
        return state | 1 << (i + shift)

    def parse_move(self, text: str) -> Cell:
        """``'row,col'`` with 1-based row and column; errors as in :class:`TicTacToe`."""
        return parse_cell(text)

    def format_move(self, move: Cell) -> str:
        """The 1-based notation ``'row,col'``."""
        return format_cell(move)

    @state_checked
    def render(self, state: int) -> str:
        """The same picture as :meth:`TicTacToe.render`.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        board = self.to_board(state)
        return TicTacToe().render(board)

    def from_text(self, text: str) -> int:
        """The state that :meth:`render` drew as ``text``."""
        return self.from_board(TicTacToe().from_text(text))

    def winning_line(self, state: int) -> tuple[Cell, Cell, Cell] | None:
        """The first complete line of ``state``, or None."""
        xs, os = state & FULL, state >> 9
        for line, mask in zip(LINES, LINE_MASKS, strict=True):
            if xs & mask == mask or os & mask == mask:
                return line
        return None

    @staticmethod
    def to_board(state: int) -> Board:
        """The tuple-of-tuples state of :class:`TicTacToe` with the same marks."""

        def mark(i: int) -> str:
            return "X" if state >> i & 1 else "O" if state >> (9 + i) & 1 else " "

        rows = (tuple(mark(3 * r + c) for c in range(3)) for r in range(3))
        return tuple(rows)  # type: ignore[return-value]

    @staticmethod
    def from_board(board: Board) -> int:
        """The integer state with the marks of the tuple-of-tuples ``board``.

        Raises :class:`GameError` unless ``board`` is three rows of three marks ``" "``,
        ``"X"`` or ``"O"``. Inverse of :meth:`to_board`.
        """
        if not (
            isinstance(board, tuple)
            and len(board) == 3
            and all(isinstance(row, tuple) and len(row) == 3 for row in board)
            and all(mark in (" ", "X", "O") for row in board for mark in row)
        ):
            raise GameError(
                "a tic-tac-toe board is a tuple of three rows, each a tuple of three marks "
                "' ', 'X' or 'O'"
            )
        state = 0
        for r, row in enumerate(board):
            for c, mark in enumerate(row):
                if mark == "X":
                    state |= 1 << (3 * r + c)
                elif mark == "O":
                    state |= 1 << (9 + 3 * r + c)
        return state

    def __repr__(self) -> str:
        return "TicTacToeBitboard()"
