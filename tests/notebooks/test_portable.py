"""The notebooks run wherever gamelib is installed, not only inside this repository.

The notebooks alone (lessons and exercises, no other file of the project) are copied into a
temporary folder, and gamelib alone (the package folder with its package data, as a wheel
would install it) into another one. Notebooks then run there with nbclient, in a
kernel whose working directory is the notebook's folder in that copy and whose only path to
the project is the copy of gamelib: a notebook that reads a file of the repository
(``../tests/data``, ``../style.css``) fails here. What runs: the cells of Lesson 8 that read
gamelib's package data (its setup cell, which loads the stylesheet, the benchmark sets it
names, the opening book), not its searches, which read nothing (a static test below checks
that no notebook's code names a path outside its folder); then, in the same kernel, moved
into the exercises' folder, an exercise that reads its checkers from gamelib, whole (one
kernel for both: a kernel's start is most of the cost; each notebook also runs alone in a
kernel of its own under nbval).
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from helpers import run_notebooks_module  # tools/run_notebooks.py as a module

import gamelib

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
# Lesson 8 reads the Connect Four benchmark sets and the opening book (package data: its
# data cells run, see lesson_8_data); an exercise reads its checkers from gamelib (it runs whole).
LESSON_8 = "08-Solving-Connect-Four.ipynb"
EXERCISE = "exercises/06-Seven-Cases-Solution.ipynb"
PORTABLE = [LESSON_8, EXERCISE]
TIMEOUT = 120  # seconds per cell: only against a hang, the two notebooks take about 5 s
OUTSIDE = re.compile(r"\.\./|\btests/|\bPath\(|\bopen\(")
"""What a code cell would use to read a file of the repository."""


def lesson_8_data(nb: nbformat.NotebookNode) -> None:
    """Cut Lesson 8 down to the cells that read package data: its setup cell, then one
    cell that loads every benchmark set the lesson names and the opening book."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    text = "".join(c.source for c in code)
    sets = sorted(set(re.findall(r"Test_L\d_R\d", text)))
    assert len(sets) >= 4 and "opening_book()" in text, "Lesson 8 reads these"
    nb.cells = [code[0], nbformat.v4.new_code_cell(
        "from gamelib.connect4 import benchmark_positions\n"
        "from gamelib.connect4.book import opening_book\n"
        f"sizes = {{name: len(benchmark_positions(name)) for name in {sets!r}}}\n"
        "assert all(n == 1000 for n in sizes.values()), sizes\n"
        "assert opening_book() is not None\n")]


def test_no_notebook_reads_a_file_of_the_repository() -> None:
    """No code cell of a notebook opens a file or names a path outside its folder, so
    the runs below, which leave out Lesson 8's searches, miss no file the lesson reads."""
    found = [(path.name, line) for path in sorted(NOTEBOOKS.rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in path.parts
             for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"
             for line in cell.source.splitlines() if OUTSIDE.search(line)]
    assert found == []


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(folder with a copy of notebooks/ alone, folder holding a copy of gamelib alone)."""
    base = tmp_path_factory.mktemp("elsewhere")
    notebooks = base / "course"
    shutil.copytree(NOTEBOOKS, notebooks, ignore=shutil.ignore_patterns(
        "*.py", "*.md", ".ipynb_checkpoints", "__pycache__"))
    site = base / "site-packages"
    shutil.copytree(Path(gamelib.__file__).parent, site / "gamelib",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return notebooks, site


def test_the_copy_holds_notebooks_only(elsewhere: tuple[Path, Path]) -> None:
    notebooks, _ = elsewhere
    files = {p.relative_to(notebooks).as_posix() for p in notebooks.rglob("*") if p.is_file()}
    assert files and all(name.endswith(".ipynb") for name in files)
    assert set(PORTABLE) <= files
    assert not (notebooks.parent / "tests").exists()


@pytest.mark.slow
@pytest.mark.notebook
def test_the_notebooks_run_outside_the_repository(
    elsewhere: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    notebooks, site = elsewhere
    # The kernel inherits this environment: only the copy of gamelib on its path, and no
    # project root (an editable install's path hook still finds /work/main's gamelib, so the
    # copy must come first; the check in the first cell below confirms which one was used).
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("PYTHONSAFEPATH", "1")
    lesson = nbformat.read(notebooks / LESSON_8, as_version=4)
    lesson_8_data(lesson)
    exercise = nbformat.read(notebooks / EXERCISE, as_version=4)
    probe = nbformat.v4.new_code_cell(
        "import gamelib, os, pathlib\n"
        f"assert pathlib.Path(gamelib.__file__).is_relative_to({str(site)!r}), gamelib.__file__\n"
        f"assert pathlib.Path.cwd() == pathlib.Path({str(notebooks)!r}), os.getcwd()\n"
        "assert not pathlib.Path('../tests').exists()"
    )
    folder = (notebooks / EXERCISE).parent
    move = nbformat.v4.new_code_cell(
        f"os.chdir({folder.name!r})\n"
        f"assert pathlib.Path.cwd() == pathlib.Path({str(folder)!r}), os.getcwd()\n"
        "assert not pathlib.Path('../../tests').exists()"
    )
    setups = [lesson.cells[0], next(c for c in exercise.cells if c.cell_type == "code")]
    nb = lesson
    nb.cells = [probe, *lesson.cells, move, *exercise.cells]
    tool = run_notebooks_module()
    tool.execute(nb, notebooks, TIMEOUT)  # raises CellExecutionError for a failing cell
    errors = [out for cell in nb.cells if cell.cell_type == "code"
              and "raises-exception" not in cell.metadata.get("tags", [])
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors, errors
    # The stylesheet came from the copy of gamelib: each setup cell's output holds it.
    for setup in setups:
        html = "".join(out.get("data", {}).get("text/html", "") for out in setup.outputs)
        assert 'id="gamelib-style"' in html and len(html) > 200, sys.version
