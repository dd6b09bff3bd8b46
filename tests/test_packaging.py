"""The project's plumbing: dependencies, layering, notebook hygiene, style and tooling.

* pyproject.toml (the single source of dependencies) and environment.yml (its conda mirror)
  name the same packages with the same lower bounds.
* gamelib.games and gamelib.search import no user-interface library.
* Every notebook loads style.css in its first code cell, calls no input(), saves no widget
  state, and every lesson notebook is saved fully executed, top to bottom.
* The nbval sanitizer masks exactly what varies between runs, and pytest is configured to use it.
* gamelib.style, tools/run_notebooks.py, the Makefile and .ci/run do what they promise.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
import yaml
from nbval.plugin import get_sanitize_patterns
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from helpers import run_notebooks_module

import gamelib.style

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
EXERCISES = NOTEBOOKS / "exercises"

# ---------------------------------------------------------------------------------------------
# pyproject.toml and environment.yml agree
# ---------------------------------------------------------------------------------------------

# PyPI name (canonical) -> conda-forge name, for the packages whose names differ.
CONDA_NAME = {
    "matplotlib": "matplotlib-base",
    "playwright": "playwright-python",
}
# Not on conda-forge: environment.yml and binder/environment.yml install these with pip.
PIP_ONLY = {"bitbully-databases"}
# Declared in pyproject.toml but left out of environment.yml: no Windows wheels on PyPI and not
# on conda-forge, so the conda environment could not be built on Windows. The tests that use
# it skip themselves without it.
NOT_IN_CONDA_ENV = {"open-spiel"}
# In environment.yml for conda itself, not dependencies of gamelib.
CONDA_TOOLING = {"python", "pip"}
# The extras that environment.yml mirrors (everything pyproject declares; its dependency
# group "lite" is JupyterLite's own environment, .venv-lite, and stays out).
EXTRAS = ("test", "dev")

SPEC = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*?)\s*$")


def lower_bound(specifier: str) -> str | None:
    """The version after '>=' in a specifier like '>=4.0' or '>=1.2,<2', or None."""
    bounds = re.findall(r">=\s*([0-9][0-9A-Za-z.]*)", specifier)
    assert len(bounds) <= 1, f"more than one lower bound in {specifier!r}"
    return bounds[0] if bounds else None


def pyproject_requirements() -> dict[str, str | None]:
    """Canonical PyPI name -> lower bound, over dependencies and the mirrored extras."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)["project"]
    lines = list(project["dependencies"])
    for extra in EXTRAS:
        lines += project["optional-dependencies"][extra]
    result: dict[str, str | None] = {}
    for line in lines:
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name not in result, f"{req.name} is listed twice in pyproject.toml"
        result[name] = lower_bound(str(req.specifier))
    return result


def environment_requirements() -> tuple[dict[str, str | None], dict[str, str | None]]:
    """(conda packages, pip packages) of environment.yml: canonical name -> lower bound."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda: dict[str, str | None] = {}
    pip: dict[str, str | None] = {}
    for entry in env["dependencies"]:
        if isinstance(entry, dict):
            assert list(entry) == ["pip"], f"unexpected section in environment.yml: {entry}"
            for line in entry["pip"]:
                if line.startswith("-e"):
                    continue  # gamelib itself
                req = Requirement(line)
                pip[canonicalize_name(req.name)] = lower_bound(str(req.specifier))
            continue
        match = SPEC.match(entry)
        assert match, f"cannot read the conda spec {entry!r}"
        name = canonicalize_name(match.group(1))
        assert name not in conda, f"{name} is listed twice in environment.yml"
        conda[name] = lower_bound(match.group(2))
    return conda, pip


def test_environment_uses_conda_forge_and_installs_gamelib() -> None:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert env["channels"][0] == "conda-forge"
    assert set(env["channels"]) <= {"conda-forge", "nodefaults"}
    pip_section = next(e["pip"] for e in env["dependencies"] if isinstance(e, dict))
    assert "-e ." in pip_section


def test_environment_mirrors_pyproject() -> None:
    wanted = pyproject_requirements()
    conda, pip = environment_requirements()
    assert set(conda) >= CONDA_TOOLING
    assert conda["python"] == "3.10"  # the same floor as requires-python
    for name in NOT_IN_CONDA_ENV:
        assert name in wanted, f"{name} is no longer declared in pyproject.toml"
        wanted.pop(name)
    expected_conda = {
        CONDA_NAME.get(n, n): bound for n, bound in wanted.items() if n not in PIP_ONLY
    }
    expected_pip = {n: bound for n, bound in wanted.items() if n in PIP_ONLY}
    actual_conda = {n: bound for n, bound in conda.items() if n not in CONDA_TOOLING}
    assert actual_conda == expected_conda, (
        "environment.yml's conda packages (left) differ from pyproject.toml (right); "
        "update one, or the mapping table in tests/test_packaging.py"
    )
    assert pip == expected_pip


def runtime_requirements() -> dict[str, str | None]:
    """pyproject.toml's runtime dependencies (no extras): canonical name -> lower bound."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        lines = tomllib.load(f)["project"]["dependencies"]
    return {
        canonicalize_name(Requirement(line).name): lower_bound(str(Requirement(line).specifier))
        for line in lines
    }


def test_jupyterlite_stays_out_of_the_lesson_environment() -> None:
    """JupyterLite's kernel extension, installed beside JupyterLab, fails on every page: its
    tools are the dependency group "lite" (.venv-lite) and nothing else names them."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    lite = {canonicalize_name(Requirement(line).name)
            for line in pyproject["dependency-groups"]["lite"]}
    assert {"jupyterlite-core", "jupyterlite-pyodide-kernel"} <= lite
    everywhere = set(pyproject_requirements()) | set(environment_requirements()[0])
    assert not {name for name in everywhere if name.startswith("jupyterlite")}
    assert "jupyterlite" not in (ROOT / "binder" / "environment.yml").read_text(encoding="utf-8")
    assert set(pyproject["project"]["optional-dependencies"]) == set(EXTRAS)


def test_binder_environment_mirrors_the_runtime_dependencies_only() -> None:
    """binder/environment.yml: the runtime libraries with pyproject's bounds, Python pinned."""
    env = yaml.safe_load((ROOT / "binder" / "environment.yml").read_text(encoding="utf-8"))
    assert env["channels"][0] == "conda-forge"
    specs = [entry for entry in env["dependencies"] if isinstance(entry, str)]
    pip_sections = [entry["pip"] for entry in env["dependencies"] if isinstance(entry, dict)]
    assert len(specs) + len(pip_sections) == len(env["dependencies"])
    pip = {
        canonicalize_name(Requirement(line).name): lower_bound(str(Requirement(line).specifier))
        for lines in pip_sections for line in lines
    }
    # binder installs gamelib in postBuild, not pip: pip brings only what conda-forge lacks.
    runtime = runtime_requirements()
    assert pip == {name: bound for name, bound in runtime.items() if name in PIP_ONLY}
    # repo2docker reads the Python version from an exact `python=X.Y` pin.
    assert "python=3.12" in specs
    conda: dict[str, str | None] = {}
    for entry in specs:
        match = SPEC.match(entry)
        assert match, f"cannot read the conda spec {entry!r}"
        conda[canonicalize_name(match.group(1))] = lower_bound(match.group(2))
    actual = {n: bound for n, bound in conda.items() if n not in CONDA_TOOLING}
    expected = {CONDA_NAME.get(n, n): bound for n, bound in runtime.items() if n not in PIP_ONLY}
    assert actual == expected, (
        "binder/environment.yml (left) differs from pyproject.toml's runtime dependencies "
        "(right): Binder gets the notebooks' libraries, no test or dev tools"
    )


def test_binder_post_build_installs_gamelib_from_the_repository() -> None:
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK), "binder/postBuild must be executable"
    commands = [
        line.strip() for line in post_build.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert "python -m pip install --no-deps --no-cache-dir -e ." in commands


def test_requires_python_matches_the_tool_settings() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        config = tomllib.load(f)
    assert config["project"]["requires-python"] == ">=3.10"
    assert config["tool"]["ruff"]["target-version"] == "py310"
    assert config["tool"]["mypy"]["python_version"] == "3.10"


def test_every_runtime_dependency_is_declared() -> None:
    """The drift test can only compare what is declared: the runtime libraries must be."""
    runtime = {"jupyterlab", "notebook", "ipycanvas", "ipywidgets", "matplotlib"}
    assert runtime <= set(pyproject_requirements())


# ---------------------------------------------------------------------------------------------
# Layering: games and searches never import a user-interface library
# ---------------------------------------------------------------------------------------------

UI_MODULES = ("ipycanvas", "ipywidgets", "matplotlib", "IPython")

PROBE = (
    f"UI_MODULES = {UI_MODULES!r}\n"
    + """
import importlib, json, pkgutil, sys
imported = []
for package_name in sys.argv[1:]:
    package = importlib.import_module(package_name)
    imported.append(package_name)
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), package_name + "."):
        importlib.import_module(info.name)
        imported.append(info.name)
ui = sorted({m.split(".")[0] for m in sys.modules} & set(UI_MODULES))
print(json.dumps({"imported": imported, "ui": ui}))
"""
)


def probe_imports(*packages: str) -> dict[str, list[str]]:
    """Import ``packages`` and all their submodules in a fresh interpreter; report what came in."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *packages],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, f"importing {packages} failed:\n{done.stderr}"
    result: dict[str, list[str]] = json.loads(done.stdout)
    return result


def test_games_and_search_import_no_ui_library() -> None:
    report = probe_imports("gamelib.games", "gamelib.search")
    assert "gamelib.games.connect_four" in report["imported"]
    assert "gamelib.search.stats" in report["imported"]
    assert report["ui"] == [], (
        f"gamelib.games / gamelib.search pulled in {report['ui']}: "
        "move that import into gamelib.ui (or import it inside the function that needs it)"
    )


def test_the_layering_probe_sees_ui_imports() -> None:
    """Control: the probe does report a UI library when one is imported."""
    assert probe_imports("IPython.display")["ui"] == ["IPython"]


def test_gamelib_style_imports_ipython_only_when_called() -> None:
    assert probe_imports("gamelib.style")["ui"] == []


# ---------------------------------------------------------------------------------------------
# Notebooks
# ---------------------------------------------------------------------------------------------


def all_notebooks() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def lesson_notebooks() -> list[Path]:
    return [p for p in all_notebooks() if EXERCISES not in p.parents]


def notebook_params(paths: list[Path], what: str) -> list[Any]:
    if not paths:
        reason = f"no {what} under notebooks/ yet"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="none-yet")]
    return [pytest.param(p, id=p.relative_to(NOTEBOOKS).as_posix()) for p in paths]


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def code_cells(nb: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


STYLE_IMPORT = re.compile(r"^\s*from gamelib\.style import load_style\b", re.MULTILINE)
STYLE_CALL = re.compile(r"\bload_style\(\)\s*$")  # the last expression, so its result is shown
INPUT_CALL = re.compile(r"(?<![\w.])input\s*\(")


@pytest.mark.parametrize("path", notebook_params(all_notebooks(), "notebooks"))
def test_first_code_cell_loads_the_style(path: Path) -> None:
    cells = code_cells(load(path))
    assert cells, f"{path.name} has no code cell"
    first = source(cells[0])
    assert STYLE_IMPORT.search(first) and STYLE_CALL.search(first), (
        f"{path.name}: the first code cell must be "
        f"`from gamelib.style import load_style; load_style()`, found:\n{first}"
    )
    if cells[0]["execution_count"] is not None:
        html = "".join(
            source({"source": out.get("data", {}).get("text/html", "")})
            for out in cells[0]["outputs"]
        )
        assert f'<style id="{gamelib.style.STYLE_ELEMENT_ID}">' in html, (
            f"{path.name}: the first cell ran but did not display the <style> element "
            "(is load_style() its last expression, without a semicolon?)"
        )
        assert gamelib.style.SETUP_NOTE in html, (
            f"{path.name}: the first cell's saved output lacks the setup note, which an "
            "untrusted notebook shows instead of an empty strip: run tools/run_notebooks.py"
        )


@pytest.mark.parametrize("path", notebook_params(all_notebooks(), "notebooks"))
def test_no_input_calls_and_no_saved_widget_state(path: Path) -> None:
    nb = load(path)
    assert "widgets" not in nb["metadata"], (
        f"{path.name} saves widget state; run it through tools/run_notebooks.py"
    )
    for index, cell in enumerate(code_cells(nb)):
        assert not INPUT_CALL.search(source(cell)), (
            f"{path.name}, code cell {index}: input() blocks headless runs; use a widget"
        )


@pytest.mark.parametrize("path", notebook_params(all_notebooks(), "notebooks"))
def test_notebook_is_valid_nbformat_45_with_unique_cell_ids(path: Path) -> None:
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) >= (4, 5)
    ids = [cell.id for cell in nb.cells]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("path", notebook_params(lesson_notebooks(), "lesson notebooks"))
def test_lesson_notebook_is_saved_executed_top_to_bottom(path: Path) -> None:
    counts = [cell["execution_count"] for cell in code_cells(load(path))]
    unrun = [i for i, n in enumerate(counts) if n is None]
    assert not unrun, (
        f"{path.name}: code cells {unrun} have not been run (empty cells are never run: delete "
        f"them); run `.venv/bin/python tools/run_notebooks.py {path.relative_to(ROOT)}`"
    )
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} show the cells were not run once, top to "
        "bottom, in a fresh kernel; run it through tools/run_notebooks.py"
    )


# ---------------------------------------------------------------------------------------------
# The nbval sanitizer and the pytest configuration
# ---------------------------------------------------------------------------------------------

SANITIZER = ROOT / "tests" / "nbval_sanitize.cfg"


def sanitize(text: str) -> str:
    """Apply the sanitizer's patterns the way nbval does."""
    for regex, replace in get_sanitize_patterns(SANITIZER.read_text(encoding="ascii")):
        text = re.sub(regex, replace, text)
    return text


@pytest.mark.parametrize(
    ("raw", "masked"),
    [
        ("CPU times: user 3 \u03bcs, sys: 1 \u03bcs, total: 4 \u03bcs", "CPU times: <time>"),
        ("Wall time: 6.44 \u03bcs\n", "Wall time: <time>\n"),
        ("Wall time: 1.2 ms", "Wall time: <time>"),
        (
            "453 ns \u00b1 132 ns per loop (mean \u00b1 std. dev. of 7 runs, 1,000 loops each)",
            "<timeit result>",
        ),
        ("solved in 12.3 ms", "solved in <time>"),
        ("took 0.5 s.", "took <time>."),
        ("1.2 seconds", "<time>"),
        ("1 second", "<time>"),
        ("3 \u00b5s and 4 \u03bcs", "<time> and <time>"),
        ("1,234.5ms per move", "<time> per move"),
        ("2e-05 s", "<time>"),
        ("(0.25 s, 1.5 s)", "(<time>, <time>)"),
        ("<function f at 0x7f3a2c1b0e50>", "<function f at 0x<address>>"),
        ("<Board object at 0x10ab2c3d0>", "<Board object at 0x<address>>"),
        ("model 45bd4c5c225a47f29369c42b9c790c01 ready", "model <model-id> ready"),
        (
            '<style id="gamelib-style">\n.jp-Notebook {\n  color: red;\n}\n</style><p>x</p>',
            '<style id="gamelib-style"><stylesheet></style><p>x</p>',
        ),
    ],
)
def test_sanitizer_masks_what_varies(raw: str, masked: str) -> None:
    assert sanitize(raw) == masked


@pytest.mark.parametrize(
    "text",
    [
        "549,946 calls",
        "5,478 states",
        "3 squares in a row",
        "X wins in 7 moves",
        "mask 0x1fc0 of column 1",
        "abc 45bd4c5c225a47f2 short hex",
        '<style id="other">a{}</style>',
    ],
)
def test_sanitizer_leaves_facts_alone(text: str) -> None:
    assert sanitize(text) == text


def test_sanitizer_file_is_ascii() -> None:
    """nbval opens it in the locale's encoding, so it must read the same in every locale."""
    SANITIZER.read_bytes().decode("ascii")
    assert len(get_sanitize_patterns(SANITIZER.read_text(encoding="ascii"))) == 8


def test_pytest_runs_nbval_with_the_sanitizer(pytestconfig: pytest.Config) -> None:
    assert pytestconfig.option.nbval is True
    assert pytestconfig.option.nbval_current_env is True
    assert Path(pytestconfig.option.nbval_sanitize_with).resolve() == SANITIZER
    assert os.environ["PYTHONHASHSEED"] == "0"  # inherited by nbval's kernels
    assert [str(p) for p in pytestconfig.getini("testpaths")] == ["tests", "notebooks"]


def test_conftest_finds_the_sanitizer_from_another_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The addopts path is relative to the cwd; conftest.py re-anchors it at the project root."""
    spec = importlib.util.spec_from_file_location("project_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    project_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(project_conftest)
    registered: list[object] = []
    config = SimpleNamespace(
        option=SimpleNamespace(nbval_sanitize_with="tests/nbval_sanitize.cfg"), rootpath=ROOT,
        pluginmanager=SimpleNamespace(register=lambda plugin, name: registered.append(plugin)),
    )
    monkeypatch.chdir(tmp_path)
    project_conftest.pytest_configure(config)
    assert config.option.nbval_sanitize_with == str(SANITIZER)
    assert [type(plugin).__name__ for plugin in registered] == ["HeaviestFilesFirst"]
    monkeypatch.chdir(ROOT)  # from the root, the relative path is left as it is
    config.option.nbval_sanitize_with = "tests/nbval_sanitize.cfg"
    project_conftest.pytest_configure(config)
    assert config.option.nbval_sanitize_with == "tests/nbval_sanitize.cfg"


def test_the_heaviest_test_files_run_first_each_file_in_its_order() -> None:
    """conftest.HeaviestFilesFirst orders files by their estimated seconds (a browser test 20,
    a slow one 3, a notebook cell 0.3, any other 0.05), heaviest first, a file's items kept
    together and in order; files of equal weight keep their order."""
    spec = importlib.util.spec_from_file_location("project_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    project_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(project_conftest)

    def item(nodeid: str, marker: str | None = None) -> SimpleNamespace:
        return SimpleNamespace(nodeid=nodeid, get_closest_marker=lambda name: name == marker)

    items = [item("a.py::t1"), item("a.py::t2"), item("b.py::t1", "slow"),
             item("c.ipynb::Cell 0", "notebook"), item("d.py::t1", "browser"), item("a.py::t3"),
             item("e.py::t1")]
    project_conftest.HeaviestFilesFirst().pytest_collection_modifyitems(items)
    assert [i.nodeid for i in items] == ["d.py::t1", "b.py::t1", "c.ipynb::Cell 0", "a.py::t1",
                                         "a.py::t2", "a.py::t3", "e.py::t1"]


# ---------------------------------------------------------------------------------------------
# gamelib.style and gamelib/style.css
# ---------------------------------------------------------------------------------------------


def test_style_css_covers_the_lecture_look() -> None:
    css = (ROOT / "gamelib" / "style.css").read_text(encoding="utf-8")
    assert css.count("{") == css.count("}")
    for selector in [
        ".jp-RenderedHTMLCommon table",
        "tbody tr:nth-child(even)",  # zebra rows
        ".jp-RenderedMarkdown h1",
        "--jp-code-font-family",
        "font-variant-numeric: tabular-nums",
    ]:
        assert selector in css


def test_load_style_wraps_the_project_stylesheet() -> None:
    html = gamelib.style.load_style()
    css = (ROOT / "gamelib" / "style.css").read_text(encoding="utf-8")
    from gamelib.ui.canvas import WIDGET_CSS

    blank = WIDGET_CSS + "\n"
    note = f'<p class="gamelib-setup">{gamelib.style.SETUP_NOTE}</p>'
    assert html.data == f'<style id="gamelib-style">\n{css}{blank}</style>{note}'
    # Where the style applies it hides its output, the note included; where the <style> is
    # stripped (an untrusted notebook) the note is the one line shown, not an empty strip.
    assert ".jp-OutputArea-child:has(style#gamelib-style) {\n  display: none;" in css
    assert gamelib.style.PROJECT_STYLE == ROOT / "gamelib" / "style.css"
    # One stylesheet, shipped with gamelib; the top-level style.css is a link to it.
    top = ROOT / "style.css"
    assert top.is_symlink() and top.resolve() == gamelib.style.PROJECT_STYLE.resolve()


def test_read_style_names_the_missing_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = tmp_path / "missing.css"
    monkeypatch.setattr(gamelib.style, "PROJECT_STYLE", missing)
    with pytest.raises(FileNotFoundError, match="missing.css"):
        gamelib.style.read_style()


# ---------------------------------------------------------------------------------------------
# tools/run_notebooks.py
# ---------------------------------------------------------------------------------------------


def test_normalise_strips_widget_state_and_assigns_stable_ids() -> None:
    tool = run_notebooks_module()
    view = {"model_id": "45bd4c5c225a47f29369c42b9c790c01", "version_major": 2}
    nb = nbformat.v4.new_notebook()
    nb.nbformat_minor = 4
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Title"),
        nbformat.v4.new_code_cell(
            "board",
            execution_count=1,
            outputs=[
                nbformat.v4.new_output(
                    "execute_result",
                    data={
                        "text/plain": "Board()",
                        "application/vnd.jupyter.widget-view+json": view,
                    },
                    execution_count=1,
                ),
                nbformat.v4.new_output(
                    "display_data", data={"application/vnd.jupyter.widget-view+json": view}
                ),
            ],
        ),
        nbformat.v4.new_code_cell("1 + 1", metadata={"execution": {"iopub.status.busy": "x"}}),
    ]
    nb.cells[2].id = nb.cells[1].id  # a duplicate id must be replaced
    for cell in nb.cells[:2]:
        del cell["id"]
    first = tool.normalise(copy.deepcopy(nb))
    second = tool.normalise(copy.deepcopy(nb))
    assert nbformat.writes(first) == nbformat.writes(second)  # no randomness
    assert "widgets" not in first.metadata
    assert first.metadata.kernelspec == {
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "name": "python3",
    }
    # The kernel's version (JupyterLab writes it into an opened notebook: the same, no change).
    assert first.metadata.language_info == {"name": "python",
                                            "version": platform.python_version()}
    assert first.nbformat_minor == 5
    assert first.cells[1].outputs == [
        nbformat.v4.new_output("execute_result", data={"text/plain": "Board()"}, execution_count=1)
    ]
    assert first.cells[2].metadata == {}
    assert len({cell.id for cell in first.cells}) == 3
    nbformat.validate(first)
    again = tool.normalise(copy.deepcopy(first))
    assert [c.id for c in again.cells] == [c.id for c in first.cells]  # ids are kept
    elsewhere = copy.deepcopy(first)
    elsewhere.metadata.language_info.version = "3.99.0"  # a rerun on another Python
    assert tool.comparable(elsewhere, []) == tool.comparable(first, [])  # is no change


def test_run_notebooks_executes_in_the_notebook_folder_with_a_fixed_hash_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "lesson"
    folder.mkdir()
    (folder / "data.txt").write_text("found\n", encoding="utf-8")
    path = folder / "probe.ipynb"
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("print(open('data.txt').read().strip())"),
            nbformat.v4.new_code_cell("import os; print(os.environ['PYTHONHASHSEED'])"),
            nbformat.v4.new_code_cell("1/0", metadata={"tags": ["raises-exception"]}),
            nbformat.v4.new_code_cell("6 * 7"),
        ]
    )
    nbformat.write(nb, path)
    broken = tmp_path / "broken.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1/0")]), broken)
    before = broken.read_bytes()

    assert run_notebooks_module().main([str(tmp_path)]) == 1
    assert broken.read_bytes() == before  # a failing notebook is not written
    assert "1 of 2 notebook(s) failed" in capsys.readouterr().err

    ran = nbformat.read(path, as_version=4)
    assert [c.execution_count for c in ran.cells] == [1, 2, 3, 4]
    assert ran.cells[0].outputs[0].text == "found\n"
    assert ran.cells[1].outputs[0].text == "0\n"
    assert ran.cells[2].outputs[0].ename == "ZeroDivisionError"
    assert ran.cells[3].outputs[0].data["text/plain"] == "42"
    assert ran.nbformat_minor == 5
    assert ran.metadata.kernelspec.name == "python3"
    assert ran.metadata.language_info.version == platform.python_version()


def test_run_notebooks_rejects_a_path_that_is_not_a_notebook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = run_notebooks_module()
    with pytest.raises(SystemExit) as exit_info:
        tool.main([str(tmp_path / "nope.txt")])
    assert exit_info.value.code == 2
    assert "not a notebook or folder" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Makefile and .ci/run
# ---------------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_runs_pytest_in_the_venv() -> None:
    # Run as a top-level make with the Makefile's defaults, even when this test itself runs under
    # `make test PYTEST_ARGS=...`: make passes its command-line variables on to the environment.
    inherited = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PYTEST_ARGS", "LAB_ARGS", "NOTEBOOKS",
                 "WORKERS"}
    env = {k: v for k, v in os.environ.items() if k not in inherited}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "test", "check", "lab", "notebooks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    lines = [line.strip() for line in done.stdout.splitlines()]
    ruff = ".venv/bin/python -m ruff check gamelib tests tools benchmarks conftest.py"
    # make test: ruff, then mypy started in the background, then the whole suite on every core
    # and one more, then mypy's verdict; either failing fails make test.
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    first_ruff = lines.index(ruff)
    mypy = next(i for i, line in enumerate(lines) if line.startswith(".venv/bin/python -m mypy >"))
    assert mypy > first_ruff and lines[mypy].endswith("& mypy=$!; \\")
    suite = lines.index(f".venv/bin/python -m pytest -n {(cores or 1) + 1} --dist loadfile ; "
                        "tests=$?; \\")
    assert mypy < suite and "wait $mypy; types=$?; \\" in lines[suite:]
    assert "[ $tests -eq 0 ] && [ $types -eq 0 ]" in lines[suite:]
    # make check: ruff and mypy first, then the quick tests only.
    second_ruff = lines.index(ruff, first_ruff + 1)
    assert lines[second_ruff + 1] == ".venv/bin/python -m mypy"
    quick = lines.index('.venv/bin/python -m pytest tests -m "not slow and not notebook and not '
                        'browser" -n auto')
    assert suite < second_ruff < quick
    assert any(
        line.startswith(".venv/bin/python -m jupyterlab --ServerApp.root_dir=notebooks")
        for line in lines
    )
    assert ".venv/bin/python tools/run_notebooks.py" in lines


def test_makefile_installs_through_a_stamp_that_depends_on_pyproject() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(STAMP_ALL): pyproject.toml | $(VENV)/bin/uv" in makefile
    assert "$(VENV)/bin/uv $(UV_INSTALL) $(VPY) -e '.[test,dev]'" in makefile
    assert "$(VENV_LITE)/bin/uv $(UV_INSTALL) $(LPY) --group lite" in makefile
    assert ".DELETE_ON_ERROR:" in makefile


def test_ci_script_is_executable_bash_ending_in_make_test() -> None:
    script = ROOT / ".ci" / "run"
    assert os.access(script, os.X_OK)
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert "make test </dev/null" in text
    if shutil.which("bash"):
        done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
