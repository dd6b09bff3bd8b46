"""Boards and play controls for the notebooks: ipycanvas drawings, ipywidgets controls.

Play a game in a cell::

    from gamelib.games import TicTacToe, ConnectFour, Nim
    from gamelib.ui import play

    play(TicTacToe())                                  # you are X and start
    play(ConnectFour(), mode="computer-human")         # the computer starts
    c = play(Nim(), mode="computer-computer", delay=1.0)   # a demo; Stop pauses it

``play`` shows the board with its controls in the cell and returns its controller::

    play(game, *, mode="human-computer", depth=None, seconds=None, seed=None,
         size=440, delay=0.8, background=True, display=True) -> PlayController

* ``mode``: who plays which side, first mover first: ``"human-computer"``,
  ``"computer-human"``, ``"human-human"`` or ``"computer-computer"`` (:data:`MODES`).
* ``depth`` / ``seconds``: the computer's limits, passed to
  ``gamelib.search.engine.choose_move`` (``seconds`` more than 0, at most 30); both
  None: perfect play for tic-tac-toe and Nim, a strong 1-second player for Connect Four.
* ``seed``: seeds the computer's choice among equally good moves. A seeded game
  replays identically when the search is exact or depth-limited (a time budget
  depends on the machine's speed).
* ``size``: the board's largest width in pixels, 240 to 1200 (440 suits a projector);
  the board shrinks to fit the window's height (at 125 % or 150 % zoom, in Presentation
  Mode), its controls and message beside it.
* ``delay``: seconds between the moves of a computer-versus-computer game, 0 to 5.
* ``background=False`` runs the computer at once instead of in a thread (tests and
  executed notebooks; a computer game then moves a move per tick); ``display=False``
  builds the controller without showing it.

Bad arguments raise :class:`gamelib.game.GameError` saying what is allowed.

Making moves: click the board (a cell; a column; a Nim token, which takes that token
and every token to its right), press a column button above a Connect Four board, or
type a move in the game's notation in the Move box and press Enter (``2,3`` is row 2,
column 3; ``4`` is column 4; ``2,3`` takes 3 tokens from heap 2). Controls: Players,
Strength, New, Undo (your last move and the computer's reply), Hint (the value of
every move), and for computer versus computer Run, Stop and Delay.

The controller is the same from code as from the widgets, and thread-safe. It is a
:class:`gamelib.session.PlaySession` (the game in progress, which imports no widget
library: turns, history, the computer, every message) bound to a board and controls::

    c.submit(text) -> bool          # a move as if typed
    c.click(x, y) -> bool           # a click at canvas pixel (x, y)
    c.play_move(move) -> bool       # a move in the game's own form, e.g. (1, 1) or 3
    c.undo() -> bool                # your last move and the computer's reply
    c.new_game() -> bool
    c.hint() -> dict | None         # {move: value for the player to move}, also drawn
    c.run() -> bool, c.stop() -> bool        # computer versus computer only
    c.tick() -> bool                # its next move, without threads (the page ticks it)
    c.set_mode(mode) -> bool, c.set_strength(depth=None, seconds=None) -> bool,
    c.set_delay(seconds) -> bool             # GameError for a bad value
    c.wait(timeout=None) -> bool    # until the computer is done; False on timeout
    c.show(), c.close(), c.picture() -> BoardPicture   # the board now, as SVG
    c.saved_picture() -> BoardPicture   # what a saved notebook shows: "Run the lesson to play"
    # read-only:
    c.state, c.history, c.message, c.status, c.thinking, c.finished, c.mode,
    c.strength, c.delay, c.running, c.decision, c.hints, c.game, c.board, c.widget,
    c.canvas, c.session

Input never raises. A malformed text, an illegal move, a click off the board, a move
while the computer thinks or after the game ended, an undo with nothing to undo, a game
whose own method raises: each returns False (``hint`` None), leaves the position as it
was and puts a short message under the board saying what was wrong and what is allowed.
Whatever happens, ``replay(c.game, c.history) == c.state``. Every computer move and hint
ends within its time budget (at most 30 s); Undo, New, Stop, Players and ``close()``
cancel a search under way. Where threads cannot start (JupyterLite), the computer answers
a move at once instead, and a computer-versus-computer game plays one move per tick of a
hidden ``Play`` widget in the page (``c.tick()``), so that Stop and the delay still work.

Boards on their own: ``board_for(game, size)`` returns the board of a game;
``board.draw(canvas, state, last_move=..., status=[...], hints={...})`` paints a
position on an ipycanvas ``Canvas`` or a :class:`RecordingCanvas` (which records the
calls, for tests); ``board.move_at(x, y, state)`` and ``board.move_rect(move, state)``
map clicks to moves and back. ``show_board(game, state)`` returns a new canvas with
one position drawn; ``board_svg(game, state)`` draws the same picture as SVG.

Live canvases (``canvas.LiveCanvas``): play boards and ``show_board`` pictures draw
themselves again whenever a browser page (re)connects to the kernel (a reload, a second
window, a saved page opened while the kernel runs), at ``PIXEL_RATIO`` device pixels per
CSS pixel for sharp text at any zoom; one that is not drawn yet says in words to run its
cell again (``BLANK_CANVAS_CSS``). Clicks arrive in board pixels.

Saved notebooks: a canvas shows only while its kernel runs, so every output of a play
widget, of ``show_board`` or of the search viewer also carries a picture of what it showed,
as PNG and SVG, and a sentence as its plain text (``picture.attach_picture``): untrusted
notebooks (freshly opened), GitHub, nbviewer and nbconvert display the picture instead.
A play board and the search viewer also keep their *last* picture in a second output, a
still (``still.Still``, updated after each move or step), which the notebooks' stylesheet
shows only after a reload without their kernel, under the words ``STOPPED_KERNEL_CSS``
writes there (``canvas.STILL_CSS``).

Modules: ``controller`` (play, PlayController), ``play_widgets`` (its widgets: the board's
column and the controls, bound to the session), ``controls`` (what the widget's controls
show: the status line, the Strength choices, an example move), ``boards`` (the game
boards, board_for, show_board), ``drawing`` (what every board shares: the BoardView base,
colours, text, the status band; the text board), ``canvas`` (the canvas protocol,
RecordingCanvas, LiveCanvas, SVG from recorded calls), ``cell`` (CellView: a widget shown
once per cell; close_widgets: closed with its layouts, styles and children), ``picture``
(BoardPicture: SVG, PNG and a sentence; attach_picture), ``still`` (Still: the last
picture for a page without its kernel), ``svg`` (board_svg); ``search_view``,
``search_svg`` and ``tree_layout`` (the step-through viewer of a search trace:
:func:`show_search`, :func:`search_svg`).
"""

from gamelib.ui.boards import (
    ConnectFourBoard,
    ConnectFourGeometry,
    NimBoard,
    NimGeometry,
    TextBoard,
    TicTacToeBoard,
    TicTacToeGeometry,
    board_for,
    show_board,
)
from gamelib.ui.canvas import (
    PIXEL_RATIO,
    CanvasLike,
    LiveCanvas,
    RecordingCanvas,
    Rect,
)
from gamelib.ui.controller import MODES, PlayController, play
from gamelib.ui.picture import BoardPicture, attach_picture
from gamelib.ui.search_svg import search_svg
from gamelib.ui.search_view import SearchView, show_search
from gamelib.ui.svg import board_svg

__all__ = [
    "play",
    "PlayController",
    "MODES",
    "board_for",
    "show_board",
    "board_svg",
    "BoardPicture",
    "TicTacToeBoard",
    "TicTacToeGeometry",
    "ConnectFourBoard",
    "ConnectFourGeometry",
    "NimBoard",
    "NimGeometry",
    "TextBoard",
    "CanvasLike",
    "RecordingCanvas",
    "Rect",
    "attach_picture",
    "show_search",
    "SearchView",
    "search_svg",
    "LiveCanvas",
    "PIXEL_RATIO",
]
