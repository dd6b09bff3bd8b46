"""The vocabulary of a two-person, zero-sum game.

The lecture notes define a game as a six-tuple

    G = <States, s0, Players, nextStates, finished, utility>.

:class:`Game` is that six-tuple as a Python protocol, plus the few extra methods that
playing and searching need (whose turn it is, the legal moves, applying a move, and
reading and writing moves as text). A game object holds only constants; all that
changes during a game lives in the *state*, which is immutable and hashable so that a
plain ``dict`` can serve as a cache.

This module imports no user-interface library.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

__all__ = [
    "Game",
    "GameError",
    "IllegalMoveError",
    "MoveFormatError",
    "Player",
    "State",
    "Move",
    "Value",
    "check_player",
    "describe_text",
    "not_a_state",
    "other",
    "replay",
]

Player = str
"""A player's name, e.g. ``"X"``. ``game.players[0]`` moves first."""

State = Hashable
"""A game state: immutable and hashable (a tuple or an int)."""

Move = Hashable
"""A move in the game's own representation, e.g. ``(row, col)`` or a column index."""

Value = float
"""A value of a state for a player: -1 lost, 0 drawn, +1 won; estimates lie in between."""

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


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


@runtime_checkable
class Game(Protocol[S, M]):
    """A two-person, zero-sum game with perfect information.

    ``start``, ``players``, ``next_states``, ``finished`` and ``utility`` are the
    lecture notes' six-tuple; its set of states is left implicit, as everything
    reachable from ``start``. The other members serve play and search. A game object
    holds constants only: every method is a pure function of its arguments, and no
    method changes the state it is given.
    """

    # Read-only properties, so that a class constant, a ``Final`` attribute or an
    # attribute set in ``__init__`` all satisfy the protocol.

    @property
    def name(self) -> str:
        """The game's name for people, e.g. ``"Tic-tac-toe"``."""
        ...

    @property
    def players(self) -> tuple[Player, Player]:
        """The two players' names; ``players[0]`` moves first."""
        ...

    @property
    def start(self) -> S:
        """The state in which every game begins."""
        ...

    def next_states(self, state: S, player: Player) -> list[S]:
        """The states reachable when ``player`` moves in ``state``, in ``moves`` order.

        Precondition: ``player == to_move(state)``. Empty when ``state`` is finished.
        """
        ...

    def finished(self, state: S) -> bool:
        """True iff the game is over in ``state`` (a win or a draw)."""
        ...

    def utility(self, state: S, player: Player) -> int:
        """-1, 0 or +1: the result of the finished ``state`` for ``player``.

        Raises :class:`GameError` when ``state`` is not finished or ``player`` unknown.
        """
        ...

    def to_move(self, state: S) -> Player:
        """The player whose turn it is in ``state``."""
        ...

    def moves(self, state: S) -> list[M]:
        """The legal moves in ``state``, in a fixed order; empty when finished."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after the player to move makes ``move``; ``state`` is unchanged.

        Raises :class:`IllegalMoveError` when ``move`` is not legal in ``state``.
        """
        ...

    def parse_move(self, text: str) -> M:
        """The move written as ``text`` in the game's notation.

        Raises :class:`MoveFormatError` when ``text`` is not in that notation. Whether
        the move is legal in a given state is for :meth:`play` to decide.
        """
        ...

    def format_move(self, move: M) -> str:
        """``move`` in the game's notation; ``parse_move`` reads it back."""
        ...

    def render(self, state: S) -> str:
        """A plain-text picture of ``state``."""
        ...


def other(game: Game[S, M], player: Player) -> Player:
    """The opponent of ``player`` in ``game``.

    >>> from gamelib.games import TicTacToe
    >>> other(TicTacToe(), "X")
    'O'
    """
    first, second = game.players
    if player == first:
        return second
    if player == second:
        return first
    raise GameError(
        f"unknown player {describe_text(player)}: this game's players are {first!r} and {second!r}"
    )


def check_player(game: Game[S, M], player: object) -> None:
    """Raise :class:`GameError` unless ``player`` is one of ``game.players``."""
    if player not in game.players:
        raise GameError(
            f"unknown player {describe_text(player)}: this game's players are "
            f"{game.players[0]!r} and {game.players[1]!r}"
        )


def describe_text(text: object, limit: int = 20) -> str:
    """``repr`` of user input, shortened so that an error message stays readable."""
    shown = repr(text)
    if len(shown) > limit + 2:
        shown = shown[:limit] + "…" + shown[-1]
    return shown


def not_a_state(game: Game[S, M], state: object) -> GameError:
    """The error for ``state`` when it is not a state of ``game`` at all.

    A game raises it when a method finds that its ``state`` argument has the wrong type
    or shape (e.g. ``TicTacToe().play("x", (0, 0))``), rather than the ``TypeError``
    or ``IndexError`` that Python would raise deep inside. It is returned, not raised:

    >>> from gamelib.games import TicTacToe
    >>> what, allowed = str(not_a_state(TicTacToe(), "x")).split(": ")
    >>> what
    "'x' is not a state of Tic-tac-toe"
    >>> allowed
    'pass game.start or a state returned by play() or next_states()'
    """
    return GameError(
        f"{describe_text(state)} is not a state of {game.name}: "
        "pass game.start or a state returned by play() or next_states()"
    )


def replay(game: Game[S, M], moves: Sequence[M], state: S | None = None) -> S:
    """The state after playing ``moves`` one after another from ``state`` (default: start).

    Raises :class:`IllegalMoveError` at the first illegal move, naming its position.
    """
    current = game.start if state is None else state
    for index, move in enumerate(moves, start=1):
        try:
            current = game.play(current, move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {index} ({_show_move(game, move)}): {error}") from None
    return current


def _show_move(game: Game[S, M], move: M) -> str:
    """``move`` in the game's notation, or its ``repr`` when it is not a move at all."""
    try:
        return game.format_move(move)
    except (TypeError, ValueError, IndexError):
        return describe_text(move)
