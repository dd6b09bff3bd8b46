"""Where the notebooks run: Colab, JupyterLite (Pyodide), or an ordinary Python.

The notebooks run the same code everywhere; only a few things differ, and they are decided
here, at run time, in one place:

* :func:`in_colab`: Google Colab. Its front end shows custom widgets (ipycanvas) only after
  :func:`enable_colab_widgets` has switched on its custom widget manager.
* :func:`in_pyodide`: Python compiled to WebAssembly (JupyterLite's kernel, Pyodide under
  node). There, :func:`threads_available` is false: the play session runs the computer's
  move synchronously, within its time budget, instead of in a background thread.

This module imports no user-interface library, and nothing from Colab unless it is there.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
import threading

__all__ = [
    "COLAB_IPYWIDGETS",
    "enable_colab_widgets",
    "in_colab",
    "in_pyodide",
    "threads_available",
]

COLAB_IPYWIDGETS = "7.7.1"
"""The ipywidgets version that Google Colab preinstalls (and asks users to keep).

gamelib's widgets use only what ipywidgets 7.6 and later provide, so the notebooks' first cell
installs gamelib on Colab without upgrading ipywidgets (an upgrade to 8 breaks Colab's widget
display). tests/test_runtime.py checks that ipycanvas's requirement admits this version."""


def in_colab() -> bool:
    """Return True inside a Google Colab kernel.

    Result: whether the ``google.colab`` module is importable. Colab preinstalls it; nothing
    else provides it. Never raises.
    """
    if "google.colab" in sys.modules:
        return True
    try:
        return importlib.util.find_spec("google.colab") is not None
    except (ImportError, ValueError):  # no `google` package, or a broken one
        return False


def in_pyodide() -> bool:
    """Return True in Pyodide (JupyterLite's Python kernel, or Pyodide under node).

    Result: whether ``sys.platform`` is ``"emscripten"``, the platform of every Python
    compiled to WebAssembly with Emscripten.
    """
    return sys.platform == "emscripten"


@functools.lru_cache(maxsize=1)
def threads_available() -> bool:
    """Return True when this Python can start a thread.

    Result: False in Pyodide (and any Python whose ``threading.Thread.start`` raises
    RuntimeError), True otherwise. Decided once, by starting a thread that does nothing; the
    answer is cached for the life of the process.
    """
    if in_pyodide():
        return False
    probe = threading.Thread(target=lambda: None, name="gamelib-thread-probe", daemon=True)
    try:
        probe.start()
    except RuntimeError:
        return False
    probe.join()
    return True


def enable_colab_widgets() -> bool:
    """Switch on Colab's custom widget manager, so ipycanvas boards are drawn; elsewhere no-op.

    Result: True when the manager was enabled (in Colab), False outside Colab. Safe to call
    more than once: Colab's ``output.enable_custom_widget_manager()`` is idempotent.
    """
    if not in_colab():
        return False
    output = importlib.import_module("google.colab.output")
    output.enable_custom_widget_manager()
    return True
