"""The examples in the docstrings of the game and search modules and of gamelib.plots run.

(The examples of gamelib.exercises and gamelib.ui are run by their own test modules.)
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "gamelib.game",
    "gamelib.games",
    "gamelib.games.tictactoe",
    "gamelib.games.tictactoe_bitboard",
    "gamelib.games.connect_four",
    "gamelib.games.nim",
    "gamelib.games.tree",
    "gamelib.search.common",
    "gamelib.search.minimax",
    "gamelib.search.choice",
    "gamelib.search.memo",
    "gamelib.search.alphabeta",
    "gamelib.search.bounded",
    "gamelib.search.broken",
    "gamelib.search.depth_limited",
    "gamelib.search.heuristics",
    "gamelib.search.mcts",
    "gamelib.connect4.heuristic",
    "gamelib.session.players",
    "gamelib.plots",
]
# Modules with examples must keep some: a docstring emptied by mistake fails here.
EXAMPLES_AT_LEAST = {
    "gamelib.game": 2,
    "gamelib.games.tictactoe": 6,
    "gamelib.games.tictactoe_bitboard": 3,
    "gamelib.games.connect_four": 5,
    "gamelib.games.nim": 2,
    "gamelib.search.common": 2,
    "gamelib.search.minimax": 4,
    "gamelib.search.choice": 3,
    "gamelib.search.memo": 3,
    "gamelib.search.alphabeta": 6,
    "gamelib.search.bounded": 4,
    "gamelib.search.broken": 3,
    "gamelib.search.depth_limited": 4,
    "gamelib.search.heuristics": 2,
    "gamelib.connect4.heuristic": 4,
    "gamelib.session.players": 4,
    "gamelib.plots": 5,
}


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, verbose=False, report=True)
    assert result.failed == 0
    assert result.attempted >= EXAMPLES_AT_LEAST.get(name, 0)
