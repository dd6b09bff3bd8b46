"""The JupyterLite site (``make lite``, lite/build.py) builds offline and holds what it must.

The build runs in a subprocess whose sockets refuse every address but the loopback (a
``sitecustomize`` module put first on its path), so a build step that reached for the network
would fail here. The site must hold every notebook, gamelib's wheel listed in piplite's index
(so ``%pip install gamelib`` in the browser downloads nothing for gamelib), and the lab
extensions of ipywidgets and ipycanvas.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
import time
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
BUILD_SCRIPT = ROOT / "lite" / "build.py"
BUILD_TIMEOUT = 300  # seconds; the build takes about 5 s

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("jupyterlite_core") is None
        or importlib.util.find_spec("jupyterlite_pyodide_kernel") is None,
        reason="jupyterlite-core and jupyterlite-pyodide-kernel are not installed "
        "(pip install -e '.[test]')",
    ),
]

NO_NETWORK = textwrap.dedent(
    """
    import os, socket
    _connect = socket.socket.connect
    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and address[0] not in (
            "127.0.0.1", "::1", "localhost"
        ):
            with open(os.environ["GAMELIB_NETWORK_LOG"], "a") as log:
                log.write(f"{address}\\n")
            raise OSError(f"the network is off in this test: {address}")
        return _connect(self, address)
    socket.socket.connect = connect
    """
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site once, offline; return its folder."""
    work = tmp_path_factory.mktemp("lite")
    (work / "sitecustomize.py").write_text(NO_NETWORK, encoding="utf-8")
    log = work / "network.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(work), str(ROOT)]),
        "GAMELIB_NETWORK_LOG": str(log),
        "PIP_NO_INDEX": "1",
    }
    out = work / "site"
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(BUILD_SCRIPT), "--output-dir", str(out)],
        capture_output=True, text=True, env=env, timeout=BUILD_TIMEOUT, check=False,
    )
    print(f"JupyterLite build: {time.monotonic() - started:.1f} s")
    tried = log.read_text(encoding="utf-8") if log.exists() else ""
    assert not tried, f"the build tried to reach the network:\n{tried}"
    assert proc.returncode == 0, f"the build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return out


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


def test_the_site_holds_every_notebook(site: Path) -> None:
    wanted = sorted(p.relative_to(NOTEBOOKS) for p in NOTEBOOKS.rglob("*.ipynb")
                    if ".ipynb_checkpoints" not in p.parts)
    assert len(wanted) >= 8
    held = sorted(p.relative_to(site / "files") for p in (site / "files").rglob("*.ipynb"))
    assert held == wanted
    for rel in wanted:  # copied as they are, outputs included
        assert (site / "files" / rel).read_bytes() == (NOTEBOOKS / rel).read_bytes()


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
                "gamelib/search/solver.py", "gamelib/ui/__init__.py"} <= names
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
    assert required == {"ipycanvas", "ipywidgets", "matplotlib"}


def test_the_wheel_alone_gives_the_notebooks_their_style(site: Path, tmp_path: Path) -> None:
    """The notebooks' first cell calls load_style(): from the wheel alone (as piplite and
    Colab install gamelib, not editable from the project folder) it must find the stylesheet."""
    [wheel] = (site / "pypi").glob("gamelib-*.whl")
    target = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--target", str(target), str(wheel)],
        check=True,
    )
    code = "import gamelib.style as s; print(s.__file__); print(len(s.read_style()))"
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, check=False)
    assert done.stdout.startswith(str(target)), done.stdout + done.stderr
    assert done.returncode == 0, done.stderr[-1500:]
    assert int(done.stdout.split()[-1]) > 0


def test_the_build_leaves_nothing_in_the_project(site: Path) -> None:
    made = sorted(p.name for p in BUILD_SCRIPT.parent.iterdir() if p.name != "__pycache__")
    assert made == ["build.py", "jupyter-lite.json", "jupyter_lite_config.json"]


def test_the_site_has_the_widget_extensions(site: Path) -> None:
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    assert config["jupyter-config-data"]["appName"] == "Game Search Notebooks"  # lite/'s settings
    extensions = {e["name"]: e for e in config["jupyter-config-data"]["federated_extensions"]}
    for name in ("@jupyter-widgets/jupyterlab-manager", "ipycanvas",
                 "@jupyterlite/pyodide-kernel-extension"):
        assert name in extensions, f"{name} missing from {sorted(extensions)}"
        entry = site / "extensions" / name / extensions[name]["load"]
        assert entry.is_file(), entry
