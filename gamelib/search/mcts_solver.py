"""MCTS-Solver's part of Monte-Carlo tree search (:mod:`gamelib.search.mcts`, ``solve=True``;
Winands, Björnsson and Saito, 2008): proofs of exact values going up the tree after each
iteration (:func:`prove`), values seen by the player who chooses (:func:`for_chooser`), and
the root moves that the proofs allow the search to choose (:func:`allowed_moves`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gamelib.search.mcts import MCTSNode

__all__ = ["allowed_moves", "for_chooser", "prove"]


def for_chooser(child: MCTSNode, value: float) -> float:
    """``value``, a value for the player to move in ``child``, for the player choosing at
    its parent: ``-value`` (negamax), or ``value`` where that player moves again in
    ``child``."""
    parent = child.parent
    if parent is not None and parent.player == child.player:
        return value
    return -value


def prove(path: Sequence[MCTSNode], top: float = 1) -> list[MCTSNode]:
    """MCTS-Solver's step after backpropagation: prove what the last iteration's
    ``path`` now proves, bottom up, and return the nodes newly proven.

    ``top`` is the game's best result (+1; a TreeGame's ``value_range`` top). A node is
    proven won (``top``) when a child is proven won for it (``-top`` for the opponent, or
    ``top`` where it moves again: :func:`for_chooser`), and proven at the best of its
    children's values, seen so, when every move has a child and all are proven.
    Precondition: a finished node on ``path`` is proven already (at its utility). It
    stops at the first node left unproven: the nodes above it depend on it."""
    proved = []
    for node in reversed(path):
        if node.proven is None:
            values = [None if c.proven is None else for_chooser(c, c.proven)
                      for c in node.children]
            if top in values:
                node.proven = top
            elif node.untried or None in values:
                break
            else:
                node.proven = max(v for v in values if v is not None)
            proved.append(node)
    return proved


def allowed_moves(proofs: dict[Hashable, float | None]) -> list[Hashable]:
    """The tried root moves the proofs allow (values for the player to move at the root).

    Without proofs: all. Else, with ``best`` the best proof: the moves proven at ``best``
    alone if it is above 0 (a win); otherwise those and the unproven moves, except that when
    ``best`` is below 0 (a loss) and a move is unproven, the unproven moves alone."""
    proven = [v for v in proofs.values() if v is not None]
    if not proven:
        return list(proofs)
    best = max(proven)
    unproven = [m for m, v in proofs.items() if v is None]
    if best > 0:
        return [m for m, v in proofs.items() if v == best]
    if best < 0 and unproven:
        return unproven
    return [m for m, v in proofs.items() if v is None or v == best]
