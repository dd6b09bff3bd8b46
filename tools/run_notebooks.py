#!/usr/bin/env python3
"""Execute notebooks in place, the way the test suite will check them.

Usage (from the project root, with the project's virtual environment)::

    .venv/bin/python tools/run_notebooks.py                      # every notebook under notebooks/
    .venv/bin/python tools/run_notebooks.py notebooks/02-Minimax.ipynb notebooks/exercises
    .venv/bin/python tools/run_notebooks.py --clear notebooks/exercises/01-Nim.ipynb

For each notebook, in the order given (directories are searched recursively, sorted by path):

1. Run every code cell top to bottom in a fresh kernel of *this* interpreter (so the venv's
   gamelib is the one imported), with the kernel's working directory set to the notebook's own
   folder and ``PYTHONHASHSEED=0`` in its environment -- the same conditions as
   ``pytest --nbval`` under the project root's ``conftest.py``. A cell that raises stops the
   run for that notebook and nothing is written, unless the cell carries the
   ``raises-exception`` tag.
2. Drop saved widget state (``metadata.widgets``) and per-cell timing metadata, and drop the
   ``application/vnd.jupyter.widget-view+json`` part of outputs: it names a widget model that
   exists only in the kernel that made it (its id changes on every run, and without the state
   a viewer could not draw it anyway). The ``text/plain`` fallback stays. Drop the stills of
   boards and viewers (outputs marked ``gamelib-still`` in their metadata, gamelib.ui.still):
   the last picture for a page that reloads without its kernel, which a lesson never needs
   before it is run (its widget outputs carry the picture) and GitHub might show twice.
3. Normalise: nbformat 4.5, every cell has a valid, unique id (existing ids are kept; missing
   ones are derived from the cell's position and source, so a rerun gives the same file), the
   standard ``python3`` kernelspec, the kernel's Python version in ``language_info`` (so that
   JupyterLab, which writes it there, does not open the lesson modified), and consecutive
   outputs of one stream joined (how printing is cut into messages varies from run to run).
4. Write the notebook back only if it changed beyond what varies from run to run: the file is
   left untouched when the only differences are those that the nbval sanitizer
   (tests/nbval_sanitize.cfg) masks as run-to-run noise (times, memory addresses, widget model
   ids) or lie in the outputs of cells tagged ``nbval-ignore-output`` or ``nbval-skip``. So a
   re-run on an unchanged checkout changes no file. (The sanitizer's version masks, the
   stylesheet and board pictures, do count here: a changed style.css or drawing is saved.)

``--check`` executes and compares in the same way but never writes: it lists the notebooks
whose saved outputs are stale, with the cells that differ, and fails if there are any.
``--clear`` skips execution and instead removes outputs and execution counts (then steps 2-4).
The exit status is 0 when every notebook ran (and, with --check, is up to date), 1 when any
failed, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import hashlib
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import ipykernel.kernelspec
import nbformat
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "notebooks"
HASH_SEED = "0"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
STILL_KEY = "gamelib-still"  # gamelib.ui.still.STILL_KEY (this tool imports no gamelib)
CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")  # the nbformat 4.5 rule for cell ids
THIS_ENV_KERNEL = "gamelib-run-notebooks"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
SANITIZER = ROOT / "tests" / "nbval_sanitize.cfg"
# Sections of the sanitizer that mask content which may change between versions of the project
# (not from run to run): for nbval they are noise, but a re-run should save the new content.
VERSION_MASKS = frozenset({"stylesheet", "board-pictures"})
UNCOMPARED_TAGS = frozenset({"nbval-ignore-output", "nbval-skip"})


class _ThisEnvSpecs(KernelSpecManager):
    """Kernel specs where our private name means "ipykernel in this very interpreter".

    A user-level ``python3`` kernelspec may point at another Python; asking for this name
    instead guarantees the kernel imports the same gamelib as the caller.
    """

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        if kernel_name == THIS_ENV_KERNEL:
            return KernelSpec(
                resource_dir=ipykernel.kernelspec.RESOURCES,
                **ipykernel.kernelspec.get_kernel_dict(),
            )
        return super().get_kernel_spec(kernel_name)


def find_notebooks(args: Sequence[str]) -> list[Path]:
    """Return the notebooks named by ``args`` (files or folders); no args means notebooks/.

    Folders are searched recursively, skipping ``.ipynb_checkpoints``; each folder's notebooks
    come sorted by path. Raises SystemExit(2) for a path that is neither a folder nor a
    ``.ipynb`` file.
    """
    targets = [Path(a) for a in args] or [DEFAULT_DIR]
    found: list[Path] = []
    for target in targets:
        if target.is_dir():
            found.extend(
                sorted(p for p in target.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
            )
        elif target.suffix == ".ipynb" and target.is_file():
            found.append(target)
        else:
            print(f"run_notebooks: not a notebook or folder: {target}", file=sys.stderr)
            raise SystemExit(2)
    unique: dict[Path, None] = dict.fromkeys(p.resolve() for p in found)
    return list(unique)


def _stable_id(index: int, source: str, taken: set[str]) -> str:
    digest = hashlib.sha256(f"{index}\n{source}".encode()).hexdigest()
    candidate = digest[:12]
    n = 12
    while candidate in taken:  # practically never; keeps ids unique without randomness
        n += 1
        candidate = digest[:n]
    return candidate


def coalesce_streams(outputs: list[nbformat.NotebookNode]) -> list[nbformat.NotebookNode]:
    """Join consecutive stream outputs of the same stream (stdout or stderr) into one.

    How a cell's printing is cut into messages depends on when the kernel flushes, which varies
    from run to run; nbval joins them before comparing, and so do we before saving.
    """
    joined: list[nbformat.NotebookNode] = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream"
                and previous.get("name") == output.get("name")):
            previous["text"] = "".join(previous["text"]) + "".join(output["text"])
        else:
            joined.append(copy.deepcopy(output))
    return joined


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip widget state and timing metadata and give every cell a stable id (nbformat 4.5).

    Also sets the standard python3 kernelspec and ``language_info.version`` to this
    interpreter's, the kernel's. Mutates and returns ``nb``. Outputs are kept, except their
    widget-view parts and the stills.
    """
    nb.nbformat = 4
    nb.nbformat_minor = max(5, int(nb.get("nbformat_minor", 0)))
    nb.metadata.pop("widgets", None)
    # Every notebook runs in the project's own Python: say so in the standard way, with the
    # version its kernel reports. JupyterLab writes the kernel's language_info into an opened
    # notebook and marks it modified unless it is the same: with the version kept, a lesson
    # opened in the project's environment is not modified before anything is done. (A rerun
    # on another Python does not rewrite a file for the version alone: see comparable().)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata.setdefault("language_info", {"name": "python"})["version"] = (
        platform.python_version())
    taken: set[str] = set()
    for index, cell in enumerate(nb.cells):
        cell_id = cell.get("id")
        if not isinstance(cell_id, str) or not CELL_ID.match(cell_id) or cell_id in taken:
            cell_id = _stable_id(index, cell.get("source", ""), taken)
            cell["id"] = cell_id
        taken.add(cell_id)
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        kept = []
        for output in cell.get("outputs", []):
            if output.get("metadata", {}).get(STILL_KEY):
                continue
            data = output.get("data")
            if isinstance(data, dict) and WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
                if not data:
                    continue
            kept.append(output)
        cell.outputs = coalesce_streams(kept)
    return nb


def run_to_run_masks(path: Path = SANITIZER) -> list[tuple[re.Pattern[str], str]]:
    """The sanitizer's (regex, replacement) pairs, minus the sections in VERSION_MASKS.

    The file is read as nbval reads it: a ``regex:`` line and the ``replace:`` line right below
    it form a pair; ``[name]`` lines name the section the following pairs belong to.
    """
    masks: list[tuple[re.Pattern[str], str]] = []
    section, pending = "", None
    for line in path.read_text(encoding="ascii").splitlines():
        if line.startswith("[") and line.rstrip().endswith("]"):
            section = line.strip()[1:-1]
        elif line.startswith("regex: "):
            pending = line[len("regex: "):]
        elif line.startswith("replace: ") and pending is not None:
            if section not in VERSION_MASKS:
                masks.append((re.compile(pending), line[len("replace: "):]))
            pending = None
        else:
            pending = None
    return masks


def _shape(output: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """What stays the same from run to run in an output whose values may not: its type, its
    stream's name, its forms (MIME types) and the keys of their metadata. A new form (an
    HTML picture) or metadata key (an ``alt``) is a change worth saving."""
    metadata = output.get("metadata", {})
    shape = {"output_type": output.get("output_type"), "name": output.get("name"),
             "metadata": {k: dict.fromkeys(v, "") if isinstance(v, dict) else ""
                          for k, v in metadata.items()}}
    if "text" in output:
        shape["text"] = ""
    if "data" in output:
        shape["data"] = dict.fromkeys(output["data"], "")
    return nbformat.from_dict(shape)


def comparable(nb: nbformat.NotebookNode, masks: Sequence[tuple[re.Pattern[str], str]]) -> str:
    """``nb`` as text with run-to-run noise masked: the form in which two runs must agree.

    Outputs of cells tagged nbval-ignore-output or nbval-skip are reduced to their shape
    (:func:`_shape`); every string in the other outputs goes through ``masks`` in order, as
    nbval's sanitizer does, except pictures (``image/*`` data, compared as they are: no mask
    is meant for them, and a mask's pattern over a line of a hundred kilobytes of base64
    costs seconds); the Python version in ``language_info`` is left out.
    """
    def mask(value: object) -> object:
        if isinstance(value, str):
            for regex, replace in masks:
                value = regex.sub(replace, value)
            return value
        if isinstance(value, list):
            return [mask(v) for v in value]
        if isinstance(value, dict):
            return {k: v if k.startswith("image/") and not isinstance(v, dict) else mask(v)
                    for k, v in value.items()}
        return value

    copied = copy.deepcopy(nb)
    copied.metadata.get("language_info", {}).pop("version", None)  # the machine's, not the run's
    for cell in copied.cells:
        if cell.cell_type != "code":
            continue
        if UNCOMPARED_TAGS & set(cell.metadata.get("tags", [])):
            cell.outputs = [_shape(output) for output in coalesce_streams(cell.outputs)]
        else:
            cell.outputs = [nbformat.from_dict(mask(output))
                            for output in coalesce_streams(cell.outputs)]
    return nbformat.writes(copied)


def _differences(saved: str, fresh: str, limit: int = 30) -> str:
    lines = list(difflib.unified_diff(saved.splitlines(), fresh.splitlines(), "saved", "fresh",
                                      n=1, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join("    " + line for line in lines)


def clear_outputs(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove every code cell's outputs and execution count. Mutates and returns ``nb``."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nb


def execute(nb: nbformat.NotebookNode, folder: Path, timeout: int) -> nbformat.NotebookNode:
    """Run ``nb`` in a fresh kernel of this interpreter, cwd ``folder``, PYTHONHASHSEED=0.

    Mutates and returns ``nb``. Raises nbclient's CellExecutionError for an untagged failing
    cell, CellTimeoutError when a cell exceeds ``timeout`` seconds, DeadKernelError on a crash.
    """
    env = dict(os.environ, PYTHONHASHSEED=HASH_SEED)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread, as under nbval (conftest.py)
    manager = AsyncKernelManager(kernel_name=THIS_ENV_KERNEL, kernel_spec_manager=_ThisEnvSpecs())
    client = NotebookClient(
        nb,
        km=manager,
        timeout=timeout,
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(folder)}},
    )
    # The kernel's own log (e.g. its "running over TCP" warning) is noise here; everything a
    # cell prints, including tracebacks, still arrives through the kernel's messages.
    client.execute(env=env, cwd=str(folder), stderr=subprocess.DEVNULL)
    return nb


class NotANotebook(Exception):
    """A file that cannot be read as a notebook; its message says why, in one line."""


def _first_line(error: BaseException) -> str:
    """``error`` as ``Type: first line of its message``, at most 200 characters."""
    text = str(error).strip().splitlines()
    line = f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
    return line if len(line) <= 200 else line[:199] + "…"


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path`` (as nbformat 4); NotANotebook, saying why, when the file is
    missing, not UTF-8, not JSON, not a notebook's JSON or not valid."""
    try:
        nb = nbformat.read(path, as_version=4)
        if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
            raise ValueError("the JSON is not a notebook: it has no list of cells")
        return nb
    except Exception as error:  # noqa: BLE001 - nbformat raises many kinds for a bad file
        raise NotANotebook(f"not a notebook ({_first_line(error)})") from None


def _describe_failure(error: BaseException) -> str:
    text = str(error).strip()
    lines = text.splitlines()
    if len(lines) > 40:
        lines = lines[:12] + ["  ..."] + lines[-25:]
    return "\n".join("    " + line for line in lines)


def process(path: Path, *, clear: bool, timeout: int, check: bool = False) -> bool:
    """Execute (or clear) one notebook and write it back; return True on success.

    The file is written only when it changed beyond run-to-run noise (see :func:`comparable`).
    With ``check`` nothing is written, and a notebook whose saved form is stale fails.
    """
    shown = os.path.relpath(path)
    try:
        original = read_notebook(path)
    except NotANotebook as error:
        print(f"FAILED  {shown}: {error}; nothing written", flush=True)
        return False
    nb = copy.deepcopy(original)
    started = time.perf_counter()
    try:
        if clear:
            clear_outputs(nb)
        else:
            execute(nb, path.parent, timeout)
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as error:
        print(f"FAILED  {shown}: nothing written\n{_describe_failure(error)}", flush=True)
        return False
    try:
        normalise(nb)
        nbformat.validate(nb)
    except Exception as error:  # noqa: BLE001 - a cell nbformat read but cannot hold
        print(f"FAILED  {shown}: not a valid notebook ({_first_line(error)}); nothing written",
              flush=True)
        return False
    seconds = time.perf_counter() - started
    masks = run_to_run_masks()
    saved, fresh = comparable(original, masks), comparable(nb, masks)
    if saved == fresh:
        print(f"same    {shown} ({seconds:.1f} s)", flush=True)
        return True
    if check:
        print(f"STALE   {shown}: a re-run changes it ({seconds:.1f} s)\n"
              f"{_differences(saved, fresh)}", flush=True)
        return False
    nbformat.write(nb, path)
    print(f"wrote   {shown} ({seconds:.1f} s)", flush=True)
    return True


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Execute notebooks in place (cwd = notebook folder, PYTHONHASHSEED=0), "
        "strip widget state, normalise to nbformat 4.5 with stable cell ids."
    )
    parser.add_argument(
        "paths",
        nargs="*",
        help="notebooks or folders (searched recursively); default: notebooks/",
    )
    parser.add_argument(
        "--clear",
        action="store_true",
        help="do not execute: remove outputs and execution counts, then normalise",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="execute but write nothing; fail if a re-run would change a notebook",
    )
    parser.add_argument(
        "--timeout",
        type=int,
        default=600,
        help="seconds allowed per cell (default: 600)",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.timeout <= 0:
        parser.error(f"--timeout must be a positive number of seconds, got {args.timeout}")
    notebooks = find_notebooks(args.paths)
    if not notebooks:
        print("run_notebooks: no notebooks found", file=sys.stderr)
        return 0
    if args.check and args.clear:
        parser.error("--check and --clear cannot be combined")
    failures = [
        nb
        for nb in notebooks
        if not process(nb, clear=args.clear, timeout=args.timeout, check=args.check)
    ]
    if failures:
        verb = "failed or are stale" if args.check else "failed"
        print(f"{len(failures)} of {len(notebooks)} notebook(s) {verb}:", file=sys.stderr)
        for path in failures:
            print(f"  {os.path.relpath(path)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
