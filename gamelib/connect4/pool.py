"""The exact solvers that the Connect Four player keeps between its moves.

A solver's transposition table holds what it learnt about a game; the next move of the
same game starts from it. :func:`pooled_solver` lends a solver for one board size to one
caller at a time (the play session calls the player from background threads), and the pool
keeps at most a few idle solvers, so its memory stays bounded. This module imports no
user-interface library.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from gamelib.connect4.solver import Solver
from gamelib.games.connect_four import ConnectFour

__all__ = ["TABLE_BITS", "pooled_solver"]

TABLE_BITS: Final = 20
"""Size of each pooled solver's transposition table: ``2 ** TABLE_BITS`` slots."""

_IDLE_SOLVERS_PER_SIZE: Final = 1
_BOARD_SIZES_KEPT: Final = 2


_pool_lock = threading.Lock()
_pool: OrderedDict[tuple[int, int], list[Solver]] = OrderedDict()


@contextmanager
def pooled_solver(game: ConnectFour) -> Iterator[Solver]:
    """A solver for ``game``'s board size that no other thread uses until it is returned.

    Idle solvers keep their transposition tables, so the next move of the same game
    starts with what this one learnt. The pool holds at most a few idle solvers in
    all, so its memory stays bounded.
    """
    size = (game.rows, game.cols)
    with _pool_lock:
        idle = _pool.get(size)
        solver = idle.pop() if idle else None
    if solver is None:
        solver = Solver(game, table_bits=TABLE_BITS)
    try:
        yield solver
    finally:
        with _pool_lock:
            idle = _pool.setdefault(size, [])
            _pool.move_to_end(size)
            if len(idle) < _IDLE_SOLVERS_PER_SIZE:
                idle.append(solver)
            while len(_pool) > _BOARD_SIZES_KEPT:
                _pool.popitem(last=False)

