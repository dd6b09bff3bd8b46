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
* :func:`connect_four_heuristic` counts *threats* in the spirit of the lecture's
  exercise: windows of four cells holding three discs of one player and one empty
  cell, plus (with less weight) two discs and two empty cells. It lives in
  :mod:`gamelib.connect4.heuristic` and is re-exported here:

  >>> from gamelib.games import ConnectFour
  >>> h = connect_four_heuristic(ConnectFour())
  >>> state = ConnectFour.from_moves("44553")  # X has three on the bottom row
  >>> round(h(state, "X"), 3), round(h(state, "O"), 3)
  (0.304, -0.304)

Both counts are differences of "mine minus theirs", squashed into (-1, 1) with
``x / (k + |x|)``, which keeps the order of the counts, is 0 for a balanced position
and never reaches +-1.
"""

from __future__ import annotations

from collections.abc import Hashable

from gamelib.connect4.heuristic import Heuristic, connect_four_heuristic
from gamelib.connect4.heuristic import _windows as _windows  # tests read it here
from gamelib.game import GameError, Player
from gamelib.games import ConnectFour, TicTacToe, TicTacToeBitboard
from gamelib.games.tictactoe import LINES, Board
from gamelib.search.common import AnyGame

__all__ = [
    "Heuristic",
    "zero",
    "tictactoe_open_lines",
    "connect_four_heuristic",
    "heuristic_for",
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


def heuristic_for(game: AnyGame) -> Heuristic:
    """The heuristic this package uses for ``game``: open lines for tic-tac-toe, threats
    for Connect Four, and :func:`zero` for any other game."""
    if isinstance(game, (TicTacToe, TicTacToeBitboard)):
        return tictactoe_open_lines
    if isinstance(game, ConnectFour):
        return connect_four_heuristic(game)
    return zero
