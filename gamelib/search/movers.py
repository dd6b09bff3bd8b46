"""Who moves: the one rule every search follows to know whose turn it is.

The players need not take turns: ``to_move`` decides, and a search flips the sign of a value
only where the player to move changes (a player who moves twice keeps its sign). A game whose
own class says ``turns_alternate = True`` spares the searches that question.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from gamelib.game import GameError, Player, describe_text
from gamelib.search.common import AnyGame

__all__ = ["opponents", "turns_alternate", "mover_rule"]


class _Opponents(dict[Player, Player]):
    """:func:`opponents`' table: a look-up of a name that is not a player says so."""

    def __missing__(self, player: Player) -> Player:
        raise GameError(f"to_move() returned {describe_text(player)}, which is not a player: "
                        f"this game's players are {', '.join(map(repr, self))}")


def opponents(game: AnyGame) -> dict[Player, Player]:
    """Each player of ``game`` mapped to the other: the searches' inner loops look the
    opponent of the player to move up here (a dict look-up, not a call of
    :func:`~gamelib.game.other`). Looking up a name that is not a player (what a broken
    ``to_move`` returned) raises :class:`GameError`.

    >>> from gamelib.games import TicTacToe
    >>> opponents(TicTacToe())
    {'X': 'O', 'O': 'X'}
    """
    first, second = game.players
    return _Opponents({first: second, second: first})


def turns_alternate(game: AnyGame) -> bool:
    """Whether ``game``'s own class promises that the players take turns: a class
    attribute ``turns_alternate = True`` in the class itself, not inherited (a subclass
    may change who moves, so it must say so again).

    The searches follow ``to_move``: in every running state they ask who moves and flip
    the sign of a value only where the mover changes, so a game where a player moves
    twice gets its exact value. For a game that promises to alternate they take the
    opponent of the last mover as the player to move, without asking: the same values,
    one call fewer per state.

    >>> from gamelib.games import TicTacToe
    >>> class Custom(TicTacToe): pass
    >>> turns_alternate(TicTacToe()), turns_alternate(Custom())
    (True, False)
    """
    return vars(type(game)).get("turns_alternate") is True


def mover_rule(game: AnyGame) -> Callable[[Hashable, Player], Player]:
    """``who_moves(state, expected)``: the player to move in the running ``state``, which
    a move of ``expected``'s opponent reached. The one place where a search decides who
    moves: ``expected`` itself for a game that promises to alternate
    (:func:`turns_alternate`), else what ``game.to_move(state)`` says (the player who
    moved last, where they move again). A search compares the answer with ``expected``
    and flips the sign of a value only where they differ.

    >>> from gamelib.games import TicTacToe
    >>> mover_rule(TicTacToe())(TicTacToe().start, "X")
    'X'
    """
    if turns_alternate(game):
        return _expected
    to_move = game.to_move
    return lambda state, expected: to_move(state)


def _expected(state: Hashable, expected: Player) -> Player:
    """:func:`mover_rule` of a game whose players take turns."""
    return expected
