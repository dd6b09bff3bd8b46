"""Both notebook tools (tools/) on files that are not notebooks: one line, no traceback.

A truncated save, a text file, JSON that is not a notebook, a notebook whose cell is
malformed, bytes that are not UTF-8: each is reported with the file and the reason, and
nothing is written.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from helpers import ROOT, run_notebooks_module

BAD_FILES = {
    "truncated": b'{"cells": [',
    "text": b"not json at all",
    "list": b"[1, 2]",
    "bad-cell": b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, '
                b'"cells": [{"cell_type": "code", "source": 5}]}',
    "cells-text": b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": "x"}',
    "binary": b"\xff\xfe\x00",
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_run_notebooks_reports_a_bad_file_and_writes_nothing(tmp_path: Path, kind: str,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    path = tmp_path / f"{kind}.ipynb"
    path.write_bytes(BAD_FILES[kind])
    tool = run_notebooks_module()
    assert tool.main(["--clear", str(path)]) == 1
    out, err = capsys.readouterr()
    assert f"{kind}.ipynb: not a" in out and "nothing written" in out
    assert "Traceback" not in out + err
    assert path.read_bytes() == BAD_FILES[kind]


def make_student_notebooks_module() -> ModuleType:
    """tools/make_student_notebooks.py, imported as a module."""
    spec = importlib.util.spec_from_file_location(
        "make_student_notebooks", ROOT / "tools/make_student_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("kind", ["truncated", "list", "binary"])
def test_make_student_notebooks_reports_a_bad_solution_in_one_line(
        tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "99-Bad-Solution.ipynb"
    path.write_bytes(BAD_FILES[kind])
    assert make_student_notebooks_module().main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"error: {path}: not a notebook (")
    assert "Traceback" not in out + err and len(err.splitlines()) == 1
    assert not (tmp_path / "99-Bad.ipynb").exists()


def test_make_student_notebooks_as_a_command_exits_with_2_and_one_line(tmp_path: Path) -> None:
    """The script itself, as `make students` runs it (the in-process test above covers each
    kind of bad file; one subprocess suffices for the exit status and stderr)."""
    path = tmp_path / "99-Bad-Solution.ipynb"
    path.write_bytes(BAD_FILES["truncated"])
    result = subprocess.run([sys.executable, str(ROOT / "tools/make_student_notebooks.py"),
                             str(path)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {path}: not a notebook (")
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "99-Bad.ipynb").exists()
