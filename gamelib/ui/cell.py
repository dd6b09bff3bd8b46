"""A widget shown in a notebook cell once per cell, and closed with everything it owns.

:class:`CellView` is what the play controller and the search viewer share: one widget,
shown by :meth:`CellView.show` and again when the object is evaluated in a later cell.
:func:`close_widgets` closes widgets with their layouts, styles and children, so that
none stays registered with the kernel after ``close()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gamelib.session.readonly import ReadOnly
from gamelib.ui.canvas import LiveCanvas
from gamelib.ui.picture import BoardPicture, attach_picture
from gamelib.ui.still import Still

__all__ = ["Cell", "CellView", "close_widgets", "current_cell", "display_view",
           "shown_elsewhere"]


Cell = tuple[int, int]
"""A notebook cell's run: the IPython shell's id and its execution count."""


def current_cell() -> Cell | None:
    """The cell running now, or None outside IPython."""
    from IPython import get_ipython

    shell = get_ipython()
    return None if shell is None else (id(shell), shell.execution_count)


def display_view(view: Any) -> Cell | None:
    """Display ``view`` in the current cell (no-op outside IPython); return that cell."""
    try:
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return None
    shown_in = current_cell()
    display(view)  # type: ignore[no-untyped-call]
    return shown_in


def shown_elsewhere(shown_in: Cell | None) -> bool:
    """True unless a view displayed in ``shown_in`` was displayed in the cell running now:
    a view that its maker already displayed in this cell must not show twice there."""
    here = current_cell()
    return here is None or here != shown_in


_OWNED_TRAITS: Final = ("layout", "style", "children")
"""The traits through which a widget holds widgets made for it alone: its Layout, its Style
and a box's children. (Others, such as ipycanvas's ``_canvas_manager``, are shared.)"""


def close_widgets(*roots: Any) -> None:
    """Close every widget in ``roots`` and every widget they own: layouts, styles and
    the children of boxes, to any depth, so that none stays registered with the kernel.

    Anything that is not a widget is skipped; a widget reached twice is closed once.
    """
    from ipywidgets import Widget

    seen: set[int] = set()
    stack: list[Any] = list(roots)
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if not isinstance(item, Widget) or id(item) in seen:
            continue
        seen.add(id(item))
        for name in _OWNED_TRAITS:
            if item.has_trait(name):
                stack.append(getattr(item, name))
        item.close()


class CellView:
    """What the play controller and the search viewer share: one widget, :attr:`widget`,
    shown in a notebook cell by :meth:`show`, and shown again when the object is
    evaluated in a later cell (not twice in the cell that already showed it).

    A subclass sets ``_view`` to its widget (None where it made none).
    """

    _view: Any = None
    _shown_in: Cell | None = None
    _still: Still | None = None

    widget = ReadOnly["CellView", Any](
        lambda v: v._view, "The ipywidgets box with the canvas and the controls (None: none made)."
    )

    def show(self) -> None:
        """Display :attr:`widget` in the current cell (no-op outside IPython or without one).

        Its output also carries a picture of what it shows (see
        :func:`gamelib.ui.picture.attach_picture`), which untrusted notebooks, GitHub and
        nbviewer show in place of the widget; a second output, its still
        (:mod:`gamelib.ui.still`), shows its last picture after a reload without its kernel.
        """
        if self._view is not None:
            self._shown_in = display_view(self._view)
            if self._still is not None:
                self._still.show()

    def _keep_pictures(self, saved: Callable[[], BoardPicture], note: str, live: LiveCanvas,
                       now: Callable[[], BoardPicture] | None = None) -> None:
        """Make every display of :attr:`widget` carry ``saved()`` (followed by ``note`` in
        words; see :func:`~gamelib.ui.picture.attach_picture`) and a :class:`Still` of
        ``now()`` (default: ``saved()``), brought up to date after every redraw of ``live``
        until the widget is closed."""
        attach_picture(self._view, saved, note)
        still = self._still = Still(now or saved)
        live.on_redraw(still.changed)
        close = self._view.close

        def close_with_still() -> None:
            still.close()
            close()

        self._view.close = close_with_still

    def _ipython_display_(self) -> None:
        # Its maker may have displayed it in this cell already; in a later cell, show it.
        if shown_elsewhere(self._shown_in):
            self.show()
