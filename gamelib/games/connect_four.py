"""Connect Four on bitboards, for any board from 4x4 to 10x10.

Two players drop discs into columns; a disc falls to the lowest free cell. Whoever
first has four discs in a row (across, up, or diagonally) wins; a full board is a draw.

The bitboard
------------
Each column gets ``rows + 1`` bits: one per cell, counted from the bottom, plus one
*guard* bit on top that always stays 0. For the standard board (6 rows, 7 columns)
the bit numbers are::

    guard   6 13 20 27 34 41 48
    row 5   5 12 19 26 33 40 47
    row 4   4 11 18 25 32 39 46
    row 3   3 10 17 24 31 38 45
    row 2   2  9 16 23 30 37 44
    row 1   1  8 15 22 29 36 43
    row 0   0  7 14 21 28 35 42
            1  2  3  4  5  6  7    <- column numbers in the notation

so cell ``(row, col)`` is bit ``col * (rows + 1) + row``. Moving one cell up adds 1,
one column right adds ``rows + 1``, one step down-right adds ``rows`` and one step
up-right adds ``rows + 2``. The guard bits keep a line from wrapping into the next
column: a step up or up-right from the top row, or down-right from the bottom row,
lands on a guard bit, which is never set (and a step right from the last column
leaves the board). So for each of the four step sizes ``d``, "four in a row" takes
four operations::

    pairs = b & (b >> d)            # bit i set: discs at i and at i + d
    fours = pairs & (pairs >> 2*d)  # bit i set: discs at i, i + d, i + 2d and i + 3d

A state is a pair of ints ``(first, second)``: the cells of ``players[0]`` ("X", who
moves first) and of ``players[1]`` ("O"). Whose turn it is follows from the number of
discs. A move is a 0-based column index; the notation numbers columns from 1, as the
benchmark sets of :func:`gamelib.connect4.benchmark_positions` do.

Every method that takes a state checks it (:meth:`ConnectFour.check_state`, a few bit
operations: two non-negative ints, no disc off the board or on both bitboards) and
raises :class:`GameError` saying what a state is; :meth:`ConnectFour.validate` checks
more (discs rest on discs, the disc counts alternate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import Player, check_player, not_a_state, not_finished, state_checked

__all__ = ["ConnectFour", "C4State"]

C4State = tuple[int, int]
"""``(first, second)``: the bitboards of the first and the second player's discs."""

MIN_SIZE: Final = 4
MAX_SIZE: Final = 10


class ConnectFour:
    """Connect Four with ``rows`` x ``cols`` cells (default 6 x 7); ``"X"`` moves first.

    >>> game = ConnectFour()
    >>> state = ConnectFour.from_moves("4453")
    >>> game.to_move(state), game.format_move(3)
    ('X', '4')
    >>> print(game.render(state))
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . O . . .
    . . O X X . .
    1 2 3 4 5 6 7

    In the bit numbering of the module's picture, X holds bits 21 and 28 (the bottom
    of columns 4 and 5) and O holds bits 14 and 22 (the bottom of column 3 and the
    cell above X's disc in column 4):

    >>> state == (1 << 21 | 1 << 28, 1 << 14 | 1 << 22)
    True
    """

    name: Final = "Connect Four"
    players: Final[tuple[Player, Player]] = ("X", "O")
    start: Final[C4State] = (0, 0)
    text_round_trips: Final = True
    turns_alternate: Final = True
    """X and O take turns (see :func:`gamelib.search.movers.turns_alternate`)."""

    def __init__(self, rows: int = 6, cols: int = 7) -> None:
        """A board of ``rows`` x ``cols`` cells; each from 4 to 10."""
        for label, size in (("rows", rows), ("cols", cols)):
            if not isinstance(size, int) or isinstance(size, bool) or not (
                MIN_SIZE <= size <= MAX_SIZE
            ):
                raise GameError(
                    f"{label} must be a whole number from {MIN_SIZE} to {MAX_SIZE}, "
                    f"got {describe_text(size)}"
                )
        self.rows: Final = rows
        self.cols: Final = cols
        self.height: Final = rows + 1
        """Bits per column: the cells plus the guard bit."""
        h = self.height
        self.bottom: Final = sum(1 << (c * h) for c in range(cols))
        """The mask of the bottom cell of every column."""
        self.full: Final = self.bottom * ((1 << rows) - 1)
        """The mask of every cell of the board."""
        self.column_masks: Final = tuple(((1 << rows) - 1) << (c * h) for c in range(cols))
        """For each column, the mask of its cells."""
        self.bottom_masks: Final = tuple(1 << (c * h) for c in range(cols))
        """For each column, the mask of its bottom cell."""
        self.top_masks: Final = tuple(1 << (c * h + rows - 1) for c in range(cols))
        """For each column, the mask of its top cell: set when the column is full."""
        self.directions: Final = (1, h, h - 1, h + 1)
        """Vertical, horizontal and the two diagonals, as bit distances."""
        self._outside = ~self.full
        own_four = type(self).has_four is ConnectFour.has_four
        self._four: Final = _four_function(rows)
        """``four(discs)``: :meth:`has_four`'s test, its four directions unrolled."""
        self._over: Final = (_over_function(self._four, self.full) if own_four
                             else self._fours)
        """``over(first, second)``: four in a row or a full board (a subclass's own
        ``has_four`` is honoured)."""
        self._remember: Final = type(self).finished is ConnectFour.finished
        """Whether :attr:`_running` may be kept: not when a subclass has its own
        ``finished``, which ``moves`` and ``play`` must then ask every time."""
        self._running: object = None
        """The last state :meth:`finished` found running (checked, not over): ``moves``,
        ``play`` and ``next_states`` given that very object skip the check. A playout
        asks ``finished``, then ``moves``, then ``play`` of each state: one check instead
        of three. One assignment, so threads sharing the game see an old entry or a new
        one, each true of the object it names (which lives as long as it is named)."""
        self._notation = (
            f"a move is a column number from 1 to {cols}, e.g. '{(cols + 1) // 2}'"
        )

    # -- the six-tuple -------------------------------------------------------------

    @state_checked
    def next_states(self, state: C4State, player: Player) -> list[C4State]:
        """The states after ``player`` drops a disc in each open column, left to right.

        Precondition: ``player == to_move(state)``. Raises :class:`GameError` when
        ``player`` is neither ``"X"`` nor ``"O"``, or when ``state`` is not a state.
        """
        check_player(self, player)
        if state is not self._running and self.finished(state):
            return []
        first, second = state
        mask = first | second
        odd = mask.bit_count() & 1
        children = []
        for col in range(self.cols):
            if not mask & self.top_masks[col]:
                disc = (mask + self.bottom_masks[col]) & self.column_masks[col]
                children.append((first, second | disc) if odd else (first | disc, second))
        return children

    @state_checked
    def finished(self, state: C4State) -> bool:
        """True iff a player has four in a row or the board is full.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        first, second = self.check_state(state)
        if self._over(first, second):
            return True
        if self._remember:
            self._running = state
        return False

    @state_checked
    def utility(self, state: C4State, player: Player) -> int:
        """+1 if ``player`` has four in a row, -1 if the opponent has, 0 for a full board.

        Raises :class:`GameError` when ``state`` is not finished or not a state, or
        ``player`` unknown.
        """
        check_player(self, player)
        first, second = self.check_state(state)
        if self.has_four(first):
            return 1 if player == self.players[0] else -1
        if self.has_four(second):
            return 1 if player == self.players[1] else -1
        if (first | second) != self.full:
            raise not_finished()
        return 0

    # -- what play and search need on top ----------------------------------------

    @state_checked
    def to_move(self, state: C4State) -> Player:
        """``"X"`` after an even number of discs, ``"O"`` after an odd number.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        first, second = self.check_state(state)
        return self.players[(first | second).bit_count() & 1]

    @state_checked
    def moves(self, state: C4State) -> list[int]:
        """The 0-based indices of the columns that are not full, left to right.

        Empty once the game is finished. Raises :class:`GameError` when ``state`` is
        not a state.
        """
        if state is not self._running and self.finished(state):
            return []
        mask = state[0] | state[1]
        return [c for c in range(self.cols) if not mask & self.top_masks[c]]

    @state_checked
    def play(self, state: C4State, move: int) -> C4State:
        """The state after the player to move drops a disc in column ``move`` (0-based).

        Raises :class:`IllegalMoveError` when ``move`` is not an int from 0 to
        ``cols - 1``, when that column is full, or when the game is over;
        :class:`GameError` when ``state`` is not a state.
        """
        if not isinstance(move, int) or isinstance(move, bool):
            raise IllegalMoveError(
                f"{describe_text(move)} is not a column: a move is a column index "
                f"from 0 to {self.cols - 1}"
            )
        if not 0 <= move < self.cols:
            raise IllegalMoveError(
                f"there is no column index {describe_text(move)}: columns are 0 to {self.cols - 1} "
                f"(numbered 1 to {self.cols} on the board)"
            )
        if state is not self._running and self.finished(state):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        first, second = state
        mask = first | second
        if mask & self.top_masks[move]:
            open_columns = ", ".join(str(c + 1) for c in self.moves(state))
            raise IllegalMoveError(
                f"column {move + 1} is full; open columns: {open_columns}"
            )
        # Adding the bottom bit carries through the column's discs to its lowest free cell.
        disc = (mask + self.bottom_masks[move]) & self.column_masks[move]
        if mask.bit_count() & 1:
            return first, second | disc
        return first | disc, second

    def parse_move(self, text: str) -> int:
        """A column number from 1 to ``cols``, returned as a 0-based index.

        Spaces around the number are allowed. Raises :class:`MoveFormatError` for
        anything else, including numbers outside 1 to ``cols`` and non-text.
        """
        if not isinstance(text, str):
            raise MoveFormatError(f"expected text, got {type(text).__name__}: {self._notation}")
        stripped = text.strip()
        if not stripped:
            raise MoveFormatError(f"no move given: {self._notation}")
        if len(stripped) > 20 or not stripped.isdecimal() or not stripped.isascii():
            raise MoveFormatError(f"{describe_text(text)} is not a column number: {self._notation}")
        number = int(stripped)
        if not 1 <= number <= self.cols:  # leading zeros are fine: "0004" is "4"
            raise MoveFormatError(f"there is no column {number}: {self._notation}")
        return number - 1

    def format_move(self, move: int) -> str:
        """The 1-based column number."""
        return str(move + 1)

    @state_checked
    def render(self, state: C4State) -> str:
        """The board top row first, ``X``, ``O`` and ``.``, with column numbers below.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        lines = [
            " ".join(self.cell(state, row, col) or "." for col in range(self.cols))
            for row in reversed(range(self.rows))
        ]
        lines.append(" ".join(str((c + 1) % 10) for c in range(self.cols)))
        return "\n".join(lines)

    def from_text(self, text: str) -> C4State:
        """The state that :meth:`render` drew as ``text``.

        The line of column numbers may be left out. Raises :class:`GameError` unless the
        picture has ``rows`` lines of ``cols`` marks and passes :meth:`validate`.
        """
        if not isinstance(text, str):
            raise GameError(
                f"expected text, got {type(text).__name__}: a board as render() draws it"
            )
        lines = text.strip("\n").split("\n")[: self.rows]
        if len(lines) != self.rows or any(len(line.split()) != self.cols for line in lines):
            raise GameError(f"not a {self.rows}x{self.cols} board as render() draws it")
        first = second = 0
        for row, line in zip(reversed(range(self.rows)), lines, strict=True):
            for col, mark in enumerate(line.split()):
                bit = 1 << (col * self.height + row)
                if mark == "X":
                    first |= bit
                elif mark == "O":
                    second |= bit
                elif mark != ".":
                    raise GameError(f"unknown mark {mark!r}: cells are 'X', 'O' or '.'")
        state = (first, second)
        self.validate(state)
        return state

    # -- helpers for boards, solvers and tests -------------------------------------

    @classmethod
    def from_moves(cls, moves: str, rows: int = 6, cols: int = 7) -> C4State:
        """The position after the 1-based column string ``moves``, e.g. ``"4453"``.

        This is the move format of the benchmark files; it cannot name columns above 9.
        Raises :class:`MoveFormatError` when ``moves`` is not a string or holds a
        character that is not a column digit, and :class:`IllegalMoveError` for a move
        into a full column or a move after the game has ended. Both are
        :class:`GameError` (a ``ValueError``) and name the position of the culprit.
        ``rows`` and ``cols`` are checked as by the constructor.
        """
        game = cls(rows, cols)
        if not isinstance(moves, str):
            raise MoveFormatError(f"expected a string of column digits, got {type(moves).__name__}")
        state = game.start
        for index, char in enumerate(moves, start=1):
            if not ("1" <= char <= "9") or int(char) > cols:
                raise MoveFormatError(
                    f"character {index} of the moves, {char!r}, is not a column: "
                    f"use the digits 1 to {min(cols, 9)}"
                )
            if game.finished(state):
                winner = next((p for p in game.players if game.utility(state, p) == 1), None)
                outcome = "the board is full" if winner is None else f"{winner} has four in a row"
                raise IllegalMoveError(
                    f"move {index} ({char}) comes after the game has ended: {outcome}"
                )
            column = int(char) - 1
            if (state[0] | state[1]) & game.top_masks[column]:
                raise IllegalMoveError(f"move {index} ({char}): column {char} is already full")
            state = game.play(state, column)
        return state

    def _fours(self, first: int, second: int) -> bool:
        """Four in a row by :meth:`has_four` (a subclass's own), or a full board."""
        return (first | second) == self.full or self.has_four(first) or self.has_four(second)

    def has_four(self, discs: int) -> bool:
        """True iff the bitboard ``discs`` holds four in a row in some direction."""
        return self._four(discs)

    def cell(self, state: C4State, row: int, col: int) -> str | None:
        """``"X"``, ``"O"`` or None for the cell at ``row`` (0 is the bottom) and ``col``.

        Both are 0-based; raises :class:`GameError` when the cell is off the board.
        """
        first, second = self.check_state(state)
        self._check_index("row", row, self.rows)
        self._check_index("col", col, self.cols)
        bit = 1 << (col * self.height + row)
        if first & bit:
            return self.players[0]
        if second & bit:
            return self.players[1]
        return None

    def column_height(self, state: C4State, col: int) -> int:
        """How many discs column ``col`` (0-based) holds; GameError for a bad ``col``."""
        first, second = self.check_state(state)
        self._check_index("col", col, self.cols)
        return ((first | second) & self.column_masks[col]).bit_count()

    def winning_cells(self, state: C4State) -> list[tuple[int, int]]:
        """The ``(row, col)`` cells of every *finished* four in a row (none: ``[]``).

        What the board highlights when the game is won. (An empty cell that would complete
        four is a *threat*: see :func:`gamelib.connect4.bitboard.threat_cells`.) Raises
        :class:`GameError` for a bad state.
        """
        cells: set[tuple[int, int]] = set()
        for discs in self.check_state(state):
            for d in self.directions:
                pairs = discs & (discs >> d)
                fours = pairs & (pairs >> (2 * d))
                for bit in _bits(fours):
                    for k in range(4):
                        col, row = divmod(bit + k * d, self.height)
                        cells.add((row, col))
        return sorted(cells)

    def check_state(self, state: object) -> C4State:
        """``state`` as ``(first, second)`` if it is shaped like a state of this board.

        A few bit operations: a tuple of two ints (not bools), neither negative, no
        disc off the board, no cell on both bitboards. Raises :class:`GameError` saying
        what a state is otherwise. :meth:`validate` checks more.
        """
        if not (
            type(state) is tuple
            and len(state) == 2
            and type(state[0]) is int
            and type(state[1]) is int
        ):
            raise not_a_state(self, state)
        first, second = state
        if first < 0 or second < 0 or (first | second) & self._outside or first & second:
            self.validate(state)  # says which of these is wrong
        return first, second

    def validate(self, state: object) -> None:
        """Raise :class:`GameError` unless ``state`` is a reachable-looking position.

        Checks the type, that no disc is outside the board or on both bitboards, that
        discs rest on discs, and that the first player has as many discs as the second
        or one more.
        """
        if (
            not isinstance(state, tuple)
            or len(state) != 2
            or not all(isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in state)
        ):
            raise GameError("a Connect Four state is a pair of non-negative ints (first, second)")
        first, second = state
        mask = first | second
        if first & second:
            raise GameError("a cell holds discs of both players")
        if mask & ~self.full:
            raise GameError(f"a disc lies outside the {self.rows}x{self.cols} board")
        for col in range(self.cols):
            column = (mask & self.column_masks[col]) >> (col * self.height)
            if column & (column + 1):
                raise GameError(f"column {col + 1} has a gap below a disc")
        difference = first.bit_count() - second.bit_count()
        if difference not in (0, 1):
            raise GameError("X must have as many discs as O or one more")

    @staticmethod
    def _check_index(label: str, value: object, size: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
            raise GameError(
                f"{label} must be a whole number from 0 to {size - 1}, got {describe_text(value)}"
            )

    @property
    def top_row_mask(self) -> int:
        """The mask of the top cell of every column."""
        return sum(self.top_masks)

    def __repr__(self) -> str:
        return f"ConnectFour(rows={self.rows}, cols={self.cols})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConnectFour) and (self.rows, self.cols) == (other.rows, other.cols)

    def __hash__(self) -> int:
        return hash((ConnectFour, self.rows, self.cols))


def _four_function(rows: int) -> Callable[[int], bool]:
    """``four(discs)``: whether the bitboard ``discs`` of a board of ``rows`` rows holds four
    in a row, one test per direction of :attr:`ConnectFour.directions` (a pair of pairs),
    the shifts bound as locals and the directions unrolled: the playouts of MCTS ask it at
    every ply."""
    across, down, up = rows + 1, rows, rows + 2     # one step right, down-right, up-right
    across2, down2, up2 = 2 * across, 2 * down, 2 * up

    def four(p: int) -> bool:
        pairs = p & (p >> 1)
        if pairs & (pairs >> 2):
            return True
        pairs = p & (p >> across)
        if pairs & (pairs >> across2):
            return True
        pairs = p & (p >> down)
        if pairs & (pairs >> down2):
            return True
        pairs = p & (p >> up)
        return bool(pairs & (pairs >> up2))

    return four


def _over_function(four: Callable[[int], bool], full: int) -> Callable[[int, int], bool]:
    """``over(first, second)``: whether a player has four in a row (by ``four``) or the board
    ``full`` is full. Both bitboards lie side by side in two *lanes* of one int, far enough
    apart (twice the board's bits) that no four runs from one into the other, so one test
    serves both players."""
    lane = 2 * full.bit_length()

    def over(first: int, second: int) -> bool:
        return four(first | (second << lane)) or (first | second) == full

    return over


def _bits(value: int) -> Iterator[int]:
    """The indices of the set bits of ``value``, lowest first."""
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low
