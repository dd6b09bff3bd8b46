"""The rules and memories of the player's heuristic search (its third layer).

:mod:`gamelib.connect4.player` searches with Lesson 6's iterative deepening and Lesson 7's
heuristic. That search starts from a position checked at the player's door and reaches
every other state by legal moves, so it can use Connect Four's rules without their
per-call checks (:class:`SearchRules`), try the centre columns first, and remember within
one move what the heuristic and the forced-move test said about each position
(:func:`remembered`, :func:`remembered_forced`). This module imports no user-interface
library.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import Final

from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.game import Player
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import AnyGame, Heuristic
from gamelib.search.depth_limited import ForcedMove

__all__ = ["MEMORY", "SearchRules", "board_heuristic", "remembered", "remembered_forced",
           "search_rules"]


class SearchRules(ConnectFour):
    """Connect Four's rules for the states the heuristic search makes itself.

    The search starts from the position checked at the door and reaches every other
    state by legal moves, so the per-call checks of :class:`ConnectFour` (is this a
    state? is the move legal?) can only ever pass: these methods give the same answers
    without them. Only the player who just moved can have four in a row.
    """

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__(rows, cols)
        self.centre_order = sorted(range(cols), key=lambda col: abs(2 * col - (cols - 1)))

    def finished(self, state: C4State) -> bool:
        first, second = state
        mask = first | second
        return mask == self.full or self.has_four(first if mask.bit_count() & 1 else second)

    def to_move(self, state: C4State) -> Player:
        return self.players[(state[0] | state[1]).bit_count() & 1]

    def moves(self, state: C4State) -> list[int]:
        mask = state[0] | state[1]
        top = self.top_masks
        return [col for col in range(self.cols) if not mask & top[col]]

    def play(self, state: C4State, move: int) -> C4State:
        first, second = state
        mask = first | second
        disc = (mask + self.bottom_masks[move]) & self.column_masks[move]
        return (first, second | disc) if mask.bit_count() & 1 else (first | disc, second)

    def centre_first(self, game: AnyGame, state: Hashable,
                     moves: list[Hashable]) -> list[Hashable]:
        """The ``order`` of the search: centre columns first (they lie in the most lines)."""
        return [col for col in self.centre_order if col in moves]


@functools.cache
def search_rules(rows: int, cols: int) -> SearchRules:
    return SearchRules(rows, cols)


MEMORY: Final = 1 << 18
"""How many positions' estimates (and forced moves) one move's heuristic search
remembers, at most."""


def remembered(heuristic: Heuristic) -> Heuristic:
    """``heuristic``, remembering its value for each position it was asked about.

    Many lines of play reach the same position (a transposition: 4 then 5 and 5 then 4),
    so the search asks about many positions more than once: about half of the calls in a
    search of depth 7. The value for ``"O"`` is minus the value for ``"X"`` (exactly:
    the heuristic negates the points before it squashes them), so one number per
    position serves both. At most :data:`MEMORY` positions are kept.
    """
    values: dict[Hashable, float] = {}

    def answer(state: Hashable, player: Player) -> float:
        value = values.get(state)
        if value is None:
            value = heuristic(state, "X")
            if len(values) < MEMORY:
                values[state] = value
        return value if player == "X" else -value

    return answer


def remembered_forced(forced: ForcedMove) -> ForcedMove:
    """``forced``, remembering its answer for each position, as :func:`remembered`:
    the search asks at every position it meets, transpositions included."""
    moves: dict[Hashable, Hashable | None] = {}
    unknown = object()

    def answer(state: Hashable) -> Hashable | None:
        move = moves.get(state, unknown)
        if move is unknown:
            move = forced(state)
            if len(moves) < MEMORY:
                moves[state] = move
        return move  # a move or None: never ``unknown`` here

    return answer


@functools.cache
def board_heuristic(rows: int, cols: int) -> Heuristic:
    """:func:`connect_four_heuristic` for one board size, built once and reused."""
    return connect_four_heuristic(ConnectFour(rows, cols))
