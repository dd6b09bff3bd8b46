"""gamelib in Pyodide (Python compiled to WebAssembly), under node, offline.

JupyterLite's kernel is Pyodide: ``sys.platform == "emscripten"``, and starting a thread
raises RuntimeError. tests/pyodide/run.mjs starts the npm registry's ``pyodide`` package
(installed into tests/pyodide/node_modules by ``make pyodide`` and .ci/run), mounts this
project folder into its file system (micropip would need the network) and runs
tests/pyodide/checks.py there: the games, the searches with their pinned counts, the solver,
the computer player, and whole games through PlaySession without a thread. Each check is
reported here as its own test, with the traceback Pyodide printed.

Skipped, with the reason, where node or the package is missing.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = ROOT / "tests" / "pyodide"
CHECKS = PYODIDE_DIR / "checks.py"
RUNNER = PYODIDE_DIR / "run.mjs"
PACKAGE = PYODIDE_DIR / "node_modules" / "pyodide" / "package.json"
TIMEOUT = 300  # seconds for the whole run; it takes a few seconds
#: node's WebAssembly compiled by V8's baseline compiler only: no optimizing recompilation of
#: Pyodide's hot functions in the background, which a run this short does not pay back
#: (node's CPU for the run, five pairs on a busy machine: 9.7 s on average -> 9.2 s).
NODE_FLAGS = ("--liftoff-only",)


def check_names() -> list[str]:
    """The functions in checks.py decorated with ``@check``, in order."""
    tree = ast.parse(CHECKS.read_text(encoding="utf-8"))
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "check" for d in node.decorator_list)
    ]


def missing() -> str | None:
    """Why Pyodide cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed (.ci/run installs nodejs and npm with apt-get)"
    if not PACKAGE.is_file():
        return f"the npm package pyodide is not installed in {PACKAGE.parent.parent}: make pyodide"
    return None


pytestmark = [pytest.mark.slow, pytest.mark.skipif(missing() is not None, reason=str(missing()))]


@pytest.fixture(scope="module")
def results() -> dict[str, str]:
    proc = subprocess.run(
        ["node", *NODE_FLAGS, str(RUNNER), str(ROOT), str(CHECKS)],
        capture_output=True, text=True, timeout=TIMEOUT, cwd=PYODIDE_DIR,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and len(lines) == 1, (
        f"node exited with {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\n"
        f"stderr:\n{proc.stderr[-3000:]}"
    )
    got: dict[str, str] = json.loads(lines[0].removeprefix("RESULT "))
    return got


def test_pyodide_package_is_the_314_series() -> None:
    version = json.loads(PACKAGE.read_text(encoding="utf-8"))["version"]
    assert version.startswith("314."), version


def test_every_check_ran(results: dict[str, str]) -> None:
    assert list(results) == check_names()


@pytest.mark.parametrize("name", check_names())
def test_in_pyodide(results: dict[str, str], name: str) -> None:
    outcome = results.get(name, "did not run")
    if outcome != "ok":
        pytest.fail(f"{name} failed inside Pyodide:\n{outcome}", pytrace=False)
