"""Helpers shared by several test modules (import them with ``from helpers import ...``).

The test folders below tests/ (games/, search/, ...) are packages (each has an empty
``__init__.py``) and tests/ itself is not: pytest's default ``prepend`` import mode therefore
puts tests/ first on ``sys.path`` for every test module, wherever it lies below, so a plain
``from helpers import ...`` works from any of them, and two folders may hold test files of the
same name (tests/search/test_budget.py and tests/connect4/test_budget.py).
"""

from __future__ import annotations

import importlib.util
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


def run_notebooks_module() -> ModuleType:
    """tools/run_notebooks.py, imported as a module (it is a script, not part of gamelib)."""
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "tools/run_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
