"""Pictures of drawings that a saved notebook keeps: SVG, PNG and a sentence.

:class:`BoardPicture` holds a drawing recorded on a :class:`~gamelib.ui.canvas.RecordingCanvas`
and shows it in a notebook in every form a front end may pick; :func:`attach_picture`
adds those forms to every display of a widget (a play board, a search viewer), so a
notebook saved without its widgets' state still shows what they showed.

Why a PNG too:
JupyterLab and Notebook 7 do not render the SVG of a notebook that this user has not run
(an *untrusted* one) and fall back to its plain text; a PNG they render everywhere, as do
GitHub, nbviewer and nbconvert. :func:`png_from_calls` paints the calls that a
:class:`~gamelib.ui.canvas.RecordingCanvas` recorded with Pillow (which ipycanvas needs
anyway), drawn at :data:`SUPERSAMPLE` times the size and scaled down for smooth edges, in at most
255 colours::

    >>> from gamelib.ui.canvas import RecordingCanvas
    >>> canvas = RecordingCanvas(40, 20)
    >>> canvas.fill_style = "#1f6fb2"
    >>> canvas.fill_circle(10, 10, 8)
    >>> png_from_calls(canvas.calls, 40, 20)[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'

It covers the calls of :class:`~gamelib.ui.canvas.CanvasLike` as the SVG translation does
(dashes on straight lines and rectangles; round line ends; ``global_alpha``; ``fill_text``
with its alignment, its baseline and ``max_width``). Fonts: DejaVu Sans where the machine
has it, else Pillow's own.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import math
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

from gamelib.alt_text import picture_html
from gamelib.ui.canvas import RecordingCanvas

__all__ = ["png_from_calls", "SUPERSAMPLE", "BoardPicture", "attach_picture"]

SUPERSAMPLE: Final = 2
"""The picture is painted this many times larger, then scaled down (smooth edges)."""

_ANCHOR_X: Final = {"left": "l", "start": "l", "center": "m", "right": "r", "end": "r"}
_ANCHOR_Y: Final = {"middle": "m", "top": "t", "hanging": "t", "bottom": "d",
                    "alphabetic": "s", "ideographic": "d"}
_FONT_PX: Final = re.compile(r"(\d+(?:\.\d+)?)px")


@functools.lru_cache(maxsize=64)
def _font(px: int, bold: bool, mono: bool) -> Any:
    from PIL import ImageFont

    name = "DejaVuSansMono" if mono else "DejaVuSans"
    for file in ([f"{name}-Bold.ttf"] if bold else []) + [f"{name}.ttf"]:
        try:
            return ImageFont.truetype(file, px)
        except OSError:
            continue
    return ImageFont.load_default(px)


def _parse_font(font: str) -> tuple[float, bool, bool]:
    """``'bold 18px Helvetica, sans-serif'`` -> (18.0, True, False): size, bold, monospace."""
    found = _FONT_PX.search(font)
    px = float(found.group(1)) if found else 10.0
    return px, "bold" in font, "monospace" in font


def _dashes(x1: float, y1: float, x2: float, y2: float,
            pattern: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """The pieces of the line from (x1, y1) to (x2, y2) that ``pattern`` draws."""
    length = math.hypot(x2 - x1, y2 - y1)
    if not pattern or length == 0 or sum(pattern) <= 0:
        return [(x1, y1, x2, y2)]
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    pieces, at, k = [], 0.0, 0
    while at < length:
        step = pattern[k % len(pattern)]
        if k % 2 == 0:
            end = min(length, at + step)
            pieces.append((x1 + dx * at, y1 + dy * at, x1 + dx * end, y1 + dy * end))
        at += step
        k += 1
    return pieces


def png_from_calls(calls: Sequence[tuple[Any, ...]], width: int, height: int) -> bytes:
    """The PNG file (``width`` x ``height`` pixels) that shows what ``calls`` draw.

    Raises ValueError for a call that is not part of CanvasLike.
    """
    from PIL import Image, ImageColor, ImageDraw

    k = SUPERSAMPLE
    # On white (every picture paints its own background); translucent paint blends in.
    image = Image.new("RGB", (width * k, height * k), (255, 255, 255))
    draw = ImageDraw.Draw(image, "RGBA")
    style: dict[str, Any] = {
        "fill_style": "#000000", "stroke_style": "#000000", "line_width": 1,
        "line_cap": "butt", "font": "10px sans-serif", "text_align": "start",
        "text_baseline": "alphabetic", "global_alpha": 1.0,
    }
    dash: tuple[float, ...] = ()

    def colour(name: str) -> tuple[int, int, int, int]:
        try:
            rgba = ImageColor.getrgb(str(style[name]))
        except ValueError:
            rgba = (0, 0, 0)
        alpha = rgba[3] if len(rgba) == 4 else 255
        return rgba[0], rgba[1], rgba[2], round(alpha * float(style["global_alpha"]))

    def line(x1: float, y1: float, x2: float, y2: float) -> None:
        ink, wide = colour("stroke_style"), max(1, round(float(style["line_width"]) * k))
        for a, b, c, d in _dashes(x1 * k, y1 * k, x2 * k, y2 * k, [p * k for p in dash]):
            draw.line([(a, b), (c, d)], fill=ink, width=wide)
            if style["line_cap"] == "round" and wide > 2:
                r = wide / 2
                for px, py in ((a, b), (c, d)):
                    draw.ellipse([px - r, py - r, px + r, py + r], fill=ink)

    for call in calls:
        name, args = call[0], call[1:]
        if name == "set":
            style[args[0]] = args[1]
            continue
        if name == "clear":
            continue
        if name == "set_line_dash":
            dash = tuple(float(d) for d in args[0])
            continue
        if name == "fill_rect":
            x, y, w, h = (float(a) * k for a in args)
            draw.rectangle([x, y, x + w - 1, y + h - 1], fill=colour("fill_style"))
        elif name == "stroke_rect":
            x, y, w, h = (float(a) for a in args)
            for a, b, c, d in ((x, y, x + w, y), (x + w, y, x + w, y + h),
                               (x + w, y + h, x, y + h), (x, y + h, x, y)):
                line(a, b, c, d)
        elif name in ("fill_circle", "stroke_circle"):
            x, y, r = (float(a) * k for a in args)
            box = [x - r, y - r, x + r, y + r]
            if name == "fill_circle":
                draw.ellipse(box, fill=colour("fill_style"))
            else:
                wide = max(1, round(float(style["line_width"]) * k))
                grown = [box[0] - wide / 2, box[1] - wide / 2, box[2] + wide / 2, box[3] + wide / 2]
                draw.ellipse(grown, outline=colour("stroke_style"), width=wide)
        elif name == "stroke_line":
            line(*(float(a) for a in args))
        elif name == "fill_polygon":
            draw.polygon([(float(x) * k, float(y) * k) for x, y in args[0]],
                         fill=colour("fill_style"))
        elif name == "fill_text":
            text, x, y = str(args[0]), float(args[1]), float(args[2])
            px, bold, mono = _parse_font(str(style["font"]))
            font = _font(max(1, round(px * k)), bold, mono)
            if len(args) > 3 and args[3] is not None:
                room = float(args[3]) * k
                length = draw.textlength(text, font=font)
                if length > room > 0:  # as a canvas does: the text shrinks to fit
                    font = _font(max(1, math.floor(px * k * room / length)), bold, mono)
            anchor = (_ANCHOR_X.get(str(style["text_align"]), "l")
                      + _ANCHOR_Y.get(str(style["text_baseline"]), "s"))
            draw.text((x * k, y * k), text, fill=colour("fill_style"), font=font, anchor=anchor)
        else:
            raise ValueError(f"cannot translate the canvas call {name!r} to PNG")
    small = image.resize((width, height), Image.Resampling.LANCZOS)
    # 255 colours keep the smooth edges at a fifth of the bytes (a board: about 6 kB).
    small = small.quantize(colors=255)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


_RECENT: Final = 8
_RECENT_PNGS: dict[str, bytes] = {}
_RECENT_LOCK: Final = threading.Lock()  # a still is made in a thread of its own
"""The PNGs of the last :data:`_RECENT` pictures, by their SVG (which the drawing determines,
as it does the PNG)."""


class BoardPicture:
    """A picture of a drawing: SVG and PNG for the notebook (which keeps them when saved)
    and a sentence, ``text``, for its plain-text form."""

    def __init__(self, drawing: RecordingCanvas, text: str, *, unconfined: bool = False) -> None:
        """The picture of what ``drawing`` recorded, described by ``text``; ``unconfined``:
        shown at its own size, never shrunk to the output's width (see :meth:`metadata`)."""
        self._drawing: Final = drawing
        self.text: Final = text
        """What the picture shows, in one sentence (its ``repr`` and ``text/plain``)."""
        self.unconfined: Final = unconfined
        """True: a front end shows it at its own size and the output scrolls sideways."""
        self.svg: Final = drawing.svg()
        """The picture as an SVG document."""

    @functools.cached_property
    def png(self) -> bytes:
        """The picture as a PNG file, as large as the SVG (made when first asked for; the
        same drawing, e.g. a widget's output and its still, is painted once)."""
        with _RECENT_LOCK:
            made = _RECENT_PNGS.get(self.svg)
        if made is None:
            made = png_from_calls(self._drawing.calls, self._drawing.width,
                                  self._drawing.height)
        with _RECENT_LOCK:
            _RECENT_PNGS.pop(self.svg, None)
            _RECENT_PNGS[self.svg] = made  # the most recent last
            while len(_RECENT_PNGS) > _RECENT:
                del _RECENT_PNGS[next(iter(_RECENT_PNGS))]
        return made

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_mimebundle_(self, include: Any = None,
                          exclude: Any = None) -> tuple[dict[str, str], dict[str, Any]]:
        return self.forms(), self.metadata()

    def metadata(self, note: str = "") -> dict[str, Any]:
        """The outputs' metadata: for the PNG and the SVG, ``alt``, what the picture shows
        (:attr:`text` followed by ``note``: the standard key, which IPython's ``Image`` writes
        and nbconvert's classic template reads); for an :attr:`unconfined` picture also
        ``unconfined``, which JupyterLab, Notebook 7 and nbconvert honour (untrusted
        notebooks included, where no stylesheet of ours applies): a search tree keeps its
        labels' size in a narrow output (the file browser open) and scrolls sideways instead."""
        each = {"alt": f"{self.text}{note}"} | ({"unconfined": True} if self.unconfined else {})
        return {"image/png": dict(each), "image/svg+xml": dict(each)}

    def forms(self, note: str = "") -> dict[str, str]:
        """Every form of the picture by MIME type: PNG (base64, as notebooks store it; left
        out where Pillow is missing), SVG, the plain text followed by ``note``, and HTML:
        an ``<img>`` of the SVG with that text as its ``alt``
        (:func:`gamelib.alt_text.picture_html`; an :attr:`unconfined` picture at its own size).

        Every front end shows the HTML first: JupyterLab and Notebook 7 (trusted or not:
        they render an ``<img>`` of an SVG, never an SVG document of an untrusted notebook),
        nbconvert and nbviewer; it looks as the SVG output does in a trusted notebook, and
        it is the only form whose alt text nbconvert's HTML and JupyterLab show. The PNG is
        for the rest (GitHub)."""
        text = f"{self.text}{note}"
        svg = base64.b64encode(self.svg.encode("utf-8")).decode("ascii")
        forms = {"image/svg+xml": self.svg, "text/plain": text,
                 "text/html": picture_html("image/svg+xml", svg, text, unconfined=self.unconfined)}
        with contextlib.suppress(ImportError):
            forms["image/png"] = base64.b64encode(self.png).decode("ascii")
        return forms

    def __repr__(self) -> str:
        return self.text


def attach_picture(widget: Any, picture: Callable[[], BoardPicture], note: str = "") -> None:
    """Make every display of ``widget`` also carry ``picture()``: what it shows, as PNG and
    SVG, and in words (its plain text, followed by ``note``).

    A widget shows only while its kernel runs; a saved notebook keeps its output's
    other forms. Jupyter prefers the live widget in a notebook it trusts (one this user
    ran); an untrusted one (freshly opened), nbviewer and nbconvert show its HTML form
    instead (the SVG with the sentence as alt text), GitHub the PNG, and a reader of the
    text the sentence, not the widget's Python repr.
    ``picture`` is called at display time, so it shows the widget as it was then.
    """
    show = widget._repr_mimebundle_

    def bundle(**kwargs: Any) -> Any:
        data = show(**kwargs)
        forms, metadata = data if isinstance(data, tuple) else (data, {})  # or data alone
        with contextlib.suppress(Exception):  # no picture is better than no widget
            shown = picture()
            forms.update(shown.forms(note))
            metadata = {**metadata, **shown.metadata(note)}
        return forms, metadata

    widget._repr_mimebundle_ = bundle
