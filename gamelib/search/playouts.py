"""Playout policies for Monte-Carlo tree search: how a playout picks its moves.

A policy is a function ``policy(game, state, rng) -> move`` (:data:`PlayoutPolicy`) that
:func:`~gamelib.search.mcts.mcts` calls for every move of a playout, from the node it
expanded to the end of the game. :func:`random_policy` is UCT's classic choice; Lesson 9
also uses :func:`tactical_policy`, which wins at once when it can and blocks an immediate
threat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from gamelib.search.common import AnyGame, wins_at_once
from gamelib.search.door import NoNextState

__all__ = ["PlayoutPolicy", "random_policy", "tactical_policy"]

PlayoutPolicy = Callable[[AnyGame, Hashable, random.Random], Hashable]
"""``policy(game, state, rng) -> move``: the move a playout makes in the running ``state``."""


def random_policy(game: AnyGame, state: Hashable, rng: random.Random) -> Hashable:
    """A legal move of ``state`` drawn uniformly at random with ``rng``."""
    moves: list[Hashable] = game.moves(state)
    if not moves:   # a running state without moves (the playout asks only running ones)
        raise NoNextState(state)
    return rng.choice(moves)


def tactical_policy(game: AnyGame, state: Hashable, rng: random.Random) -> Hashable:
    """A move that wins at once if there is one; else a random move after which the
    opponent cannot win at once (this blocks an immediate threat), if there is one;
    else any random move. Ties are drawn with ``rng``."""
    player = game.to_move(state)
    moves: list[Hashable] = game.moves(state)
    if not moves:   # a running state without moves (the playout asks only running ones)
        raise NoNextState(state)
    after = [game.play(state, m) for m in moves]
    wins: list[Hashable] = [m for m, s in zip(moves, after, strict=True)
            if game.finished(s) and game.utility(s, player) == 1]
    if wins:
        return rng.choice(wins)
    safe: list[Hashable] = [m for m, s in zip(moves, after, strict=True)
                            if not wins_at_once(game, s)]
    return rng.choice(safe or moves)
