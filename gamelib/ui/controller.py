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

import html
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, TypeVar, cast

import ipywidgets as w

from gamelib.game import Game, Move, State
from gamelib.search.stats import Decision
from gamelib.session import MAX_DELAY, MESSAGE_LIMIT, MODES, PlaySession
from gamelib.session.readonly import ReadOnly
from gamelib.session.words import drawing_failure
from gamelib.ui.boards import DEFAULT_SIZE, BoardView, ConnectFourBoard, board_for
from gamelib.ui.canvas import SAVED_WORDS, WIDGET_CSS, LiveCanvas, fit_width
from gamelib.ui.cell import CellView, close_widgets
from gamelib.ui.controls import example_move, status_html, strength_options
from gamelib.ui.picture import BoardPicture
from gamelib.ui.svg import board_svg

__all__ = ["PlayController", "play", "MODES", "MESSAGE_LIMIT"]

_T = TypeVar("_T")

_TICK_MS: Final = 100
"""Milliseconds between the page's ticks of a threadless computer game (PlaySession.tick)."""

_BUTTON_ROW: Final = 40
"""CSS pixels of the column buttons above a Connect Four board."""

_STATUS_SPILL: Final = 20
"""CSS pixels that the status line may take below the board, beyond the canvas's status band
(it wraps to a second line at large zoom on a small board)."""

_GAP: Final = 16
"""CSS pixels between the board and the controls beside it."""

_SIDE: Final = "clamp(210px, calc(100cqw - 216px), 320px)"
"""The width of the controls beside the board: 320 px where the cell has room, down to
210 px in a narrow one (150 % zoom with the file browser open), leaving the board at least
200 px. ``cqw`` is a percentage of the play widget's width (it is a CSS container, see
:data:`_STYLE`); below 386 px the controls wrap under the board."""

# Larger text and controls for a projector, scoped to the play widget only; larger
# still in JupyterLab's Presentation Mode, as the lessons' text is there.
_STYLE: Final = """<style>
.gamelib-play {
  container-type: inline-size;
  --jp-widgets-font-size: 16px;
  --jp-widgets-inline-height: 34px;
  --jp-widgets-inline-label-width: 80px;
  --gamelib-message-size: 18px;
  --gamelib-status-size: 20px;
}
/* The play widget's output has no prompt ("Out[n]:"): in a narrow cell (125 % or 150 %
   zoom with the file browser open) its empty column goes to the board and controls. */
.jp-OutputArea-child:has(.gamelib-play) {
  container-type: inline-size;
}
@container (max-width: 700px) {
  .jp-OutputArea-child:has(.gamelib-play) > .jp-OutputPrompt {
    display: none;
  }
}
/* A narrow board: its column buttons show the number without the arrow. */
@container (max-width: 560px) {
  .gamelib-play .gamelib-column i.fa {
    display: none;
  }
}
.gamelib-play .gamelib-status {
  position: relative;
  z-index: 1;
  aspect-ratio: 100 / 16; /* the band's shape (drawing.status_height) */
  background: #eef1f6;
  color: #2b2d42;
}
.gamelib-play .gamelib-status .widget-html-content {
  height: 100%;
}
.jp-mod-presentationMode .gamelib-play {
  --jp-widgets-font-size: 18px;
  --jp-widgets-inline-height: 38px;
  --gamelib-message-size: 21px;
  --gamelib-status-size: 24px;
}
""" + WIDGET_CSS + """
</style>"""


class PlayView(w.HBox):  # type: ignore[misc]
    """The play widget: an HBox whose plain-text form is one stable line.

    Notebook viewers that cannot run widgets (and saved outputs compared by nbval) show
    that line instead of the nested reprs of every control.
    """

    def __init__(self, children: Sequence[Any], label: str, **kwargs: Any) -> None:
        super().__init__(children, **kwargs)
        self._label = label

    def __repr__(self) -> str:
        return self._label


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
        self._session: Final = start(self._refresh)
        self._build_widgets()
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
        """The value of every legal move, also drawn on the board (:meth:`PlaySession.hint`)."""
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
        close_widgets(self._widgets)

    # -- widgets -----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        board = self._board
        game = self._session.game
        mode, (depth, seconds) = self._session.mode, self._session.strength
        big = {"font_size": "16px"}
        column_buttons: list[Any] = []
        rows: list[Any] = []
        # Above a Connect Four board: the column buttons; the board shrinks to leave
        # room for them on the screen. The message goes beside it, under the controls.
        reserve = _STATUS_SPILL + (_BUTTON_ROW if isinstance(board, ConnectFourBoard) else 0)
        width = fit_width(board.width, board.height, reserve,
                          across=f"100cqw - {_GAP}px - {_SIDE}")
        self._live = LiveCanvas(board.width, board.height, self._paint_board,
                                css_width="100%")
        canvas = self._live.widget
        self._live.on_click(self._safely(self.click))
        self._canvas: Any = canvas
        if isinstance(board, ConnectFourBoard):
            # Buttons above the board, each over its column: a disc drops from there.
            # Widths and margins in % of the board's width, so they follow its scaling.
            g = board.geometry

            def share(pixels: float) -> str:
                return f"{100 * pixels / board.width:.3f}%"

            for col in range(g.cols):
                left_margin = share(g.grid.x + 2 if col == 0 else 2)
                column = w.Button(
                    description=str(col + 1),
                    tooltip=f"drop a disc in column {col + 1}",
                    icon="arrow-down",
                    layout=w.Layout(width=share(g.cell - 4), height="36px", padding="0",
                                    margin=f"0 {share(2)} 0 {left_margin}"),
                    style=big,
                )
                column.add_class("gamelib-column")
                column.on_click(self._safely(lambda _b, c=col: self._column_button(c)))
                column_buttons.append(column)
            rows.append(w.HBox(column_buttons, layout=w.Layout(width="100%", margin="0 0 4px 0")))
        self._columns: Sequence[Any] = column_buttons
        rows.append(canvas)
        # The status in HTML over the canvas's status band, so that its text grows with the
        # page's zoom and in Presentation Mode (the canvas's own shrinks with the board).
        # The canvas's bottom margin pulls the line up over the band: -band/width in % of
        # the column's width, which is the canvas's.
        band = board.status_area.height
        canvas.layout.margin = f"0 0 -{100 * band / board.width:.3f}% 0"
        self._status = w.HTML(layout=w.Layout(width="100%", margin="0"))
        self._status.add_class("gamelib-status")
        rows.append(self._status)
        self._html = w.HTML(layout=w.Layout(width="100%"))
        self._html.add_class("gamelib-message")
        left = w.VBox(rows, layout=w.Layout(width=width, margin=f"0 {_GAP}px 4px 0"))

        label = board.player_label
        first, second = game.players
        wide = w.Layout(width="100%", margin="0 0 8px 0")
        self._players = w.Dropdown(
            options=[
                # Short enough for the dropdown at 16 px: "You: O (yellow), second".
                (f"You: {label(first)}, first", "human-computer"),
                (f"You: {label(second)}, second", "computer-human"),
                ("Two players", "human-human"),
                ("Computer vs computer", "computer-computer"),
            ],
            value=mode,
            description="Players",
            layout=wide,
        )
        self._players.observe(self._safely(self._on_players), names="value")
        options = strength_options(game, depth, seconds)
        self._strength = w.Dropdown(
            options=options,
            value=(depth, seconds),
            description="Strength",
            layout=wide,
        )
        self._strength.observe(self._safely(self._on_strength), names="value")
        self._box = w.Text(
            placeholder=f"e.g. {example_move(game)}, then Enter",
            description="Move",
            continuous_update=False,
            layout=wide,
        )
        self._box.observe(self._safely(self._on_text), names="value")
        self._clearing = False

        def button(text: str, tip: str, action: Callable[[], object], icon: str = "") -> Any:
            made = w.Button(description=text, tooltip=tip, icon=icon,
                            layout=w.Layout(width="calc((100% - 18px) / 3)", height="40px",
                                           margin="0 6px 8px 0", padding="0 4px"),
                            style=big)
            made.on_click(self._safely(lambda _b: action()))
            return made

        new = button("New", "start a new game", self.new_game, "refresh")
        undo = button("Undo", "take back your last move and the reply", self.undo, "undo")
        hint = button("Hint", "show the value of every move", self._hint_button, "lightbulb-o")
        self._run_button = button("Run", "computer vs computer: start or resume", self.run, "play")
        self._stop_button = button("Stop", "computer vs computer: pause", self.stop, "stop")
        self._delay_slider = w.FloatSlider(
            value=self._session.delay, min=0.0, max=MAX_DELAY, step=0.1, description="Delay (s)",
            readout_format=".1f", layout=wide,
        )
        self._delay_slider.observe(
            self._safely(lambda change: self.set_delay(change["new"])), names="value"
        )
        # Without threads, a computer game moves per tick of this hidden Play (it counts in
        # the browser, as the viewer's does): between ticks the kernel is free for Stop.
        self._ticker = w.Play(value=0, min=0, max=1000, interval=_TICK_MS, repeat=True,
                              show_repeat=False, layout=w.Layout(display="none"))
        self._ticker.observe(self._safely(lambda _change: self._session.tick()), names="value")
        # The page's Play counts only after its view saw `playing` turn True: a game already
        # running when a view is drawn (a threadless computer game, from its first move)
        # would never tick. The page counts the views (_view_count); each new one restarts it.
        self._ticker._view_count = 0
        self._ticker.observe(self._safely(self._restart_ticker), names="_view_count")
        self._demo = w.VBox([w.HBox([self._run_button, self._stop_button]), self._delay_slider,
                             self._ticker])
        style = w.HTML(_STYLE, layout=w.Layout(width="0", height="0", margin="0"))
        right = w.VBox(
            [style, self._players, self._strength, self._box,
             w.HBox([new, undo, hint], layout=w.Layout(width="100%")), self._demo, self._html],
            layout=w.Layout(width=_SIDE),
        )
        self._view = PlayView(
            [left, right],
            f"[{game.name}: an interactive board; run the notebook in Jupyter to play]",
            layout=w.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        self._view.add_class("gamelib-play")
        self._view.add_class("gamelib-live")  # says so when its kernel stops (WIDGET_CSS)
        self._keep_pictures(self.saved_picture, "", self._live)  # kept when saved
        self._widgets: Sequence[Any] = [
            self._view, left, right, style, canvas, self._status, self._html, self._players,
            self._strength, self._box, new, undo, hint, self._run_button, self._stop_button,
            self._delay_slider, self._demo, self._ticker, *column_buttons,
        ]

    def _restart_ticker(self, change: Any) -> None:
        """A new view of the ticker while it plays: turn it off and on, so that it counts."""
        if (change["new"] or 0) > (change["old"] or 0) and self._ticker.playing:
            self._ticker.playing = False
            self._ticker.playing = True

    def _safely(self, handler: Callable[..., object]) -> Callable[..., None]:
        """A widget callback that can never raise into the front end."""

        def safe(*args: Any) -> None:
            try:
                handler(*args)
            except BaseException:  # noqa: BLE001 - a last resort; the inputs never raise
                self._session.refresh()

        return safe

    def _paint_board(self, canvas: Any) -> None:
        """Draw the session's position (the live canvas calls it, also on a reload)."""
        s = self._session
        self._board.draw(canvas, s.state, last_move=s.last_move, status=s.status,
                         hints=s.hints, status_player=s.status_player)

    def _column_button(self, col: int) -> None:
        self.play_move(col)

    def _on_text(self, change: Mapping[str, Any]) -> None:
        if self._clearing or not change["new"]:
            return
        try:
            self.submit(change["new"])
        finally:
            self._clearing = True
            try:
                self._box.value = ""
            finally:
                self._clearing = False

    def _on_players(self, change: Mapping[str, Any]) -> None:
        if change["new"] != self.mode:
            self.set_mode(change["new"])

    def _on_strength(self, change: Mapping[str, Any]) -> None:
        depth, seconds = change["new"]
        self.set_strength(depth, seconds)

    def _hint_button(self) -> None:
        if self._session.threaded:
            try:
                threading.Thread(target=self.hint, daemon=True).start()
                return
            except RuntimeError:  # no threads here (Pyodide): compute the hints right away
                pass
        self.hint()

    def _refresh(self) -> None:
        """Redraw the board and update the message and controls (the session's on_change)."""
        if self._view is None:
            return
        s = self._session
        message, error = s.message, s.error
        try:
            self._live.redraw()
        except Exception as failure:  # e.g. a student's render() that raises
            message, error = f"{message} {drawing_failure(failure, s.game)}", True
        self._status.value = status_html(s.status, self._board.status_token(s.status_player)
                                          if s.status_player is not None else (None, None))
        colour = "#b3261e" if error else "#2b2d42"
        self._html.value = (
            f'<div style="font-size:var(--gamelib-message-size, 18px);line-height:1.35;'
            f'color:{colour};padding:6px 2px">'
            f"{html.escape(message)}</div>"
        )
        computer_game = s.mode == "computer-computer"
        self._demo.layout.display = None if computer_game else "none"
        self._run_button.disabled = not computer_game or s.running or s.finished
        self._stop_button.disabled = not computer_game or not s.running or s.finished
        ticking = computer_game and s.running and not s.finished and not s.threaded
        if self._ticker.playing != ticking:
            self._ticker.playing = ticking
        for column in self._columns:  # the computer plays both sides: nothing to press
            column.disabled = computer_game
        if self._players.value != s.mode:
            self._players.value = s.mode
        strength = s.strength
        if self._strength.value != strength:
            if strength not in [value for _, value in self._strength.options]:
                self._strength.options = strength_options(s.game, *strength)
            self._strength.value = strength
        if self._delay_slider.value != s.delay:
            self._delay_slider.value = s.delay


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
        )

    controller = PlayController(board, start)
    if display:
        controller.show()
    return controller
