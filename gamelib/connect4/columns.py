"""What the Connect Four player knows about a position and each of its columns.

:mod:`gamelib.connect4.player` decides in layers (tactics, the exact solver, the heuristic
search); they share a :class:`Board`, the checked position seen from the player to move,
and fill in one :class:`ColumnResult` per legal column. This module imports no
user-interface library.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gamelib.connect4.bitboard import Position, geometry
from gamelib.connect4.score import end_of_game
from gamelib.games.connect_four import ConnectFour
from gamelib.search.depth_limited import proven_value

__all__ = ["Board", "ColumnResult"]


# -- one column's result --------------------------------------------------------------


@dataclass(frozen=True)
class ColumnResult:
    """What the player knows about one column.

    ``outcome`` is +1, 0 or -1 when proven (for the player to move), else None and
    ``estimate`` holds the heuristic's guess. ``moves`` counts, for a proven win or loss,
    the winner's own moves from the current position up to the win (with best play), or
    the most the board allows when the solver gave only the sign ("in at most").
    ``score`` is the solver's exact score of the column when the solver found it.
    """

    outcome: int | None
    moves: int = 0
    estimate: float = 0.0
    score: int | None = None

    @property
    def value(self) -> float:
        """On the one scale (:mod:`gamelib.connect4.player`): a win in ``moves`` of the
        mover's own moves ends ``2 * moves - 1`` plies from now, a loss ``2 * moves``."""
        if self.outcome is None:
            return self.estimate
        if self.outcome == 0:
            return 0.0
        plies = 2 * self.moves - 1 if self.outcome == 1 else 2 * self.moves
        return proven_value(self.outcome, plies)

    def rank(self) -> tuple[float, int]:
        """Sort key, larger is better: value first, then a faster win or a slower loss."""
        if self.outcome is not None and self.outcome != 0:
            return (float(self.outcome), self.outcome * -self.moves)
        return (self.value, 0)


# -- the position as bitboards ------------------------------------------------------------


class Board:
    """A valid ``state`` seen from the player to move: ``cur`` their discs, ``mask`` all.

    The player makes it once, at its door, from the position that
    :func:`~gamelib.connect4.bitboard.position_of` let in; its layers trust it.
    """

    def __init__(self, game: ConnectFour, position: Position) -> None:
        self.game = game
        self.cur, self.mask, self.discs = position
        self.state = position.state()
        self.mover = game.players[self.discs & 1]
        self.opponent = game.players[1 - (self.discs & 1)]
        self.wins_of = geometry(game).threats

    def position(self) -> Position:
        """The solver's view of this position."""
        return Position(self.cur, self.mask, self.discs)

    def playable(self) -> int:
        """The cells where a disc can go now (the lowest free cell of each open column)."""
        game = self.game
        return (self.mask + game.bottom) & game.full

    def column_of(self, cell: int) -> int:
        return (cell.bit_length() - 1) // self.game.height

    def columns(self, cells: int) -> list[int]:
        return sorted(self.column_of(cell) for cell in _single_bits(cells))

    def winning_columns(self) -> list[int]:
        """The columns where the player to move completes four at once."""
        return self.columns(self.wins_of(self.cur) & self.playable())

    def threats(self) -> int:
        """The empty cells where the opponent would complete four."""
        return self.wins_of(self.cur ^ self.mask) & ~self.mask & self.game.full

    def child(self, col: int) -> Position:
        """The position after the player to move drops a disc in column ``col``."""
        game = self.game
        return self.position().play((self.mask + game.bottom_masks[col]) & game.column_masks[col])

    def winner_moves(self, score: int) -> int:
        """For a column's exact solver score != 0: the winner's discs still to drop.

        The solver scores a game that ends with ``M`` discs on a board of ``N`` cells
        as ``(N + 2 - M) // 2`` for the winner (negative for the loser), so ``M`` is
        ``N + 2 - 2|score|`` or one less, whichever has the parity of the winner's
        discs: the player to move drops discs number ``discs + 1, discs + 3, ...``.
        A score depends only on ``M``, so a column's score (after the move, for the
        player to move) reads with the disc count of the current position.
        """
        game = self.game
        return (end_of_game(game.rows * game.cols, score, self.discs) - self.discs + 1) // 2


def _single_bits(value: int) -> Iterator[int]:
    while value:
        yield value & -value
        value &= value - 1
