"""What a board needs from a canvas, and a canvas that only records what it is told.

The boards draw on anything that looks like an :class:`ipycanvas.Canvas` as far as
:class:`CanvasLike` goes: a few style properties and a few drawing methods. A real
canvas sends them to the browser; :class:`RecordingCanvas` writes them into a list, so
a test (or a curious student) can see exactly which calls a board made::

    >>> canvas = RecordingCanvas(100, 50)
    >>> canvas.fill_style = "#ff0000"
    >>> canvas.fill_circle(10, 20, 5)
    >>> canvas.calls
    [('set', 'fill_style', '#ff0000'), ('fill_circle', 10, 20, 5)]

In the browser, every board is drawn on a :class:`LiveCanvas`: an ipycanvas Canvas that
draws itself again whenever a page (re)connects to the kernel, holds :data:`PIXEL_RATIO`
pixels per CSS pixel for sharp text, is fitted to the window (:func:`fit_width`) and,
while nothing is drawn on it, says what to do (:data:`BLANK_CANVAS_CSS`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Final, Protocol, runtime_checkable

__all__ = [
    "CanvasLike", "RecordingCanvas", "Rect", "Call", "STYLE_PROPERTIES", "svg_from_calls",
    "LiveCanvas", "PIXEL_RATIO", "fit_width",
    "BLANK_CANVAS_CSS", "STOPPED_KERNEL_CSS", "STOPPED_WORDS", "STILL_CSS", "WIDGET_CSS",
    "batch",
]

Call = tuple[Any, ...]
"""One recorded call: ``('set', name, value)`` or ``(method, *args)``."""

STYLE_PROPERTIES = (
    "fill_style",
    "stroke_style",
    "line_width",
    "line_cap",
    "line_join",
    "font",
    "text_align",
    "text_baseline",
    "global_alpha",
)
"""The canvas properties the boards assign (a subset of ipycanvas's)."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in canvas pixels: left ``x``, top ``y``, ``width``, ``height``.

    A point is inside when ``x <= px < x + width`` and ``y <= py < y + height``.
    """

    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        """The point in the middle of the rectangle."""
        return self.x + self.width / 2, self.y + self.height / 2

    @property
    def right(self) -> float:
        """The x just right of the rectangle."""
        return self.x + self.width

    @property
    def bottom(self) -> float:
        """The y just below the rectangle."""
        return self.y + self.height

    def contains(self, px: float, py: float) -> bool:
        """True iff the point ``(px, py)`` lies inside (left and top edges included)."""
        return self.x <= px < self.right and self.y <= py < self.bottom


@runtime_checkable
class CanvasLike(Protocol):
    """The part of the :class:`ipycanvas.Canvas` API that the boards use.

    Style properties (assign them before drawing): ``fill_style``, ``stroke_style``,
    ``line_width``, ``line_cap``, ``line_join``, ``font``, ``text_align``,
    ``text_baseline``, ``global_alpha``. Coordinates are canvas pixels, (0, 0) at the
    top left, y growing downwards.
    """

    width: int
    height: int
    fill_style: str
    stroke_style: str
    line_width: float
    line_cap: str
    line_join: str
    font: str
    text_align: str
    text_baseline: str
    global_alpha: float

    def clear(self) -> None:
        """Erase the whole canvas."""

    def fill_rect(self, x: float, y: float, width: float, height: float | None = None) -> None:
        """Fill a rectangle with ``fill_style``."""

    def stroke_rect(self, x: float, y: float, width: float, height: float | None = None) -> None:
        """Outline a rectangle with ``stroke_style`` and ``line_width``."""

    def fill_circle(self, x: float, y: float, radius: float) -> None:
        """Fill a disc centred at ``(x, y)``."""

    def stroke_circle(self, x: float, y: float, radius: float) -> None:
        """Outline a circle centred at ``(x, y)``."""

    def stroke_line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """Draw a straight line from ``(x1, y1)`` to ``(x2, y2)``."""

    def fill_polygon(self, points: Sequence[tuple[float, float]]) -> None:
        """Fill the polygon through ``points``."""

    def fill_text(self, text: str, x: float, y: float, max_width: float | None = None) -> None:
        """Write ``text`` at ``(x, y)`` as ``text_align`` and ``text_baseline`` place it."""

    def set_line_dash(self, segments: Sequence[float]) -> None:
        """Dash pattern for strokes: lengths of dashes and gaps; ``[]`` for solid lines."""


class RecordingCanvas(CanvasLike):
    """A stand-in for :class:`ipycanvas.Canvas` that records every call in :attr:`calls`.

    Property assignments are recorded as ``('set', name, value)``, drawing calls as
    ``(method, *args)`` with the arguments exactly as given (``fill_text``'s
    ``max_width`` only when it was given). Assigning an attribute that a real canvas
    does not have raises ``AttributeError``, as a typo should. The style properties
    (declared by :class:`CanvasLike`) live in a private dict.
    """

    def __init__(self, width: int = 700, height: int = 500) -> None:
        """An empty recording of a ``width`` x ``height`` canvas."""
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "calls", [])
        object.__setattr__(self, "_style", {})

    calls: list[Call]
    """Everything the canvas was told, in order."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in STYLE_PROPERTIES:
            self._style[name] = value
            self.calls.append(("set", name, value))
        elif name in ("width", "height"):
            object.__setattr__(self, name, value)
        else:
            raise AttributeError(f"a canvas has no property {name!r}")

    def __getattr__(self, name: str) -> Any:
        # Only called for names not found normally: the style properties read back.
        if name in STYLE_PROPERTIES:
            return self._style.get(name)
        raise AttributeError(name)

    def reset(self) -> None:
        """Forget the recorded calls (the canvas size stays)."""
        self.calls.clear()

    def svg(self) -> str:
        """The SVG document that shows what was drawn (see :func:`svg_from_calls`)."""
        return svg_from_calls(self.calls, self.width, self.height)

    def replay(self, canvas: CanvasLike) -> None:
        """Make on ``canvas`` every call recorded here, in order (the same picture)."""
        for call in self.calls:
            if call[0] == "set":
                setattr(canvas, call[1], call[2])
            else:
                getattr(canvas, call[0])(*call[1:])

    def methods(self) -> list[str]:
        """The names of the recorded drawing calls, in order (property sets left out)."""
        return [call[0] for call in self.calls if call[0] != "set"]

    def find(self, method: str) -> list[Call]:
        """The recorded calls of ``method``, in order."""
        return [call for call in self.calls if call[0] == method]

    def styled(self, method: str) -> list[tuple[dict[str, Any], Call]]:
        """Each call of ``method`` with the style properties in force when it was made."""
        style: dict[str, Any] = {}
        found: list[tuple[dict[str, Any], Call]] = []
        for call in self.calls:
            if call[0] == "set":
                style[call[1]] = call[2]
            elif call[0] == method:
                found.append((dict(style), call))
        return found

    def texts(self) -> list[str]:
        """The strings written with ``fill_text``, in order."""
        return [call[1] for call in self.find("fill_text")]

    def _record(self, *call: Any) -> None:
        self.calls.append(call)

    def clear(self) -> None:
        """Record ``clear()``."""
        self._record("clear")

    def fill_rect(self, x: float, y: float, width: float, height: float | None = None) -> None:
        """Record ``fill_rect``."""
        self._record("fill_rect", x, y, width, width if height is None else height)

    def stroke_rect(self, x: float, y: float, width: float, height: float | None = None) -> None:
        """Record ``stroke_rect``."""
        self._record("stroke_rect", x, y, width, width if height is None else height)

    def fill_circle(self, x: float, y: float, radius: float) -> None:
        """Record ``fill_circle``."""
        self._record("fill_circle", x, y, radius)

    def stroke_circle(self, x: float, y: float, radius: float) -> None:
        """Record ``stroke_circle``."""
        self._record("stroke_circle", x, y, radius)

    def stroke_line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """Record ``stroke_line``."""
        self._record("stroke_line", x1, y1, x2, y2)

    def fill_polygon(self, points: Sequence[tuple[float, float]]) -> None:
        """Record ``fill_polygon`` (the points as a tuple of pairs)."""
        self._record("fill_polygon", tuple((x, y) for x, y in points))

    def fill_text(self, text: str, x: float, y: float, max_width: float | None = None) -> None:
        """Record ``fill_text``."""
        if max_width is None:
            self._record("fill_text", text, x, y)
        else:
            self._record("fill_text", text, x, y, max_width)

    def set_line_dash(self, segments: Sequence[float]) -> None:
        """Record ``set_line_dash`` (the segments as a tuple)."""
        self._record("set_line_dash", tuple(segments))


# -- recorded calls as SVG, and widgets that keep a picture ----------------------------

_ANCHOR: Final = {"left": "start", "start": "start", "center": "middle", "right": "end",
                  "end": "end"}
_BASELINE: Final = {"middle": "central", "top": "hanging", "bottom": "text-after-edge",
                    "alphabetic": "alphabetic"}


def _n(value: float) -> str:
    """A number as SVG writes it: no trailing ``.0``."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def svg_from_calls(calls: Sequence[Call], width: int, height: int) -> str:
    """The SVG document that shows what ``calls`` (recorded by a RecordingCanvas) draw.

    Raises ValueError for a call that is not part of :class:`CanvasLike`.
    """
    style: dict[str, Any] = {
        "fill_style": "#000000", "stroke_style": "#000000", "line_width": 1,
        "line_cap": "butt", "line_join": "miter", "font": "10px sans-serif",
        "text_align": "start", "text_baseline": "alphabetic", "global_alpha": 1.0,
    }
    dash: tuple[float, ...] = ()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    ]

    def paint(kind: str) -> str:
        alpha = style["global_alpha"]
        opacity = f' opacity="{_n(alpha)}"' if alpha != 1 else ""
        if kind == "fill":
            return f'fill="{escape(str(style["fill_style"]))}"{opacity}'
        dashes = f' stroke-dasharray="{" ".join(_n(d) for d in dash)}"' if dash else ""
        return (
            f'fill="none" stroke="{escape(str(style["stroke_style"]))}" '
            f'stroke-width="{_n(style["line_width"])}" stroke-linecap="{style["line_cap"]}" '
            f'stroke-linejoin="{style["line_join"]}"{dashes}{opacity}'
        )

    for call in calls:
        name, args = call[0], call[1:]
        if name == "set":
            style[args[0]] = args[1]
        elif name == "clear":
            continue
        elif name == "set_line_dash":
            dash = tuple(args[0])
        elif name in ("fill_rect", "stroke_rect"):
            x, y, w, h = args
            kind = "fill" if name == "fill_rect" else "stroke"
            parts.append(
                f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" {paint(kind)}/>'
            )
        elif name in ("fill_circle", "stroke_circle"):
            x, y, r = args
            kind = "fill" if name == "fill_circle" else "stroke"
            parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {paint(kind)}/>')
        elif name == "stroke_line":
            x1, y1, x2, y2 = args
            parts.append(
                f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" {paint("stroke")}/>'
            )
        elif name == "fill_polygon":
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in args[0])
            parts.append(f'<polygon points="{points}" {paint("fill")}/>')
        elif name == "fill_text":
            text, x, y = args[:3]
            anchor = _ANCHOR.get(style["text_align"], "start")
            baseline = _BASELINE.get(style["text_baseline"], "alphabetic")
            parts.append(
                f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" '
                f'dominant-baseline="{baseline}" style="font: {escape(str(style["font"]))}" '
                f"{paint('fill')}>{escape(str(text))}</text>"
            )
        else:
            raise ValueError(f"cannot translate the canvas call {name!r} to SVG")
    parts.append("</svg>")
    return "\n".join(parts)


# -- live canvases: redrawn whenever a browser page shows them, sharp at any zoom -----------

PIXEL_RATIO: Final = 2
"""Device pixels per CSS pixel of every live canvas. Text and lines stay sharp up to a
device pixel ratio of 2 (125 % and 150 % zoom, Retina screens, Presentation Mode) and are
downsampled smoothly at 1. The kernel cannot ask a page for its ratio before drawing, and
two pages (a second window) may differ, so one ratio that serves them all is used."""

HALL_CHROME: Final = 150
"""CSS pixels of the viewport that a notebook page takes for itself (menu, tabs,
toolbar, status bar, cell margins) in JupyterLab and Notebook 7; :func:`fit_width`
leaves them out when it fits a picture to the window's height."""

_BLANK_WORDS: Final = (
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 440 80'>"
    "<text x='220' y='30' text-anchor='middle' font-family='sans-serif' font-size='18' "
    "fill='%23b3261e'>Nothing drawn here yet.</text>"
    "<text x='220' y='58' text-anchor='middle' font-family='sans-serif' font-size='16' "
    "fill='%232b2d42'>Run this cell again (Shift+Enter) to draw the board.</text></svg>"
)

BLANK_CANVAS_CSS: Final = (
    ".gamelib-canvas { background: url(\"data:image/svg+xml;utf8,"
    + _BLANK_WORDS.replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")
    + "\") center / 90% auto no-repeat; }"
)
"""CSS that writes what to do on a live canvas that is still blank: a page that shows a
canvas before (or without) its kernel drawing it. Every picture covers the whole canvas
with an opaque background, so the words show only where nothing was drawn. The play
widget carries this rule; a notebook's stylesheet should too (for ``show_board``)."""

STOPPED_WORDS: Final = ("The kernel has stopped. Run this cell again; if it needs the cells "
                        "above, choose Run > Run All Cells.")
"""What a board or search viewer says once its kernel has stopped (:data:`STOPPED_KERNEL_CSS`):
what will work in JupyterLab and Notebook 7 alike. The lessons' play cells import what they
use, so running one again is enough; a viewer's cell uses the lesson's names, defined above."""

SAVED_WORDS: Final = "Run the lesson to play"
"""What a saved board says in its status line's place (:meth:`PlayController.saved_picture
<gamelib.ui.controller.PlayController.saved_picture>`): a picture answers no click, so it
never says whose turn it is."""

STOPPED_KERNEL_CSS: Final = (
    # After a kernel restart, ipywidgets keeps the views on the page and marks each one
    # .jupyter-widgets-disconnected: the last picture stays, the words come above it, and
    # clicks that nobody would answer are turned away.
    ".gamelib-live.jupyter-widgets-disconnected::before { content: \"" + STOPPED_WORDS + "\"; "
    "flex: none; width: 100%; box-sizing: border-box; margin: 0 0 6px; padding: 6px 10px; "
    "border-radius: 4px; background: #fdecea; color: #8c1d18; font-size: 18px; "
    "font-weight: 700; }\n"
    ".gamelib-live.jupyter-widgets-disconnected .jupyter-widgets { pointer-events: none; }\n"
    # Its status line said whose turn it was: no longer true, so it goes blank.
    ".gamelib-live.jupyter-widgets-disconnected .gamelib-status > * { visibility: hidden; }\n"
    # After a reload with the kernel gone, no view can be made: ipywidgets writes "Error
    # displaying widget: model not found" into the output (marked .jupyter-widgets, with no
    # view inside); say instead what happened and what to do.
    ".jp-OutputArea-output.jupyter-widgets:not(:has(.jupyter-widgets)) { font-size: 0; }\n"
    ".jp-OutputArea-output.jupyter-widgets:not(:has(.jupyter-widgets))::before { content: \""
    + STOPPED_WORDS + "\"; display: block; padding: 6px 10px; border-radius: 4px; "
    "background: #fdecea; color: #8c1d18; font-size: 18px; font-weight: 700; }"
)
"""CSS that makes a play board or search viewer (class ``gamelib-live``) say
:data:`STOPPED_WORDS` once its kernel has stopped: after a restart (over its last picture,
whose clicks it then ignores) and after a reload of the page (instead of ipywidgets' "model
not found", with their last picture below: :data:`STILL_CSS`). The play widget and the viewer
carry this rule, and so does the notebooks' stylesheet (``gamelib.style.load_style``), which
is still there after a reload."""

# ipywidgets marks its output .jupyter-widgets only when it could show no view there (a view
# is marked inside it); :has() cannot nest, so this says it without a second :has().
_DEAD: Final = ".jp-OutputArea-child:has(> .jp-OutputArea-output.jupyter-widgets)"
_STILL: Final = '.jp-OutputArea-output > img[width="0"][height="0"]'
STILL_CSS: Final = (
    f".jp-OutputArea-child:has(> {_STILL}):not({_DEAD} + *) {{ display: none; }}\n"
    f"{_DEAD} + .jp-OutputArea-child > {_STILL} {{ width: auto; height: auto; "
    "max-width: 100%; }"
)
"""CSS that shows a widget's still (:mod:`gamelib.ui.still`: its last picture, a PNG output
declared 0 x 0 pixels right after the widget's) only where the widget found no model (a
reload without its kernel), at the picture's own size, under :data:`STOPPED_WORDS`; its
output takes no room anywhere else."""

WIDGET_CSS: Final = BLANK_CANVAS_CSS + "\n" + STOPPED_KERNEL_CSS + "\n" + STILL_CSS
"""Every rule the widgets need from a stylesheet: :data:`BLANK_CANVAS_CSS`,
:data:`STOPPED_KERNEL_CSS` and :data:`STILL_CSS`."""

# ipycanvas sends every drawing command through one module-wide manager widget, which
# names its target canvas only when the target changes. Two threads must not batch at
# the same time, and a page that (re)connects must be told the target again.
_DRAW_LOCK: Final = threading.RLock()


@contextlib.contextmanager
def batch(canvas: CanvasLike) -> Iterator[None]:
    """Hold the drawing commands of a real ipycanvas canvas and send them in one go."""
    with _DRAW_LOCK:
        if type(canvas).__module__.startswith("ipycanvas"):
            from ipycanvas import hold_canvas

            with hold_canvas():
                yield
        else:
            yield


def fit_width(width: int, height: int, reserve: int = 0, across: str | None = None) -> str:
    """The CSS width that shows a ``width`` x ``height`` picture as large as it can be: its
    own size at most, no taller than the window less :data:`HALL_CHROME` and ``reserve`` (the
    pixels of controls above or below it), no wider than ``across`` (a CSS ``calc()``
    expression, e.g. the cell's width less the controls beside it), at least 160 px wide.
    With ``height: auto`` it keeps its proportions, so at 125 % or 150 % zoom and in
    Presentation Mode a board shrinks to fit on the screen.

    >>> fit_width(300, 300, 100, across="100cqw - 336px")
    'max(160px, min(300px, calc((100vh - 250px) * 1.0000), calc(100cqw - 336px)))'
    """
    cap = f", calc({across})" if across else ""
    return (f"max(160px, min({width}px, "
            f"calc((100vh - {HALL_CHROME + reserve}px) * {width / height:.4f}){cap}))")


class LiveCanvas:
    """An ipycanvas Canvas showing a ``width`` x ``height`` picture that ``paint`` draws.

    * **Redrawn on every (re)connection.** A browser page that creates a view of the
      canvas (a reload, a second window, a saved page opened again while the kernel
      runs) starts blank and says so with ipycanvas's *client ready* event; the live
      canvas then tells ipycanvas's manager the target afresh and calls ``paint`` again.
      Where that is impossible because ``paint`` fails, the canvas says in words what
      happened and what to do.
    * **Sharp.** The canvas holds :data:`PIXEL_RATIO` device pixels per CSS pixel;
      ``paint`` draws in CSS pixels, ``(0, 0)`` top left, as on a RecordingCanvas.
    * **Fitted.** Its CSS width is ``css_width`` (default: :func:`fit_width` of the
      picture), its height follows, and it never gets wider than its cell.

    :meth:`on_click` reports clicks and single-finger taps in the picture's own CSS
    pixels, whatever the ratio and however the page scales the canvas.
    """

    def __init__(
        self, width: int, height: int, paint: Callable[[CanvasLike], object], *,
        css_width: str | None = None, min_width: str | None = None,
    ) -> None:
        """A canvas showing ``paint``'s picture; ``paint`` runs once now and on every
        (re)connection, with the canvas already scaled (any exception it raises now
        propagates; later ones are written on the canvas)."""
        import ipywidgets as w
        from ipycanvas import Canvas

        self.width: Final = width
        self.height: Final = height
        self._paint = paint
        self.widget: Final[Any] = Canvas(
            width=width * PIXEL_RATIO, height=height * PIXEL_RATIO,
            layout=w.Layout(width=css_width or fit_width(width, height), height="auto",
                            max_width="100%", min_width=min_width),
        )
        """The ipycanvas Canvas (display it, or put it in a box)."""
        self.widget.add_class("gamelib-canvas")  # see BLANK_CANVAS_CSS
        self.widget.on_client_ready(self._on_client_ready)
        show = self.widget._repr_mimebundle_

        def bundle(**kwargs: Any) -> Any:
            # Its plain-text form names the picture's size, not the layout's CSS.
            data = show(**kwargs)
            forms = data[0] if isinstance(data, tuple) else data
            if isinstance(forms, dict) and "text/plain" in forms:
                forms["text/plain"] = f"Canvas(height={height}, width={width})"
            return data

        self.widget._repr_mimebundle_ = bundle
        canvas, close = self.widget, self.widget.close

        def close_with_layout() -> None:
            # Closing the canvas (also show_board's, closed by its user) releases its layout.
            close()
            canvas.layout.close()

        self.widget.close = close_with_layout
        self._redrawn: list[Callable[[], object]] = []
        self._draw()

    def redraw(self) -> None:
        """Paint the picture again (raises what ``paint`` raises), then call every
        :meth:`on_redraw` callback."""
        self._draw()
        for callback in self._redrawn:
            callback()

    def on_redraw(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` after every :meth:`redraw` (not after the redraws that a
        page's reconnection asks for, which show the same picture)."""
        self._redrawn.append(callback)

    def _draw(self) -> None:
        canvas = self.widget
        with batch(canvas):
            canvas.set_transform(PIXEL_RATIO, 0, 0, PIXEL_RATIO, 0, 0)
            self._paint(canvas)

    def say(self, *lines: str) -> None:
        """Replace the picture by ``lines`` of text (what happened, what to do)."""
        canvas = self.widget
        with batch(canvas):
            canvas.set_transform(PIXEL_RATIO, 0, 0, PIXEL_RATIO, 0, 0)
            canvas.clear()
            canvas.fill_style = "#fbf8f1"
            canvas.fill_rect(0, 0, self.width, self.height)
            canvas.fill_style = "#b3261e"
            canvas.font = "bold 18px sans-serif"
            canvas.text_align = "center"
            canvas.text_baseline = "middle"
            for k, line in enumerate(lines):
                y = self.height / 2 + (k - (len(lines) - 1) / 2) * 28
                canvas.fill_text(line, self.width / 2, y, self.width - 20)

    def on_click(self, callback: Callable[[float, float], object]) -> None:
        """Call ``callback(x, y)`` for a click or a one-finger tap, in picture pixels."""
        ratio = PIXEL_RATIO

        def mouse(x: float, y: float) -> None:
            callback(x / ratio, y / ratio)

        def touch(touches: Sequence[tuple[float, float]]) -> None:
            if len(touches) == 1:
                callback(touches[0][0] / ratio, touches[0][1] / ratio)

        self.widget.on_mouse_down(mouse)
        # A tap on a touch screen arrives as a touch, not as a mouse click.
        self.widget.on_touch_start(touch)

    def _on_client_ready(self) -> None:
        """A page made a new, blank view of the canvas: name it to the manager, redraw.

        The page's manager is new too and knows no target yet, while the kernel's
        manager still thinks it named this canvas last and would send the commands
        without naming it; they would be dropped. Forgetting the target makes the next
        batch name it.
        """
        with _DRAW_LOCK:
            manager = getattr(self.widget, "_canvas_manager", None)
            if manager is not None and hasattr(manager, "_current_canvas"):
                manager._current_canvas = None
            try:
                self._draw()
            except Exception as failure:  # noqa: BLE001 - shown on the board, never raised
                self.say("This board could not be drawn",
                         f"({type(failure).__name__}).",
                         "Run its cell again to draw it afresh.")
