"""The widgets of a play board: the canvas, its column buttons and status line, the controls
beside it, and the computer game's Run, Stop, Delay and ticker.

:class:`PlayWidgets` builds them for a :class:`~gamelib.session.PlaySession` on a
:class:`~gamelib.ui.boards.BoardView`, binds every control to the session's input methods
(each callback guarded: nothing raises into the front end) and brings them up to date in
:meth:`PlayWidgets.refresh`, which the play controller (:mod:`gamelib.ui.controller`) calls
after every change of the session. The controller is the public face; this is its view.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import ipywidgets as w

from gamelib.session import MAX_DELAY, PlaySession
from gamelib.session.words import drawing_failure
from gamelib.ui.boards import BoardView, ConnectFourBoard
from gamelib.ui.canvas import WIDGET_CSS, LiveCanvas, fit_width
from gamelib.ui.controls import example_move, status_html, strength_options

__all__ = ["PlayWidgets", "PlayView"]

TICK_MS: Final = 100
"""Milliseconds between the page's ticks of a threadless computer game (PlaySession.tick)."""

BUTTON_ROW: Final = 40
"""CSS pixels of the column buttons above a Connect Four board."""

STATUS_SPILL: Final = 20
"""CSS pixels that the status line may take below the board, beyond the canvas's status band
(it wraps to a second line at large zoom on a small board)."""

GAP: Final = 16
"""CSS pixels between the board and the controls beside it."""

SIDE: Final = "clamp(210px, calc(100cqw - 216px), 320px)"
"""The width of the controls beside the board: 320 px where the cell has room, down to
210 px in a narrow one (150 % zoom with the file browser open), leaving the board at least
200 px. ``cqw`` is a percentage of the play widget's width (it is a CSS container, see
:data:`STYLE`); below 386 px the controls wrap under the board."""

# Larger text and controls for a projector, scoped to the play widget only; larger
# still in JupyterLab's Presentation Mode, as the lessons' text is there.
STYLE: Final = """<style>
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


class PlayWidgets:
    """The widgets of one play board, bound to ``session`` and drawn by ``board``.

    :attr:`view` is the whole widget, :attr:`live` its canvas (drawn by the session's
    position), :attr:`all` every widget made, for closing. :meth:`refresh` brings them up
    to date with the session.
    """

    def __init__(self, board: BoardView[Any, Any], session: PlaySession) -> None:
        self._board: Final = board
        self._session: Final = session
        self._clearing = False  # while the Move box is emptied after a move
        self.live: Final = LiveCanvas(board.width, board.height, self._paint,
                                      css_width="100%")
        self.live.on_click(self._safely(lambda x, y: session.play_at(x, y, board.move_at)))
        left, self._columns = self._board_column()
        right, controls = self._controls()
        self.view: Final = PlayView(
            [left, right],
            f"[{session.game.name}: an interactive board; run the notebook in Jupyter to play]",
            layout=w.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        self.view.add_class("gamelib-play")
        self.view.add_class("gamelib-live")  # says so when its kernel stops (WIDGET_CSS)
        self.all: Final[Sequence[Any]] = [self.view, left, right, self.live.widget,
                                          self._status, self._html, *controls,
                                          *self._columns]

    # -- the board's column: buttons, canvas, status line ------------------------------

    def _board_column(self) -> tuple[Any, list[Any]]:
        """The board with the status line over its band (and, for Connect Four, the
        column buttons above it), sized to fit beside the controls; and those buttons."""
        board = self._board
        rows: list[Any] = []
        column_buttons = self._column_buttons() if isinstance(board, ConnectFourBoard) else []
        if column_buttons:
            rows.append(w.HBox(column_buttons, layout=w.Layout(width="100%", margin="0 0 4px 0")))
        canvas = self.live.widget
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
        # Above a Connect Four board: the column buttons; the board shrinks to leave
        # room for them on the screen. The message goes beside it, under the controls.
        reserve = STATUS_SPILL + (BUTTON_ROW if column_buttons else 0)
        width = fit_width(board.width, board.height, reserve, across=f"100cqw - {GAP}px - {SIDE}")
        left = w.VBox(rows, layout=w.Layout(width=width, margin=f"0 {GAP}px 4px 0"))
        return left, column_buttons

    def _column_buttons(self) -> list[Any]:
        """Buttons above a Connect Four board, each over its column: a disc drops from
        there. Widths and margins in % of the board's width, so they follow its scaling."""
        board = self._board
        assert isinstance(board, ConnectFourBoard)
        g = board.geometry

        def share(pixels: float) -> str:
            return f"{100 * pixels / board.width:.3f}%"

        buttons = []
        for col in range(g.cols):
            left_margin = share(g.grid.x + 2 if col == 0 else 2)
            column = w.Button(
                description=str(col + 1), tooltip=f"drop a disc in column {col + 1}",
                icon="arrow-down",
                layout=w.Layout(width=share(g.cell - 4), height="36px", padding="0",
                                margin=f"0 {share(2)} 0 {left_margin}"),
                style={"font_size": "16px"},
            )
            column.add_class("gamelib-column")
            column.on_click(self._safely(lambda _b, c=col: self._session.play_move(c)))
            buttons.append(column)
        return buttons

    # -- the controls beside it ------------------------------------------------------------

    def _controls(self) -> tuple[Any, list[Any]]:
        """The column beside the board: Players, Strength, the Move box, New, Undo and
        Hint, the computer game's controls and the message; and every widget in it."""
        session = self._session
        game = session.game
        mode, (depth, seconds) = session.mode, session.strength
        wide = w.Layout(width="100%", margin="0 0 8px 0")
        label = self._board.player_label
        first, second = game.players
        self._players = w.Dropdown(
            options=[
                # Short enough for the dropdown at 16 px: "You: O (yellow), second".
                (f"You: {label(first)}, first", "human-computer"),
                (f"You: {label(second)}, second", "computer-human"),
                ("Two players", "human-human"),
                ("Computer vs computer", "computer-computer"),
            ],
            value=mode, description="Players", layout=wide,
        )
        self._players.observe(self._safely(self._on_players), names="value")
        self._strength = w.Dropdown(options=strength_options(game, depth, seconds),
                                    value=(depth, seconds), description="Strength", layout=wide)
        self._strength.observe(self._safely(self._on_strength), names="value")
        self._box = w.Text(placeholder=f"e.g. {example_move(game)}, then Enter",
                           description="Move", continuous_update=False, layout=wide)
        self._box.observe(self._safely(self._on_text), names="value")
        buttons = [self._button("New", "start a new game", session.new_game, "refresh"),
                   self._button("Undo", "take back your last move and the reply", session.undo,
                                "undo"),
                   self._button("Hint", "show the value of every move", self._hint,
                                "lightbulb-o")]
        demo = self._demo()
        self._html = w.HTML(layout=w.Layout(width="100%"))
        self._html.add_class("gamelib-message")
        style = w.HTML(STYLE, layout=w.Layout(width="0", height="0", margin="0"))
        right = w.VBox(
            [style, self._players, self._strength, self._box,
             w.HBox(buttons, layout=w.Layout(width="100%")), self._demo_box, self._html],
            layout=w.Layout(width=SIDE),
        )
        return right, [style, self._players, self._strength, self._box, *buttons, *demo]

    def _button(self, text: str, tip: str, action: Callable[[], object], icon: str) -> Any:
        """A button of a row of three under the Move box (and Run, Stop) doing ``action``."""
        made = w.Button(description=text, tooltip=tip, icon=icon,
                        layout=w.Layout(width="calc((100% - 18px) / 3)", height="40px",
                                        margin="0 6px 8px 0", padding="0 4px"),
                        style={"font_size": "16px"})
        made.on_click(self._safely(lambda _b: action()))
        return made

    def _demo(self) -> list[Any]:
        """Run, Stop, Delay and the hidden ticker of a computer-versus-computer game, in
        ``_demo_box`` (shown in that mode only); returns every widget made."""
        session = self._session
        self._run_button = self._button("Run", "computer vs computer: start or resume",
                                        session.run, "play")
        self._stop_button = self._button("Stop", "computer vs computer: pause", session.stop,
                                         "stop")
        self._delay_slider = w.FloatSlider(
            value=session.delay, min=0.0, max=MAX_DELAY, step=0.1, description="Delay (s)",
            readout_format=".1f", layout=w.Layout(width="100%", margin="0 0 8px 0"),
        )
        self._delay_slider.observe(
            self._safely(lambda change: session.set_delay(change["new"])), names="value"
        )
        # Without threads, a computer game moves per tick of this hidden Play (it counts in
        # the browser, as the viewer's does): between ticks the kernel is free for Stop.
        self._ticker = w.Play(value=0, min=0, max=1000, interval=TICK_MS, repeat=True,
                              show_repeat=False, layout=w.Layout(display="none"))
        self._ticker.observe(self._safely(lambda _change: session.tick()), names="value")
        # The page's Play counts only after its view saw `playing` turn True: a game already
        # running when a view is drawn (a threadless computer game, from its first move)
        # would never tick. The page counts the views (_view_count); each new one restarts it.
        self._ticker._view_count = 0
        self._ticker.observe(self._safely(self._restart_ticker), names="_view_count")
        buttons = w.HBox([self._run_button, self._stop_button])
        self._demo_box = w.VBox([buttons, self._delay_slider, self._ticker])
        return [self._demo_box, buttons, self._run_button, self._stop_button,
                self._delay_slider, self._ticker]

    # -- events ----------------------------------------------------------------------------

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

    def _paint(self, canvas: Any) -> None:
        """Draw the session's position (the live canvas calls it, also on a reload)."""
        s = self._session
        self._board.draw(canvas, s.state, last_move=s.last_move, status=s.status,
                         hints=s.hints, status_player=s.status_player)

    def _on_text(self, change: Mapping[str, Any]) -> None:
        if self._clearing or not change["new"]:
            return
        try:
            self._session.submit(change["new"])
        finally:
            self._clearing = True
            try:
                self._box.value = ""
            finally:
                self._clearing = False

    def _on_players(self, change: Mapping[str, Any]) -> None:
        if change["new"] != self._session.mode:
            self._session.set_mode(change["new"])

    def _on_strength(self, change: Mapping[str, Any]) -> None:
        depth, seconds = change["new"]
        self._session.set_strength(depth, seconds)

    def _hint(self) -> None:
        """The Hint button: the hints in a thread, so that the page stays responsive."""
        if self._session.threaded:
            try:
                threading.Thread(target=self._session.hint, daemon=True).start()
                return
            except RuntimeError:  # no threads here (Pyodide): compute the hints right away
                pass
        self._session.hint()

    # -- the session's changes -------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw the board and bring the message and the controls up to date."""
        s = self._session
        message, error = s.message, s.error
        try:
            self.live.redraw()
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
        self._demo_box.layout.display = None if computer_game else "none"
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
