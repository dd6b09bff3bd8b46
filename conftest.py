"""Project-wide pytest set-up, loaded for every run from this project.

It sits at the project root (not in tests/) because pytest only reads the conftest.py files on
the way to the paths it was given: ``pytest notebooks/02-Minimax.ipynb`` never looks in tests/.

* Notebook kernels started by nbval inherit this process's environment; PYTHONHASHSEED=0 gives
  them the same string hashing as tools/run_notebooks.py, which saved the reference outputs.
* ``--nbval-sanitize-with=tests/nbval_sanitize.cfg`` (from pyproject's addopts) is a path
  relative to the working directory; it is re-anchored at the project root so that pytest can be
  started from any folder.
* Every nbval item (a notebook cell) carries the ``notebook`` marker, so that
  ``-m "not notebook"`` deselects the notebooks wherever they were collected from.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOK_HASH_SEED = "0"

os.environ["PYTHONHASHSEED"] = NOTEBOOK_HASH_SEED


def pytest_configure(config: pytest.Config) -> None:
    """Find the nbval sanitizer file relative to the project root if not found from the cwd."""
    sanitizer = getattr(config.option, "nbval_sanitize_with", None)
    if sanitizer and not Path(sanitizer).is_absolute() and not Path(sanitizer).exists():
        anchored = config.rootpath / sanitizer
        if anchored.exists():
            config.option.nbval_sanitize_with = str(anchored)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the cells of every notebook that nbval collected with ``notebook``."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
