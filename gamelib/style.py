"""The notebooks' look: put the project's ``style.css`` into a notebook.

Every notebook starts with this code cell::

    from gamelib.style import load_style; load_style()

For the lecture hall, change that cell to ``load_style(projector=True)``: text and code grow to
the hall sizes of the stylesheet (22 px and 20 px), whatever the mode. JupyterLab's Presentation
Mode switches to the same sizes by itself, with or without the switch. Either way the cell's
output stays one ``<style id="gamelib-style">`` element (which the nbval sanitizer masks), so the
saved outputs that the tests compare do not change.

The stylesheet is ``gamelib/style.css``, package data of gamelib, so every installation of
gamelib (a wheel, Colab, JupyterLite) brings it. With the editable install of ``make lab`` a
lecturer can tweak that one file and rerun the first cell.

IPython is imported only when :func:`load_style` is called, so importing this module is cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from IPython.display import HTML

__all__ = ["PROJECTOR_CSS", "PROJECT_STYLE", "STYLE_ELEMENT_ID", "load_style", "read_style"]

PROJECT_STYLE = Path(__file__).with_name("style.css")
"""Where gamelib keeps its stylesheet: ``style.css`` inside the ``gamelib`` package."""

STYLE_ELEMENT_ID = "gamelib-style"
"""The ``id`` of the ``<style>`` element that :func:`load_style` produces."""

PROJECTOR_CSS = """
/* load_style(projector=True): the hall sizes of this stylesheet on every screen. */
:root {
  --gl-text-size: var(--gl-hall-text-size);
  --gl-code-size: var(--gl-hall-code-size);
  --gl-measure: none;
}
"""
"""The rule that :func:`load_style` appends for ``projector=True``: it switches the variables
that size prose and code to the hall sizes ``--gl-hall-text-size`` and ``--gl-hall-code-size``
defined in ``style.css`` (the rules there read them, and so do JupyterLab's own
``--jp-content-font-size1`` and ``--jp-code-font-size``)."""


def read_style() -> str:
    """Return the text of the notebooks' stylesheet.

    Result: the contents of :data:`PROJECT_STYLE`. Raises FileNotFoundError naming that path
    when it does not exist, which means gamelib was installed without its package data.
    """
    if not PROJECT_STYLE.is_file():
        raise FileNotFoundError(
            f"no stylesheet at {PROJECT_STYLE}: gamelib was installed without its package "
            "data; reinstall it (pip install --force-reinstall gamelib, or make lab)"
        )
    return PROJECT_STYLE.read_text(encoding="utf-8")


def load_style(projector: bool = False) -> HTML:
    """Return the stylesheet as an HTML ``<style>`` element for a notebook to display.

    Use it as the last expression of a notebook's first cell, so the notebook shows (and thereby
    applies) it. The result renders as ``<style id="gamelib-style">...</style>``; the CSS it holds
    is :func:`read_style`'s, then the words a blank board shows before it is drawn and those
    a board shows once its kernel has stopped (``gamelib.ui.canvas.WIDGET_CSS``), then
    :data:`PROJECTOR_CSS` when ``projector`` is true (text and code at the hall sizes, prose
    over the full width). It also sets matplotlib's defaults for the hall
    (:func:`gamelib.plots.hall_style`). Raises TypeError when ``projector`` is not a bool, and
    FileNotFoundError as read_style does.
    """
    if not isinstance(projector, bool):
        raise TypeError(
            f"load_style(projector=...) takes True or False, not {projector!r}: "
            "load_style(projector=True) sizes text and code for a lecture hall"
        )
    from IPython.display import HTML

    from gamelib.plots import hall_style
    from gamelib.ui.canvas import WIDGET_CSS

    hall_style()  # matplotlib's defaults for the hall: 14 pt labels, figures at content width
    css = read_style() + WIDGET_CSS + "\n" + (PROJECTOR_CSS if projector else "")
    return HTML(f'<style id="{STYLE_ELEMENT_ID}">\n{css}</style>')  # type: ignore[no-untyped-call]
