"""What every board shares: sizes, colours, text, the status band, the frame of ``draw``.

The boards of :mod:`gamelib.ui.boards` are built on :class:`BoardView` with the helpers
here (:func:`snap`, :func:`draw_text`, :func:`value_colour`, ...), which the search
pictures of :mod:`gamelib.ui.search_svg` use too; :class:`TextBoard` draws any other
game as text. :func:`position_status` and :func:`draw_position` draw one
position with its status line, for ``show_board`` and ``board_svg``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, TypeVar

from gamelib.game import Game, GameError, Player, describe_text
from gamelib.search.common import is_number
from gamelib.search.stats import Priors
from gamelib.session import format_value, winner
from gamelib.ui.canvas import CanvasLike, Rect, batch

__all__ = [
    "BoardView", "TextBoard", "Palette", "MIN_SIZE", "MAX_SIZE", "DEFAULT_SIZE",
    "position_status", "describe_board", "draw_position", "FONT_FAMILY", "css_font", "snap",
    "check_size",
    "value_colour", "hint_label", "clear_canvas", "draw_text", "draw_status_band",
    "status_height", "finite",
]

MIN_SIZE: Final = 240
MAX_SIZE: Final = 1200
DEFAULT_SIZE: Final = 440
"""Board width in pixels: 440 reads well on a projector and fits a notebook cell."""

FONT_FAMILY: Final = "'Helvetica Neue', Helvetica, Arial, sans-serif"


class Palette:
    """The colours of every board (CSS colour strings)."""

    BACKGROUND: Final = "#fbf8f1"
    INK: Final = "#2b2d42"
    MUTED: Final = "#8d99ae"
    HIGHLIGHT: Final = "#ffe8a3"
    STATUS_BAND: Final = "#eef1f6"
    WIN_LINE: Final = "#14161f"
    CROSS: Final = "#d1495b"
    CIRCLE: Final = "#1f6fb2"
    FRAME: Final = "#1f4e9c"
    FRAME_EDGE: Final = "#163a75"
    HOLE: Final = "#f3f6fb"
    RED: Final = "#e63946"
    RED_RIM: Final = "#a4161a"
    YELLOW: Final = "#ffd23f"
    YELLOW_RIM: Final = "#c99700"
    RING: Final = "#1d1d1d"
    TOKEN: Final = "#e07a5f"
    TOKEN_RIM: Final = "#9c4a32"
    GHOST: Final = "#c5cad3"
    GOOD: Final = "#2a9d8f"
    NEUTRAL: Final = "#6c757d"
    BAD: Final = "#d62828"


def css_font(px: float, bold: bool = True) -> str:
    """The CSS font of the boards' text, ``px`` pixels high: ``'bold 14px ...'``."""
    return f"{'bold ' if bold else ''}{round(px)}px {FONT_FAMILY}"


def snap(value: float) -> float:
    """Round a coordinate to 0.1 px: the calls stay short and exactly reproducible."""
    return round(value, 1)


def check_size(size: object) -> int:
    """``size`` itself if it is a whole number from MIN_SIZE to MAX_SIZE; else GameError."""
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise GameError(
            f"size must be a whole number of pixels from {MIN_SIZE} to {MAX_SIZE}, got {size!r}"
        )
    return size


def value_colour(value: float) -> str:
    """The colour of a value: good (above 0) for the player it is for, neutral or bad."""
    if value > 0:
        return Palette.GOOD
    if value < 0:
        return Palette.BAD
    return Palette.NEUTRAL


def hint_label(hints: Mapping[Any, float], value: float) -> tuple[str, str]:
    """How a board writes one of ``hints``: ``(text, colour)``. A value as
    :func:`~gamelib.session.format_value` in :func:`value_colour`; a guide's prior
    (:class:`~gamelib.search.stats.Priors`) as a share, "42%", in the neutral colour."""
    if isinstance(hints, Priors):
        return f"{value:.0%}", Palette.NEUTRAL
    return format_value(value), value_colour(value)


def clear_canvas(canvas: CanvasLike, width: float, height: float) -> None:
    """Clear ``canvas``, reset its alpha, dashes and line ends, and paint the background."""
    canvas.clear()
    canvas.global_alpha = 1.0
    canvas.set_line_dash([])
    canvas.line_cap = "round"
    canvas.line_join = "round"
    canvas.fill_style = Palette.BACKGROUND
    canvas.fill_rect(0, 0, width, height)


def draw_text(
    canvas: CanvasLike,
    text: str,
    x: float,
    y: float,
    *,
    px: float,
    colour: str = Palette.INK,
    align: str = "center",
    bold: bool = True,
    max_width: float | None = None,
) -> None:
    """Write ``text`` with its middle at height ``y``, aligned on ``x`` by ``align``
    (``max_width``: the canvas shrinks longer text to that width)."""
    canvas.font = css_font(px, bold)
    canvas.fill_style = colour
    canvas.text_align = align
    canvas.text_baseline = "middle"
    if max_width is None:
        canvas.fill_text(text, snap(x), snap(y))
    else:
        canvas.fill_text(text, snap(x), snap(y), snap(max_width))


def draw_status_band(
    canvas: CanvasLike,
    rect: Rect,
    lines: Sequence[str],
    token: str | None,
    token_rim: str | None = None,
) -> None:
    """The band below a board: a token of the player concerned, then up to two lines
    (a single line is centred in the band, so that it never looks half empty)."""
    canvas.fill_style = Palette.STATUS_BAND
    canvas.fill_rect(snap(rect.x), snap(rect.y), snap(rect.width), snap(rect.height))
    pad = rect.height * 0.16
    x = rect.x + pad
    # One line sits in the middle of the band; a second one goes below it.
    first_y = rect.y + rect.height * (0.32 if len(lines) >= 2 else 0.5)
    second_y = rect.y + rect.height * 0.72
    big = rect.height * 0.30
    small = rect.height * 0.24
    if token is not None and lines:
        radius = big * 0.45
        canvas.fill_style = token
        canvas.fill_circle(snap(x + radius), snap(first_y), snap(radius))
        if token_rim is not None:
            canvas.stroke_style = token_rim
            canvas.line_width = snap(max(1.0, radius * 0.18))
            canvas.stroke_circle(snap(x + radius), snap(first_y), snap(radius))
        x += 2 * radius + pad * 0.6
    room = rect.right - pad - x
    if len(lines) >= 1:
        draw_text(canvas, lines[0], x, first_y, px=big, align="left", max_width=room)
    if len(lines) >= 2:
        draw_text(
            canvas,
            lines[1],
            rect.x + pad,
            second_y,
            px=small,
            colour=Palette.INK,
            align="left",
            bold=False,
            max_width=rect.width - 2 * pad,
        )


def status_height(size: int) -> int:
    """Height of the status band below a board ``size`` pixels wide."""
    return round(size * 0.16)


G = TypeVar("G")
"""The type of game a board draws."""
M = TypeVar("M")
"""The type of that game's moves."""


class BoardView(Generic[G, M]):
    """A board: what the play controller needs from one, and the frame of :meth:`draw`.

    Every board here is one: it knows its game and size, maps clicks to moves and back
    (:meth:`move_at`, :meth:`move_rect`), names the players, and draws a position.
    :meth:`draw` clears the canvas, lets the board paint the position (:meth:`_paint`),
    then writes the status band; a subclass paints its own game, maps its own clicks,
    sets :attr:`click_help` and may colour the status token (:meth:`_token`).
    """

    click_help: ClassVar[str]
    """How to make a move by clicking, e.g. ``'click an empty cell'``."""

    def __init__(self, game: G, width: int, height: int, status_area: Rect) -> None:
        """A ``width`` x ``height`` board for ``game``, its status band in ``status_area``."""
        self.game: Final = game
        """The game the board draws."""
        self.width: Final = width
        """Canvas width in pixels."""
        self.height: Final = height
        """Canvas height in pixels, the status band included."""
        self._status_area: Final = status_area

    @property
    def status_area(self) -> Rect:
        """Where :meth:`draw` writes the status band, in canvas pixels."""
        return self._status_area

    def status_token(self, player: Player) -> tuple[str | None, str | None]:
        """Fill and rim colour of ``player``'s token beside the status (None: no token)."""
        return self._token(player)

    def move_at(self, x: float, y: float, state: Any) -> M | None:
        """The move a click at ``(x, y)`` means in ``state``; None off the board."""
        raise NotImplementedError

    def move_rect(self, move: M, state: Any) -> Rect:
        """The rectangle one clicks to make ``move`` in ``state``."""
        raise NotImplementedError

    def player_label(self, player: Player) -> str:
        """``player``'s name, with its colour where marks are coloured: ``'X (red)'``.

        Here the player's own name, e.g. ``'X'``.
        """
        return player

    def draw(
        self,
        canvas: CanvasLike,
        state: Any,
        *,
        last_move: M | None = None,
        status: Sequence[str] = (),
        hints: Mapping[Any, float] | None = None,
        status_player: Player | None = None,
    ) -> None:
        """Paint ``state`` on ``canvas`` in one batch, then the status band below it.

        ``last_move`` is highlighted and ``hints`` (values of moves for the player to
        move) are written where the board has room for them; ``status`` is up to two
        lines for the band, beside the token of ``status_player`` (none if None).
        """
        with batch(canvas):
            clear_canvas(canvas, self.width, self.height)
            self._paint(canvas, state, last_move, hints)
            token, rim = (None, None) if status_player is None else self._token(status_player)
            draw_status_band(canvas, self._status_area, status, token, rim)

    def _paint(
        self, canvas: CanvasLike, state: Any, last_move: M | None,
        hints: Mapping[Any, float] | None,
    ) -> None:
        """Paint the position itself on the cleared canvas."""
        raise NotImplementedError

    def _token(self, player: Player) -> tuple[str | None, str | None]:
        """Fill and rim colour of ``player``'s token in the status band (None: no token)."""
        return None, None


def finite(*values: object) -> bool:
    """True if every value is a finite number (a huge whole number is not: it overflows)."""
    try:
        return all(isinstance(v, (int, float)) and math.isfinite(v) for v in values)
    except OverflowError:
        return False


# -- any other game ----------------------------------------------------------------------


class TextBoard(BoardView[Game[Any, Any], Any]):
    """The plain-text ``game.render(state)`` on a canvas; moves are typed, not clicked.

    :meth:`draw` writes the text in a monospaced font, then the status.
    """

    click_help = "this board takes typed moves only: type yours in the Move box"

    def __init__(self, game: Game[Any, Any], size: int = DEFAULT_SIZE) -> None:
        """A board ``size`` pixels wide for any game that follows the Game protocol."""
        self.size: Final = check_size(size)
        self.board_height: Final = round(size * 0.75)
        self.status: Final = Rect(0, self.board_height, size, status_height(size))
        super().__init__(game, size, round(self.board_height + self.status.height), self.status)

    def move_at(self, x: float, y: float, state: Any = None) -> None:
        """Always None: a text board has nothing to click."""
        return None

    def move_rect(self, move: Any, state: Any = None) -> Rect:
        """The whole text area (no move has a place of its own here)."""
        return Rect(0, 0, self.width, self.board_height)

    def _paint(
        self, canvas: CanvasLike, state: Any, last_move: Any | None,
        hints: Mapping[Any, float] | None,
    ) -> None:
        lines = str(self.game.render(state)).split("\n")
        longest = max(1, max(len(line) for line in lines))
        px = min(self.board_height * 0.8 / max(1, len(lines)), self.size * 0.9 / (0.62 * longest))
        canvas.font = f"{round(px)}px monospace"
        canvas.fill_style = Palette.INK
        canvas.text_align = "left"
        canvas.text_baseline = "middle"
        top = (self.board_height - px * 1.2 * len(lines)) / 2
        for k, line in enumerate(lines):
            canvas.fill_text(line, snap(self.size * 0.05), snap(top + (k + 0.5) * px * 1.2))


def position_status(game: Game[Any, Any], state: Any) -> tuple[list[str], Player | None]:
    """The status line for ``state`` on its own: whose turn it is, or the result.

    Returns the lines and the player whose token goes beside them (None for a draw).
    """
    if game.finished(state):
        won = winner(game, state)
        if won is None:
            return ["Game over: a draw."], None
        return [f"{won} wins!"], won
    player = game.to_move(state)
    return [f"{player} to move"], player


def describe_board(game: Game[Any, Any], state: Any, status: Sequence[str] | None) -> str:
    """The sentence of a board picture: ``'Tic-tac-toe board: X to move.'``, its status
    (``None``: :func:`position_status`'s) after the game's name."""
    if status is None:
        status = position_status(game, game.start if state is None else state)[0]
    words = " ".join(line.strip() for line in status if line.strip())
    if words and words[-1] not in ".!?…":
        words += "."
    return f"{game.name} board: {words}" if words else f"{game.name} board."


C = TypeVar("C", bound=CanvasLike)


def draw_position(
    board: BoardView[Any, Any],
    state: Any,
    new_canvas: Callable[[int, int], C],
    *,
    last_move: Any | None,
    status: Sequence[str] | None,
    hints: Mapping[Any, float] | None,
    status_player: Player | None,
) -> C:
    """The drawing of ``show_board`` and ``board_svg``, on ``new_canvas(width, height)``.

    ``state`` None is the start; ``status`` None is :func:`position_status`'s line and token.
    """
    if status is not None and (
        isinstance(status, str) or not isinstance(status, Sequence)
        or not all(isinstance(line, str) for line in status)
    ):
        raise GameError(f"status must be a list of lines of text (two fit), got "
                        f"{describe_text(status)}")
    if hints is not None and (not isinstance(hints, Mapping)
                              or not all(is_number(v) for v in hints.values())):
        raise GameError(f"hints must be a dict {{move: value}} of numbers, or None, got "
                        f"{describe_text(hints)}")
    game = board.game
    if state is None:
        state = game.start
    lines, token = position_status(game, state)
    if status is not None:
        lines, token = list(status), status_player
    canvas = new_canvas(board.width, board.height)
    board.draw(canvas, state, last_move=last_move, status=lines, hints=hints,
               status_player=token)
    return canvas
