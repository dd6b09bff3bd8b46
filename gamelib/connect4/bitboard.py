"""One Connect Four position on bitboards, seen from the player to move.

The layout is that of :mod:`gamelib.games.connect_four` (Lesson 7): column ``c`` uses
bits ``c*H .. c*H + rows - 1`` with ``H = rows + 1``, and the bit above them is an
always-empty *guard*. A :class:`Position` is the triple of Lesson 8::

    cur    the discs of the player to move
    mask   every disc on the board           (the opponent's discs are cur ^ mask)
    moves  how many discs there are          (mask.bit_count())

Two kinds of cells complete a four, and each has one name:

* :meth:`ConnectFour.winning_cells <gamelib.games.connect_four.ConnectFour.winning_cells>`:
  the cells of a *finished* four in a row (what the board highlights at the end);
* :meth:`Geometry.threats`: the *empty* cells where a disc of a player would complete
  four in a row (a *threat*; it need not be playable yet). The solver, the player and
  :func:`threat_cells` all use this one computation.

:class:`Geometry` holds what depends only on the board size (the masks and the shift
distances); it is made once per board size and shared.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple, cast

from gamelib.game import GameError
from gamelib.games.connect_four import C4State, ConnectFour

__all__ = ["Geometry", "Position", "geometry", "position_of", "threat_cells"]


class Geometry:
    """The masks and shift distances of one board size, and the threat computation.

    ``threats(p)`` marks every cell ``x`` such that, along one of the four directions
    ``d``, the player's discs ``p`` hold ``x-3d, x-2d, x-d``, ``x-2d, x-d, x+d``,
    ``x-d, x+d, x+2d`` or ``x+d, x+2d, x+3d`` (vertically only the three cells below
    count: the cells above an empty cell are empty). The result is *raw*: it may mark
    occupied cells and cells off the board, so callers keep ``& empty``. It works on
    any int, also on one that holds several boards side by side in *lanes*, as long as
    the boards are apart by the longest shift, ``3 * (rows + 2)`` bits (as in
    :meth:`either_has_four`), or lanes of whole columns with an empty column between two
    boards (as in :mod:`gamelib.connect4.solver`): a four across two boards then holds an
    empty cell off the board.
    """

    def __init__(self, game: ConnectFour) -> None:
        self.game = game
        self.rows, self.cols = game.rows, game.cols
        self.cells = game.rows * game.cols
        self.height = game.height
        self.full = game.full
        self.bottom = game.bottom
        self.column_masks = game.column_masks
        self.lane = 2 * self.full.bit_length()
        """A shift that puts a second board beside the first, far enough for
        :meth:`threats` and :meth:`either_has_four` to treat both at once."""
        self.threats: Callable[[int], int] = _threat_function(game.rows)
        """``threats(p)``: the raw cells where the discs ``p`` would complete four."""

    def playable(self, mask: int) -> int:
        """The cells where a disc can be dropped now: the lowest free cell of each column.

        Adding the bottom bit of every column to ``mask`` carries through the filled
        part of each column and lands on its lowest free cell.
        """
        return (mask + self.bottom) & self.full

    def either_has_four(self, first: int, second: int) -> bool:
        """Whether ``first`` or ``second`` holds four in a row: both boards side by side
        in two lanes of one int, so one test of four shifts serves both."""
        p = first | (second << self.lane)
        for d in (1, self.height, self.height - 1, self.height + 1):
            pairs = p & (p >> d)
            if pairs & (pairs >> 2 * d):
                return True
        return False

    def threat_cells(self, discs: int, mask: int) -> int:
        """The empty cells of the board where ``discs`` would complete four in a row."""
        return self.threats(discs) & (self.full ^ mask)


def _threat_function(rows: int) -> Callable[[int], int]:
    """The threat computation for boards with ``rows`` rows, its shifts bound as locals."""
    # One, two and three steps across (h), down-right (d) and up-right (u); up is 1.
    h1, h2, h3 = rows + 1, 2 * (rows + 1), 3 * (rows + 1)
    d1, d2, d3 = rows, 2 * rows, 3 * rows
    u1, u2, u3 = rows + 2, 2 * (rows + 2), 3 * (rows + 2)

    def threats(p: int) -> int:
        # Along each direction d: t marks x when x - d is the player's, b when x + d is,
        # and pair marks x when x and x - d are, so pair << d marks x when x - d and
        # x - 2d are, pair >> 2d when x + d and x + 2d are. A threat is x-d, x-2d and
        # (x-3d or x+d), or x+d, x+2d and (x+3d or x-d); vertically the three below.
        t = p << h1
        b = p >> h1
        pair = p & t
        cells = (
            ((p << 1) & (p << 2) & (p << 3))
            | ((pair << h1) & ((p << h3) | b))
            | ((pair >> h2) & ((p >> h3) | t))
        )
        t = p << d1
        b = p >> d1
        pair = p & t
        cells |= ((pair << d1) & ((p << d3) | b)) | ((pair >> d2) & ((p >> d3) | t))
        t = p << u1
        b = p >> u1
        pair = p & t
        cells |= ((pair << u1) & ((p << u3) | b)) | ((pair >> u2) & ((p >> u3) | t))
        return cells

    return threats


@cache
def geometry(game: ConnectFour) -> Geometry:
    """The shared :class:`Geometry` of ``game``'s board size (there are at most 49)."""
    return Geometry(game)


class Position(NamedTuple):
    """``(cur, mask, moves)``: a position seen from the player to move (Lesson 8)."""

    cur: int
    mask: int
    moves: int

    def opponent(self) -> int:
        """The discs of the opponent of the player to move."""
        return self.cur ^ self.mask

    def play(self, disc: int) -> Position:
        """The position after the player to move drops the disc ``disc`` (one bit)."""
        return Position(self.cur ^ self.mask, self.mask | disc, self.moves + 1)

    def state(self) -> C4State:
        """Back to a game state ``(first, second)``."""
        other = self.cur ^ self.mask
        return (other, self.cur) if self.moves & 1 else (self.cur, other)


def position_of(game: ConnectFour, state: object) -> Position:
    """The door of every Connect Four position: ``state`` of ``game``'s board, seen from
    the player to move. The solver and the player both come in here, and what comes
    after trusts the position.

    The common case, a well-formed state, is checked with a few bit operations; anything
    odd goes to :meth:`ConnectFour.validate` for a precise message. Raises
    :class:`GameError` unless ``state`` is a pair of ints (not bools or other int types)
    whose discs lie on the board, rest on discs, and number as many for X as for O or one
    more. Finished positions are let through: whether they are welcome is the caller's
    to say.
    """
    try:
        first, second = cast(C4State, state)   # unpacked as it is: checked just below
        mask = first | second
        sane = (
            type(state) is tuple
            and type(first) is int
            and type(second) is int
            and first >= 0
            and second >= 0
            and not first & second
            and not mask & ~game.full
            # In every column the discs fill the cells from the bottom up, so adding the
            # bottom bit clears them all.
            and not (mask + game.bottom) & mask
            and 0 <= first.bit_count() - second.bit_count() <= 1
        )
    except (TypeError, ValueError):
        sane = False
    if not sane:
        game.validate(state)
        raise GameError(f"not a valid Connect Four position: {state!r}")
    moves = mask.bit_count()
    return Position(second if moves & 1 else first, mask, moves)


def threat_cells(player: int, mask: int, rows: int, cols: int) -> int:
    """The empty cells where a disc of ``player`` would complete four in a row.

    ``player`` is the bitboard of one player's discs and ``mask`` the bitboard of all
    discs, in the layout of :class:`ConnectFour` with ``rows`` x ``cols`` cells. The
    result is a bitboard of empty cells of the board (playable now or not). Raises
    :class:`GameError` for a board size that :class:`ConnectFour` does not support, or
    bitboards that are not non-negative ints within the board.
    """
    grid = geometry(ConnectFour(rows, cols))
    for label, value in (("player", player), ("mask", mask)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise GameError(f"{label} must be a bitboard: a non-negative int, got {value!r}")
        if value & ~grid.full:
            raise GameError(f"{label} has bits outside the {rows}x{cols} board")
    return grid.threat_cells(player, mask)
