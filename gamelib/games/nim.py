"""Nim: players take turns removing objects from heaps; who takes the last one wins.

A state is ``(heaps, turn)``: a tuple of heap sizes and the index (0 or 1) of the
player to move. The turn must be part of the state, because the heaps alone do not
tell how many moves have been made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import Player, check_game_over, check_player, state_checked

__all__ = ["Nim", "NimState", "NimMove"]

NimState = tuple[tuple[int, ...], int]
"""``(heaps, turn)``: the heap sizes and the index of the player to move."""

NimMove = tuple[int, int]
"""``(heap, count)``: take ``count`` >= 1 objects from heap number ``heap`` (0-based)."""

_MOVE_PATTERN: Final = re.compile(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*")
_PICTURE: Final = "a position is one line per heap like '1: ||| (3)', then 'to move: A'"
_HEAP_LINE: Final = re.compile(r"([0-9]{1,2}): (\|*) \(([0-9]{1,2})\)")


class Nim:
    """Normal-play Nim on small heaps; ``"A"`` moves first.

    >>> game = Nim((1, 2))
    >>> game.play(game.start, game.parse_move("2,1"))
    ((1, 1), 1)
    """

    name: Final = "Nim"
    players: Final[tuple[Player, Player]] = ("A", "B")
    text_round_trips: Final = True
    turns_alternate: Final = True
    """A and B take turns (see :func:`gamelib.search.movers.turns_alternate`)."""

    def __init__(self, heaps: Sequence[int] = (3, 4, 5)) -> None:
        """A game whose start has the given heap sizes.

        ``heaps`` is a sequence of 1 to 8 whole numbers from 0 to 20, not all 0.
        Raises :class:`GameError` otherwise.
        """
        allowed = "heaps must be 1 to 8 whole numbers from 0 to 20, not all 0"
        if isinstance(heaps, (str, bytes)) or not isinstance(heaps, Sequence):
            raise GameError(f"{allowed}; got {describe_text(heaps)}")
        sizes = tuple(heaps)
        if (
            not 1 <= len(sizes) <= 8
            or not all(
                isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= 20 for h in sizes
            )
            or not any(sizes)
        ):
            raise GameError(f"{allowed}; got {describe_text(sizes, limit=40)}")
        self.heaps: Final[tuple[int, ...]] = sizes
        """The heap sizes at the start."""
        self.start: Final[NimState] = (sizes, 0)

    @state_checked
    def next_states(self, state: NimState, player: Player) -> list[NimState]:
        """The states after each move of ``player``, in :meth:`moves` order.

        Precondition: ``player == to_move(state)``. Raises :class:`GameError` when
        ``player`` is neither ``"A"`` nor ``"B"``, or when ``state`` is not a state.
        """
        check_player(self, player)
        heaps, turn = state
        return [
            (heaps[:h] + (size - n,) + heaps[h + 1 :], 1 - turn)
            for h, size in enumerate(heaps)
            for n in range(1, size + 1)
        ]

    @state_checked
    def finished(self, state: NimState) -> bool:
        """True iff every heap is empty.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        return not any(state[0])

    @state_checked
    def utility(self, state: NimState, player: Player) -> int:
        """+1 if ``player`` took the last object, else -1 (Nim has no draws).

        Raises :class:`GameError` when ``state`` is not finished or not a state, or
        ``player`` unknown.
        """
        check_game_over(self, state, player)
        last_mover = self.players[1 - state[1]]
        return 1 if player == last_mover else -1

    @state_checked
    def to_move(self, state: NimState) -> Player:
        """The player whose index is the state's turn.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        return self.players[state[1]]

    @state_checked
    def moves(self, state: NimState) -> list[NimMove]:
        """Every ``(heap, count)`` with ``1 <= count <= heaps[heap]``, heap by heap.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        heaps = state[0]
        return [(h, n) for h, size in enumerate(heaps) for n in range(1, size + 1)]

    @state_checked
    def play(self, state: NimState, move: NimMove) -> NimState:
        """The state after the player to move takes ``count`` from heap ``heap``.

        ``move`` is ``(heap, count)`` with a 0-based heap index. Raises
        :class:`IllegalMoveError` when it is not a pair of ints, names no heap, takes
        fewer than 1 or more than the heap holds, or when the game is over;
        :class:`GameError` when ``state`` is not a state.
        """
        heaps, turn = state
        if self.finished(state):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        if (
            not isinstance(move, tuple)
            or len(move) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in move)
        ):
            raise IllegalMoveError(
                f"{describe_text(move)} is not a move: a move is a pair (heap index, count) "
                "of whole numbers, e.g. (0, 2)"
            )
        heap, count = move
        if not 0 <= heap < len(heaps):
            raise IllegalMoveError(
                f"there is no heap index {heap}: heaps are 0 to {len(heaps) - 1} "
                f"(numbered 1 to {len(heaps)} in the notation)"
            )
        if not 1 <= count <= heaps[heap]:
            raise IllegalMoveError(
                f"cannot take {count} from heap {heap + 1}, which holds "
                f"{heaps[heap]}: take from 1 to {heaps[heap]}"
                if heaps[heap]
                else f"heap {heap + 1} is empty: take from a heap that is not"
            )
        new_heaps = heaps[:heap] + (heaps[heap] - count,) + heaps[heap + 1 :]
        return new_heaps, 1 - turn

    def parse_move(self, text: str) -> NimMove:
        """``'heap,count'``: heap numbered from 1, e.g. ``'2,3'`` takes 3 from heap 2.

        Raises :class:`MoveFormatError` unless the heap exists and the count is at
        least 1; whether the heap holds that many is for :meth:`play` to decide.
        """
        notation = (
            f"a move is written 'heap,count' with heap from 1 to {len(self.heaps)} "
            "and count at least 1, e.g. '1,2'"
        )
        if not isinstance(text, str):
            raise MoveFormatError(f"expected text, got {type(text).__name__}: {notation}")
        match = _MOVE_PATTERN.fullmatch(text) if len(text) <= 40 else None
        if match is None:
            raise MoveFormatError(f"{describe_text(text)} is not a move: {notation}")
        heap, count = int(match.group(1)), int(match.group(2))
        if not 1 <= heap <= len(self.heaps) or count < 1:
            raise MoveFormatError(f"{describe_text(text)} is out of range: {notation}")
        return heap - 1, count

    def format_move(self, move: NimMove) -> str:
        """The notation ``'heap,count'`` with the heap numbered from 1."""
        return f"{move[0] + 1},{move[1]}"

    @state_checked
    def render(self, state: NimState) -> str:
        """One line per heap, e.g. ``'2: ||| (3)'``, then whose turn it is.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        lines = [f"{i + 1}: {'|' * size} ({size})" for i, size in enumerate(state[0])]
        return "\n".join([*lines, f"to move: {self.to_move(state)}"])

    def from_text(self, text: str) -> NimState:
        """The state that :meth:`render` drew as ``text``.

        Raises :class:`GameError` unless ``text`` is such a picture, with as many heaps
        as this game has and none larger than at the start.
        """
        if not isinstance(text, str):
            raise GameError(f"expected text, got {type(text).__name__}: {_PICTURE}")
        *heap_lines, turn_line = text.split("\n")
        heaps: list[int] = []
        for number, line in enumerate(heap_lines, start=1):
            match = _HEAP_LINE.fullmatch(line)
            if match is None or int(match.group(1)) != number:
                raise GameError(f"{describe_text(line)} is not heap {number}: {_PICTURE}")
            bars, size = match.group(2), int(match.group(3))
            if len(bars) != size:
                raise GameError(f"heap {number} shows {len(bars)} bars but says {size}")
            heaps.append(size)
        mover = turn_line.removeprefix("to move: ")
        if mover == turn_line or mover not in self.players:
            raise GameError(f"{describe_text(turn_line)} does not say whose turn it is: {_PICTURE}")
        if len(heaps) != len(self.heaps) or any(
            h > start for h, start in zip(heaps, self.heaps, strict=True)
        ):
            raise GameError(
                f"heaps {tuple(heaps)} cannot arise in {self!r}: it has {len(self.heaps)} "
                "heaps, each at most as large as at the start"
            )
        return tuple(heaps), self.players.index(mover)


    def __repr__(self) -> str:
        return f"Nim({self.heaps})"
