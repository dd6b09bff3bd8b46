"""The last picture of a board or viewer, kept in the notebook for a page without a kernel.

A play board or search viewer lives in its kernel. Reload a page whose kernel has gone and
JupyterLab renders only the widget part of its output: finding no model, it writes "Error
displaying widget: model not found" (which :data:`~gamelib.ui.canvas.STOPPED_KERNEL_CSS`
turns into the project's words) and ignores the output's picture. So the cell carries a
second output, a *still*: the picture as PNG, declared 0 x 0 pixels in the output's metadata
(with the picture's sentence as its ``alt``),
displayed right after the widget with a display id, and updated by the kernel (quietly, in
the background, :data:`QUIET` seconds after the last change) as the game or the search goes
on. A saved notebook keeps its latest picture. (Where threads cannot start, in JupyterLite,
it keeps the picture it was shown with.)

Where it shows: nowhere while the widget lives, nor in an untrusted notebook or nbconvert's
HTML (0 x 0 pixels); the saved lessons carry none (tools/run_notebooks.py drops the outputs
marked :data:`STILL_KEY`), so GitHub shows none. Only under a widget output that found no
model does the notebooks' stylesheet (:data:`~gamelib.ui.canvas.STILL_CSS`) give it its own
size.
"""

from __future__ import annotations

import base64
import contextlib
import threading
from collections.abc import Callable
from typing import Any, Final

from gamelib.ui.picture import BoardPicture

__all__ = ["Still", "STILL_KEY", "QUIET", "display_with_still"]

STILL_KEY: Final = "gamelib-still"
"""The key that marks a still's output in its metadata (``{"gamelib-still": true}``)."""

QUIET: Final = 0.5
"""Seconds without a change after which a still is brought up to date: one picture per
move or step, none while the search viewer plays fast."""


class Still:
    """The still of a widget: ``picture()``'s PNG, shown by :meth:`show` after the widget and
    updated by :meth:`changed`. Outside IPython, or where the picture cannot be made, it does
    nothing; it never raises."""

    def __init__(self, picture: Callable[[], BoardPicture]) -> None:
        """A still of what ``picture()`` returns at the time it is shown or updated."""
        self._picture: Final = picture
        self._id: str | None = None
        self._lock: Final = threading.Lock()
        self._timer: threading.Timer | None = None
        self._closed = False

    def _output(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The still's data and metadata (0 x 0 pixels, marked :data:`STILL_KEY`, the
        picture's sentence as its ``alt``), or None where no PNG can be made (no Pillow, a
        drawing that fails)."""
        try:
            picture = self._picture()
            png = picture.png
        except Exception:  # noqa: BLE001 - no still is better than a failing widget
            return None
        return ({"image/png": base64.b64encode(png).decode("ascii")},
                {"image/png": {"width": 0, "height": 0, "alt": picture.text}, STILL_KEY: True})

    def show(self) -> None:
        """Display the still in the current cell (each display is updated with the others)."""
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:  # pragma: no cover - IPython comes with Jupyter
            return
        if get_ipython() is None:
            return
        output = self._output()
        if output is None:
            return
        data, metadata = output
        if self._id is None:
            handle = display(data, raw=True, metadata=metadata,  # type: ignore[no-untyped-call]
                             display_id=True)
            self._id = None if handle is None else handle.display_id
        else:
            display(data, raw=True, metadata=metadata,  # type: ignore[no-untyped-call]
                    display_id=self._id)

    def changed(self) -> None:
        """The widget changed: update the still once nothing changed for :data:`QUIET`
        seconds (in a background thread; where threads cannot start, not at all)."""
        with self._lock:
            if self._id is None or self._closed:
                return
            if self._timer is not None:
                self._timer.cancel()
            timer = threading.Timer(QUIET, self.update)
            timer.daemon = True
            with contextlib.suppress(RuntimeError):  # no threads here (Pyodide)
                timer.start()
                self._timer = timer

    def update(self) -> None:
        """Bring every display of the still up to date now (not once it is closed)."""
        if self._id is None or self._closed:
            return
        from IPython.display import update_display

        output = self._output()
        with self._lock:  # not after close(), which may have come while the PNG was made
            if output is not None and not self._closed:
                with contextlib.suppress(Exception):  # a kernel shutting down
                    update_display(output[0], raw=True,  # type: ignore[no-untyped-call]
                                   metadata=output[1], display_id=self._id)

    def close(self) -> None:
        """Stop any pending update, and every later one."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


def display_with_still(widget: Any, picture: Callable[[], BoardPicture]) -> None:
    """Make every display of ``widget`` (``display(widget)``, or a cell that ends with it)
    two outputs: the widget's own (with what ``widget._repr_mimebundle_`` carries), then a
    :class:`Still` of ``picture()``. For a widget that never changes once shown, such as
    :func:`~gamelib.ui.boards.show_board`'s canvas: its still needs no updates."""

    def display_both() -> None:
        from IPython.display import display

        data = widget._repr_mimebundle_()
        forms, metadata = data if isinstance(data, tuple) else (data, None)
        display(forms, raw=True, metadata=metadata)  # type: ignore[no-untyped-call]
        Still(picture).show()

    widget._ipython_display_ = display_both
