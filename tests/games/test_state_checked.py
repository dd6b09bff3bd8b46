"""``@state_checked`` on methods that need their own scope: ``super()`` and closures.

The decorator recompiles a method with the guard inside it; a method that calls
``super()`` or reads a variable of an enclosing function needs the scope it was written
in, so it gets the wrapping guard instead. Either way the guard is the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamelib.game import GameError, state_checked
from gamelib.games import TicTacToe


class Subclassed(TicTacToe):
    @state_checked
    def finished(self, state: Any) -> bool:
        """The parent's answer, through super()."""
        return super().finished(state)


def local_game(bonus: int) -> Any:
    class Local(TicTacToe):
        @state_checked
        def score(self, state: Any) -> int:
            return bonus + len(state)

    return Local()


def test_a_method_calling_super_works_and_keeps_the_guard() -> None:
    game = Subclassed()
    assert game.finished(game.start) is False
    assert Subclassed.finished.__doc__ == "The parent's answer, through super()."
    with pytest.raises(GameError, match="'x' is not a state of Tic-tac-toe"):
        game.finished("x")


def test_a_method_reading_an_enclosing_variable_works_and_keeps_the_guard() -> None:
    assert local_game(7).score((1, 2)) == 9
    with pytest.raises(GameError, match="5 is not a state of Tic-tac-toe"):
        local_game(7).score(5)


def test_a_plain_method_is_still_recompiled_in_place() -> None:
    class Plain(TicTacToe):
        @state_checked
        def first_row(self, state: Any) -> Any:
            return state[0]

    assert Plain.first_row.__code__.co_filename == __file__  # its own code, no wrapper
    assert not hasattr(Plain.first_row, "__wrapped__")
    with pytest.raises(GameError, match="is not a state"):
        Plain().first_row(3)
