"""Positions the checkers test on: breadth-first and seeded random samples of a game, and
how a report shows a state."""

from __future__ import annotations

import random
from collections.abc import Hashable

from gamelib.exercises.report import show
from gamelib.games import Nim
from gamelib.search.common import AnyGame

# ---------------------------------------------------------------------------------------------
# Positions to test on
# ---------------------------------------------------------------------------------------------


def reachable(game: AnyGame, limit: int | None = None) -> list[Hashable]:
    """The states reachable from ``game.start`` in breadth-first order (at most ``limit``)."""
    seen = {game.start}
    order = [game.start]
    for state in order:  # the list grows while we walk it: a queue without popping
        if limit is not None and len(order) >= limit:
            break
        if game.finished(state):
            continue
        for child in game.next_states(state, game.to_move(state)):
            if child not in seen:
                seen.add(child)
                order.append(child)
    return order if limit is None else order[:limit]


def sample_positions(game: AnyGame, limit: int = 400, seed: int = 1) -> list[Hashable]:
    """Up to ``limit`` distinct positions of ``game``: half from breadth-first search near
    the start, the rest from random games played with ``random.Random(seed)``, so that
    late and finished positions are included."""
    positions = reachable(game, limit // 2)
    seen = set(positions)
    rng = random.Random(seed)
    for _ in range(10 * limit):
        if len(positions) >= limit:
            break
        state = game.start
        while not game.finished(state):
            state = game.play(state, rng.choice(game.moves(state)))
            if state not in seen:
                seen.add(state)
                positions.append(state)
    return positions[:limit]


def show_state(game: AnyGame, state: Hashable) -> str:
    """A state for a report: its repr, and for a board game the picture below it."""
    if isinstance(game, Nim):
        return show(state)
    try:
        picture = game.render(state)
    except Exception:  # not a state of this game: the repr must do
        return show(state)
    return f"{show(state)}\n{picture}"

