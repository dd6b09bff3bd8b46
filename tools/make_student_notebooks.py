#!/usr/bin/env python3
"""Make each exercise's student notebook from its solution notebook, with nbgrader's own
preprocessors run through nbconvert.

Usage (from the project root, with the project's virtual environment; ``make students``)::

    .venv/bin/python tools/make_student_notebooks.py            # every NN-*-Solution.ipynb
    .venv/bin/python tools/make_student_notebooks.py notebooks/exercises/01-Nim-Solution.ipynb
    .venv/bin/python tools/make_student_notebooks.py --check    # exit 1 if one is out of date

Only the solution notebook ``notebooks/exercises/NN-Name-Solution.ipynb`` is edited by hand;
it gives ``NN-Name.ipynb`` in the same folder. The solution carries nbgrader's cell metadata
(schema version 3: solution cells, autograded test cells with points, locked cells), the
format of nbgrader's "Create Assignment" toolbar. The student version is what nbgrader's
``generate_assignment`` would hand out, made by the same preprocessors (:data:`PREPROCESSORS`):

1. nbconvert's ``TagRemovePreprocessor`` drops the cells tagged ``solution-only`` (a worked
   explanation, code that needs the finished solution);
2. nbgrader's ``ClearSolutions`` replaces each region from ``# BEGIN SOLUTION`` to
   ``# END SOLUTION`` with ``# YOUR CODE HERE`` / ``raise NotImplementedError()`` at the
   marker's indentation, and a markdown solution cell with ``YOUR ANSWER HERE``;
3. ``ClearOutput``, ``ClearHiddenTests``, ``ClearMarkScheme``, ``LockCells`` and
   ``ComputeChecksums``, as in nbgrader.

A solution region outside a solution cell, or an unbalanced marker, is an error (exit 2).
Outputs are cleared: run ``tools/run_notebooks.py`` on the student notebooks afterwards (``make
students`` does both). A student notebook is rewritten only if its cells (outputs and
execution counts aside) differ from what the solution gives. tests/exercises/test_nbgrader.py
checks that every committed student notebook is in sync and grades the set with nbgrader.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import nbformat
from nbconvert.exporters import NotebookExporter
from nbconvert.preprocessors import TagRemovePreprocessor
from nbgrader.preprocessors import (
    ClearHiddenTests,
    ClearMarkScheme,
    ClearOutput,
    ClearSolutions,
    ComputeChecksums,
    LockCells,
)

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "notebooks" / "exercises"
SUFFIX = "-Solution.ipynb"
SOLUTION_ONLY = "solution-only"

PREPROCESSORS: list[Any] = [
    TagRemovePreprocessor(remove_cell_tags={SOLUTION_ONLY}, enabled=True),
    ClearSolutions(),
    ClearOutput(),
    ClearHiddenTests(),
    ClearMarkScheme(),
    LockCells(),
    ComputeChecksums(),
]
"""The preprocessors, in order: nbgrader's generate_assignment minus its database steps."""


class TemplateError(ValueError):
    """A solution notebook that nbgrader's preprocessors refuse (e.g. a solution region in
    a cell that is not a solution cell, or an unbalanced marker)."""


def student_path(solution: Path) -> Path:
    """``NN-Name.ipynb`` for ``NN-Name-Solution.ipynb`` (same folder); TemplateError else."""
    if not solution.name.endswith(SUFFIX):
        raise TemplateError(f"{solution.name}: a solution notebook's name ends in {SUFFIX}")
    return solution.with_name(solution.name[: -len(SUFFIX)] + ".ipynb")


def make_student(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student version of the ``solution`` notebook (a new notebook)."""
    exporter = NotebookExporter(preprocessors=PREPROCESSORS)
    try:
        text, _ = exporter.from_notebook_node(nbformat.from_dict(solution))
    except RuntimeError as error:  # how ClearSolutions refuses a template
        raise TemplateError(str(error)) from None
    return nbformat.reads(text, as_version=4)


def _cell_key(cell: Any) -> tuple[Any, ...]:
    metadata = {k: v for k, v in cell.metadata.items() if k not in ("execution", "collapsed")}
    return (cell.cell_type, cell.source, metadata)


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``; OSError naming the file and the reason when it is missing,
    not UTF-8, not JSON or not a valid notebook (so that main reports it in one line)."""
    try:
        nb = nbformat.read(path, as_version=4)
        if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
            raise ValueError("the JSON is not a notebook: it has no list of cells")
        return nb
    except OSError:
        raise
    except Exception as error:  # noqa: BLE001 - nbformat raises many kinds for a bad file
        first = (str(error).strip().splitlines() or [""])[0][:200]
        raise OSError(f"{path}: not a notebook ({type(error).__name__}: {first})") from None


def same_cells(a: nbformat.NotebookNode, b: nbformat.NotebookNode) -> bool:
    """True if ``a`` and ``b`` have the same cells: types, sources and cell metadata
    (nbgrader's included), outputs and execution counts aside."""
    return [_cell_key(c) for c in a.cells] == [_cell_key(c) for c in b.cells]


def solutions(paths: list[str]) -> list[Path]:
    """The solution notebooks named in ``paths``, or every one in notebooks/exercises."""
    if not paths:
        return sorted(EXERCISES.glob(f"[0-9][0-9]-*{SUFFIX}"))
    return [Path(p).resolve() for p in paths]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("solutions", nargs="*", help="solution notebooks (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a student notebook is out of date")
    args = parser.parse_args(argv)
    stale = 0
    for solution in solutions(args.solutions):
        try:
            target = student_path(solution)
            made = make_student(read_notebook(solution))
            current = read_notebook(target) if target.exists() else None
        except (TemplateError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        if current is not None and same_cells(current, made):
            continue
        stale += 1
        if args.check:
            print(f"out of date: {target.relative_to(ROOT)}")
        else:
            nbformat.write(made, target)
            print(f"wrote {target.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
