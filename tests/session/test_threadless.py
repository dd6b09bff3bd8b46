"""The play session without threads, in CPython: ``threading.Thread.start`` made to raise.

That is how Pyodide (JupyterLite's kernel) behaves; there the session must compute the
computer's moves synchronously, within their budget, and still play whole games. The checks are
the ones tests/test_pyodide.py runs inside Pyodide (tests/pyodide/checks.py): here they
run in this interpreter, so they also run where node is missing.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from gamelib import runtime

CHECKS_FILE = Path(__file__).resolve().parents[1] / "pyodide" / "checks.py"


def load_checks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gamelib_pyodide_checks", CHECKS_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKS = load_checks()
SESSION_CHECKS: dict[str, Callable[[], None]] = {
    fn.__name__: fn for fn in CHECKS.CHECKS if fn.__name__.startswith("session_")
}


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every Thread.start raises RuntimeError, as in Pyodide."""

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    runtime.threads_available.cache_clear()
    try:
        yield
    finally:
        monkeypatch.undo()
        runtime.threads_available.cache_clear()


def test_there_are_session_checks() -> None:
    assert len(SESSION_CHECKS) >= 3


# The one check near 2 s: a whole Connect Four game between two computers (about 40 moves
# of a fiftieth of a second each, wall-clock budgets that a loaded machine does not shorten).
SLOW_CHECKS = {"session_plays_connect_four_computer_computer"}


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW_CHECKS
                                  else name for name in sorted(SESSION_CHECKS)])
@pytest.mark.usefixtures("no_threads")
def test_session_without_threads(name: str) -> None:
    assert runtime.threads_available() is False
    SESSION_CHECKS[name]()
