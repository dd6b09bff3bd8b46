"""The Connect Four heuristic of Lesson 7: threats, weighed by what Connect Four theory knows.

This is the one Connect Four heuristic of the course: Lesson 7 builds it term by term and
measures each term by a match at a fixed depth (at forty games only the stacking rules show
a gain; the row parity and the centre rest on Allis's argument), exercises check students'
versions against it, and :func:`gamelib.session.players.heuristic_for` gives it to
the depth-limited searches.

The terms (Allis 1988, "A knowledge-based approach of Connect-Four"), each worth points to
the player who owns it and counted for both players, the opponent's points subtracted:

* a **threat** is an empty cell that would complete four of the player's discs in a line:
  :data:`THREAT` points. A cell counts once, however many lines it completes.
* **row parity**: when the board fills up column by column, the first player gets the odd
  rows (counted from 1 at the bottom) and the second player the even rows, so a threat on
  its owner's rows tends to come true: :data:`GOOD_ROW` points more.
* **stacking**: a threat directly above a threat of the opponent is worth nothing (the
  cell below it fills first: the opponent wins there, or the player blocks it and the
  opponent blocks the threat next); a threat directly above a threat of the same player
  is a *stacked pair*, which the opponent can never block both of: :data:`STACKED` points more.
* **twos**: a line of four with two of the player's discs and none of the opponent's,
  :data:`TWO` points.
* **centre**: a disc in the middle column lies in the most lines of four: :data:`CENTRE`
  points.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final, cast

from gamelib.connect4.bitboard import geometry
from gamelib.game import GameError, Player
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import Heuristic

__all__ = [
    "CENTRE",
    "COUNTS",
    "GOOD_ROW",
    "SCALE",
    "STACKED",
    "THREAT",
    "TWO",
    "connect_four_counts",
    "connect_four_heuristic",
]

THREAT: Final = 1.0
"""Points per threat of a player (an empty cell that would complete four of its discs)."""
GOOD_ROW: Final = 1.0
"""Points more for a threat on its owner's rows: odd rows for the first player, even rows
for the second (rows counted from 1 at the bottom)."""
STACKED: Final = 1.0
"""Points more for a threat directly above another threat of the same player."""
TWO: Final = 0.25
"""Points per line of four with two of the player's discs and none of the opponent's."""
CENTRE: Final = 0.5
"""Points per disc of the player in the middle column."""
SCALE: Final = 4.0
"""The points ``x`` become ``x / (SCALE + |x|)`` (:func:`gamelib.search.heuristics.squash`)."""


def connect_four_heuristic(game: ConnectFour) -> Heuristic:
    """The threat heuristic for Connect Four boards of ``game``'s size.

    For ``player`` and the opponent, the points of the module docstring are::

        points = THREAT   * threats   (not directly above an opponent's threat)
               + GOOD_ROW * those of them on the player's rows
               + STACKED  * those of them directly above another of them
               + TWO      * twos
               + CENTRE   * discs in the middle column

    and the estimate squashes the difference into (-1, 1)::

        x = points(player) - points(opponent)
        h = x / (4 + |x|)

    Returns ``h(state, player)``, for the states of ``game`` and its players "X" and "O";
    ``h(state, "O") == -h(state, "X")``. A board with an even number of columns has two
    middle columns.

    >>> game = ConnectFour()
    >>> h = connect_four_heuristic(game)
    >>> state = ConnectFour.from_moves("44553")  # X has three on the bottom row, two threats
    >>> round(h(state, "X"), 3), round(h(state, "O"), 3)
    (0.484, -0.484)
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"connect_four_heuristic needs a ConnectFour game, got {game!r}")
    first_player, second_player = game.players
    counts = connect_four_counts(game)

    def heuristic(state: Hashable, player: Player) -> float:
        (threats1, good1, stacked1, twos1, centre1,
         threats2, good2, stacked2, twos2, centre2) = counts(state)
        x = (THREAT * (threats1 - threats2)
             + GOOD_ROW * (good1 - good2)
             + STACKED * (stacked1 - stacked2)
             + TWO * (twos1 - twos2)
             + CENTRE * (centre1 - centre2))
        if player == second_player:
            x = -x
        elif player != first_player:
            raise GameError(f"unknown player {player!r}: Connect Four's players are 'X' and 'O'")
        return x / (SCALE + abs(x))

    return heuristic


COUNTS: Final = ("threats", "good-row threats", "stacked threats", "twos", "centre discs")
"""The names of the five counts of each player that :func:`connect_four_counts` gives."""


def connect_four_counts(game: ConnectFour) -> Callable[[Hashable], tuple[int, ...]]:
    """``counts(state)``: the ten whole numbers the heuristic weighs, for boards of
    ``game``'s size: the five :data:`COUNTS` of the first player (X), then those of the
    second (O). A threat directly above an opponent's threat is not counted (it is not
    *live*); a good-row threat and a stacked threat are live threats counted again.

    >>> counts = connect_four_counts(ConnectFour())
    >>> counts(ConnectFour.from_moves("44553"))  # X: two threats, both on row 1 (odd)
    (2, 2, 0, 2, 1, 0, 0, 0, 3, 1)
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"connect_four_counts needs a ConnectFour game, got {game!r}")
    full = game.full
    grid = geometry(game)
    threats, lane = grid.threats, grid.lane
    odd_rows = 0
    for row in range(0, game.rows, 2):   # rows 1, 3, 5, ... counted from 1
        odd_rows |= game.bottom << row
    even_rows = full & ~odd_rows
    middle = game.column_masks[game.cols // 2]
    if game.cols % 2 == 0:
        middle |= game.column_masks[game.cols // 2 - 1]
    twos = _twos_function(game)

    # Both players at once: the second player's board sits ``lane`` bits above the
    # first's in one int (see :class:`~gamelib.connect4.bitboard.Geometry`), so each
    # shift below serves both. The counts are those of the docstring, term by term.
    def counts(state: Hashable) -> tuple[int, ...]:
        first, second = cast(C4State, state)
        empty = full & ~(first | second)
        both = threats(first | second << lane)
        first_threats, second_threats = both & empty, (both >> lane) & empty
        first_live = first_threats & ~(second_threats << 1)
        second_live = second_threats & ~(first_threats << 1)
        first_twos, second_twos = twos(first, second)
        return (first_live.bit_count(), (first_live & odd_rows).bit_count(),
                (first_live & (first_live << 1)).bit_count(), first_twos,
                (first & middle).bit_count(),
                second_live.bit_count(), (second_live & even_rows).bit_count(),
                (second_live & (second_live << 1)).bit_count(), second_twos,
                (second & middle).bit_count())

    return counts


def _twos_function(game: ConnectFour) -> Callable[[int, int], tuple[int, int]]:
    """``twos(first, second)``: for each player, the lines of four with exactly two of its
    discs and none of the other's, counted with shifts for all lines of a direction at
    once, and for both players at once (the second player's board ``lane`` bits up)."""
    h = game.height
    lane = geometry(game).lane
    board = (1 << lane) - 1
    directions = []
    for step, (dc, dr) in ((1, (0, 1)), (h, (1, 0)), (h + 1, (1, 1)), (h - 1, (1, -1))):
        starts = 0   # the cells where a line of this direction starts and fits the board
        for col in range(game.cols):
            for row in range(game.rows):
                if 0 <= col + 3 * dc < game.cols and 0 <= row + 3 * dr < game.rows:
                    starts |= 1 << (col * h + row)
        directions.append((step, starts | starts << lane))

    def twos(first: int, second: int) -> tuple[int, int]:
        mine, free = first | second << lane, ~(second | first << lane)
        first_count = second_count = 0
        for d, starts in directions:
            pairs_free = free & (free >> d)
            lines = starts & pairs_free & (pairs_free >> 2 * d)
            # In the first two cells of a line: exactly one disc, or two; the last two
            # cells are the first two of the line two steps on.
            next_disc = mine >> d
            one_low, two_low = mine ^ next_disc, mine & next_disc
            one_high, two_high = one_low >> 2 * d, two_low >> 2 * d
            # two in one half and none in the other, or one in each half
            exactly_two = ((two_low ^ two_high) & ~(one_low | one_high)) | (one_low & one_high)
            found = exactly_two & lines
            first_count += (found & board).bit_count()
            second_count += (found >> lane).bit_count()
        return first_count, second_count

    return twos
