"""Connect Four, solved and played: everything beyond the rules of the game.

The rules live in :mod:`gamelib.games.connect_four` (Lesson 7). This package holds:

=================  ===================================================================
``bitboard``       a position seen from the player to move, the board's masks, threats
``table``          the solver's transposition table of ``(flag, value, move)`` entries
``solver``         :class:`Solver`: exact scores, Lesson 8's negamax with null windows
``book``           the opening book: every 7 x 6 position with 12 discs, looked up
``heuristic``      :func:`connect_four_heuristic`, the one Connect Four heuristic
``player``         :func:`connect_four_move`: tactics, the solver, then Lesson 6's search
``cli``            ``python -m gamelib.connect_four``: solve, analyze, move from the shell
``benchmarks``     :func:`benchmark_positions`: the standard test sets, shipped as data
=================  ===================================================================

It imports no user-interface library. ``SearchTimeout`` and the table's flags belong to
the search layer: import them from :mod:`gamelib.search.common` and
:mod:`gamelib.search.bounded`.
"""

from gamelib.connect4.benchmarks import BENCHMARK_SETS, benchmark_positions
from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.connect4.player import connect_four_move, connect_four_move_values
from gamelib.connect4.score import score_to_moves
from gamelib.connect4.solver import Solver

__all__ = [
    "BENCHMARK_SETS",
    "Solver",
    "benchmark_positions",
    "connect_four_heuristic",
    "connect_four_move",
    "connect_four_move_values",
    "score_to_moves",
]
