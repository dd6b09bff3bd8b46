"""Build the JupyterLite site: every notebook, gamelib's wheel (through piplite), the widgets.

    python lite/build.py [--output-dir DIR]        (``make lite`` runs this)

1. Builds gamelib's wheel from the project folder with pip, offline (``--no-index
   --no-build-isolation``: setuptools>=77 comes with the test extras).
2. Runs ``jupyter lite build`` on the notebooks folder, with this folder's settings
   (``jupyter_lite_config.json``, ``jupyter-lite.json``) copied to a temporary folder, so that
   the build's own state (its cache and task database) stays out of the project. The wheel is
   given to piplite: the site's ``pypi/all.json``
   lists it, so ``%pip install gamelib`` in the browser downloads nothing from PyPI for
   gamelib itself. The lab extensions (ipywidgets, ipycanvas) come from this Python's
   environment.

Nothing here needs the network. In the browser, Pyodide itself and its packages (numpy,
pillow, matplotlib) load from the jsDelivr CDN, and ipywidgets and ipycanvas from PyPI.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LITE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = LITE_DIR.parent
NOTEBOOKS = PROJECT_ROOT / "notebooks"
DEFAULT_OUTPUT = PROJECT_ROOT / "build" / "lite"
SETTINGS = ("jupyter_lite_config.json", "jupyter-lite.json")


def build_wheel(dest: Path) -> Path:
    """Build gamelib's wheel into ``dest`` without the network; return the wheel's path."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(PROJECT_ROOT), "--no-deps",
         "--no-build-isolation", "--no-index", "--quiet", "--wheel-dir", str(dest)],
        check=True,
    )
    wheels = sorted(dest.glob("gamelib-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one gamelib wheel in {dest}, found {wheels}")
    return wheels[0]


def build_site(output_dir: Path) -> None:
    """Build the site into ``output_dir`` (replaced if it exists)."""
    with tempfile.TemporaryDirectory(prefix="gamelib-lite-") as tmp:
        work = Path(tmp)
        wheel = build_wheel(work / "wheel")
        lite_dir = work / "lite"
        lite_dir.mkdir()
        for name in SETTINGS:
            shutil.copy2(LITE_DIR / name, lite_dir / name)
        subprocess.run(
            [sys.executable, "-m", "jupyterlite_core", "build",
             "--lite-dir", str(lite_dir),
             "--contents", str(NOTEBOOKS),
             "--output-dir", str(output_dir.resolve()),
             "--piplite-wheels", str(wheel)],
            check=True, cwd=lite_dir,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT,
                        help=f"where the site goes (default: {DEFAULT_OUTPUT})")
    args = parser.parse_args(argv)
    build_site(args.output_dir)
    print(f"JupyterLite site in {args.output_dir}; serve it with: "
          f"{Path(sys.executable).name} -m http.server -d {args.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
