"""Build the JupyterLite site: every notebook, gamelib's wheel (through piplite), the widgets.

    .venv-lite/bin/python lite/build.py [--output-dir DIR] [--pyodide DIR]   (``make lite``)

Run it with the Python of the Lite environment, .venv-lite (``make lite`` creates it from
pyproject's dependency group "lite": JupyterLite's tools, nbformat, setuptools, and the widget
libraries whose lab extensions the site ships). gamelib itself is not installed there, and
JupyterLite's tools are never installed beside JupyterLab, which would load their kernel
extension and fail on every page.

1. Builds gamelib's wheel from a fresh copy of the package's files with setuptools' PEP 517
   hook, offline (setuptools>=77 comes with the group; no pip, no build isolation). Built in
   the project folder, setuptools' leftover ``build/lib`` put deleted modules in the wheel.
2. Copies the notebooks folder with every notebook's multi-line strings whole, as a Jupyter
   server sends them (:func:`whole_lines_copy`): JupyterLite reads the saved file as it is and
   shows a list of lines joined by commas (jupyterlite/jupyterlite#1105).
3. Runs ``jupyter lite build`` (in this process) on that copy, with this folder's settings
   (``jupyter_lite_config.json``, ``jupyter-lite.json``) copied to a temporary folder, so that
   the build's own state (its cache and task database) stays out of the project. The wheel is
   given to piplite: the site's ``pypi/all.json`` lists it, so ``%pip install gamelib`` in the
   browser downloads nothing from PyPI for gamelib itself. The lab extensions are the ones
   named in :data:`SITE_EXTENSIONS`, from this Python's environment, and no others (not
   nbgrader's, which needs a server).
4. Serves the Pyodide runtime from the site when npm's ``pyodide`` package is there
   (``make pyodide`` puts it in ``tests/pyodide/node_modules/pyodide``); its packages still
   come from the jsDelivr CDN of the same version.
5. Adds ``offline.js`` to the pages that run a kernel: when Python cannot be fetched, the page
   says so and what to do, instead of leaving the cells at ``[*]``.

Nothing here needs the network. In the browser, Pyodide's packages (micropip, numpy, pillow,
matplotlib) load from the jsDelivr CDN (and Pyodide itself, without the npm package), and
ipywidgets and ipycanvas from PyPI.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

LITE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = LITE_DIR.parent
NOTEBOOKS = PROJECT_ROOT / "notebooks"
DEFAULT_OUTPUT = PROJECT_ROOT / "build" / "lite"
DEFAULT_PYODIDE = PROJECT_ROOT / "tests" / "pyodide" / "node_modules" / "pyodide"
SETTINGS = ("jupyter_lite_config.json", "jupyter-lite.json")
OFFLINE_SCRIPT = "offline.js"

#: The lab extensions the site ships, found in this Python's environment.
SITE_EXTENSIONS = (
    "@jupyter-widgets/jupyterlab-manager",
    "@jupyterlite/pyodide-kernel-extension",
    "ipycanvas",
)
#: The Pyodide kernel's settings in jupyter-lite.json.
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: What the site needs of npm's pyodide package (the rest is types, maps and demo pages).
PYODIDE_FILES = (
    "package.json",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The site's pages that run a kernel: they get offline.js.
KERNEL_PAGES = ("lab", "notebooks", "repl", "consoles")
CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"


#: What the wheel is built from (a fresh copy: setuptools' build/lib in the project would
#: hold modules deleted since, and the wheel would ship them).
WHEEL_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "gamelib")
#: Builds the wheel of the project in the current folder into the folder sys.argv[1].
BUILD_WHEEL = "import sys; from setuptools import build_meta; build_meta.build_wheel(sys.argv[1])"


def build_wheel(dest: Path) -> Path:
    """Build gamelib's wheel into ``dest`` without the network, from a fresh copy of the
    project's package files; return the wheel's path."""
    source = dest.parent / "wheel-source"
    source.mkdir()
    for name in WHEEL_SOURCES:
        path = PROJECT_ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    # setuptools' PEP 517 hook, called directly: the wheel pip would build (pip wheel
    # --no-build-isolation calls the same hook, in a process of its own, after importing
    # itself: 3.5 s of CPU against 1.2 s here), and nothing to download.
    dest.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", BUILD_WHEEL, str(dest)],
        cwd=source, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"building gamelib's wheel failed:\n{done.stdout}\n{done.stderr}")
    wheels = sorted(dest.glob("gamelib-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one gamelib wheel in {dest}, found {wheels}")
    return wheels[0]


def whole_lines(text: str) -> dict[str, Any]:
    """The notebook in ``text`` (nbformat 4 JSON) as a Jupyter server sends it: every
    multi-line string whole (cell sources, stream texts, the text mimetypes of outputs and
    attachments joined from their lists of lines; JSON mimetypes untouched), which is how
    nbformat reads a notebook. Still valid nbformat 4."""
    import nbformat

    notebook: dict[str, Any] = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    return notebook


def whole_lines_copy(source: Path, dest: Path) -> list[Path]:
    """Copy the folder ``source`` to ``dest`` (which must not exist), every notebook written
    with :func:`whole_lines` (still valid nbformat 4); return the notebooks' paths in ``dest``."""
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    notebooks = sorted(dest.rglob("*.ipynb"))
    for path in notebooks:
        notebook = whole_lines(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    return notebooks


def find_extension(name: str) -> Path:
    """The folder of the prebuilt lab extension ``name`` in this Python's Jupyter paths
    (a folder of that name without a build is passed by)."""
    from jupyter_core.paths import jupyter_path

    for root in jupyter_path("labextensions"):
        folder = Path(root) / name
        package = folder / "package.json"
        if package.is_file():
            build = json.loads(package.read_text(encoding="utf-8")).get("jupyterlab", {})
            if build.get("_build", {}).get("load"):
                return folder
    raise FileNotFoundError(
        f"lab extension {name} is not installed in {sys.prefix}; run this script with "
        "the Lite environment's Python (`make lite` creates .venv-lite)"
    )


def pyodide_version(pyodide: Path) -> str:
    """The version of npm's pyodide package in ``pyodide``."""
    version: str = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    return version


def prepare_lite_dir(lite_dir: Path, pyodide: Path | None) -> None:
    """Fill ``lite_dir`` with this folder's settings: the site's extensions listed, and
    Pyodide served from the site (``pyodide``: npm's package folder) or from the CDN."""
    config = json.loads((LITE_DIR / "jupyter_lite_config.json").read_text(encoding="utf-8"))
    config["LiteBuildConfig"]["federated_extensions"] = [
        str(find_extension(name)) for name in SITE_EXTENSIONS
    ]
    (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2),
                                                      encoding="utf-8")
    site = json.loads((LITE_DIR / "jupyter-lite.json").read_text(encoding="utf-8"))
    plugins = site["jupyter-config-data"].setdefault("litePluginSettings", {})
    kernel = plugins.setdefault(KERNEL_PLUGIN, {})
    if pyodide is None:
        from jupyterlite_pyodide_kernel.constants import PYODIDE_MJS, PYODIDE_VERSION

        # The kernel's own default, written out so that offline.js can check it.
        kernel["pyodideUrl"] = CDN.format(version=PYODIDE_VERSION) + PYODIDE_MJS
    else:
        # jupyterlite-pyodide-kernel serves a Pyodide found in static/pyodide (and points
        # pyodideUrl there); the packages that npm's package lacks come from the CDN.
        static = lite_dir / "static" / "pyodide"
        static.mkdir(parents=True)
        for name in PYODIDE_FILES:
            shutil.copy2(pyodide / name, static / name)
        kernel.setdefault("loadPyodideOptions", {})["packageBaseUrl"] = CDN.format(
            version=pyodide_version(pyodide))
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(site, indent=2), encoding="utf-8")


def add_offline_script(output_dir: Path) -> list[Path]:
    """Copy offline.js into the site and load it from each page that runs a kernel;
    return the pages changed."""
    shutil.copy2(LITE_DIR / OFFLINE_SCRIPT, output_dir / OFFLINE_SCRIPT)
    tag = f'<script src="../{OFFLINE_SCRIPT}" defer></script>'
    changed = []
    for page in KERNEL_PAGES:
        html = output_dir / page / "index.html"
        if not html.is_file():
            continue
        text = html.read_text(encoding="utf-8")
        if tag not in text:
            if "</head>" not in text:
                raise RuntimeError(f"{html} has no </head> to put {OFFLINE_SCRIPT} before")
            html.write_text(text.replace("</head>", f"  {tag}\n  </head>", 1), encoding="utf-8")
        changed.append(html)
    if not changed:
        raise RuntimeError(f"no page of {KERNEL_PAGES} in {output_dir}")
    return changed


def lite_build(lite_dir: Path, args: list[str]) -> None:
    """``jupyter lite build --lite-dir LITE_DIR ARGS`` run in ``lite_dir``, in this process:
    a process of its own imported nbformat (and jsonschema) and JupyterLite's tools again."""
    from jupyterlite_core.app import LiteApp

    here = os.getcwd()
    os.chdir(lite_dir)
    try:
        LiteApp.launch_instance(["build", "--lite-dir", str(lite_dir), *args])
    except SystemExit as done:  # the build's last word, even when it succeeds
        if done.code not in (0, None):
            raise RuntimeError(f"jupyter lite build failed ({done.code})") from None
    finally:
        os.chdir(here)
        LiteApp.clear_instance()


def build_site(output_dir: Path, pyodide: Path | None = DEFAULT_PYODIDE) -> None:
    """Build the site into ``output_dir`` (replaced if it exists).

    ``pyodide``: npm's pyodide package folder, served by the site; ``None`` or a missing
    folder: the browser fetches Pyodide from the CDN.
    """
    if pyodide is not None and not (pyodide / "pyodide.mjs").is_file():
        print(f"note: no Pyodide in {pyodide} (`make pyodide` puts it there): "
              "the site will load Pyodide from the CDN")
        pyodide = None
    with tempfile.TemporaryDirectory(prefix="gamelib-lite-") as tmp:
        work = Path(tmp)
        wheel = build_wheel(work / "wheel")
        contents = work / "notebooks"
        whole_lines_copy(NOTEBOOKS, contents)
        lite_dir = work / "lite"
        lite_dir.mkdir()
        prepare_lite_dir(lite_dir, pyodide)
        lite_build(lite_dir, ["--contents", str(contents),
                              "--output-dir", str(output_dir.resolve()),
                              "--piplite-wheels", str(wheel)])
    add_offline_script(output_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT,
                        help=f"where the site goes (default: {DEFAULT_OUTPUT})")
    parser.add_argument("--pyodide", type=Path, default=DEFAULT_PYODIDE,
                        help="npm's pyodide package, served by the site when it is there "
                        f"(default: {DEFAULT_PYODIDE})")
    args = parser.parse_args(argv)
    build_site(args.output_dir, args.pyodide)
    print(f"JupyterLite site in {args.output_dir}; serve it with: "
          f"{Path(sys.executable).name} -m http.server -d {args.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
