"""Watching a Monte-Carlo tree search from its root, iteration by iteration.

:class:`RootWatch` is an observer for :func:`~gamelib.search.mcts.mcts`: Lesson 9's chart of
the trap and ``benchmarks/mcts_trap.py`` read from it how the root's moves fare as the search
goes on, in one run instead of one run per checkpoint.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

from gamelib.search.mcts import Iteration

__all__ = ["RootWatch"]


class RootWatch:
    """An observer for :func:`mcts` that keeps how the root's moves fare as the search
    goes on: after each iteration counted in ``checkpoints``, the visits and proofs of
    every root move, without stopping or rerunning the search.

    ``moves`` are the root's legal moves in the game's order (``game.moves(state)``: the
    search expands the root's children in that order, so its k-th child is ``moves[k]``).
    After the search, ``visits[n]`` maps each move to its visits after ``n`` iterations
    (for each ``n`` of ``checkpoints`` the search reached), ``proofs[n]`` to its proven
    value for the player to move at the root or None, and ``proven_at`` maps each move
    proven (MCTS-Solver) to the iteration that proved it. The counts are those of
    :class:`MCTSResult` after a search of ``n`` iterations with the same seed.

    >>> from gamelib.games import TicTacToe
    >>> from gamelib.search.mcts import mcts
    >>> game = TicTacToe()
    >>> watch = RootWatch(game.moves(game.start), [9, 100])
    >>> _ = mcts(game, game.start, iterations=100, seed=1, observer=watch)
    >>> sorted(watch.visits), sum(watch.visits[9].values()), sum(watch.visits[100].values())
    ([9, 100], 9, 100)
    """

    scores_wanted: Final = False
    """It reads no UCT scores: the search gets them without recording them, in less time
    (:class:`~gamelib.search.mcts.Iteration`'s ``scores`` are then empty)."""

    def __init__(self, moves: Sequence[Hashable], checkpoints: Sequence[int]) -> None:
        self.moves: Final = list(moves)
        self.checkpoints: Final = frozenset(checkpoints)
        self.visits: dict[int, dict[Hashable, int]] = {}
        self.proofs: dict[int, dict[Hashable, float | None]] = {}
        self.proven_at: dict[Hashable, int] = {}
        self.iterations = 0
        self._ids: dict[int, Hashable] = {}     # a root child's node id -> its move
        self._visits = dict.fromkeys(self.moves, 0)
        self._proofs: dict[Hashable, float | None] = dict.fromkeys(self.moves)

    def __call__(self, iteration: Iteration) -> None:
        """Count one iteration of the search (the search calls it)."""
        self.iterations += 1
        path = iteration.path
        if iteration.expanded is not None and len(path) == 2:
            self._ids[iteration.expanded] = self.moves[len(self._ids)]
        if len(path) > 1:
            self._visits[self._ids[path[1]]] += 1
        for node, value in iteration.proven:
            if node in self._ids:
                move = self._ids[node]
                self._proofs[move] = -value
                self.proven_at[move] = self.iterations
        if self.iterations in self.checkpoints:
            self.visits[self.iterations] = dict(self._visits)
            self.proofs[self.iterations] = dict(self._proofs)
