"""Forced moves in Connect Four, read off the threats: the player's ``forced`` option.

The lessons' depth-limited search (:func:`gamelib.search.depth_limited.deepen`) takes a
``forced`` function: given a state, the one move the side to move must play, or None.
:func:`~gamelib.search.depth_limited.only_safe_move` finds it from any game's rules; this
module finds the same move for Connect Four from the bitboards' threats, in a few bit
operations, for the computer player (:mod:`gamelib.connect4.player`).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import cast

from gamelib.connect4.bitboard import geometry
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.depth_limited import ForcedMove

__all__ = ["forced_move"]


@functools.cache
def forced_move(rows: int, cols: int) -> ForcedMove:
    """The ``forced`` option of :func:`~gamelib.search.depth_limited.deepen` for one board
    size, from the threats: a column that wins at once, else the one column that does not
    lose at once, or None (as :func:`~gamelib.search.depth_limited.only_safe_move`).

    The player to move plays its leftmost winning column if it has one. When the opponent
    has a playable threat, the block is forced (unless a second threat, or one directly
    above the block, makes every column lose). Otherwise a column loses at once when it
    fills the cell just below an opponent's threat; when all columns but one do, that
    one is forced.
    """
    grid = geometry(ConnectFour(rows, cols))
    threats, full, bottom, height = grid.threats, grid.full, grid.bottom, grid.height
    lane = grid.lane

    def forced(state: Hashable) -> int | None:
        first, second = cast(C4State, state)
        mask = first | second
        cur, opp = (first, second) if mask.bit_count() % 2 == 0 else (second, first)
        empty = full & ~mask
        playable = (mask + bottom) & full
        both = threats(cur | opp << lane)  # both players' threats in one int, in lanes
        safe = both & playable
        if safe:
            return ((safe & -safe).bit_length() - 1) // height  # a win at once
        opp_wins = (both >> lane) & empty
        safe = opp_wins & playable
        if safe:
            if safe & (safe - 1) or (safe << 1) & opp_wins:
                return None  # every column loses at once
        else:
            safe = playable & ~(opp_wins >> 1)
            if safe & (safe - 1) or not safe:
                return None  # a free choice, or every column loses at once
        return (safe.bit_length() - 1) // height

    return forced
