"""Boards and play controls for the notebooks: ipycanvas drawings, ipywidgets controls.

Play a game in a cell::

    from gamelib.games import TicTacToe, ConnectFour, Nim
    from gamelib.ui import play

    play(TicTacToe())                              # you are X and start
    play(ConnectFour(), mode="computer-human")     # the computer starts
    game = play(Nim(), mode="computer-computer", delay=1.0)   # a demo; Stop pauses it

``play`` shows the board with its controls and returns a :class:`PlayController`::

    play(game, *, mode="human-computer", depth=None, seconds=None, seed=None,
         size=440, delay=0.8, background=True, display=True) -> PlayController

* ``mode``: who plays which side, first mover first: ``"human-computer"``,
  ``"computer-human"``, ``"human-human"``, ``"computer-computer"``.
* ``depth`` / ``seconds``: the computer's search limits for
  ``gamelib.search.engine.choose_move``; both None: perfect play for tic-tac-toe and
  Nim, a strong 1-second player for Connect Four.
* ``seed``: seeds the computer's tie-breaks, so a seeded game replays identically.
* ``size``: board width in pixels (240 to 1200). ``delay``: seconds between the moves
  of a computer-versus-computer game.
* ``background=False`` runs the computer at once instead of in a thread (tests,
  executed notebooks); ``display=False`` builds the controller without showing it.

Moves: click the board (a cell; a column; a token, which takes it and every token to
its right), press a column button (Connect Four), or type a move in the game's
notation and press Enter (``2,3`` for row 2, column 3; ``4`` for column 4; ``2,3``
for three tokens from heap 2). The controls: Players, Strength, New, Undo (your last
move and the computer's reply), Hint (the value of every move), Run/Stop and Delay
for computer-versus-computer games.

The controller, the same from code as from the widgets (all thread-safe)::

    c.submit(text) -> bool        # as if typed; False + c.message if refused
    c.click(x, y) -> bool         # a click at canvas pixel (x, y)
    c.play_move(move) -> bool     # a move in the game's own representation
    c.undo() -> bool              # takes back your move and the computer's reply
    c.new_game() -> bool
    c.hint() -> dict | None       # value of each legal move for the player to move
    c.run() -> bool; c.stop() -> bool             # computer-versus-computer only
    c.set_mode(mode); c.set_strength(depth=None, seconds=None); c.set_delay(seconds)
    c.wait(timeout=None) -> bool  # block until the computer is done (not in callbacks)
    c.state, c.history, c.message, c.thinking, c.finished, c.mode, c.running,
    c.decision, c.hints, c.widget, c.canvas, c.board      # read-only
    c.show(); c.close()

Input never raises: a malformed text, an illegal move, a click off the board, a
move while the computer thinks or after the game ended, an undo with nothing to undo
all return False (or None) and leave the position as it was, with a short message
saying what was wrong and what is allowed. ``replay(c.game, c.history) == c.state``
always holds.

Boards on their own: ``board_for(game, size)`` gives a board whose ``draw(canvas,
state, last_move=..., status=..., hints=...)`` paints on an ipycanvas ``Canvas`` or on
a :class:`RecordingCanvas` (which records the calls, for tests), and whose
``move_at(x, y, state)`` / ``move_rect(move, state)`` map clicks to moves and back;
``show_board(game, state)`` returns a canvas with one position drawn.
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
from gamelib.ui.canvas import CanvasLike, RecordingCanvas, Rect
from gamelib.ui.controller import MODES, PlayController, play

__all__ = [
    "play",
    "PlayController",
    "MODES",
    "board_for",
    "show_board",
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
]
