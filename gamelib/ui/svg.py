"""Boards as SVG pictures: the same drawing as on a canvas, kept in the saved notebook.

An ipycanvas canvas only shows while a kernel runs it, so a saved notebook (or one
viewed on a website) shows an empty space where the board was. :func:`board_svg`
draws the board on a :class:`~gamelib.ui.canvas.RecordingCanvas` and translates the
recorded calls into SVG, which the notebook stores as text::

    >>> from gamelib.games import ConnectFour
    >>> picture = board_svg(ConnectFour(), ConnectFour.from_moves("4453"), last_move=2)
    >>> picture.svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="440"')
    True

Evaluating ``picture`` in a cell shows it. The translation covers exactly the calls of
:class:`~gamelib.ui.canvas.CanvasLike`; ``fill_text``'s ``max_width`` is dropped (SVG
cannot shrink text only when it is too long). A picture also carries the same drawing as
PNG (:func:`~gamelib.ui.picture.png_from_calls`), which untrusted notebooks show where they
hide SVG, and a sentence for its plain-text form::

    >>> picture
    Connect Four board: X to move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelib.game import Game, Player
from gamelib.ui.boards import DEFAULT_SIZE, board_for
from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.drawing import describe_board, draw_position
from gamelib.ui.picture import BoardPicture

__all__ = ["board_svg"]

def board_svg(
    game: Game[Any, Any],
    state: Any = None,
    *,
    last_move: Any | None = None,
    size: int = DEFAULT_SIZE,
    status: Sequence[str] | None = None,
    hints: Mapping[Any, float] | None = None,
    status_player: Player | None = None,
) -> BoardPicture:
    """An SVG picture of ``state`` (default: the start), drawn as the live board draws it.

    ``status`` replaces the default status line (whose turn, or the result), and
    ``status_player`` the player whose token goes beside it; ``last_move`` and
    ``hints`` are shown as on the live board. Raises GameError for a bad ``size`` or
    ``status``.
    """
    drawing = draw_position(board_for(game, size), state, RecordingCanvas, last_move=last_move,
                            status=status, hints=hints, status_player=status_player)
    return BoardPicture(drawing, describe_board(game, state, status))

