"""The standard Connect Four benchmark sets, shipped with gamelib as package data.

Six sets of 1000 positions each, published with Pascal Pons' solver write-up "Solving
Connect 4: how to build a perfect AI" (see ``data/README.md`` next to this module). Each
line of a set is ``MOVES SCORE``: the columns played from the empty 6 x 7 board (1 to 7,
first player first) and the exact score for the player to move (see
:mod:`gamelib.connect4.solver`).

===========  ============  =================
set          moves played  stage, difficulty
===========  ============  =================
``L3_R1``    29 to 41      end, easy
``L2_R1``    15 to 28      middle, easy
``L2_R2``    15 to 27      middle, medium
``L1_R1``    4 to 14       beginning, easy
``L1_R2``    4 to 14       beginning, medium
``L1_R3``    1 to 13       beginning, hard
===========  ============  =================
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Final

from gamelib.game import GameError

__all__ = ["BENCHMARK_SETS", "benchmark_positions"]

BENCHMARK_SETS: Final = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
"""The names of the sets, easiest first; ``"Test_" + name`` is the file's name."""


def benchmark_positions(name: str) -> list[tuple[str, int]]:
    """The positions of the benchmark set ``name``: ``(moves, score)`` for each line.

    ``name`` is a set's name, ``"L3_R1"``, or its file's name, ``"Test_L3_R1"``.
    ``moves`` is the move string (for :meth:`ConnectFour.from_moves
    <gamelib.games.connect_four.ConnectFour.from_moves>`) and ``score`` the exact score
    for the player to move. Returns a new list on each call. Raises :class:`GameError`
    naming the known sets for any other name.

    >>> positions = benchmark_positions("L3_R1")
    >>> len(positions), positions[0]
    (1000, ('2252576253462244111563365343671351441', -1))
    """
    short = name.removeprefix("Test_") if isinstance(name, str) else None
    if short not in BENCHMARK_SETS:
        known = ", ".join(BENCHMARK_SETS)
        raise GameError(
            f"no benchmark set {name!r}: the sets are {known} (with or without 'Test_')"
        )
    return list(_read(short))


@lru_cache(maxsize=len(BENCHMARK_SETS))
def _read(short: str) -> tuple[tuple[str, int], ...]:
    text = (resources.files(__package__) / "data" / f"Test_{short}").read_text("ascii")
    positions = []
    for line in text.splitlines():
        if line.strip():
            moves, score = line.split()
            positions.append((moves, int(score)))
    return tuple(positions)
