"""The Connect Four player's old address: it lives in :mod:`gamelib.connect4.player`.

``from gamelib.search.c4player import connect_four_move`` (and the other names below)
keeps working.
"""

from gamelib.connect4.player import (
    DEFAULT_SECONDS,
    EXACT_SHARE,
    TABLE_BITS,
    connect_four_move,
    connect_four_move_values,
)

__all__ = [
    "DEFAULT_SECONDS",
    "EXACT_SHARE",
    "TABLE_BITS",
    "connect_four_move",
    "connect_four_move_values",
]
