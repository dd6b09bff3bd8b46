"""``@state_checked``: a bad state gets a GameError, a bug in a game's method its own error.

On methods that need their own scope, ``super()`` and closures:

The decorator recompiles a method with the guard inside it; a method that calls
``super()`` or reads a variable of an enclosing function needs the scope it was written
in, so it gets the wrapping guard instead. Either way the guard is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gamelib.game import GameError, state_checked
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard, TreeGame
from gamelib.search import choose_move, minimax
from gamelib.session import PlaySession


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


# -- a bug in a game's own method is that bug, with its line; a bad state is a bad state ----

def _bug(self: Any, *args: Any) -> Any:
    return [][len(args)]  # the student's bug: an IndexError on this very line


BUG_LINE = _bug.__code__.co_firstlineno + 1


def _with_bug(cls: type, method: str) -> Any:
    """An instance of a subclass of ``cls`` whose ``method`` has :func:`_bug`."""
    return type(f"My{cls.__name__}", (cls,), {method: _bug})()


DOORS = [
    # (game class, the subclass's buggy method, a call of a checked method that calls it)
    (TicTacToe, "finished", lambda g: g.moves(g.start)),
    (TicTacToe, "to_move", lambda g: g.play(g.start, (1, 1))),
    (TicTacToe, "_empty", lambda g: g.moves(g.start)),
    (TicTacToeBitboard, "to_move", lambda g: g.play(g.start, (1, 1))),
    (TicTacToeBitboard, "finished", lambda g: g.moves(g.start)),
    (Nim, "finished", lambda g: g.play(g.start, (0, 1))),
    (ConnectFour, "has_four", lambda g: g.finished(g.start)),
    (ConnectFour, "check_state", lambda g: g.to_move(g.start)),
    (TreeGame, "node", lambda g: g.moves(g.start)),
]


@pytest.mark.parametrize("cls, method, door", DOORS,
                         ids=[f"{c.__name__}.{m}" for c, m, _ in DOORS])
def test_a_bug_in_a_method_surfaces_with_its_line(cls: type, method: str,
                                                  door: Callable[[Any], Any]) -> None:
    game = _with_bug(cls, method)
    with pytest.raises(IndexError, match="list index out of range") as raised:
        door(game)
    lines = [(entry.path, entry.lineno + 1) for entry in raised.traceback]
    assert (Path(__file__), BUG_LINE) in lines   # the student's line, not a GameError


@pytest.mark.parametrize("cls", [TicTacToe, TicTacToeBitboard, Nim, ConnectFour, TreeGame])
def test_a_bad_state_keeps_its_message_at_every_checked_method(cls: type) -> None:
    game = cls()
    for method in ("finished", "to_move", "moves"):
        with pytest.raises(GameError, match="is not a state of"):
            getattr(game, method)(2.5)


def test_the_searches_and_the_session_pass_a_bug_on() -> None:
    buggy = _with_bug(TicTacToe, "finished")
    with pytest.raises(IndexError):
        minimax(buggy, buggy.start)
    with pytest.raises(IndexError):
        choose_move(buggy, buggy.start)
    with pytest.raises(GameError, match="raised IndexError: list index out of range"):
        PlaySession(buggy)
    # A bad state is still named as one, at the searches' doors.
    with pytest.raises(GameError, match="is not a state of Tic-tac-toe"):
        minimax(TicTacToe(), 2.5)
    with pytest.raises(GameError, match="this state is not valid: a tic-tac-toe state is"):
        choose_move(TicTacToe(), ((" ",) * 3,) * 2)
