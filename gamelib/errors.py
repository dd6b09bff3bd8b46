"""The errors of gamelib's games, and how their messages show what was given.

A game, a search or a play session refuses bad input with a :class:`GameError` whose
message says what was wrong and what is allowed; :func:`describe_text` shows the offending
value in it, shortened so that the message stays readable. :mod:`gamelib.game` re-exports all four
names, so ``from gamelib.game import GameError`` works as well.

This module imports nothing from gamelib.
"""

from __future__ import annotations

import re

__all__ = ["GameError", "IllegalMoveError", "MoveFormatError", "describe_text"]

_LONG_NUMBER = re.compile(r"\d{41,}")
"""A run of digits too long to read in a message (``10**400`` given as a move, a delay...)."""


def _shorten_numbers(text: str) -> str:
    """``text`` with every run of more than 40 digits cut to its first ten, an ellipsis and
    its length: ``1000000000… (401 digits)``."""
    return _LONG_NUMBER.sub(lambda m: f"{m.group()[:10]}… ({len(m.group())} digits)", text)


class GameError(ValueError):
    """Base class of the errors a game raises for bad input.

    It is a :class:`ValueError`, so ``except ValueError`` catches it too. Its message
    says what was wrong and what is allowed; a number of more than 40 digits in it is
    shortened to its first digits and its length, so that a message never echoes a
    400-digit value.
    """

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (_shorten_numbers(args[0]),)
        super().__init__(*args)


class IllegalMoveError(GameError):
    """A move that ``play`` refuses: not a move of this game at all (wrong type, off the
    board), or one that the rules forbid in the given state (a taken cell, a full
    column, any move once the game is over)."""


class MoveFormatError(GameError):
    """Text that is not a move in the game's notation."""


def describe_text(text: object, limit: int = 20) -> str:
    """``repr`` of user input, shortened so that an error message stays readable (also
    for an int too long for ``repr``, and for an object whose ``repr`` fails)."""
    try:
        shown = repr(text)
    except ValueError:  # an int of more than 4,300 digits (sys.set_int_max_str_digits)
        if isinstance(text, int):
            return f"an int of about {int(text.bit_length() * 0.30103) + 1:,} digits"
        return f"a {type(text).__name__}"
    except Exception:  # noqa: BLE001 - a user's object whose __repr__ raises
        return f"a {type(text).__name__}"
    if len(shown) > limit + 2:
        shown = shown[:limit] + "…" + shown[-1]
    return shown
