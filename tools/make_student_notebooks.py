#!/usr/bin/env python3
"""Make each exercise's student notebook from its solution notebook.

Usage (from the project root, with the project's virtual environment)::

    .venv/bin/python tools/make_student_notebooks.py            # every *-Solution.ipynb
    .venv/bin/python tools/make_student_notebooks.py notebooks/exercises/01-Nim-Solution.ipynb
    .venv/bin/python tools/make_student_notebooks.py --check    # exit 1 if one is out of date

Only the solution notebook is edited by hand; ``NN-Name-Solution.ipynb`` gives ``NN-Name.ipynb``
in the same folder. Cell tags say what the student does not see:

``solution`` on a code cell
    Every block from a line ``### BEGIN SOLUTION`` to a line ``### END SOLUTION`` (both
    markers included) becomes two lines at the indentation of the BEGIN marker::

        # YOUR CODE HERE
        raise NotImplementedError

    Everything outside the blocks stays, so put the ``def`` line and the docstring above the
    BEGIN marker. The markers must be indented, i.e. inside a function body: a top-level
    ``raise`` would stop the student notebook when it runs.
``solution`` on a markdown cell
    The whole cell becomes ``*Your answer here.*``, a cell for the student's answer.
``solution-only``
    The cell is left out: a worked explanation, or code that needs the finished solution.

Markers in a cell without the ``solution`` tag, a ``solution`` code cell without markers, and
unbalanced or unindented markers are errors (exit status 2), so that no solution leaks by
accident. The tags ``solution`` and ``solution-only`` are removed; other tags (e.g.
``nbval-ignore-output``), cell ids and the notebook's metadata are kept. Outputs and execution
counts are cleared: run ``tools/run_notebooks.py`` on the student notebooks afterwards.

A student notebook is rewritten only if its cells (ignoring outputs and execution counts)
differ from what the solution gives, so running this tool keeps up-to-date outputs.
tests/test_exercises.py checks that every committed student notebook is in sync.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "notebooks" / "exercises"
SUFFIX = "-Solution.ipynb"

SOLUTION = "solution"
SOLUTION_ONLY = "solution-only"
BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
STUB = ("# YOUR CODE HERE", "raise NotImplementedError")
ANSWER = "*Your answer here.*"

_MARKER = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>### (?:BEGIN|END) SOLUTION)[ \t]*$")


class TemplateError(ValueError):
    """A solution notebook that does not follow the tagging scheme."""


def student_path(solution: Path) -> Path:
    """``NN-Name.ipynb`` for ``NN-Name-Solution.ipynb`` (same folder).

    Raises :class:`TemplateError` if the name does not end in ``-Solution.ipynb``.
    """
    if not solution.name.endswith(SUFFIX):
        raise TemplateError(f"{solution.name}: a solution notebook's name ends in {SUFFIX}")
    return solution.with_name(solution.name[: -len(SUFFIX)] + ".ipynb")


def _tags(cell: nbformat.NotebookNode) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def stub_code(source: str, where: str = "code cell") -> str:
    """``source`` with every BEGIN/END SOLUTION block replaced by the stub.

    Raises :class:`TemplateError` (naming ``where``) for no markers, unbalanced or nested
    markers, a BEGIN marker at the left margin, or an END indented differently from its BEGIN.
    """
    out: list[str] = []
    indent: str | None = None
    blocks = 0
    for number, line in enumerate(source.split("\n"), start=1):
        match = _MARKER.match(line)
        if match is None:
            if indent is None:
                out.append(line)
            continue
        if match["marker"] == BEGIN:
            if indent is not None:
                raise TemplateError(f"{where}, line {number}: {BEGIN} inside another block")
            if not match["indent"]:
                raise TemplateError(
                    f"{where}, line {number}: {BEGIN} must be indented (inside a function "
                    "body), or the student notebook would stop at the stub"
                )
            indent = match["indent"]
            out.extend(indent + stub for stub in STUB)
            blocks += 1
        else:
            if indent is None:
                raise TemplateError(f"{where}, line {number}: {END} without {BEGIN}")
            if match["indent"] != indent:
                raise TemplateError(f"{where}, line {number}: {END} is not indented like {BEGIN}")
            indent = None
    if indent is not None:
        raise TemplateError(f"{where}: {BEGIN} without {END}")
    if not blocks:
        raise TemplateError(f"{where} is tagged {SOLUTION!r} but has no {BEGIN} ... {END} block")
    return "\n".join(out)


def make_student(solution: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """The student notebook made from ``solution`` by the scheme of the module docstring.

    ``solution`` is not changed. ``name`` is used in error messages. Raises
    :class:`TemplateError` where the solution breaks the scheme.
    """
    student = copy.deepcopy(solution)
    cells = []
    for index, cell in enumerate(student.cells):
        tags = _tags(cell)
        where = f"{name}, cell {index} ({cell.cell_type})"
        if SOLUTION_ONLY in tags:
            if SOLUTION in tags:
                raise TemplateError(f"{where}: tagged both {SOLUTION!r} and {SOLUTION_ONLY!r}")
            continue
        has_markers = any(_MARKER.match(line) for line in cell.source.split("\n"))
        if SOLUTION in tags:
            if cell.cell_type == "code":
                cell.source = stub_code(cell.source, where)
            elif cell.cell_type == "markdown":
                cell.source = ANSWER
            else:
                raise TemplateError(f"{where}: only code and markdown cells can be {SOLUTION!r}")
        elif has_markers:
            raise TemplateError(f"{where} has {BEGIN}/{END} markers but no {SOLUTION!r} tag")
        kept = [t for t in tags if t not in (SOLUTION, SOLUTION_ONLY)]
        if kept:
            cell.metadata["tags"] = kept
        else:
            cell.metadata.pop("tags", None)
        cells.append(cell)
    student.cells = cells
    return strip_outputs(student)


def strip_outputs(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` without outputs, execution counts and execution metadata. Mutates and returns it."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.get("metadata", {}).pop("execution", None)
    return nb


def same_cells(a: nbformat.NotebookNode, b: nbformat.NotebookNode) -> bool:
    """True iff ``a`` and ``b`` are equal once outputs and execution counts are removed."""
    return nbformat.writes(strip_outputs(copy.deepcopy(a))) == nbformat.writes(
        strip_outputs(copy.deepcopy(b))
    )


def find_solutions(args: Iterable[str]) -> list[Path]:
    """The solution notebooks named by ``args``, or every ``*-Solution.ipynb`` of the exercises.

    Raises :class:`TemplateError` for a path that is not a solution notebook.
    """
    paths = [Path(a) for a in args]
    if not paths:
        return sorted(EXERCISES.glob("*" + SUFFIX))
    for path in paths:
        if not path.is_file() or not path.name.endswith(SUFFIX):
            raise TemplateError(f"not a solution notebook (…{SUFFIX}): {path}")
    return paths


def process(solution_path: Path, *, check: bool) -> bool:
    """Make (or with ``check``, only compare) the student notebook; True if it was up to date."""
    target = student_path(solution_path)
    shown = os.path.relpath(target)
    solution = nbformat.read(solution_path, as_version=4)
    student = make_student(solution, solution_path.name)
    nbformat.validate(student)
    if target.exists() and same_cells(nbformat.read(target, as_version=4), student):
        print(f"same    {shown}")
        return True
    if check:
        print(f"STALE   {shown}: run tools/make_student_notebooks.py")
        return False
    nbformat.write(student, target)
    print(f"wrote   {shown} (outputs cleared: run tools/run_notebooks.py on it)")
    return False


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Make each exercise's student notebook from its -Solution notebook."
    )
    parser.add_argument("paths", nargs="*", help="solution notebooks (default: all exercises)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a student notebook is missing or out of date",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        solutions = find_solutions(args.paths)
        results = [process(path, check=args.check) for path in solutions]
    except TemplateError as error:
        print(f"make_student_notebooks: {error}", file=sys.stderr)
        return 2
    if not solutions:
        print("make_student_notebooks: no solution notebooks found", file=sys.stderr)
    return 1 if args.check and not all(results) else 0


if __name__ == "__main__":
    sys.exit(main())
