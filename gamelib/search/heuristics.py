"""Heuristics: quick estimates of a state's value for a depth-limited search.

A depth-limited search stops at a fixed depth and asks a *heuristic* how good the
state there looks. A heuristic is a function ``h(state, player) -> float`` with a value
strictly between -1 and +1: near +1 when ``player`` seems to be winning, near -1 when
losing, 0 when balanced. The bounds are strict so that no estimate is ever mistaken for
a proven win (+1) or loss (-1).

The heuristics here are meant to be read:

* :func:`zero` knows nothing; with it a depth-limited search only sees wins and losses
  within its horizon (the lecture's "very crude approach").
* :func:`tictactoe_open_lines` counts the lines each player can still complete.
Connect Four's heuristic, which counts *threats* (windows of four cells one or two discs
short of a four), is :func:`gamelib.connect4.heuristic.connect_four_heuristic`.

The counts are differences of "mine minus theirs", squashed into (-1, 1) with
``x / (k + |x|)``, which keeps the order of the counts, is 0 for a balanced position
and never reaches +-1.
"""

from __future__ import annotations

from collections.abc import Hashable

from gamelib.game import GameError, Player
from gamelib.games import TicTacToe, TicTacToeBitboard
from gamelib.games.tictactoe import LINES, Board
from gamelib.search.common import AnyGame, Heuristic

__all__ = [
    "zero",
    "tictactoe_open_lines",
    "default_heuristic",
    "squash",
]



def squash(x: float, k: float = 1.0) -> float:
    """``x / (k + |x|)``: any number mapped into (-1, 1), keeping the order; ``k > 0``.

    ``k`` sets the scale: ``squash(k, k) == 0.5``.
    """
    return x / (k + abs(x))


def zero(state: Hashable, player: Player) -> float:
    """0.0 for every state: the heuristic that knows nothing."""
    return 0.0


def tictactoe_open_lines(state: Hashable, player: Player) -> float:
    """(lines open for ``player`` - lines open for the opponent) / 9, for tic-tac-toe.

    A line (row, column or diagonal) is *open* for a player if the opponent has no mark
    on it, so the player could still complete it. The difference lies between -8 and 8,
    so the result lies strictly inside (-1, 1). ``state`` may be a :class:`TicTacToe`
    board or a :class:`TicTacToeBitboard` int; ``player`` is ``"X"`` or ``"O"``.

    >>> game = TicTacToe()
    >>> tictactoe_open_lines(game.play(game.start, (1, 1)), "X")  # X took the centre
    0.4444444444444444
    """
    if player not in ("X", "O"):
        raise GameError(f"unknown player {player!r}: tic-tac-toe's players are 'X' and 'O'")
    board: Board = TicTacToeBitboard.to_board(state) if isinstance(state, int) else state  # type: ignore[assignment]
    opponent = "O" if player == "X" else "X"

    def free_of(mark: str) -> int:
        return sum(all(board[r][c] != mark for r, c in line) for line in LINES)

    return (free_of(opponent) - free_of(player)) / 9


def default_heuristic(game: AnyGame) -> Heuristic:
    """The heuristic the search layer knows for ``game``: :func:`tictactoe_open_lines` for
    tic-tac-toe, :func:`zero` for any other game.

    The searches use it when given none. Games with a heuristic of their own get it from
    the layer above: Connect Four's is chosen by :func:`gamelib.session.players.heuristic_for`.
    """
    if isinstance(game, (TicTacToe, TicTacToeBitboard)):
        return tictactoe_open_lines
    return zero
