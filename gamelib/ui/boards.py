"""Boards: where each move sits on a canvas, and how a state is drawn.

Every board has two halves:

* a **geometry**, pure arithmetic on pixels: :meth:`move_at` maps a click ``(x, y)``
  to the move it means (``None`` for a margin or outside the board) and
  :meth:`move_rect` maps a move to the rectangle one clicks to make it, so
  ``move_at(*move_rect(m, s).center, s) == m`` for every legal move ``m``;
* a **renderer**, :meth:`draw`, which paints a state on any :class:`~gamelib.ui.canvas.CanvasLike`
  in one batch. The same state and arguments always give the same calls, so a
  :class:`~gamelib.ui.canvas.RecordingCanvas` can stand in for the browser in tests.

What a board shows: the marks (crosses and circles; red and yellow discs in a blue
frame; tokens in rows), row and column numbers in the moves' own notation, the last
move highlighted, the winning line once the game is won, optional hint values, and
a status band of up to two lines below the board.

Clicks, game by game:

* tic-tac-toe: click a cell;
* Connect Four: click anywhere in a column (its number above the frame included);
* Nim: the heaps are rows of tokens; click a token to take it **and every token to
  its right**, so clicking a heap's first token takes the whole heap.

:func:`board_for` picks the board for a game; games it does not know get a
:class:`TextBoard` that shows ``game.render(state)`` and takes typed moves only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from gamelib.game import CHANCE, Game, GameError, Player
from gamelib.games import ConnectFour, Nim, RandomTurnTicTacToe, TicTacToe, TicTacToeBitboard
from gamelib.games.tictactoe import LINES, Board, Cell
from gamelib.session import check_game, format_value
from gamelib.ui.canvas import CanvasLike, LiveCanvas, RecordingCanvas, Rect
from gamelib.ui.drawing import (
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    BoardView,
    Palette,
    TextBoard,
    check_size,
    describe_board,
    draw_position,
    draw_text,
    finite,
    hint_label,
    position_status,
    snap,
    status_height,
)
from gamelib.ui.picture import BoardPicture, attach_picture
from gamelib.ui.still import display_with_still

__all__ = [
    "BoardView",
    "TicTacToeGeometry",
    "TicTacToeBoard",
    "RandomTurnBoard",
    "ConnectFourGeometry",
    "ConnectFourBoard",
    "NimGeometry",
    "NimBoard",
    "TextBoard",
    "board_for",
    "show_board",
    "position_status",
    "format_value",
    "check_game",
    "Palette",
    "MIN_SIZE",
    "MAX_SIZE",
    "DEFAULT_SIZE",
]


# -- tic-tac-toe -------------------------------------------------------------------------


class TicTacToeGeometry:
    """Where the cells of a tic-tac-toe board lie on a canvas ``size`` pixels wide.

    Row numbers sit in a strip on the left, column numbers in a strip on top, both
    1 to 3 as in the notation ``'row,col'``; the 3 x 3 grid fills the rest.
    """

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        """Raises GameError unless ``size`` is a whole number from MIN_SIZE to MAX_SIZE."""
        self.size: Final = check_size(size)
        self.label: Final = round(size * 0.09)
        """Width of the row-number strip and height of the column-number strip."""
        pad = round(size * 0.03)
        side = size - self.label - pad
        self.grid: Final = Rect(self.label, self.label, side, side)
        """The 3 x 3 playing area."""
        self.cell: Final = self.grid.width / 3
        self.board_height: Final = self.label + side + pad
        self.status: Final = Rect(0, self.board_height, size, status_height(size))
        self.width: Final = size
        self.height: Final = self.board_height + status_height(size)

    def cell_rect(self, cell: Cell) -> Rect:
        """The square of ``cell = (row, col)``, both 0-based."""
        row, col = cell
        x, y = self.grid.x + col * self.cell, self.grid.y + row * self.cell
        return Rect(x, y, self.cell, self.cell)

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The 0-based ``(row, col)`` under ``(x, y)``; None outside the grid."""
        if not finite(x, y) or not self.grid.contains(x, y):
            return None
        col = min(2, int((x - self.grid.x) // self.cell))
        row = min(2, int((y - self.grid.y) // self.cell))
        return row, col


class TicTacToeBoard(BoardView[TicTacToe | TicTacToeBitboard, Cell]):
    """Crosses and circles on a 3 x 3 grid, for TicTacToe and TicTacToeBitboard alike.

    :meth:`draw` paints the grid, the row and column numbers, the marks, the last move,
    the hints and the winning lines, then the status.
    """

    click_help = "click an empty cell"

    def __init__(self, game: TicTacToe | TicTacToeBitboard, size: int = DEFAULT_SIZE) -> None:
        """A board ``size`` pixels wide for ``game``; GameError for a bad size."""
        self.geometry: Final = TicTacToeGeometry(size)
        super().__init__(game, self.geometry.width, self.geometry.height, self.geometry.status)

    def marks(self, state: Any) -> Board:
        """The state as three rows of ``' '``, ``'X'``, ``'O'`` (either representation)."""
        if isinstance(self.game, TicTacToeBitboard):
            return TicTacToeBitboard.to_board(state)
        board: Board = state
        return board

    def move_at(self, x: float, y: float, state: Any = None) -> Cell | None:
        """The cell under ``(x, y)``, taken or not (the game judges legality); else None."""
        return self.geometry.cell_at(x, y)

    def move_rect(self, move: Cell, state: Any = None) -> Rect:
        """The square of the cell ``move``."""
        return self.geometry.cell_rect(move)

    def _paint(
        self, canvas: CanvasLike, state: Any, last_move: Cell | None,
        hints: Mapping[Any, float] | None,
    ) -> None:
        g = self.geometry
        board = self.marks(state)
        if last_move is not None:
            box = g.cell_rect(last_move)
            inset = g.cell * 0.06
            canvas.fill_style = Palette.HIGHLIGHT
            canvas.fill_rect(
                snap(box.x + inset), snap(box.y + inset),
                snap(box.width - 2 * inset), snap(box.height - 2 * inset),
            )
        canvas.stroke_style = Palette.INK
        canvas.line_width = snap(max(3.0, g.size * 0.012))
        for k in (1, 2):
            x = g.grid.x + k * g.cell
            y = g.grid.y + k * g.cell
            canvas.stroke_line(snap(x), snap(g.grid.y), snap(x), snap(g.grid.bottom))
            canvas.stroke_line(snap(g.grid.x), snap(y), snap(g.grid.right), snap(y))
        label_px = g.label * 0.5
        for k in range(3):
            middle = g.grid.x + (k + 0.5) * g.cell
            draw_text(canvas, str(k + 1), middle, g.label / 2, px=label_px, colour=Palette.MUTED)
            draw_text(canvas, str(k + 1), g.label / 2, middle, px=label_px, colour=Palette.MUTED)
        for row in range(3):
            for col in range(3):
                mark = board[row][col]
                if mark != " ":
                    self._mark(canvas, mark, g.cell_rect((row, col)))
        if hints:
            for move, value in sorted(hints.items(), key=lambda item: repr(item[0])):
                box = g.cell_rect(move)
                text, colour = hint_label(hints, value)
                draw_text(canvas, text, *box.center, px=g.cell * 0.26, colour=colour)
        for line in _complete_lines(board):
            self._win_line(canvas, line)

    def _token(self, player: Player) -> tuple[str | None, str | None]:
        return self._colour(player), None

    def _colour(self, mark: str) -> str:
        return Palette.CROSS if mark == self.game.players[0] else Palette.CIRCLE

    def _mark(self, canvas: CanvasLike, mark: str, box: Rect) -> None:
        cx, cy = box.center
        canvas.line_width = snap(box.width * 0.1)
        canvas.stroke_style = self._colour(mark)
        if mark == "X":
            d = box.width * 0.27
            canvas.stroke_line(snap(cx - d), snap(cy - d), snap(cx + d), snap(cy + d))
            canvas.stroke_line(snap(cx - d), snap(cy + d), snap(cx + d), snap(cy - d))
        else:
            canvas.stroke_circle(snap(cx), snap(cy), snap(box.width * 0.29))

    def _win_line(self, canvas: CanvasLike, line: tuple[Cell, Cell, Cell]) -> None:
        g = self.geometry
        (x1, y1), (x2, y2) = g.cell_rect(line[0]).center, g.cell_rect(line[2]).center
        length = math.hypot(x2 - x1, y2 - y1)
        ex, ey = (x2 - x1) / length * g.cell * 0.38, (y2 - y1) / length * g.cell * 0.38
        canvas.global_alpha = 0.85
        canvas.stroke_style = Palette.WIN_LINE
        canvas.line_width = snap(g.cell * 0.12)
        canvas.stroke_line(snap(x1 - ex), snap(y1 - ey), snap(x2 + ex), snap(y2 + ey))
        canvas.global_alpha = 1.0


def _complete_lines(board: Board) -> list[tuple[Cell, Cell, Cell]]:
    """Every line of three equal marks (a last move can complete two at once)."""
    found = []
    for line in LINES:
        (r0, c0), (r1, c1), (r2, c2) = line
        if board[r0][c0] != " " and board[r0][c0] == board[r1][c1] == board[r2][c2]:
            found.append(line)
    return found


# -- Connect Four ------------------------------------------------------------------------


class ConnectFourGeometry:
    """Where the columns and cells of a ``rows`` x ``cols`` Connect Four board lie.

    From top to bottom: a strip with the column numbers (1 to ``cols``), the blue
    frame holding the cells, a strip for hint values, the status band. A click
    anywhere from the number strip down to the bottom of the frame selects the column
    under it; the frame's side borders and everything else are no column.
    """

    def __init__(self, rows: int = 6, cols: int = 7, size: int = DEFAULT_SIZE) -> None:
        """GameError for a bad size; ``rows`` and ``cols`` as ConnectFour accepts them."""
        check_size(size)
        self.rows: Final = rows
        self.cols: Final = cols
        self.size: Final = size
        margin = round(size * 0.02)
        self.strip: Final = round(size * 0.07)
        """Height of the column-number strip above the frame and the hint strip below it."""
        usable = size - 2 * margin
        self.cell: Final = int(min(usable / (cols + 0.3), (usable - 2 * self.strip) / (rows + 0.3)))
        """Side of a cell's square, in whole pixels."""
        pad = round(self.cell * 0.15)
        frame_width = self.cell * cols + 2 * pad
        frame_height = self.cell * rows + 2 * pad
        self.frame: Final = Rect(
            (size - frame_width) // 2, margin + self.strip, frame_width, frame_height
        )
        self.grid: Final = Rect(
            self.frame.x + pad, self.frame.y + pad, self.cell * cols, self.cell * rows
        )
        """The cells only, without the frame's border."""
        self.numbers_y: Final = margin + self.strip / 2
        self.hints_y: Final = self.frame.bottom + self.strip / 2
        self.board_height: Final = int(self.frame.bottom) + self.strip + margin
        self.status: Final = Rect(0, self.board_height, size, status_height(size))
        self.width: Final = size
        self.height: Final = self.board_height + status_height(size)
        self.radius: Final = self.cell * 0.4
        """Radius of a disc (and of a hole)."""

    def column_rect(self, col: int) -> Rect:
        """The clickable strip of column ``col`` (0-based): number strip and frame height."""
        x = self.grid.x + col * self.cell
        top = self.frame.y - self.strip
        return Rect(x, top, self.cell, self.frame.bottom - top)

    def column_at(self, x: float, y: float) -> int | None:
        """The 0-based column under ``(x, y)``; None for the side borders and outside."""
        if not finite(x, y):
            return None
        top = self.frame.y - self.strip
        if not (self.grid.x <= x < self.grid.right and top <= y < self.frame.bottom):
            return None
        return min(self.cols - 1, int((x - self.grid.x) // self.cell))

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        """The centre of cell ``(row, col)``; row 0 is the bottom row."""
        return (
            self.grid.x + (col + 0.5) * self.cell,
            self.grid.y + (self.rows - 1 - row + 0.5) * self.cell,
        )


class ConnectFourBoard(BoardView[ConnectFour, int]):
    """Red and yellow discs in a blue frame; X plays red and moves first.

    :meth:`draw` paints the column numbers, the frame, the discs, a ring on the last
    disc, the winning lines and the hints, then the status.
    """

    click_help = "click a column (or use the column buttons)"

    def __init__(self, game: ConnectFour, size: int = DEFAULT_SIZE) -> None:
        """A board ``size`` pixels wide for ``game`` (any size ConnectFour supports)."""
        self.geometry: Final = ConnectFourGeometry(game.rows, game.cols, size)
        super().__init__(game, self.geometry.width, self.geometry.height, self.geometry.status)

    def player_label(self, player: Player) -> str:
        """The player's name and disc colour: ``'X (red)'`` or ``'O (yellow)'``."""
        return f"{player} (red)" if player == self.game.players[0] else f"{player} (yellow)"

    def move_at(self, x: float, y: float, state: Any = None) -> int | None:
        """The column under ``(x, y)``, full or not (the game judges legality); else None."""
        return self.geometry.column_at(x, y)

    def move_rect(self, move: int, state: Any = None) -> Rect:
        """The clickable strip of column ``move``."""
        return self.geometry.column_rect(move)

    def colours(self, player: Player) -> tuple[str, str]:
        """Fill and rim colour of ``player``'s discs."""
        if player == self.game.players[0]:
            return Palette.RED, Palette.RED_RIM
        return Palette.YELLOW, Palette.YELLOW_RIM

    def _token(self, player: Player) -> tuple[str | None, str | None]:
        return self.colours(player)

    def _paint(
        self, canvas: CanvasLike, state: Any, last_move: int | None,
        hints: Mapping[Any, float] | None,
    ) -> None:
        g = self.geometry
        game = self.game
        for col in range(g.cols):
            x = g.grid.x + (col + 0.5) * g.cell
            colour = Palette.INK if col == last_move else Palette.MUTED
            draw_text(canvas, str(col + 1), x, g.numbers_y, px=g.strip * 0.62, colour=colour)
        canvas.fill_style = Palette.FRAME
        f = g.frame
        canvas.fill_rect(snap(f.x), snap(f.y), snap(f.width), snap(f.height))
        canvas.stroke_style = Palette.FRAME_EDGE
        canvas.line_width = snap(max(2.0, g.cell * 0.05))
        canvas.stroke_rect(snap(f.x), snap(f.y), snap(f.width), snap(f.height))
        groups: dict[str | None, list[tuple[float, float]]] = {None: []}
        for player in game.players:
            groups[player] = []
        for col in range(g.cols):
            for row in range(g.rows):
                groups[game.cell(state, row, col)].append(g.cell_center(row, col))
        canvas.fill_style = Palette.HOLE
        for x, y in groups[None]:
            canvas.fill_circle(snap(x), snap(y), snap(g.radius))
        for player in game.players:
            disc_fill, disc_rim = self.colours(player)
            canvas.fill_style = disc_fill
            for x, y in groups[player]:
                canvas.fill_circle(snap(x), snap(y), snap(g.radius))
            canvas.stroke_style = disc_rim
            canvas.line_width = snap(g.cell * 0.05)
            for x, y in groups[player]:
                canvas.stroke_circle(snap(x), snap(y), snap(g.radius * 0.94))
        if last_move is not None and 0 <= last_move < g.cols:
            height = game.column_height(state, last_move)
            if height:
                x, y = g.cell_center(height - 1, last_move)
                canvas.stroke_style = Palette.RING
                canvas.line_width = snap(g.cell * 0.06)
                canvas.stroke_circle(snap(x), snap(y), snap(g.radius * 0.55))
        for start, end in _fours(game.winning_cells(state)):
            (x1, y1), (x2, y2) = g.cell_center(*start), g.cell_center(*end)
            for colour, width in ((Palette.HOLE, 0.26), (Palette.WIN_LINE, 0.14)):
                canvas.stroke_style = colour
                canvas.line_width = snap(g.cell * width)
                canvas.stroke_line(snap(x1), snap(y1), snap(x2), snap(y2))
        if hints:
            for col, value in sorted(hints.items(), key=lambda item: repr(item[0])):
                x = g.grid.x + (col + 0.5) * g.cell
                text, colour = hint_label(hints, value)
                draw_text(canvas, text, x, g.hints_y, px=g.strip * 0.55, colour=colour)


def _fours(cells: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The maximal runs of four or more ``cells`` in a line: (first cell, last cell)."""
    present = set(cells)
    runs = []
    for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row, col in sorted(present):
            if (row - d_row, col - d_col) in present:
                continue
            length = 1
            while (row + length * d_row, col + length * d_col) in present:
                length += 1
            if length >= 4:
                end = (row + (length - 1) * d_row, col + (length - 1) * d_col)
                runs.append(((row, col), end))
    return runs


# -- Nim ---------------------------------------------------------------------------------


class NimGeometry:
    """Where the tokens of each heap lie: heap ``h`` is row ``h``, tokens left to right.

    The layout is fixed by the starting heaps, so tokens never move: a token that has
    been taken leaves a dashed outline behind.
    """

    def __init__(self, heaps: Sequence[int], size: int = DEFAULT_SIZE) -> None:
        """GameError for a bad size; ``heaps`` as Nim accepts them."""
        check_size(size)
        self.heaps: Final = tuple(heaps)
        self.size: Final = size
        margin = round(size * 0.03)
        self.label: Final = round(size * 0.1)
        """Width of the heap-number column on the left and the count column on the right."""
        widest = max(max(self.heaps), 1)
        self.row: Final = int(min(size * 0.16, (size * 0.92 - 2 * margin) / len(self.heaps)))
        """Height of a heap's row, in whole pixels."""
        self.pitch: Final = int(min(self.row, (size - 2 * margin - 2 * self.label) / widest))
        """Distance between neighbouring tokens' centres, in whole pixels."""
        self.left: Final = margin + self.label
        self.top: Final = margin
        self.area: Final = Rect(
            self.left, self.top, self.pitch * widest, self.row * len(self.heaps)
        )
        self.board_height: Final = int(self.area.bottom) + margin
        self.status: Final = Rect(0, self.board_height, size, status_height(size))
        self.width: Final = size
        self.height: Final = self.board_height + status_height(size)
        self.radius: Final = min(self.pitch, self.row) * 0.38

    def slot(self, heap: int, index: int) -> Rect:
        """The clickable slot of token ``index`` (0 = leftmost) of heap ``heap`` (0-based)."""
        x, y = self.left + index * self.pitch, self.top + heap * self.row
        return Rect(x, y, self.pitch, self.row)

    def token_at(self, x: float, y: float) -> tuple[int, int] | None:
        """``(heap, index)`` of the slot under ``(x, y)``, or None where there is no slot."""
        if not finite(x, y) or not self.area.contains(x, y):
            return None
        heap = min(len(self.heaps) - 1, int((y - self.top) // self.row))
        index = int((x - self.left) // self.pitch)
        if index >= self.heaps[heap]:
            return None
        return heap, index


class NimBoard(BoardView[Nim, tuple[int, int]]):
    """Heaps as rows of tokens; click a token to take it and all tokens to its right.

    :meth:`draw` paints the heap numbers, the tokens, dashed outlines of the taken tokens
    (those taken by ``last_move`` in the highlight colour) and the counts, then the
    status. Nim's hints are too many for the board; the controller lists them as text.
    """

    click_help = "click a token: you take it and every token to its right"

    def __init__(self, game: Nim, size: int = DEFAULT_SIZE) -> None:
        """A board ``size`` pixels wide for ``game``."""
        self.geometry: Final = NimGeometry(game.heaps, size)
        super().__init__(game, self.geometry.width, self.geometry.height, self.geometry.status)

    def move_at(self, x: float, y: float, state: Any) -> tuple[int, int] | None:
        """``(heap, count)`` for a click on a remaining token; None elsewhere."""
        found = self.geometry.token_at(x, y)
        if found is None:
            return None
        heap, index = found
        left = state[0][heap]
        return (heap, left - index) if index < left else None

    def move_rect(self, move: tuple[int, int], state: Any) -> Rect:
        """The slot of the token one clicks to take ``count`` from ``heap``.

        Precondition: ``move`` is legal in ``state``; otherwise GameError.
        """
        heap, count = move
        if not (0 <= heap < len(state[0]) and 1 <= count <= state[0][heap]):
            raise GameError(f"{move!r} is not a legal move here, so it has no token to click")
        return self.geometry.slot(heap, state[0][heap] - count)

    def _paint(
        self, canvas: CanvasLike, state: Any, last_move: tuple[int, int] | None,
        hints: Mapping[Any, float] | None,
    ) -> None:
        g = self.geometry
        heaps = state[0]
        for heap, start in enumerate(g.heaps):
            middle = g.top + (heap + 0.5) * g.row
            draw_text(canvas, str(heap + 1), g.left - g.label / 2, middle, px=g.row * 0.36,
                  colour=Palette.MUTED)
            left = heaps[heap]
            fresh = 0
            if last_move is not None and last_move[0] == heap:
                fresh = last_move[1]
            canvas.fill_style = Palette.TOKEN
            for index in range(left):
                canvas.fill_circle(*self._centre(heap, index), snap(g.radius))
            canvas.stroke_style = Palette.TOKEN_RIM
            canvas.line_width = snap(max(1.5, g.radius * 0.12))
            for index in range(left):
                canvas.stroke_circle(*self._centre(heap, index), snap(g.radius))
            if start > left:
                canvas.set_line_dash([4, 4])
                for index in range(left, start):
                    is_fresh = index < left + fresh
                    canvas.stroke_style = (
                        Palette.TOKEN_RIM if is_fresh else Palette.GHOST
                    )
                    canvas.line_width = snap(
                        max(2.0, g.radius * (0.2 if is_fresh else 0.1))
                    )
                    canvas.stroke_circle(*self._centre(heap, index), snap(g.radius))
                canvas.set_line_dash([])
            count_x = g.left + g.pitch * max(max(g.heaps), 1) + g.label / 2
            draw_text(canvas, str(left), count_x, middle, px=g.row * 0.3, colour=Palette.INK,
                  bold=False)

    def _centre(self, heap: int, index: int) -> tuple[float, float]:
        x, y = self.geometry.slot(heap, index).center
        return snap(x), snap(y)


class RandomTurnBoard(TicTacToeBoard):
    """Random-turn tic-tac-toe: the tic-tac-toe board, and in its top left corner the coin
    with the mark of the player it chose (``?`` while it is in the air)."""

    def marks(self, state: Any) -> Board:
        """The board of the state ``(board, mover)``."""
        return state[0]  # type: ignore[no-any-return]

    def _paint(self, canvas: CanvasLike, state: Any, last_move: Any,
               hints: Mapping[Any, float] | None) -> None:
        super()._paint(canvas, state, last_move if isinstance(last_move, tuple) else None, hints)
        g, mover, centre = self.geometry, state[1], self.geometry.label / 2
        canvas.fill_style = Palette.YELLOW
        canvas.fill_circle(snap(centre), snap(centre), snap(g.label * 0.42))
        draw_text(canvas, "?" if mover == CHANCE else mover, centre, centre, px=g.label * 0.5,
                  colour=Palette.INK if mover == CHANCE else self._colour(mover))


def board_for(game: Game[Any, Any], size: int = DEFAULT_SIZE) -> BoardView[Any, Any]:
    """The board that draws ``game``: a tic-tac-toe, Connect Four or Nim board, else a TextBoard.

    Raises GameError when ``size`` is not a whole number from MIN_SIZE to MAX_SIZE.
    """
    if isinstance(game, (TicTacToe, TicTacToeBitboard)):
        return TicTacToeBoard(game, size)
    if isinstance(game, RandomTurnTicTacToe):
        return RandomTurnBoard(game, size)  # type: ignore[arg-type]
    if isinstance(game, ConnectFour):
        return ConnectFourBoard(game, size)
    if isinstance(game, Nim):
        return NimBoard(game, size)
    return TextBoard(game, size)


def show_board(
    game: Game[Any, Any],
    state: Any = None,
    *,
    last_move: Any | None = None,
    size: int = DEFAULT_SIZE,
    status: Sequence[str] | None = None,
    hints: Mapping[Any, float] | None = None,
    status_player: Player | None = None,
) -> Any:
    """A new ipycanvas Canvas with ``state`` (default: the start) drawn on it, as a
    :class:`~gamelib.ui.canvas.LiveCanvas`: redrawn whenever a page (re)connects, sharp
    at :data:`~gamelib.ui.canvas.PIXEL_RATIO` (its ``width`` and ``height`` are the
    board's times that ratio) and fitted to the window.

    ``status`` replaces the default status line (whose turn, or the result), and
    ``status_player`` the player whose token goes beside it; ``last_move`` and
    ``hints`` are drawn as in :meth:`BoardView.draw`. Evaluate the result in a cell to
    show it. The canvas shows only while the kernel runs, so its output also carries the
    same picture as PNG and SVG (``gamelib.ui.board_svg``'s), which a saved notebook keeps
    and an untrusted notebook, GitHub or nbviewer show, and a sentence as its plain text;
    a second output, its still (:mod:`gamelib.ui.still`), shows the picture after a reload
    without its kernel.
    Raises GameError for a bad ``size`` or ``status``.
    """
    board = board_for(game, size)
    drawing = draw_position(board, state, RecordingCanvas, last_move=last_move, status=status,
                            hints=hints, status_player=status_player)
    # The live canvas replays the recorded drawing whenever a page (re)connects.
    canvas = LiveCanvas(board.width, board.height, drawing.replay).widget
    picture = BoardPicture(drawing, describe_board(game, state, status))
    attach_picture(canvas, lambda: picture)  # what a saved notebook shows
    display_with_still(canvas, lambda: picture)  # what a reload without its kernel shows
    return canvas
