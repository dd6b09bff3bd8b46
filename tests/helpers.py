"""Helpers shared by several test modules (import them with ``from helpers import ...``).

pytest puts this folder on ``sys.path`` for the test modules in it, so a plain import works.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any


def reachable(game: Any) -> list[Hashable]:
    """Every state reachable from ``game.start``, each once, in breadth-first order.

    ``next_states`` is asked for every state, finished ones included: by the Game protocol
    they have none, so a game that offers moves after the end shows up in the count.
    Written here, independently of gamelib's searches, so that the tests can count and
    compare against it.
    """
    states, seen = [game.start], {game.start}
    for state in states:  # the list grows while we walk it: a queue without popping
        for n in game.next_states(state, game.to_move(state)):
            if n not in seen:
                seen.add(n)
                states.append(n)
    return states
