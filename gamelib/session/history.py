"""What the session knows about the game it plays: the positions so far, and the game's
answers about each (:class:`History`), asked of the game once through :func:`ask`.

A :class:`History` is a value: playing a move or taking moves back gives a new one, so a
reader holding one never sees it change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

from gamelib.game import CHANCE, Game, GameError, Move, Player, State
from gamelib.search.common import is_number

__all__ = ["Facts", "GameFailed", "History", "ask", "describe_exception", "facts_of"]


class Facts(NamedTuple):
    """What the session needs to know about a position, asked of the game once."""

    finished: bool
    mover: Player | None   # the player to move (or CHANCE); None once finished
    winner: Player | None  # once finished: the winner, None for a draw


class GameFailed(Exception):
    """A method of the game raised: ``method`` names it, ``error`` is what it raised."""

    def __init__(self, method: str, error: BaseException) -> None:
        super().__init__(method, error)
        self.method, self.error = method, error

    def __str__(self) -> str:
        return f"the game's {self.method}() raised {describe_exception(self.error)}"


def describe_exception(error: BaseException) -> str:
    """``"ValueError: text"`` (or only the type's name when the text is empty)."""
    text = str(error)
    return type(error).__name__ + (f": {text}" if text else "")


def ask(game: Game[Any, Any], method: str, *args: Any, refusal: bool = False) -> Any:
    """Call the game's ``method``; :class:`GameFailed` if it raises anything, a
    ``BaseException`` such as ``SystemExit`` included (but with ``refusal``, a GameError,
    the game's refusal of an input, passes through)."""
    try:
        return getattr(game, method)(*args)
    except BaseException as error:  # noqa: BLE001 - a session reports it and lives on
        if refusal and isinstance(error, GameError):
            raise
        raise GameFailed(method, error) from error


def facts_of(game: Game[Any, Any], state: State) -> Facts:
    """Ask the game once whether ``state`` is over, who won or who is to move."""
    players = tuple(game.players)
    if ask(game, "finished", state):
        score = ask(game, "utility", state, players[0])
        if not is_number(score) or math.isnan(score):
            raise GameFailed("utility", GameError(f"it returned {score!r}, not a number"))
        return Facts(True, None, None if score == 0 else players[0 if score > 0 else 1])
    mover = ask(game, "to_move", state)
    if mover not in players and mover != CHANCE:   # CHANCE: the computer rolls the die
        raise GameFailed("to_move", GameError(f"it returned {mover!r}, not a player"))
    return Facts(False, mover, None)


@dataclass(frozen=True)
class History:
    """The positions from the start, the moves between them and their notation.

    ``states[0]`` is the start and ``states[i + 1]`` follows ``states[i]`` by
    ``moves[i]``, written ``texts[i]`` in the game's notation; ``facts[i]`` is what the
    game said about ``states[i]``.
    """

    states: tuple[State, ...]
    facts: tuple[Facts, ...]
    moves: tuple[Move, ...] = ()
    texts: tuple[str, ...] = ()

    @classmethod
    def begin(cls, game: Game[Any, Any]) -> History:
        """A history at ``game.start``; :class:`GameFailed` if the game fails on it."""
        return cls((game.start,), (facts_of(game, game.start),))

    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    @property
    def now(self) -> Facts:
        """The facts of the current position."""
        return self.facts[-1]

    @property
    def ply(self) -> int:
        """How many moves were played."""
        return len(self.moves)

    def push(self, move: Move, after: State, facts: Facts, text: str) -> History:
        """This history with ``move`` played, leading to ``after``."""
        return History(self.states + (after,), self.facts + (facts,),
                       self.moves + (move,), self.texts + (text,))

    def back_to(self, ply: int) -> History:
        """This history as it was after ``ply`` moves."""
        return History(self.states[: ply + 1], self.facts[: ply + 1],
                       self.moves[:ply], self.texts[:ply])
