"""The notebooks' look: put the project's ``style.css`` into a notebook.

Every notebook starts with this code cell::

    from gamelib.style import load_style; load_style()

The stylesheet is ``style.css`` at the project root (next to ``gamelib/``), so a lecturer can
tweak it and rerun the first cell. When gamelib is installed without the project folder (e.g. from
a wheel), the copy packaged as ``gamelib/style.css`` is used instead; a test keeps the two equal.

IPython is imported only when :func:`load_style` is called, so importing this module is cheap.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from IPython.display import HTML

__all__ = ["PROJECT_STYLE", "STYLE_ELEMENT_ID", "load_style", "read_style"]

PROJECT_STYLE = Path(__file__).resolve().parent.parent / "style.css"
"""Where the project keeps its stylesheet: ``style.css`` next to the ``gamelib`` folder."""

STYLE_ELEMENT_ID = "gamelib-style"
"""The ``id`` of the ``<style>`` element that :func:`load_style` produces."""


def read_style() -> str:
    """Return the text of the notebooks' stylesheet.

    Result: the contents of :data:`PROJECT_STYLE` if that file exists, else of the copy packaged
    inside gamelib. Raises FileNotFoundError (naming both places) if neither exists, which means
    a broken installation.
    """
    if PROJECT_STYLE.is_file():
        return PROJECT_STYLE.read_text(encoding="utf-8")
    packaged = resources.files("gamelib").joinpath("style.css")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    raise FileNotFoundError(
        f"no stylesheet found: neither {PROJECT_STYLE} nor the packaged gamelib/style.css "
        "exists; reinstall gamelib (pip install -e . from the project folder)"
    )


def load_style() -> HTML:
    """Return the stylesheet as an HTML ``<style>`` element for a notebook to display.

    Use it as the last expression of a notebook's first cell, so the notebook shows (and thereby
    applies) it. The result renders as ``<style id="gamelib-style">...</style>``; the CSS it holds
    is :func:`read_style`'s. Takes no arguments; raises FileNotFoundError as read_style does.
    """
    from IPython.display import HTML

    css = read_style()
    return HTML(f'<style id="{STYLE_ELEMENT_ID}">\n{css}</style>')  # type: ignore[no-untyped-call]
