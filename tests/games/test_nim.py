"""Exact facts about Nim: the reachable states, the moves, and Bouton's theorem."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import pytest
from helpers import reachable

from gamelib.games import Nim
from gamelib.games.nim import NimState


def expected_states(start: tuple[int, ...]) -> set[NimState]:
    """Heaps h (each at most its start size) after k moves, for every k that can get there.

    k is at least the number of heaps that shrank (one move each) and at most the
    number of objects taken (one each); every k in between works, so both turns are
    possible exactly when more objects were taken than heaps were touched.
    """
    states = set()
    for heaps in itertools.product(*(range(size + 1) for size in start)):
        taken = sum(start) - sum(heaps)
        touched = sum(h < s for h, s in zip(heaps, start, strict=True))
        for moves in range(touched, taken + 1):
            states.add((heaps, moves % 2))
    return states


@pytest.mark.parametrize(("heaps", "count"), [((1, 2, 3), 40), ((3, 4, 5), 232), ((2, 0), 4)])
def test_reachable_states(heaps: tuple[int, ...], count: int) -> None:
    game = Nim(heaps)
    states = set(reachable(game))
    assert states == expected_states(heaps)
    assert len(states) == count


def test_moves_and_next_states_of_the_start() -> None:
    game = Nim((1, 2, 3))
    assert game.moves(game.start) == [(0, 1), (1, 1), (1, 2), (2, 1), (2, 2), (2, 3)]
    assert game.next_states(game.start, "A") == [
        ((0, 2, 3), 1),
        ((1, 1, 3), 1),
        ((1, 0, 3), 1),
        ((1, 2, 2), 1),
        ((1, 2, 1), 1),
        ((1, 2, 0), 1),
    ]
    assert len(Nim().moves(Nim().start)) == 3 + 4 + 5


@pytest.mark.parametrize("heaps", [(1, 2, 3), (3, 4, 5), (1, 1), (2, 5, 7, 0)])
def test_bouton_the_mover_wins_iff_the_nim_sum_is_not_zero(heaps: tuple[int, ...]) -> None:
    """A memoized negamax over the rules agrees with Bouton's theorem in every state."""
    game = Nim(heaps)
    values: dict[NimState, int] = {}

    def value(state: NimState) -> int:  # for the player to move
        if state not in values:
            player = game.to_move(state)
            if game.finished(state):
                values[state] = game.utility(state, player)
            else:
                values[state] = max(-value(c) for c in game.next_states(state, player))
        return values[state]

    for state in reachable(game):
        nim_sum = reduce(xor, state[0])
        assert value(state) == (1 if nim_sum else -1)


def test_render_and_from_text() -> None:
    game = Nim()
    state = game.play(game.play(game.start, (2, 5)), (0, 1))
    assert game.render(state) == "1: || (2)\n2: |||| (4)\n3:  (0)\nto move: A"
    assert game.from_text(game.render(state)) == state == ((2, 4, 0), 0)
    assert game.finished(((0, 0, 0), 1))
    assert game.utility(((0, 0, 0), 1), "A") == 1  # A took the last object
    assert game.utility(((0, 0, 0), 0), "A") == -1
