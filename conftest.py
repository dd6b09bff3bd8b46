"""Project-wide pytest set-up, loaded for every run from this project.

It sits at the project root (not in tests/) because pytest only reads the conftest.py files on
the way to the paths it was given: ``pytest notebooks/02-Minimax.ipynb`` never looks in tests/.

* Notebook kernels started by nbval inherit this process's environment; PYTHONHASHSEED=0 gives
  them the same string hashing as tools/run_notebooks.py, which saved the reference outputs;
  OPENBLAS_NUM_THREADS=1 (unless set) gives them one BLAS thread, as there.
* ``--nbval-sanitize-with=tests/nbval_sanitize.cfg`` (from pyproject's addopts) is a path
  relative to the working directory; it is re-anchored at the project root so that pytest can be
  started from any folder.
* Every nbval item (a notebook cell) carries the ``notebook`` marker, so that
  ``-m "not notebook"`` deselects the notebooks wherever they were collected from.
* The heaviest test files run first (:func:`estimated_seconds`), each file's items kept
  together and in order: with ``pytest -n 3 --dist loadfile`` (``make test`` on two cores) the
  workers then end together on small files, instead of one of them finishing a browser test
  alone at the end.
  xdist's own reordering (files by number of tests) is turned off for that.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOK_HASH_SEED = "0"

os.environ["PYTHONHASHSEED"] = NOTEBOOK_HASH_SEED
# One BLAS thread in the notebook kernels (Lesson 12 trains small numpy models): many threads
# on a loaded machine make it several times slower, and the sums keep one order.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def pytest_configure(config: pytest.Config) -> None:
    """Find the nbval sanitizer file relative to the project root if not found from the cwd;
    order the test files heaviest first (:class:`HeaviestFilesFirst`)."""
    config.pluginmanager.register(HeaviestFilesFirst(), "gamelib-heaviest-files-first")
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist: keep the order made here
        config.option.loadscopereorder = False
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


# Rough seconds per item on a CI core, by the first marker it carries (else "other"); only
# the order of the files depends on them. A browser test starts pages and kernels, a slow one
# takes over 2 s by definition, a notebook cell runs in a kernel.
ITEM_SECONDS = {"browser": 20.0, "slow": 3.0, "notebook": 0.3, "other": 0.05}


def estimated_seconds(items: list[pytest.Item]) -> float:
    """A guess at how long the items of one test file take, from their markers."""
    return sum(next((seconds for marker, seconds in ITEM_SECONDS.items()
                     if item.get_closest_marker(marker)), ITEM_SECONDS["other"])
               for item in items)


class HeaviestFilesFirst:
    """A plugin that runs the test files in order of :func:`estimated_seconds`, heaviest
    first, after every other plugin has marked and deselected (a stable sort: each file's items
    stay together and in their order). pytest_configure turns pytest-xdist's own order (files
    by their number of tests) off."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        files: dict[str, list[pytest.Item]] = {}
        for item in items:
            files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
        cost = {name: estimated_seconds(group) for name, group in files.items()}
        items[:] = [item for name in sorted(files, key=lambda name: -cost[name])
                    for item in files[name]]
