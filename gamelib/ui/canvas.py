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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["CanvasLike", "RecordingCanvas", "Rect", "Call", "STYLE_PROPERTIES"]

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
