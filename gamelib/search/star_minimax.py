"""*-minimax (Ballard, 1983): alpha-beta pruning carried through chance nodes (Star1).

Expectiminimax (:mod:`gamelib.search.expectiminimax`) looks at every outcome of every
chance node. When values are bounded, here by the game's range ``[L, U]`` (-1 to +1), a
chance node can stop early: after outcomes of total probability ``q`` with weighted sum
``s``, its value lies between ``s + (1 - q) L`` and ``s + (1 - q) U``. If that interval
is below alpha or above beta, the rest cannot matter. Each outcome ``i`` of probability
``p`` is searched with the window that would make the node's value cross alpha or beta::

    alpha_i = (alpha - s - (1 - q - p) U) / p      beta_i = (beta - s - (1 - q - p) L) / p

Player nodes are alpha-beta's, with values for the first player (max where it moves, min
where the second does). Alpha-beta's three cases hold: the result is the exact value
inside the window, at most alpha when the value is at most alpha, at least beta when it is
at least beta. The search keeps no cache, so it is compared with a tree search of the same
kind (``memo=False`` counts).
"""

from __future__ import annotations

from collections.abc import Hashable

from gamelib.game import CHANCE, chance_outcomes
from gamelib.search.common import AnyGame, check_game, check_window
from gamelib.search.door import NoNextState, search_door
from gamelib.search.stats import Stats

__all__ = ["star1", "expectiminimax_tree"]


@search_door
def star1(game: AnyGame, state: Hashable, alpha: float = -1.0, beta: float = 1.0, *,
          stats: Stats | None = None) -> float:
    """The value of ``state`` for the first player by Star1, in the window ``alpha < beta``
    (within -1 to +1, the values of the games), with alpha-beta's three cases.

    ``stats``, if given, counts ``calls``, ``terminal`` and ``cutoffs`` (at player and at
    chance nodes). The game's states must not repeat (the search keeps no cache). Raises
    :class:`GameError` for a bad window and as the other searches do for a broken game.
    """
    check_game(game)
    check_window(alpha, beta)
    stats = Stats() if stats is None else stats
    first, low, high = game.players[0], -1.0, 1.0

    def value(s: Hashable, a: float, b: float) -> float:
        stats.calls += 1
        mover = game.to_move(s)
        if mover == CHANCE:
            total, seen = 0.0, 0.0
            for p, n in chance_outcomes(game, s):
                p = float(p)
                rest = 1.0 - seen - p
                child_a = max(low, (a - total - rest * high) / p)
                child_b = min(high, (b - total - rest * low) / p)
                v = value(n, child_a, child_b)
                total, seen = total + p * v, seen + p
                if v <= child_a and total + (1.0 - seen) * high <= a:
                    stats.cutoffs += 1
                    return total + (1.0 - seen) * high
                if v >= child_b and total + (1.0 - seen) * low >= b:
                    stats.cutoffs += 1
                    return total + (1.0 - seen) * low
            return total
        if game.finished(s):
            stats.terminal += 1
            return float(game.utility(s, first))
        successors = game.next_states(s, mover)
        if not successors:
            raise NoNextState(s)
        if mover == first:
            best = low
            for n in successors:
                best = max(best, value(n, max(a, best), b))
                if best >= b:
                    stats.cutoffs += 1
                    break
            return best
        best = high
        for n in successors:
            best = min(best, value(n, a, min(b, best)))
            if best <= a:
                stats.cutoffs += 1
                break
        return best

    with stats.timer():
        return value(state, float(alpha), float(beta))


@search_door
def expectiminimax_tree(game: AnyGame, state: Hashable, *, stats: Stats | None = None) -> float:
    """Expectiminimax's value of ``state`` for the first player without a cache: every
    node of the tree visited (``stats.calls``), the baseline :func:`star1` prunes."""
    check_game(game)
    stats = Stats() if stats is None else stats
    first = game.players[0]

    def value(s: Hashable) -> float:
        stats.calls += 1
        mover = game.to_move(s)
        if mover == CHANCE:
            return sum(float(p) * value(n) for p, n in chance_outcomes(game, s))
        if game.finished(s):
            stats.terminal += 1
            return float(game.utility(s, first))
        values = [value(n) for n in game.next_states(s, mover)]
        if not values:
            raise NoNextState(s)
        return max(values) if mover == first else min(values)

    with stats.timer():
        return value(state)
