"""The Connect Four solver's old address: it lives in :mod:`gamelib.connect4.solver`.

``from gamelib.search.solver import Solver`` (and the other names below) keeps working;
``winning_cells`` is :func:`gamelib.connect4.bitboard.threat_cells`, the empty cells that
would complete four in a row.
"""

from gamelib.connect4.bitboard import threat_cells as winning_cells
from gamelib.connect4.solver import (
    MAX_TABLE_BITS,
    MIN_TABLE_BITS,
    SearchTimeout,
    Solver,
    score_to_moves,
)

__all__ = [
    "MAX_TABLE_BITS",
    "MIN_TABLE_BITS",
    "SearchTimeout",
    "Solver",
    "score_to_moves",
    "winning_cells",
]
