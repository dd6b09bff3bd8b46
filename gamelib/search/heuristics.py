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
  cell, plus (with less weight) two discs and two empty cells.

Both counts are differences of "mine minus theirs", squashed into (-1, 1) with
``x / (k + |x|)``, which keeps the order of the counts, is 0 for a balanced position
and never reaches +-1.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

from gamelib.game import GameError, Player
from gamelib.games import ConnectFour, TicTacToe, TicTacToeBitboard
from gamelib.games.connect_four import C4State
from gamelib.games.tictactoe import LINES, Board
from gamelib.search.common import AnyGame, Heuristic

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


def connect_four_heuristic(game: ConnectFour) -> Heuristic:
    """A threat-counting heuristic for Connect Four boards of ``game``'s size.

    For every *window* of four cells in a line (across, up or diagonal) the function
    looks at the discs in it. A window without the opponent's discs that holds three of
    the player's discs is a *three* (one disc from a four), with two it is a *two*.
    The estimate for ``player`` is::

        x = (threes - opponent's threes) + (twos - opponent's twos) / 4
        h = x / (4 + |x|)                   # squashed into (-1, 1)

    Returns ``h(state, player)``, for the states of ``game`` and its players "X" and "O".

    >>> game = ConnectFour()
    >>> h = connect_four_heuristic(game)
    >>> state = ConnectFour.from_moves("44553")  # X has three on the bottom row
    >>> round(h(state, "X"), 3), round(h(state, "O"), 3)
    (0.304, -0.304)
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"connect_four_heuristic needs a ConnectFour game, got {game!r}")
    windows = _windows(game)
    first_player, second_player = game.players

    def heuristic(state: Hashable, player: Player) -> float:
        first, second = cast(C4State, state)
        if player == first_player:
            mine, theirs = first, second
        elif player == second_player:
            mine, theirs = second, first
        else:
            raise GameError(f"unknown player {player!r}: Connect Four's players are 'X' and 'O'")
        x = 0.0
        for window in windows:
            own, other = (mine & window).bit_count(), (theirs & window).bit_count()
            if other == 0:
                x += _WEIGHT[own]
            elif own == 0:
                x -= _WEIGHT[other]
        return squash(x, 4.0)

    return heuristic


_WEIGHT = (0.0, 0.0, 0.25, 1.0, 0.0)
"""The weight of a window by the number of one player's discs in it (and none of the other's).
A full window (4) is a win, found by the search itself, so it counts nothing here."""


def _windows(game: ConnectFour) -> list[int]:
    """The bitmasks of all lines of four cells on ``game``'s board."""
    windows = []
    for col in range(game.cols):
        for row in range(game.rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < game.cols and 0 <= r < game.rows for c, r in cells):
                    windows.append(sum(1 << (c * game.height + r) for c, r in cells))
    return windows


def heuristic_for(game: AnyGame) -> Heuristic:
    """The heuristic this package uses for ``game``: open lines for tic-tac-toe, threats
    for Connect Four, and :func:`zero` for any other game."""
    if isinstance(game, (TicTacToe, TicTacToeBitboard)):
        return tictactoe_open_lines
    if isinstance(game, ConnectFour):
        return connect_four_heuristic(game)
    return zero
