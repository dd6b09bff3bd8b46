"""The errors of gamelib's games, and how their messages show what was given.

A game, a search or a play session refuses bad input with a :class:`GameError` whose
message says what was wrong and what is allowed; :func:`describe_text` shows the offending
value in it, shortened so that the message stays readable. :mod:`gamelib.game` re-exports all four
names, so ``from gamelib.game import GameError`` works as well.

This module imports nothing from gamelib.
"""

from __future__ import annotations

__all__ = ["GameError", "IllegalMoveError", "MoveFormatError", "describe_text"]


class GameError(ValueError):
    """Base class of the errors a game raises for bad input.

    It is a :class:`ValueError`, so ``except ValueError`` catches it too. Its message
    says what was wrong and what is allowed.
    """


class IllegalMoveError(GameError):
    """A move that ``play`` refuses: not a move of this game at all (wrong type, off the
    board), or one that the rules forbid in the given state (a taken cell, a full
    column, any move once the game is over)."""


class MoveFormatError(GameError):
    """Text that is not a move in the game's notation."""


def describe_text(text: object, limit: int = 20) -> str:
    """``repr`` of user input, shortened so that an error message stays readable."""
    shown = repr(text)
    if len(shown) > limit + 2:
        shown = shown[:limit] + "…" + shown[-1]
    return shown
