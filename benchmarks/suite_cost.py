"""Where the test suite's time goes: each test file (or notebook) run alone, its CPU and wall.

Usage::

    python benchmarks/suite_cost.py [--jobs J] [--json OUT] [PATH ...]

Runs ``pytest -p no:xdist -q PATH`` once per test file under ``tests/`` and once per notebook
under ``notebooks/`` (or once per PATH given), J at a time (default 1: the least disturbed
figures), with the environment that ``make test`` gives its processes, and prints one line
per file, the most expensive first::

    cpu  90.7 s  wall  72.9 s  tests/exercises/test_nbgrader.py  (80 passed in 71.47s)

then the sums. CPU is the user and system time of the whole process tree of the run: pytest
and everything it started (kernels, JupyterLab, Chromium and their children). On Linux each
run is started by a small parent that is a *child subreaper* (``prctl``), so a process whose
own parent exits without waiting for it (as some of Chromium's processes do) is
handed to that parent and counted when it ends; elsewhere only the processes waited for are
counted, a lower bound. The wall is what a file costs a worker. Each run also pays pytest's
start (about 1.5 s of CPU), which ``make test`` pays once per worker.

To compare two versions, run the script from each checkout in one sitting (the same load on
the machine) and report the ratios. ``make test`` itself must be timed whole: ``time
.ci/run`` on a fresh clone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def default_paths() -> list[Path]:
    """Every test file under tests/ (not the browser tests' fixture notebooks) and every
    notebook under notebooks/, in that order."""
    tests = sorted(p for p in (ROOT / "tests").rglob("test_*.py")
                   if "node_modules" not in p.parts)
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    notebooks += sorted((ROOT / "notebooks" / "exercises").glob("*.ipynb"))
    return tests + notebooks


def environment() -> dict[str, str]:
    """The variables that ``make test`` exports to its processes (see the Makefile)."""
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "", "JUPYTER_PLATFORM_DIRS": "1",
            "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1",
            "PYTHONPATH": str(ROOT / "tests" / "without_rfc3987_syntax")}


@dataclass
class Cost:
    """What one file cost: CPU seconds (its whole process tree), wall seconds,
    pytest's summary line and its exit status."""

    path: str
    cpu: float
    wall: float
    summary: str
    status: int


# The parent of each run: a child subreaper (Linux), so that every process of the tree is
# waited for by it and its CPU counted; prints "tree-cpu <seconds>" last.
_REAPER = """
import ctypes, os, resource, sys
try:
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (AttributeError, OSError):
    pass
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
status = 1
while True:
    try:
        done, code = os.wait()
    except ChildProcessError:
        break
    if done == pid:
        status = os.waitstatus_to_exitcode(code)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"tree-cpu {usage.ru_utime + usage.ru_stime:.2f}", flush=True)
sys.exit(status)
"""


def run(path: Path) -> Cost:
    """Run pytest on ``path`` alone and return what its whole process tree cost."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _REAPER, sys.executable, "-m", "pytest",
                           "-p", "no:xdist", "-q", str(path.relative_to(ROOT))],
                          cwd=ROOT, env=environment(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False)
    lines = done.stdout.splitlines()
    cpu = next((float(line.split()[1]) for line in reversed(lines)
                if line.startswith("tree-cpu ")), float("nan"))
    summary = next((line.strip("= ") for line in reversed(lines)
                    if re.search(r"\b(passed|failed|error|skipped)\b.* in ", line)), "no summary")
    return Cost(str(path.relative_to(ROOT)), cpu, time.perf_counter() - started, summary,
                done.returncode)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Each test file run alone: CPU and wall.")
    parser.add_argument("paths", nargs="*", type=Path, help="test files or notebooks")
    parser.add_argument("--jobs", type=int, default=1, help="files run at once (default 1)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.paths] or default_paths()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        costs = list(pool.map(run, paths))
    for c in sorted(costs, key=lambda c: -c.cpu):
        print(f"cpu {c.cpu:6.1f} s  wall {c.wall:6.1f} s  {c.path}  ({c.summary})")
    print(f"{len(costs)} files: cpu {sum(c.cpu for c in costs):.1f} s, "
          f"wall {sum(c.wall for c in costs):.1f} s (summed)")
    if args.json:
        args.json.write_text(json.dumps([asdict(c) for c in costs], indent=1), encoding="utf-8")
    return 0 if all(c.status == 0 for c in costs) else 1


if __name__ == "__main__":
    sys.exit(main())
