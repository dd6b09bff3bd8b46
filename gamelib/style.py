"""The notebooks' look: put the project's ``style.css`` into a notebook.

Every notebook starts with this code cell::

    from gamelib.style import load_style; load_style()

For the lecture hall, change that cell to ``load_style(projector=True)``: text and code grow to
the hall sizes of the stylesheet (22 px and 20 px), whatever the mode. JupyterLab's Presentation
Mode switches to the same sizes by itself, with or without the switch. Either way the cell's
output stays one ``<style id="gamelib-style">`` element (which the nbval sanitizer masks) and
the line :data:`SETUP_NOTE`, so the saved outputs that the tests compare do not change.

The stylesheet is ``gamelib/style.css``, package data of gamelib, so every installation of
gamelib (a wheel, Colab, JupyterLite) brings it. With the editable install of ``make lab`` a
lecturer can tweak that one file and rerun the first cell.

IPython is imported only when :func:`load_style` is called, so importing this module is cheap.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from gamelib.alt_text import figure_forms

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

    from IPython.display import HTML

__all__ = ["PROJECTOR_CSS", "PROJECT_STYLE", "SETUP_NOTE", "STYLE_ELEMENT_ID", "load_style",
           "read_style"]

PROJECT_STYLE = Path(__file__).with_name("style.css")
"""Where gamelib keeps its stylesheet: ``style.css`` inside the ``gamelib`` package."""

STYLE_ELEMENT_ID = "gamelib-style"
"""The ``id`` of the ``<style>`` element that :func:`load_style` produces."""

SETUP_NOTE = "Setup: this cell loads gamelib and the notebooks' style when it runs."
"""The line of text after the ``<style>`` element. Where the style applies, a rule of
``style.css`` hides the whole output (the style and this line); where the frontend strips the
``<style>`` element (an untrusted notebook in JupyterLab, a lesson opened fresh), this line is
what the output shows, instead of an empty strip under the cell."""

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
    """Return the stylesheet as an HTML ``<style>`` element for a notebook to display, and
    :data:`SETUP_NOTE` after it, in a ``<p class="gamelib-setup">``.

    Use it as the last expression of a notebook's first cell, so the notebook shows (and thereby
    applies) it: the style then hides the output, which a frontend that strips the style
    (an untrusted notebook) shows as the note's one line, not as an empty strip. The result
    renders as ``<style id="gamelib-style">...</style><p ...>...</p>``; the CSS it holds
    is :func:`read_style`'s, then the words a blank board shows before it is drawn and those
    a board shows once its kernel has stopped (``gamelib.ui.canvas.WIDGET_CSS``), then
    :data:`PROJECTOR_CSS` when ``projector`` is true (text and code at the hall sizes, prose
    over the full width). It also sets matplotlib's defaults for the hall
    (:func:`gamelib.plots.hall_style`): at once if ``matplotlib.pyplot`` is loaded, else as
    soon as it is, before the next line after its import runs (a notebook without charts
    never loads matplotlib: a third of a second of CPU at each kernel start), and has
    IPython show every matplotlib Figure with an alt text that says what the chart shows
    (:func:`gamelib.alt_text.figure_forms`). Raises TypeError when ``projector`` is not a
    bool, and FileNotFoundError as read_style does.
    """
    if not isinstance(projector, bool):
        raise TypeError(
            f"load_style(projector=...) takes True or False, not {projector!r}: "
            "load_style(projector=True) sizes text and code for a lecture hall"
        )
    from IPython.display import HTML

    from gamelib.ui.canvas import WIDGET_CSS

    _hall_style_with_pyplot()  # matplotlib's defaults for the hall: 14 pt labels, wide figures
    _describe_figures()
    css = read_style() + WIDGET_CSS + "\n" + (PROJECTOR_CSS if projector else "")
    note = f'<p class="gamelib-setup">{SETUP_NOTE}</p>'
    return HTML(f'<style id="{STYLE_ELEMENT_ID}">\n{css}</style>{note}')  # type: ignore[no-untyped-call]


_PYPLOT = "matplotlib.pyplot"
_PLOTS = "gamelib.plots"


def _describe_figures() -> None:
    """Have IPython show every matplotlib Figure with its alt text
    (:func:`gamelib.alt_text.figure_forms`); registered by name, so matplotlib is not imported."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        formatter = shell.display_formatter.mimebundle_formatter
        formatter.for_type_by_name("matplotlib.figure", "Figure", figure_forms)


def _hall_style_with_pyplot() -> None:
    """Call :func:`gamelib.plots.hall_style` now if pyplot is loaded; else have it called
    right after pyplot (and gamelib.plots, which imports pyplot) have been imported."""
    if _PYPLOT in sys.modules:
        from gamelib.plots import hall_style

        hall_style()
    elif not any(isinstance(finder, _HallStyleOnImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _HallStyleOnImport())


class _HallStyleOnImport(importlib.abc.MetaPathFinder):
    """An import hook (first on ``sys.meta_path``) that waits for ``matplotlib.pyplot``:
    when its import, and that of gamelib.plots if one is under way, have run, it calls
    :func:`gamelib.plots.hall_style` once and takes itself off ``sys.meta_path``. The
    modules themselves are found and loaded by the finders after it, unchanged."""

    def __init__(self) -> None:
        self.loading: set[str] = set()

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in (_PYPLOT, _PLOTS):
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if finder is self or find is None else find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        found: ModuleSpec = spec
        loader = found.loader
        if not isinstance(loader, importlib.abc.FileLoader):  # a loader shared by many modules
            return found
        original: Callable[[ModuleType], Any] = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            self.loading.add(fullname)
            try:
                original(module)
            finally:
                self.loading.discard(fullname)
            self.loaded()

        setattr(loader, "exec_module", exec_module)  # noqa: B010 - this file's own loader
        return found

    def loaded(self) -> None:
        if self.loading or _PYPLOT not in sys.modules or self not in sys.meta_path:
            return
        sys.meta_path.remove(self)  # no import is searching sys.meta_path while a module runs
        from gamelib.plots import hall_style

        hall_style()
