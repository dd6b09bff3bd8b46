"""The Connect Four heuristic of Lesson 7: count the windows that are one or two discs short.

This is the one Connect Four heuristic of the course: Lesson 7 builds it, exercises check
students' versions against it, and :func:`gamelib.session.players.heuristic_for` gives it to the
depth-limited searches.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

from gamelib.game import GameError, Player
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import Heuristic

__all__ = ["connect_four_heuristic"]

SCALE = 4.0
"""The count ``x`` becomes ``x / (SCALE + |x|)`` (:func:`gamelib.search.heuristics.squash`)."""


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
        return x / (SCALE + abs(x))

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
