"""Alt text: what a picture or a chart shows, in words that every front end can show.

A notebook's picture output keeps its alt text in two places. The standard one is the
output's metadata (``{"image/png": {"alt": ...}}``, which IPython's ``Image(alt=...)`` writes);
but nbconvert's HTML (lab template) and JupyterLab's image renderer read no alt from there.
So every picture also carries a ``text/html`` form, an ``<img>`` with that ``alt``
(:func:`picture_html`), which JupyterLab and Notebook 7 (trusted or not), nbconvert and
nbviewer show first. Boards and search trees (:class:`gamelib.ui.picture.BoardPicture`) say
in a sentence what they show; a chart is described from its figure (:func:`describe_figure`)
and shown in these forms by :func:`figure_forms`, which ``gamelib.style.load_style()``
registers with IPython for every matplotlib Figure.

This module imports neither matplotlib nor IPython (they are imported by what calls it), so
the setup cell stays cheap.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["picture_html", "describe_figure", "figure_forms"]

_NUMBER_FORMATTERS: Final = frozenset({"ScalarFormatter", "LogFormatter"})
"""matplotlib's tick formatters whose labels are numbers that a locator chose."""


def picture_html(mime: str, data: str, alt: str, *, unconfined: bool = False) -> str:
    """The ``text/html`` form of a picture: an ``<img>`` of ``data`` (the picture as base64,
    of type ``mime``, e.g. ``"image/png"``) whose ``alt`` says what it shows.

    Every front end picks this form first (JupyterLab and Notebook 7 also in an untrusted
    notebook, whose sanitizer keeps the ``data:`` address, the ``alt`` and the style), and it is
    the one form whose alt text reaches them all: nbconvert's HTML (lab template) and
    JupyterLab's image renderer read no ``alt`` from an output's metadata. ``unconfined``:
    the picture keeps its own size and the output scrolls sideways, as an image output
    marked ``unconfined`` does; else it shrinks to the output's width, as an image does.

    >>> print(picture_html("image/png", "iVBO", 'A "board".'))  # doctest: +NORMALIZE_WHITESPACE
    <img alt="A &quot;board&quot;." src="data:image/png;base64,iVBO"
     style="display: block; margin-bottom: 0">
    """
    # display: block, as an image output's <img> is (no line's descender gap below it), and no
    # bottom margin: JupyterLab gives the last element of an HTML output 7 px of margin, which
    # made each picture 4 px taller than as an image output (measured: 461 against 457 px for
    # a 454 px tree in Lesson 2; 454 px with this).
    img = f'<img alt="{html.escape(alt)}" src="data:{mime};base64,{data}" style="display: block'
    if not unconfined:
        return img + '; margin-bottom: 0">'
    return (f'<div style="overflow-x: auto; margin-bottom: 0">{img}; max-width: none">'
            '</div>')


def _words(texts: Sequence[str]) -> str:
    """The non-empty ``texts``, one line each, joined by commas."""
    return ", ".join(" ".join(t.split()) for t in texts if t.strip())


def _describe_axes(ax: Axes) -> str:
    """What one set of axes shows: its title; its y label against its x label; the words
    on its x ticks where they are words (a bar chart's categories, set by the chart; numbers
    that a locator chose are left out); its key."""
    parts = [_words([ax.get_title("left"), ax.get_title(), ax.get_title("right")])]
    if ax.axison:
        x, y = _words([ax.get_xlabel()]), _words([ax.get_ylabel()])
        parts.append(f"{y} against {x}" if x and y else y or x)
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        formatter = type(ax.xaxis.get_major_formatter())
        numbers = {kind.__name__ for kind in formatter.__mro__} & _NUMBER_FORMATTERS
        if not numbers and any(c.isalpha() for t in ticks for c in t):
            parts.append("x: " + _words(ticks))
    legend = ax.get_legend()
    if legend is not None:
        parts.append("key: " + _words([t.get_text() for t in legend.get_texts()]))
    return "; ".join(p for p in parts if p)


def describe_figure(figure: Figure) -> str:
    """One sentence that says what ``figure`` shows, for its alt text: ``"Chart: "``, then its
    title, and for each of its axes their title, y label against x label, the words on the x
    ticks and the key (several axes numbered). Read from the figure as it was last drawn (tick
    words appear once it is drawn); never raises for a figure.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from gamelib.plots import plot_nodes_per_depth
    >>> ax = plot_nodes_per_depth({1: 7, 2: 56, 3: 392}, label="no pruning")
    >>> _ = ax.set_title("Nodes per depth")
    >>> describe_figure(ax.figure)
    'Chart: Nodes per depth; nodes (log scale) against depth (plies); key: no pruning.'
    """
    shown = [ax for ax in figure.axes if ax.get_visible()]
    axes = [_describe_axes(ax) for ax in shown]
    if len(axes) > 1:
        axes = [f"({number}) {words or 'an empty panel'}"
                for number, words in enumerate(axes, 1)]
    suptitle = figure.get_suptitle() if hasattr(figure, "get_suptitle") else ""
    words = "; ".join(w for w in [_words([suptitle]), *axes] if w)
    return f"Chart: {words or 'no title, labels or key'}."


_PNG_PRINTER: dict[str, Any] = {}
"""The inline backend's PNG printer for figures, once :func:`figure_forms` took it over."""


def figure_forms(figure: Figure, include: Any = None,
                 exclude: Any = None) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The forms in which IPython shows ``figure`` (``gamelib.style.load_style()`` registers
    this for every matplotlib Figure; IPython's ``include`` and ``exclude`` are not used):
    the inline backend's PNG, with :func:`describe_figure`'s sentence as its ``alt`` in the
    metadata, and an HTML ``<img>`` of that PNG with that ``alt`` (:func:`picture_html`), the
    form that front ends show first and the only one whose alt text nbconvert's HTML and
    JupyterLab show.

    The figure is drawn once: the inline backend's PNG printer for figures moves from IPython's
    PNG formatter to here (else IPython would call it again after this). Returns None, and
    IPython shows the figure as before, outside IPython or where no PNG printer is set (e.g.
    the inline backend set to SVG only); a retina PNG (its own width and height) gets the alt
    in its metadata only.
    """
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return None
    formatter = shell.display_formatter.formatters["image/png"]
    for kind in type(figure).__mro__:
        if kind in formatter.type_printers:
            _PNG_PRINTER["figure"] = formatter.type_printers.pop(kind)
            break
    printer = _PNG_PRINTER.get("figure")
    if printer is None:
        return None
    made = printer(figure)
    data, metadata = made if isinstance(made, tuple) else (made, None)
    if not isinstance(data, str):
        return None
    alt = describe_figure(figure)
    forms = {"image/png": data}
    if not metadata:
        forms["text/html"] = picture_html("image/png", data, alt)
    return forms, {"image/png": {**(metadata or {}), "alt": alt}}
