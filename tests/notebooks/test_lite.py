"""The JupyterLite site (``make lite``, lite/build.py) builds offline and holds what it must.

The build (the session fixture ``lite_site``, tests/conftest.py) runs with the Python of the
Lite environment, .venv-lite (JupyterLite's tools are not in the lesson environment the tests
run in), in a subprocess whose
sockets refuse every address but the loopback (a ``sitecustomize`` module put first on its
path), so a build step that reached for the network would fail here. The site must hold every
notebook with its multi-line strings whole (JupyterLite shows a saved list of lines joined by
commas: jupyterlite/jupyterlite#1105), gamelib's wheel listed in piplite's index (so
``%pip install gamelib`` in the browser downloads nothing for gamelib), the lab extensions of
ipywidgets, ipycanvas and the Pyodide kernel and no others (not nbgrader's), Pyodide itself
when npm's package is there, and offline.js on the pages that run a kernel. The browser's
view of it is tested in tests/browser/test_lite_browser.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path
from typing import Any

import nbformat
import pytest
from helpers import LITE_PYTHON, NO_NETWORK, lite_tools_missing
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
BUILD_SCRIPT = ROOT / "lite" / "build.py"
NPM_PYODIDE = ROOT / "tests" / "pyodide" / "node_modules" / "pyodide"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(lite_tools_missing() is not None, reason=str(lite_tools_missing())),
]

@pytest.fixture
def site(lite_site: Path) -> Path:
    """The site, built once per session with the network off (tests/conftest.py)."""
    return lite_site


def test_the_network_blocker_blocks(tmp_path: Path) -> None:
    """Control: in a subprocess with the blocker, a connection to the outside is refused."""
    (tmp_path / "sitecustomize.py").write_text(NO_NETWORK, encoding="utf-8")
    log = tmp_path / "network.log"
    code = "import socket; socket.create_connection(('192.0.2.1', 80), timeout=1)"
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "GAMELIB_NETWORK_LOG": str(log)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False)
    assert proc.returncode != 0 and "the network is off" in proc.stderr
    assert "192.0.2.1" in log.read_text(encoding="utf-8")


def split_strings(notebook: dict[str, Any]) -> list[str]:
    """Where ``notebook`` (as JSON) holds a multi-line string as a list of lines: cell
    sources, stream texts, and the non-JSON mimetypes of outputs and attachments."""
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if isinstance(cell["source"], list):
            found.append(f"cell {index} source")
        bundles = [(f"attachment {name}", b) for name, b in cell.get("attachments", {}).items()]
        for number, output in enumerate(cell.get("outputs", [])):
            if isinstance(output.get("text"), list):
                found.append(f"cell {index} output {number} text")
            bundles.append((f"output {number}", output.get("data", {})))
        for where, bundle in bundles:
            found += [f"cell {index} {where} {mime}" for mime, value in bundle.items()
                      if isinstance(value, list) and not mime.endswith("json")]
    return found


def test_the_site_holds_every_notebook_with_whole_strings(site: Path) -> None:
    """Every notebook, with the content a Jupyter server sends (nbformat's reading of the
    project's file) and every multi-line string whole in the file itself."""
    wanted = sorted(p.relative_to(NOTEBOOKS) for p in NOTEBOOKS.rglob("*.ipynb")
                    if ".ipynb_checkpoints" not in p.parts)
    assert len(wanted) >= 8
    held = sorted(p.relative_to(site / "files") for p in (site / "files").rglob("*.ipynb"))
    assert held == wanted
    lists_in_project = 0
    for rel in wanted:
        text = (site / "files" / rel).read_text(encoding="utf-8")
        assert split_strings(json.loads(text)) == [], rel
        served = nbformat.reads(text, as_version=4)
        assert served == nbformat.read(NOTEBOOKS / rel, as_version=4)
        nbformat.validate(served)
        lists_in_project += len(split_strings(json.loads((NOTEBOOKS / rel).read_text("utf-8"))))
    assert lists_in_project > 100  # control: the project's files do hold lists of lines


def test_lesson_3_cell_5_prints_whole_lines(site: Path) -> None:
    """The example of issue 19: Lesson 3's cell 5 prints a board over five lines."""
    saved = json.loads((NOTEBOOKS / "03-Memoization.ipynb").read_text(encoding="utf-8"))
    served = json.loads((site / "files" / "03-Memoization.ipynb").read_text(encoding="utf-8"))
    [before] = saved["cells"][5]["outputs"]
    [after] = served["cells"][5]["outputs"]
    assert before["text"] == ["X| | \n", "-+-+-\n", " |O| \n", "-+-+-\n", " | |X\n"]
    assert after == {**before, "text": "X| | \n-+-+-\n |O| \n-+-+-\n | |X\n"}


def test_whole_lines_leaves_json_mimetypes_alone() -> None:
    """lite/build.py's whole_lines joins text mimetypes and keeps JSON ones as they are."""
    build = load_build_script()
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x = 1\nx")
    cell.outputs = [
        nbformat.v4.new_output("execute_result", execution_count=1, data={
            "text/plain": "one\ntwo", "text/html": "<b>one</b>\n<i>two</i>",
            "application/json": {"lines": ["a\n", "b"]},
        }),
        nbformat.v4.new_output("stream", name="stdout", text="a\nb\n"),
    ]
    notebook.cells.append(cell)
    text = nbformat.writes(notebook)  # as saved: lists of lines
    assert split_strings(json.loads(text)) != []
    whole = build.whole_lines(text)
    assert split_strings(whole) == []
    assert whole["cells"][0]["outputs"][0]["data"]["application/json"] == {"lines": ["a\n", "b"]}
    assert whole == nbformat.reads(text, as_version=4)


def load_build_script() -> Any:
    """lite/build.py as a module."""
    spec = importlib.util.spec_from_file_location("lite_build", BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_piplite_lists_gamelibs_wheel(site: Path) -> None:
    index = json.loads((site / "pypi" / "all.json").read_text(encoding="utf-8"))
    assert list(index) == ["gamelib"]
    [(version, files)] = index["gamelib"]["releases"].items()
    [entry] = files
    wheel = site / "pypi" / entry["filename"]
    assert wheel.is_file() and entry["filename"] == f"gamelib-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert {"gamelib/__init__.py", "gamelib/runtime.py", "gamelib/games/__init__.py",
                "gamelib/connect4/solver.py", "gamelib/ui/__init__.py"} <= names
        # The package's modules, no more (no leftover of a module deleted since) and no less.
        modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "gamelib").rglob("*.py")}
        assert {n for n in names if n.endswith(".py")} == modules
        assert not any(n.startswith(("tests/", "notebooks/")) for n in names)
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(zf.read(meta_name).decode("utf-8"))
    # What piplite resolves in the browser: the libraries the notebooks import, no servers.
    pyodide = {"sys_platform": "emscripten", "platform_system": "Emscripten",
               "python_version": "3.14", "python_full_version": "3.14.2", "extra": ""}
    required = {
        canonicalize_name(req.name)
        for req in map(Requirement, metadata.get_all("Requires-Dist") or [])
        if req.marker is None or req.marker.evaluate(pyodide)
    }
    # (pillow: the PNG pictures, gamelib.ui.picture; Pyodide ships it, as ipycanvas needs it.
    # numpy: gamelib.learn's models; Pyodide ships it too.)
    assert required == {"ipycanvas", "ipywidgets", "matplotlib", "numpy", "pillow"}


def test_the_wheel_alone_gives_the_notebooks_their_style(site: Path, tmp_path: Path) -> None:
    """The notebooks' first cell calls load_style(): from the wheel alone (as piplite and
    Colab install gamelib, not editable from the project folder) it must find the stylesheet.
    The wheel is pure Python: installing it is unpacking it into site-packages, as piplite
    does in the browser (pip's start-up took most of this test's time)."""
    [wheel] = (site / "pypi").glob("gamelib-*.whl")
    target = tmp_path / "site-packages"
    with zipfile.ZipFile(wheel) as zf:
        assert zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/WHEEL")))\
            .decode("utf-8").count("Root-Is-Purelib: true") == 1
        zf.extractall(target)
    code = "import gamelib.style as s; print(s.__file__); print(len(s.read_style()))"
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, check=False)
    assert done.stdout.startswith(str(target)), done.stdout + done.stderr
    assert done.returncode == 0, done.stderr[-1500:]
    assert int(done.stdout.split()[-1]) > 0


def test_the_build_leaves_nothing_in_the_project(site: Path) -> None:
    made = sorted(p.name for p in BUILD_SCRIPT.parent.iterdir() if p.name != "__pycache__")
    assert made == ["build.py", "jupyter-lite.json", "jupyter_lite_config.json", "offline.js"]


def test_the_site_has_its_extensions_and_no_others(site: Path) -> None:
    """The widgets, the canvas and the kernel, named one by one (lite/build.py's
    SITE_EXTENSIONS); not nbgrader's, whose Assignment List needs a server and would say
    "Loading, please wait..." forever."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    assert config["jupyter-config-data"]["appName"] == "Game Search Notebooks"  # lite/'s settings
    extensions = {e["name"]: e for e in config["jupyter-config-data"]["federated_extensions"]}
    assert sorted(extensions) == ["@jupyter-widgets/jupyterlab-manager",
                                  "@jupyterlite/pyodide-kernel-extension", "ipycanvas"]
    for name, entry in extensions.items():
        assert (site / "extensions" / name / entry["load"]).is_file(), name
    assert sorted(p.name for p in (site / "extensions").iterdir()) == [
        "@jupyter-widgets", "@jupyterlite", "ipycanvas"]


def kernel_settings(site: Path) -> dict[str, Any]:
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings: dict[str, Any] = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    return settings


@pytest.mark.skipif(not (NPM_PYODIDE / "pyodide.mjs").is_file(),
                    reason="npm's pyodide package is not installed (make pyodide)")
def test_the_site_serves_pyodide_itself(site: Path) -> None:
    """Pyodide's runtime comes from the site; its packages from the CDN of the same version."""
    settings = kernel_settings(site)
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    served = site / "static" / "pyodide"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"):
        assert (served / name).read_bytes() == (NPM_PYODIDE / name).read_bytes(), name
    version = json.loads((NPM_PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    assert settings["loadPyodideOptions"] == {
        "packageBaseUrl": f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"}
    lock = json.loads((served / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert "micropip" in lock["packages"]
    assert not (served / lock["packages"]["micropip"]["file_name"]).exists()  # from the CDN


def test_without_npms_pyodide_the_site_names_the_cdn(tmp_path: Path) -> None:
    """Without npm's package the kernel's own CDN address is written out (offline.js reads it).
    Run with the Lite environment's Python, which has the kernel and its extensions."""
    lite_dir = tmp_path / "lite"
    lite_dir.mkdir()
    code = (
        "import importlib.util, sys; from pathlib import Path\n"
        f"spec = importlib.util.spec_from_file_location('lite_build', {str(BUILD_SCRIPT)!r})\n"
        "build = importlib.util.module_from_spec(spec); spec.loader.exec_module(build)\n"
        f"build.prepare_lite_dir(Path({str(lite_dir)!r}), None)\n"
        "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION\n"
        "print(build.KERNEL_PLUGIN); print(PYODIDE_VERSION)\n"
    )
    done = subprocess.run([str(LITE_PYTHON), "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-1500:]
    plugin, version = done.stdout.split()
    site = json.loads((lite_dir / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = site["jupyter-config-data"]["litePluginSettings"][plugin]
    assert settings == {"pyodideUrl":
                        f"https://cdn.jsdelivr.net/pyodide/v{version}/full/pyodide.mjs"}
    assert not (lite_dir / "static").exists()
    config = json.loads((lite_dir / "jupyter_lite_config.json").read_text(encoding="utf-8"))
    assert config["LiteBuildConfig"]["ignore_sys_prefix"] == ["federated_extensions"]
    assert len(config["LiteBuildConfig"]["federated_extensions"]) == 3


def test_the_kernel_pages_load_offline_js(site: Path) -> None:
    assert (site / "offline.js").read_bytes() == (BUILD_SCRIPT.parent / "offline.js").read_bytes()
    for page in ("lab", "notebooks", "repl", "consoles"):
        html = (site / page / "index.html").read_text(encoding="utf-8")
        assert html.count('<script src="../offline.js" defer></script>') == 1, page
    assert "offline.js" not in (site / "tree" / "index.html").read_text(encoding="utf-8")
