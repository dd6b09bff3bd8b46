"""Step through a search in a notebook: its tree on a canvas, with step/back/play controls.

::

    from gamelib.search.trace import trace_search
    from gamelib.ui import show_search

    v = show_search(trace_search(game, state, "alphabeta"))

shows the tree of the search on an ipycanvas canvas with the controls
Start, Back, Step, End, a play button with its speed, and a slider. Its output also carries
the whole search as a picture (PNG and SVG, :func:`~gamelib.ui.search_svg.search_svg`), which
stays in the saved notebook where the live canvas does not. Every word of the tree is at least
:data:`READABLE_PX` CSS pixels high on the page: a tree wider than the output shrinks down
to :data:`SHRINK` of its size, then scrolls, and the box scrolls itself to keep the current
node in view at every step; the status line above it and the key below it stay in view (HTML
outside the scrolling box). The returned :class:`SearchView` is driven from
code as from the buttons::

    v.step() -> bool      # one event on; False at the end
    v.back() -> bool      # one event back; False at the start
    v.goto(i) -> bool     # to event i (0 .. len(v) - 1); False and a message if i is bad
    v.to_start(), v.to_end()
    v.position, v.event, v.message, len(v), v.trace, v.widget, v.canvas   # read-only

It never raises at the user: a bad ``goto`` leaves the position as it was and says what
is allowed in :attr:`~SearchView.message`. Playing runs in the browser (an
``ipywidgets.Play`` linked to the slider), so it needs no thread and works where threads
cannot start (JupyterLite, Pyodide). The canvas is redrawn whenever a browser page
(re)connects to it, and drawn at twice its size for crisp text on HiDPI screens.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any, Final

from gamelib.game import describe_text
from gamelib.search.trace import Event, SearchTrace
from gamelib.session.readonly import ReadOnly
from gamelib.ui.canvas import PIXEL_RATIO, WIDGET_CSS, CanvasLike, LiveCanvas
from gamelib.ui.cell import CellView, close_widgets
from gamelib.ui.drawing import Palette
from gamelib.ui.search_snapshot import Snapshot, check_trace, snapshot
from gamelib.ui.search_svg import MIN_PX, READABLE, SMALL_PX, STATUS_PX, draw_search, search_svg
from gamelib.ui.tree_layout import (
    LEGEND_HEIGHT,
    LEGEND_PX,
    STATUS_HEIGHT,
    TreeLayout,
    focus,
    layout_tree,
)

__all__ = ["SearchView", "show_search", "PIXEL_RATIO", "SHRINK", "SPEEDS"]

READABLE_PX: Final = 14
"""The smallest text on the page, in CSS pixels, however wide the tree."""
SHRINK: Final = READABLE_PX / MIN_PX
"""A wide tree shrinks with the page down to this share of its size, then scrolls: its
smallest words (MIN_PX) stay READABLE_PX high, its node boards 49 px."""

_FOLLOW_CSS: Final = """
.gamelib-tree-box { scroll-snap-type: x mandatory; }
.gamelib-tree { position: relative; overflow: clip !important; }
.gamelib-current { position: absolute; scroll-snap-align: center; pointer-events: none; }
.gamelib-tree-box.gamelib-tall { max-height: max(300px, calc(100vh - 420px));
                                 scroll-snap-type: both mandatory; }
.gamelib-tall .gamelib-tree, .gamelib-tall .gamelib-tree > * { align-self: flex-start; }
.gamelib-viewer { --jp-widgets-font-size: 15px; --jp-widgets-inline-height: 32px; }
"""
"""Keeps the current node in view in a viewer whose tree scrolls (see SearchView._build);
a Monte-Carlo tree (``gamelib-tall``) also scrolls up and down within a box that leaves room
on an 800 px screen for the controls, the status line and the key (the tree keeps its own
height there, not stretched to the box's);
the tree's box clips the canvas's status band and key, which the viewer shows outside the
scrolling box (``overflow: clip`` makes no scroll container, so the mark still snaps). The
viewer's controls take 15 px text (ipywidgets' own is 13 px)."""

SPEEDS: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Steps per second the play button can go at."""


class SearchView(CellView):
    """A search trace on a canvas, one event at a time; see the module docstring.

    :meth:`show` displays it (its :attr:`widget`, with the whole search as an SVG picture
    for saved notebooks); evaluating it in a later cell shows it there too.

    ``canvas`` is where it draws: an ipycanvas Canvas (the default, made with the
    widgets) or any :class:`~gamelib.ui.canvas.CanvasLike` such as a
    :class:`~gamelib.ui.canvas.RecordingCanvas` (then no widgets are made; for tests).
    """

    def __init__(self, trace: SearchTrace, canvas: CanvasLike | None = None) -> None:
        """A viewer at the first event of ``trace``; GameError if it is not a trace."""
        self._trace: Final = check_trace(trace)
        self._layout: Final[TreeLayout] = layout_tree(trace)
        self._position = 0
        self._note = ""
        self._shot: Snapshot = snapshot(trace, 0)
        self._widgets: dict[str, Any] = {}
        self._syncing = False
        self._live: LiveCanvas | None = None
        self._key_height = 0  # the key's canvas pixels, clipped in the viewer (_build)
        if canvas is None:
            self._view, self._live = self._build()  # the live canvas draws itself
            self._canvas: CanvasLike = self._live.widget
            self._keep_pictures(lambda: search_svg(self._trace),
                                " Run the lesson to step through it.", self._live,
                                lambda: search_svg(self._trace, self._position))
        else:
            self._view, self._canvas = None, canvas
        self._draw()

    # -- reading ---------------------------------------------------------------------------

    trace = ReadOnly["SearchView", SearchTrace](lambda v: v._trace, "The trace shown.")
    position = ReadOnly["SearchView", int](
        lambda v: v._position, "The index of the event shown, 0 to ``len(self) - 1``."
    )
    event = ReadOnly["SearchView", Event](
        lambda v: v._trace.events[v._position], "The event shown: the step the tree has just taken."
    )
    snapshot = ReadOnly["SearchView", Snapshot](
        lambda v: v._shot, "The tree as it stands at :attr:`position`."
    )
    layout = ReadOnly["SearchView", TreeLayout](
        lambda v: v._layout, "Where every node of the whole tree is drawn."
    )
    canvas = ReadOnly["SearchView", CanvasLike](lambda v: v._canvas, "The canvas drawn on.")

    @property
    def message(self) -> str:
        """The status line: what the shown event did, in words (or why a request was
        refused, followed by it)."""
        if self._note:
            return f"{self._note} {self._shot.message}"
        return self._shot.message

    def __len__(self) -> int:
        """The number of events (steps) of the trace."""
        return len(self._trace.events)

    def __repr__(self) -> str:
        return (f"<SearchView of {self._trace.algorithm}: step {self._position + 1} of "
                f"{len(self)}>")

    # -- moving ----------------------------------------------------------------------------

    def step(self) -> bool:
        """Show the next event; False (and nothing changes) at the end."""
        if self._position + 1 >= len(self):
            self._refuse("This is the end of the search: Start goes back to the beginning.")
            return False
        return self._go(self._position + 1)

    def back(self) -> bool:
        """Show the previous event; False (and nothing changes) at the start."""
        if self._position == 0:
            self._refuse("This is the start of the search: there is no step before it.")
            return False
        return self._go(self._position - 1)

    def goto(self, i: object) -> bool:
        """Show event ``i``, a whole number from 0 to ``len(self) - 1`` (:meth:`to_end`
        goes to the last).

        Anything else (a negative number too) returns False, keeps the position and says
        what is allowed.
        """
        n = len(self)
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
            self._refuse(f"Cannot go to step {describe_text(i)}: give a whole number from 0 "
                         f"to {n - 1}.")
            return False
        return self._go(i)

    def to_start(self) -> bool:
        """Show the first event."""
        return self._go(0)

    def to_end(self) -> bool:
        """Show the last event."""
        return self._go(len(self) - 1)

    def redraw(self) -> None:
        """Draw the current picture again (e.g. after a browser page reconnected)."""
        self._draw()

    def close(self) -> None:
        """Close the widgets, with every layout, style, box and link they hold."""
        close_widgets(self._view, *self._widgets.values())

    # -- inside ----------------------------------------------------------------------------

    def _go(self, i: int) -> bool:
        self._note = ""
        self._position = i
        self._shot = snapshot(self._trace, i)
        self._draw()
        return True

    def _refuse(self, note: str) -> None:
        self._note = note
        self._sync_widgets()

    def _paint(self, canvas: CanvasLike) -> None:
        draw_search(canvas, self._trace, self._layout, self._shot)

    def _draw(self) -> None:
        if self._live is not None:
            self._live.redraw()  # scaled to PIXEL_RATIO; also redrawn on every reconnection
        else:
            self._paint(self._canvas)
        self._sync_widgets()

    def _sync_widgets(self) -> None:
        if not self._widgets:
            return
        self._syncing = True
        try:
            slider = self._widgets["slider"]
            if slider.value != self._position:
                slider.value = self._position
            self._widgets["note"].value = html.escape(self._note)
            self._widgets["status"].value = _status_html(
                self._shot.message, f"step {self._shot.step} of {len(self) - 1}")
            # The mark at the centre of what the step talks about, in % of the tree shown:
            # centred in the box, all of it is in view when it fits.
            x, y = focus(self._trace, self._layout, self._position).center
            mark = self._widgets["mark"].layout
            shown = self._layout.height - STATUS_HEIGHT - self._key_height
            mark.left = f"{100 * x / self._layout.width:.3f}%"
            mark.top = f"{100 * (y - STATUS_HEIGHT) / shown:.3f}%"
            at_start, at_end = self._position == 0, self._position == len(self) - 1
            self._widgets["start"].disabled = self._widgets["back"].disabled = at_start
            self._widgets["step"].disabled = self._widgets["end"].disabled = at_end
        finally:
            self._syncing = False

    def _safely(self, action: Callable[..., object]) -> Callable[..., None]:
        """A widget callback that reports a failure in the note instead of raising."""

        def safe(*args: Any) -> None:
            try:
                action(*args)
            except BaseException as error:  # noqa: BLE001 - the user sees it, nothing is lost
                self._refuse(f"Something went wrong ({type(error).__name__}: {error}).")

        return safe

    def _on_slider(self, change: Mapping[str, Any]) -> None:
        if not self._syncing and change["new"] != self._position:
            self.goto(change["new"])

    def _on_speed(self, change: Mapping[str, Any]) -> None:
        self._widgets["play"].interval = round(1000 / change["new"])

    def _build(self) -> tuple[Any, LiveCanvas]:
        import ipywidgets as w

        layout = self._layout
        # As wide as the tree, shrunk to the output's width down to SHRINK of its size;
        # below that the box around it scrolls. Redrawn whenever a page (re)connects.
        live = LiveCanvas(layout.width, layout.height, self._paint, css_width="100%")
        canvas = live.widget
        # The status line and the key stay in view outside the scrolling box, as HTML (which
        # grows with the page's zoom); the tree's box clips the canvas's own status band and
        # key: negative margins in % of the canvas's width, which is the box's.
        self._key_height = LEGEND_HEIGHT * len(layout.legend)
        canvas.layout.margin = (f"-{100 * STATUS_HEIGHT / layout.width:.4f}% 0 "
                                f"-{100 * self._key_height / layout.width:.4f}% 0")
        status = w.HTML(layout=w.Layout(width="100%", max_width=f"{layout.width}px",
                                        margin="0 0 4px 0"))  # as wide as the tree at most
        status.add_class("gamelib-tree-status")
        key = w.HTML(_key_html(" ".join(layout.legend)),
                     layout=w.Layout(width="100%", max_width=f"{layout.width}px"))
        key.add_class("gamelib-tree-key")
        self._widgets.update(status=status, key=key)
        # What a step talks about (tree_layout.focus: the current node; with MCTS all the
        # candidates of a selection, the playout, the path backed up) is kept in view where
        # the box scrolls: a mark at its centre is the box's only scroll-snap point (_FOLLOW_CSS),
        # which the browser scrolls back to whenever the mark moves (a step, the slider).
        mark = w.Box(layout=w.Layout(width="1px", height="1px"))
        mark.add_class("gamelib-current")
        tree = w.Box([canvas, mark], layout=w.Layout(
            width=f"{layout.width}px", max_width="100%",
            min_width=f"{round(layout.width * SHRINK)}px", flex="none"))
        tree.add_class("gamelib-tree")
        self._widgets.update(mark=mark, tree=tree)
        def button(name: str, icon: str, tip: str, action: Callable[[], bool]) -> Any:
            b = w.Button(description=name.capitalize(), icon=icon, tooltip=tip,
                         layout=w.Layout(width="92px"))
            b.on_click(self._safely(lambda _: action()))
            self._widgets[name] = b
            return b

        last = len(self) - 1
        slider = w.IntSlider(value=0, min=0, max=last, description="Step",
                             continuous_update=True, readout=True,
                             layout=w.Layout(width="310px"), style={"description_width": "50px"})
        # Playing runs in the browser: the Play widget ticks the slider, no thread needed.
        play = w.Play(value=0, min=0, max=last, interval=1000, description="Play",
                      show_repeat=False)
        link = w.jslink((play, "value"), (slider, "value"))
        speed = w.SelectionSlider(options=[(f"{s:g}/s", s) for s in SPEEDS], value=1.0,
                                  description="Speed", layout=w.Layout(width="210px"),
                                  style={"description_width": "50px"})
        note = w.HTML("", layout=w.Layout(min_height="1.4em"))
        self._widgets.update(slider=slider, play=play, speed=speed, note=note, link=link)
        slider.observe(self._safely(self._on_slider), names="value")
        speed.observe(self._safely(self._on_speed), names="value")
        controls = w.HBox([
            button("start", "fast-backward", "to the start", self.to_start),
            button("back", "step-backward", "one step back", self.back),
            button("step", "step-forward", "one step on", self.step),
            button("end", "fast-forward", "to the end", self.to_end),
            play, speed, slider,
        ], layout=w.Layout(flex_flow="row wrap", align_items="center"))
        scroller = w.Box([tree], layout=w.Layout(overflow="auto", max_width="100%"))
        scroller.add_class("gamelib-tree-box")
        if self._trace.algorithm == "mcts":
            scroller.add_class("gamelib-tall")
        self._widgets["scroller"] = scroller
        style = w.HTML(f"<style>{WIDGET_CSS}{_FOLLOW_CSS}</style>",
                       layout=w.Layout(width="0", height="0", margin="0"))
        view = w.VBox([style, controls, note, status, scroller, key])
        view.add_class("gamelib-live")  # says so when its kernel stops (WIDGET_CSS)
        view.add_class("gamelib-viewer")  # its controls' text size (_FOLLOW_CSS)
        return view, live


def _status_html(message: str, counter: str) -> str:
    """The viewer's status line: what the step did, in bold, and where we are, on the band's
    colour (the canvas's own status band, clipped in the viewer)."""
    return (f'<div style="display:flex;flex-wrap:wrap;align-items:baseline;gap:0 16px;'
            f'background:{Palette.STATUS_BAND};padding:6px {_PAD}px;line-height:1.3">'
            f'<b style="flex:1 1 30em;font-size:{STATUS_PX}px;color:{Palette.INK}">'
            f"{html.escape(message)}</b>"
            f'<span style="font-size:{SMALL_PX}px;color:{READABLE[Palette.MUTED]}">'
            f"{html.escape(counter)}</span></div>")


def _key_html(key: str) -> str:
    """The viewer's key, wrapped to the output's width."""
    return (f'<div style="font-size:{LEGEND_PX}px;line-height:1.4;padding:4px {_PAD}px;'
            f'color:{READABLE[Palette.MUTED]};background:{Palette.BACKGROUND}">'
            f"{html.escape(key)}</div>")


_PAD: Final = 16
"""CSS pixels of room left and right of the status line and the key (the canvas's MARGIN)."""


def show_search(trace: SearchTrace, *, display: bool = True) -> SearchView:
    """Show ``trace`` (from ``gamelib.search.trace.trace_search``) step by step.

    Returns the :class:`SearchView`; ``display=False`` builds it without showing it (show
    it later by evaluating it in a cell). Raises GameError if ``trace`` is not a
    SearchTrace with events; after that, nothing raises at the user.
    """
    view = SearchView(trace)
    if display:
        view.show()
    return view
