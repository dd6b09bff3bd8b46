"""Helpers shared by several test modules (import them with ``from helpers import ...``).

The test folders below tests/ (games/, search/, ...) are packages (each has an empty
``__init__.py``) and tests/ itself is not: pytest's default ``prepend`` import mode therefore
puts tests/ first on ``sys.path`` for every test module, wherever it lies below, so a plain
``from helpers import ...`` works from any of them, and two folders may hold test files of the
same name (tests/search/test_budget.py and tests/connect4/test_budget.py).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import textwrap
import time
from collections.abc import Hashable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The project's root folder (the one holding pyproject.toml)."""


def reachable(game: Any) -> list[Hashable]:
    """Every state reachable from ``game.start``, each once, in breadth-first order.

    ``next_states`` is asked for every state, finished ones included: by the Game protocol
    they have none, so a game that offers moves after the end shows up in the count.
    Written here, independently of gamelib's searches, so that the tests can count and
    compare against it.
    """
    states, seen = [game.start], {game.start}
    for state in states:  # the list grows while we walk it: a queue without popping
        for n in game.next_states(state, game.to_move(state)):
            if n not in seen:
                seen.add(n)
                states.append(n)
    return states


def symmetric(board: Any) -> set[Any]:
    """The 8 boards that ``board`` (a square tuple of rows, as a tic-tac-toe state) turns
    into by rotating and reflecting the square."""
    out = set()
    for _ in range(4):
        board = tuple(zip(*board[::-1], strict=True))     # a quarter turn
        out |= {board, tuple(row[::-1] for row in board)}
    return out


def one_per_symmetry(boards: list[Any]) -> list[Any]:
    """``boards`` without those that are a rotation or reflection of an earlier one."""
    kept, seen = [], set()
    for board in boards:
        if board not in seen:
            kept.append(board)
            seen |= symmetric(board)
    return kept


def run_notebooks_module() -> ModuleType:
    """tools/run_notebooks.py, imported as a module (it is a script, not part of gamelib)."""
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "tools/run_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the JupyterLite site, built offline (tests/notebooks/test_lite.py, tests/browser) -------------

LITE_BUILD = ROOT / "lite" / "build.py"
#: The Lite environment's Python (``make lite`` and ``make test`` create .venv-lite): the build
#: runs there, JupyterLite's tools being kept out of the lesson environment the tests run in.
LITE_PYTHON = ROOT / ".venv-lite" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
LITE_STAMP = ROOT / ".venv-lite" / ".installed"
LITE_BUILD_TIMEOUT = 300  # seconds; the build takes about 10 s

#: A ``sitecustomize`` module that makes every socket refuse addresses but the loopback, and
#: logs each refused address to the file named by GAMELIB_NETWORK_LOG.
NO_NETWORK = textwrap.dedent(
    """
    import os, socket
    _connect = socket.socket.connect
    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and address[0] not in (
            "127.0.0.1", "::1", "localhost"
        ):
            with open(os.environ["GAMELIB_NETWORK_LOG"], "a") as log:
                log.write(f"{address}\\n")
            raise OSError(f"the network is off in this test: {address}")
        return _connect(self, address)
    socket.socket.connect = connect
    """
)


def lite_tools_missing() -> str | None:
    """Why the JupyterLite site cannot be built here, or None if it can."""
    if not (LITE_PYTHON.is_file() and LITE_STAMP.is_file()):
        return (f"the Lite environment {LITE_PYTHON.parent.parent.name} is missing "
                "(make test and make lite create it)")
    return None


def build_lite_site_offline(work: Path) -> Path:
    """Build the JupyterLite site (lite/build.py) into ``work / "site"`` in a subprocess
    whose sockets refuse every address but the loopback; return the site's folder.

    Fails if the build tried to reach the network or did not succeed."""
    (work / "sitecustomize.py").write_text(NO_NETWORK, encoding="utf-8")
    log = work / "network.log"
    # The run's own PYTHONPATH stays behind the blocker and the project: make test puts
    # tests/without_rfc3987_syntax there, and without it jsonschema builds its IRI parsers in
    # the build (twice: lite/build.py's nbformat, then JupyterLite's), about 4 s of CPU each
    # on a slow machine.
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(work), str(LITE_BUILD.parent.parent), *inherited]),
        "GAMELIB_NETWORK_LOG": str(log),
        "PIP_NO_INDEX": "1",
    }
    out = work / "site"
    started = time.monotonic()
    proc = subprocess.run(
        [str(LITE_PYTHON), str(LITE_BUILD), "--output-dir", str(out)],
        capture_output=True, text=True, env=env, timeout=LITE_BUILD_TIMEOUT, check=False,
    )
    print(f"JupyterLite build: {time.monotonic() - started:.1f} s")
    tried = log.read_text(encoding="utf-8") if log.exists() else ""
    assert not tried, f"the build tried to reach the network:\n{tried}"
    assert proc.returncode == 0, f"the build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return out


class IntMoves:
    """The text side of a hand-made test game whose moves are ints and whose states print
    as themselves: ``parse_move``, ``format_move`` and ``render``."""

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: Any) -> str:
        return str(move)

    def render(self, state: Any) -> str:
        return str(state)


def assert_gradients_match_finite_differences(model: Any, features: Any, targets: Any) -> None:
    """``model.gradients(features, targets)`` (a loss and one gradient per array of
    ``model.parameters()``) agrees with central finite differences of the loss at the first
    and the last entry of every parameter, after moving the parameters away from their start
    (an all-zero start hides sign errors)."""
    import numpy as np
    import pytest

    for parameter in model.parameters():
        parameter += np.random.default_rng(1).normal(0, 0.3, parameter.shape)
    _, grads = model.gradients(features, targets)
    step = 1e-6
    for parameter, grad in zip(model.parameters(), grads, strict=True):
        for index in [(0,) * parameter.ndim, tuple(s - 1 for s in parameter.shape)]:
            saved = parameter[index]
            parameter[index] = saved + step
            up = model.gradients(features, targets)[0]
            parameter[index] = saved - step
            down = model.gradients(features, targets)[0]
            parameter[index] = saved
            assert grad[index] == pytest.approx((up - down) / (2 * step), rel=1e-4, abs=1e-8)
