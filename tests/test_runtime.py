"""Where the notebooks run: gamelib.runtime's detection, Colab's versions, the one address.

* gamelib.runtime tells Colab, Pyodide and an ordinary Python apart, and finds out whether
  threads can start, without importing any user-interface library.
* Colab: the ipywidgets it preinstalls (runtime.COLAB_IPYWIDGETS) is one that ipycanvas
  accepts; gamelib's own range excludes it (JupyterLab 4 and Notebook 7 draw widgets only with
  ipywidgets 8), so the setup cell installs gamelib there with --no-deps.
* The repository's address is written once, in pyproject.toml's [project.urls]; README's
  Binder and Colab links and the notebooks' setup cell name the same owner/name.
* Every notebook starts with SETUP_CELL: on Colab or in JupyterLite it installs gamelib,
  elsewhere it only loads the style.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import types
from importlib.metadata import requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from gamelib import runtime

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

with (ROOT / "pyproject.toml").open("rb") as _f:
    PROJECT = tomllib.load(_f)["project"]
REPOSITORY = PROJECT["urls"]["Repository"]
OWNER_NAME = REPOSITORY.removeprefix("https://github.com/")

SETUP_CELL = f"""\
# Setup. On Colab or in JupyterLite (the notebooks in the browser) this installs gamelib first;
# elsewhere gamelib is installed already, and the cell only loads the notebooks' style.
import sys
if "google.colab" in sys.modules:  # keep Colab's own ipywidgets: --no-deps
    %pip install -q --no-deps "gamelib @ git+{REPOSITORY}" "ipycanvas>=0.13.2"
elif sys.platform == "emscripten":  # JupyterLite: gamelib's wheel comes with the site
    %pip install -q gamelib
from gamelib.runtime import enable_colab_widgets; enable_colab_widgets()
from gamelib.style import load_style; load_style()"""


# -- detection ----------------------------------------------------------------------------


@pytest.fixture
def fake_colab(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A stand-in google.colab package whose output module records the calls made to it."""
    calls: list[str] = []
    google = types.ModuleType("google")
    colab = types.ModuleType("google.colab")
    output = types.ModuleType("google.colab.output")
    output.enable_custom_widget_manager = lambda: calls.append("enable")  # type: ignore[attr-defined]
    google.colab = colab  # type: ignore[attr-defined]
    colab.output = output  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "google", google)
    monkeypatch.setitem(sys.modules, "google.colab", colab)
    monkeypatch.setitem(sys.modules, "google.colab.output", output)
    return calls


def test_outside_colab_nothing_is_enabled() -> None:
    assert "google.colab" not in sys.modules
    assert runtime.in_colab() is False
    assert runtime.enable_colab_widgets() is False
    assert "google.colab.output" not in sys.modules


def test_in_colab_the_custom_widget_manager_is_enabled(fake_colab: list[str]) -> None:
    assert runtime.in_colab() is True
    assert runtime.enable_colab_widgets() is True
    assert runtime.enable_colab_widgets() is True
    assert fake_colab == ["enable", "enable"]


def test_a_google_package_without_colab_is_not_colab(monkeypatch: pytest.MonkeyPatch) -> None:
    google = types.ModuleType("google")
    google.__path__ = []  # a namespace package, like google-auth's, with no colab in it
    monkeypatch.setitem(sys.modules, "google", google)
    assert runtime.in_colab() is False


def test_pyodide_is_recognised_by_its_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    assert runtime.in_pyodide() is (sys.platform == "emscripten")
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert runtime.in_pyodide() is True
    runtime.threads_available.cache_clear()
    try:
        assert runtime.threads_available() is False
    finally:
        runtime.threads_available.cache_clear()


def test_threads_available_probes_thread_start(monkeypatch: pytest.MonkeyPatch) -> None:
    runtime.threads_available.cache_clear()
    try:
        assert runtime.threads_available() is True

        def refuse(self: threading.Thread) -> None:
            raise RuntimeError("can't start new thread")

        monkeypatch.setattr(threading.Thread, "start", refuse)
        runtime.threads_available.cache_clear()
        assert runtime.threads_available() is False
    finally:
        monkeypatch.undo()
        runtime.threads_available.cache_clear()


def test_runtime_imports_no_ui_library() -> None:
    code = (
        "import json, sys, gamelib.runtime as r; r.threads_available(); r.enable_colab_widgets();"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'ipycanvas', 'ipywidgets', 'matplotlib', 'IPython'})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert json.loads(done.stdout) == []


# -- Colab's versions ---------------------------------------------------------------------


def declared(name: str) -> Requirement:
    """gamelib's requirement on ``name``, from pyproject.toml."""
    [req] = [Requirement(line) for line in PROJECT["dependencies"]
             if Requirement(line).name == name]
    return req


def test_ipycanvas_accepts_colabs_ipywidgets() -> None:
    [req] = [Requirement(line) for line in requires("ipycanvas") or []
             if Requirement(line).name == "ipywidgets"]
    assert Version(runtime.COLAB_IPYWIDGETS) in req.specifier, (
        f"ipycanvas now needs {req}: Colab's ipywidgets {runtime.COLAB_IPYWIDGETS} is not enough"
    )


def test_the_setup_cell_keeps_colabs_ipywidgets() -> None:
    colab_line = next(line for line in SETUP_CELL.splitlines() if "git+" in line)
    excluded = Version(runtime.COLAB_IPYWIDGETS) not in declared("ipywidgets").specifier
    # gamelib's range excludes Colab's version, so pip must not resolve gamelib's
    # dependencies there (it would upgrade ipywidgets and break Colab's widget display).
    assert excluded == ("--no-deps" in colab_line)
    # ipycanvas 0.13.1 does not draw on Colab; 0.13.2 does. The pin lies in gamelib's range.
    pin = Requirement(re.findall(r'"(ipycanvas[^"]*)"', colab_line)[0])
    floor = Version(next(iter(pin.specifier)).version)
    assert floor >= Version("0.13.2") and floor in declared("ipycanvas").specifier


def test_pyodide_does_not_get_the_jupyter_servers_or_the_opening_book() -> None:
    """Nor the 18 MB opening book (gamelib.connect4.book works without it)."""
    pyodide = {"sys_platform": "emscripten", "python_version": "3.14"}
    skipped = {
        Requirement(line).name for line in PROJECT["dependencies"]
        if Requirement(line).marker is not None
        and not Requirement(line).marker.evaluate(pyodide)  # type: ignore[union-attr]
    }
    assert skipped == {"jupyterlab", "notebook", "bitbully-databases"}


# -- the one address ------------------------------------------------------------------------


def test_readme_links_name_the_repository_of_pyproject() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    patterns = {
        "binder": r"mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/",
        "colab": r"colab\.research\.google\.com/github/([\w.-]+/[\w.-]+)/",
        "github": r"https://github\.com/([\w.-]+/[\w.-]+)",
    }
    found = {kind: set(re.findall(pattern, readme)) for kind, pattern in patterns.items()}
    assert found["binder"] and found["colab"], "README has no Binder badge or Colab links"
    for kind, names in found.items():
        assert names <= {OWNER_NAME}, (
            f"README's {kind} links name {sorted(names - {OWNER_NAME})}, but pyproject.toml's "
            f"[project.urls] Repository is {REPOSITORY}: change them together"
        )


def test_readme_colab_links_open_existing_notebooks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paths = re.findall(r"colab\.research\.google\.com/github/[\w.-]+/[\w.-]+/blob/[\w.-]+/"
                       r"([^)\s]+\.ipynb)", readme)
    assert paths
    for path in paths:
        assert (ROOT / path).is_file(), f"README's Colab link opens a missing {path}"


def test_every_notebook_starts_with_the_setup_cell() -> None:
    paths = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    assert paths
    without = []
    for path in paths:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        first = "".join(next(c for c in cells if c["cell_type"] == "code")["source"])
        if first != SETUP_CELL:
            without.append(str(path.relative_to(ROOT)))
    assert not without, (
        "these notebooks do not start with tests/test_runtime.py's SETUP_CELL (it installs "
        "gamelib on Colab and in JupyterLite, and loads the style):\n" + "\n".join(without)
    )
