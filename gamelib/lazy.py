"""Names a package loads on first use: a module-level ``__getattr__`` (PEP 562).

:mod:`gamelib.search` and :mod:`gamelib.connect4` offer the Connect Four solver and player
by name, but importing the package alone should not load them. Each builds its
``__getattr__`` here::

    __getattr__ = loaded_on_first_use(__name__, {"gamelib.connect4.solver": ("Solver",)})
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["loaded_on_first_use"]


def loaded_on_first_use(package: str,
                        names: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``names`` maps a module to the names it
    provides; the first time one of them is asked for, that module is imported and its
    attribute of that name returned. Any other name raises :class:`AttributeError` as a
    missing module attribute does."""
    modules = {name: module for module, provided in names.items() for name in provided}

    def __getattr__(name: str) -> Any:
        if name in modules:
            return getattr(importlib.import_module(modules[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
