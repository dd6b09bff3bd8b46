"""The examples in the docstrings of the game modules run and print what they show."""

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
]
# Modules with examples must keep some: a docstring emptied by mistake fails here.
EXAMPLES_AT_LEAST = {
    "gamelib.game": 2,
    "gamelib.games.tictactoe": 6,
    "gamelib.games.tictactoe_bitboard": 3,
    "gamelib.games.connect_four": 5,
    "gamelib.games.nim": 2,
}


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, verbose=False, report=True)
    assert result.failed == 0
    assert result.attempted >= EXAMPLES_AT_LEAST.get(name, 0)
