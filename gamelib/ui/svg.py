"""Boards as SVG pictures: the same drawing as on a canvas, kept in the saved notebook.

An ipycanvas canvas only shows while a kernel runs it, so a saved notebook (or one
viewed on a website) shows an empty space where the board was. :func:`board_svg`
draws the board on a :class:`~gamelib.ui.canvas.RecordingCanvas` and translates the
recorded calls into SVG, which the notebook stores as text::

    >>> from gamelib.games import ConnectFour
    >>> picture = board_svg(ConnectFour(), ConnectFour.from_moves("4453"), last_move=2)
    >>> picture.svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="440"')
    True

Evaluating ``picture`` in a cell shows it. The translation covers exactly the calls of
:class:`~gamelib.ui.canvas.CanvasLike`; ``fill_text``'s ``max_width`` is dropped (SVG
cannot shrink text only when it is too long).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Final

from gamelib.game import Game, Player
from gamelib.ui.boards import DEFAULT_SIZE, _draw_position
from gamelib.ui.canvas import Call, RecordingCanvas

__all__ = ["BoardPicture", "board_svg", "svg_from_calls"]

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


class BoardPicture:
    """An SVG picture of a board; a notebook shows it, and keeps it when saved."""

    def __init__(self, svg: str) -> None:
        """Wrap the SVG document ``svg``."""
        self.svg: Final = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<BoardPicture, {len(self.svg):,} characters of SVG>"


def board_svg(
    game: Game[Any, Any],
    state: Any = None,
    *,
    last_move: Any | None = None,
    size: int = DEFAULT_SIZE,
    status: Sequence[str] | None = None,
    hints: Mapping[Any, float] | None = None,
    status_player: Player | None = None,
) -> BoardPicture:
    """An SVG picture of ``state`` (default: the start), drawn as the live board draws it.

    ``status`` replaces the default status line (whose turn, or the result), and
    ``status_player`` the player whose token goes beside it; ``last_move`` and
    ``hints`` are shown as on the live board. Raises GameError for a bad ``size`` or
    ``status``.
    """
    canvas = _draw_position(
        game, state, RecordingCanvas,
        last_move=last_move, size=size, status=status, hints=hints, status_player=status_player,
    )
    return BoardPicture(svg_from_calls(canvas.calls, canvas.width, canvas.height))
