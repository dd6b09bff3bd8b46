"""The play controller: a :class:`~gamelib.session.PlaySession` on a board with its controls.

:func:`play` builds a :class:`PlayController`, shows its widget and returns it. The
session owns the game (turns, history, the computer, every message); the controller
draws it on an ipycanvas board, turns clicks into moves and binds the controls to the
session's methods. A test or a lesson cell calls the same methods:

>>> from gamelib.games import TicTacToe
>>> c = play(TicTacToe(), seed=1, background=False, display=False)
>>> c.submit("2,2"), c.history[0], len(c.history)      # the computer answered at once
(True, (1, 1), 2)
>>> c.submit("2,2"), c.message.startswith("Cell 2,2 is taken by X"), len(c.history)
(False, True, 2)

Every input method is the session's (see :mod:`gamelib.session` for how the computer
thinks in the background, within its budget, and how a search is cancelled); the
controller adds :meth:`PlayController.click` (canvas pixels to a move), the widgets and
:meth:`PlayController.show`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar, cast

from gamelib.game import Game, Move, State
from gamelib.search.puct import Guide
from gamelib.search.stats import Decision
from gamelib.session import MESSAGE_LIMIT, MODES, PlaySession
from gamelib.session.readonly import ReadOnly
from gamelib.ui.boards import DEFAULT_SIZE, BoardView, board_for
from gamelib.ui.canvas import SAVED_WORDS
from gamelib.ui.cell import CellView, close_widgets
from gamelib.ui.picture import BoardPicture
from gamelib.ui.play_widgets import PlayWidgets
from gamelib.ui.svg import board_svg

__all__ = ["PlayController", "play", "MODES", "MESSAGE_LIMIT"]

_T = TypeVar("_T")


class _FromSession(ReadOnly["PlayController", _T]):
    """A read-only attribute of a :class:`PlayController`: its session's attribute of the
    same name (one line per attribute instead of one property each)."""

    def __init__(self, doc: str) -> None:
        super().__init__(self._forward, doc)

    def _forward(self, controller: PlayController) -> _T:
        return cast(_T, getattr(controller._session, self.name))


class PlayController(CellView):
    """One game on one board: the position, its history, the computer and the widgets.

    Create it with :func:`play`; :meth:`show` displays it (its :attr:`widget`) in a cell,
    and evaluating it in a later cell shows it there too. All methods are safe to call
    from any thread; the ones that take input (:meth:`submit`, :meth:`click`, :meth:`play_move`,
    :meth:`undo`, :meth:`new_game`, :meth:`hint`, :meth:`run`, :meth:`stop`) never
    raise for bad input: they return False (or None) and say why in :attr:`message`.
    """

    def __init__(
        self, board: BoardView[Any, Any], start: Callable[[Callable[[], object]], PlaySession]
    ) -> None:
        """``board`` with its controls, bound to the session ``start(on_change)`` returns.

        The session calls ``on_change`` after every change: the board redraws there.
        :func:`play` makes both from its arguments.
        """
        self._board: Final = board
        self._parts: PlayWidgets | None = None
        self._session: Final = start(self._refresh)
        parts = self._parts = PlayWidgets(board, self._session)
        self._view, self._canvas = parts.view, parts.live.widget
        self._keep_pictures(self.saved_picture, "", parts.live)  # kept when saved
        self._session.refresh()

    # -- what one can read -------------------------------------------------------------

    session = ReadOnly["PlayController", PlaySession](
        lambda c: c._session,
        "The :class:`~gamelib.session.PlaySession` this board shows and drives.",
    )
    board = ReadOnly["PlayController", BoardView[Any, Any]](
        lambda c: c._board, "The board that draws the game and maps clicks to moves."
    )
    canvas = ReadOnly["PlayController", Any](
        lambda c: c._canvas, "The ipycanvas Canvas the board is drawn on."
    )

    # Read-only, as the session has them:
    game = _FromSession[Game[Any, Any]]("The game being played.")
    state = _FromSession[State]("The position shown on the board.")
    history = _FromSession[list[Move]](
        "The moves from the start to :attr:`state`, as a copy (``replay`` gives the state)."
    )
    message = _FromSession[str](
        "The message under the board: what just happened, or why input was refused."
    )
    thinking = _FromSession[bool]("True while the computer searches for a move or for hints.")
    finished = _FromSession[bool]("True once the game is won or drawn.")
    status = _FromSession[list[str]](
        "The status lines drawn below the board: whose turn or the result, then a value."
    )
    mode = _FromSession[str]("Who plays which side: one of :data:`MODES`.")
    strength = _FromSession[tuple[int | None, float | None]](
        "The computer's search limits ``(depth, seconds)``; ``(None, None)``: the default."
    )
    delay = _FromSession[float](
        "Seconds of pause before each move of a computer-versus-computer game."
    )
    running = _FromSession[bool](
        "In computer-versus-computer mode: True unless paused with :meth:`stop`."
    )
    decision = _FromSession[Decision | None](
        "The computer's latest :class:`~gamelib.search.stats.Decision` (with its stats)."
    )
    hints = _FromSession[dict[Hashable, float] | None](
        "The values shown by the latest :meth:`hint`, until the next move."
    )

    def __repr__(self) -> str:
        s = self._session
        moves = " ".join(s.notation) or "none"
        return f"<PlayController {s.game.name}, {s.mode}: moves {moves}>"

    # -- input: the session's, plus clicks ------------------------------------------------

    def submit(self, text: object) -> bool:
        """Play the move typed as ``text`` (:meth:`PlaySession.submit`)."""
        return self._session.submit(text)

    def click(self, x: object, y: object) -> bool:
        """Play the move under the point ``(x, y)`` of the canvas, in canvas pixels.

        Returns True if a move was played; False with a :attr:`message` for a click
        on a margin or outside the board, on a taken cell or full column, for anything
        that is not two finite numbers, or at a time when no move is allowed.
        """
        return self._session.play_at(x, y, self._board.move_at)

    def play_move(self, move: Move) -> bool:
        """Play ``move`` given in the game's own form (:meth:`PlaySession.play_move`)."""
        return self._session.play_move(move)

    def undo(self) -> bool:
        """Take back your last move and the computer's reply (:meth:`PlaySession.undo`)."""
        return self._session.undo()

    def new_game(self) -> bool:
        """Start again from the first position (:meth:`PlaySession.new_game`)."""
        return self._session.new_game()

    def hint(self) -> dict[Hashable, float] | None:
        """The value of every legal move (with a guide: its priors), also drawn on the
        board (:meth:`PlaySession.hint`)."""
        return self._session.hint()

    def run(self) -> bool:
        """Start or resume a computer-versus-computer game (:meth:`PlaySession.run`)."""
        return self._session.run()

    def tick(self) -> bool:
        """A threadless computer game's next move, if due (:meth:`PlaySession.tick`)."""
        return self._session.tick()

    def stop(self) -> bool:
        """Pause a computer-versus-computer game at once (:meth:`PlaySession.stop`)."""
        return self._session.stop()

    def wait(self, timeout: object = None) -> bool:
        """Block until the computer is done, at most ``timeout`` s (:meth:`PlaySession.wait`)."""
        return self._session.wait(timeout)

    # -- settings ----------------------------------------------------------------------

    def set_mode(self, mode: str) -> bool:
        """Change who plays which side (:meth:`PlaySession.set_mode`); GameError if unknown."""
        return self._session.set_mode(mode)

    def set_strength(self, depth: int | None = None, seconds: float | None = None) -> bool:
        """Set the computer's search limits (:meth:`PlaySession.set_strength`)."""
        return self._session.set_strength(depth, seconds)

    def set_delay(self, delay: float) -> bool:
        """Seconds between computer moves, 0 to 5 (:meth:`PlaySession.set_delay`)."""
        return self._session.set_delay(delay)

    def picture(self) -> BoardPicture:
        """A picture of the board as it is now, its status line included."""
        s = self._session
        return board_svg(s.game, s.state, last_move=s.last_move, size=self._board.width,
                         status=s.status, hints=s.hints, status_player=s.status_player)

    def saved_picture(self) -> BoardPicture:
        """What a saved notebook shows of the board: the position as it is now, with
        :data:`~gamelib.ui.canvas.SAVED_WORDS` in the status line's place (no token, never
        "your turn": a picture answers no click)."""
        s = self._session
        return board_svg(s.game, s.state, last_move=s.last_move, size=self._board.width,
                         status=[SAVED_WORDS], hints=s.hints)

    def close(self) -> None:
        """Cancel any search or demo and close the widgets, with every layout, style and
        box they hold (none stays registered with the kernel)."""
        self._session.close()
        if self._parts is not None:
            close_widgets(self._parts.all)

    def _refresh(self) -> None:
        """The session's ``on_change``: bring the widgets up to date (once they exist)."""
        if self._parts is not None:
            self._parts.refresh()


def play(
    game: Game[Any, Any],
    *,
    mode: str = "human-computer",
    depth: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    size: int = DEFAULT_SIZE,
    delay: float = 0.8,
    background: bool = True,
    display: bool = True,
    mcts: int | None = None,
    guide: Guide | None = None,
) -> PlayController:
    """Show ``game`` in the current cell, ready to play, and return its controller.

    Arguments:
        game: a TicTacToe, TicTacToeBitboard, ConnectFour (any size) or Nim; any other
            game of the Game protocol is shown as text and takes typed moves.
        mode: who plays which side, first mover first: ``"human-computer"`` (you
            start), ``"computer-human"`` (the computer starts), ``"human-human"`` or
            ``"computer-computer"`` (a demo that plays itself; Stop pauses it).
        depth, seconds: the computer's search limits, passed to
            :func:`gamelib.search.engine.choose_move`; both None (default) means a
            perfect player for tic-tac-toe and Nim and a strong one (1 s) for Connect Four.
        seed: seeds the computer's random choice among equally good moves, so that
            a seeded game replays identically (if the search is exact or limited by
            ``depth``: what a time budget reaches depends on the machine); None
            plays differently each time.
        size: the board's largest width in pixels (240 to 1200; 440 suits a projector);
            it shrinks to fit the window's height, its controls beside it.
        delay: seconds between moves of a computer-versus-computer game (0 to 5).
        mcts: a number of iterations: the computer plays by Monte-Carlo tree search
            (:func:`gamelib.search.mcts.mcts`, random playouts) with that many per move,
            within ``seconds`` (default 5 s); ``depth`` then only sets the hints' search.
            None (default): the searches above.
        guide: with ``mcts``, a guide (:data:`gamelib.search.puct.Guide`, e.g.
            :func:`gamelib.learn.guide.load_guide` for tic-tac-toe): the computer plays by
            PUCT, and a hint shows the guide's prior of each move (as a share, "42%").
        background: True (default) runs the computer in a thread so that the page
            stays responsive; False runs it at once, for tests and executed notebooks
            (a computer-versus-computer game then moves once per tick of the page, or
            of :meth:`PlayController.tick`; :meth:`PlayController.wait` plays it out).
        display: False builds the controller without showing it (show it later by
            evaluating it in a cell, or with :meth:`PlayController.show`).

    Result: the :class:`PlayController`. Raises GameError for a bad argument.
    """
    board = board_for(game, size)

    def start(on_change: Callable[[], object]) -> PlaySession:
        return PlaySession(
            game, mode=mode, depth=depth, seconds=seconds, seed=seed, delay=delay,
            background=background, labels=board, on_change=on_change, mcts=mcts,
            guide=guide,
        )

    controller = PlayController(board, start)
    if display:
        controller.show()
    return controller
