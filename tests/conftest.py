"""Shared set-up of the unit tests under tests/.

Hypothesis runs derandomized (the same examples on every run and machine), without a deadline
(the CI machine has two shared cores, so a time limit per example would make tests flaky) and
without an example database. To hunt for new counterexamples locally, run with
``HYPOTHESIS_PROFILE=explore`` (random examples, ten times as many).

With pytest-xdist, the controller rewrites the asserts of every test module once, into
pytest's cache, before the workers start (:func:`pytest_xdist_setupnodes`): from a fresh
clone each worker would otherwise rewrite them all itself, at the same time as the others.

The session fixture ``lite_site`` builds the JupyterLite site once per run, offline, for the
tests that need it (tests/notebooks/test_lite.py and the Lite browser tests): with pytest-xdist
the workers share one build (the first to ask builds it, under a lock, in the run's temporary
folder; the others wait for it and read it).

Notebook-wide settings (PYTHONHASHSEED for the nbval kernels, the sanitizer path) live in the
project root's conftest.py, which pytest also reads for runs that do not touch tests/.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import os
import sys
from pathlib import Path

import pytest
from helpers import build_lite_site_offline, lite_tools_missing
from hypothesis import HealthCheck, settings

settings.register_profile(
    "gamelib",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    parent=settings.get_profile("gamelib"),
    derandomize=False,
    max_examples=1000,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gamelib"))

# What the test process holds before any test module is imported (pytest and its plugins,
# hypothesis, nbval's nbformat and jsonschema: about 184,000 objects, 118,000 of them the IRI
# parsers that rfc3987-syntax builds for jsonschema) is frozen: the garbage collector and
# gc.get_objects() skip it from here on.
# Every check of gamelib.exercises walks gc.get_objects() for live closures of the functions it
# forbids (gamelib.exercises.guard), so each walk of a test process is then 2 to 3 times
# shorter; gamelib is not imported yet, so none of its closures is among the frozen objects.
# What collection adds is frozen at its end (pytest_collection_finish below).
if "gamelib" not in sys.modules:
    gc.freeze()


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The JupyterLite site, built once per run with the network off (shared by the xdist
    workers); its folder, which the tests only read. Used by tests/notebooks/test_lite.py and
    the Lite browser tests."""
    reason = lite_tools_missing()
    if reason:
        pytest.skip(reason)
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    work = base / "lite-shared"
    done = work / "built"
    with open(base / "lite-shared.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():  # a failed build leaves no mark: the next worker tries again
            work.mkdir(exist_ok=True)
            site = build_lite_site_offline(work)
            done.write_text(str(site), encoding="utf-8")
    return Path(done.read_text(encoding="utf-8"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze, once more, what the process holds when collection ends: every test module is
    imported by then (with pytest-xdist each worker imports them all: some 200,000 objects,
    gamelib, nbconvert, nbgrader and ipywidgets among them). Garbage is collected first, so
    that none is kept for good.

    Each check's walk for closures (gamelib.exercises.guard) then reads only what the tests
    made since, a few thousand objects instead of 200,000 (21 ms a check in a worker, some
    800 checks in a run), and the garbage collector's full passes skip the frozen objects
    too. The price, for the tests only: a closure of a forbidden function that already
    lived when collection ended (made at the import of gamelib or of a test module) is not
    guarded during a check; in a student's kernel nothing is frozen and it is. No test
    relies on such a closure: each test of a refusal makes the closure it hands in."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[object]) -> None:
    """Before pytest-xdist starts its workers: rewrite the asserts of every test module
    under the paths given (conftest.py files included) into pytest's cache of rewritten
    modules, once, here in the controller.

    Every worker imports every test module at collection. From a fresh clone (CI) none is
    in the cache yet, and the workers, started together, each rewrite all of them (about
    3 s of CPU per worker, 11 s for make test's three); here it is done once, and each
    worker reads what is written. Already-cached modules are only checked. Uses pytest's
    own rewriting functions, which are not public: should they change or fail, this does
    nothing and the workers rewrite the modules as before."""
    if sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return
    with contextlib.suppress(Exception):  # only a saving: the workers rewrite as before
        _rewrite_test_modules(config)


def _rewrite_test_modules(config: pytest.Config) -> None:
    """:func:`pytest_xdist_setupnodes`'s work: the test modules (named as
    ``python_files`` says, or conftest.py) under ``config.args``, rewritten into pytest's
    cache where it holds no rewritten form of their current source."""
    from _pytest.assertion import rewrite
    from _pytest.pathlib import fnmatch_ex

    state = config.stash[rewrite.assertstate_key]
    patterns = config.getini("python_files")
    files: set[Path] = set()
    for arg in config.args:
        path = Path(arg.split("::")[0]).resolve()
        candidates = [path] if path.is_file() else path.rglob("*.py")
        for file in candidates:
            if ".ipynb_checkpoints" in file.parts or "node_modules" in file.parts:
                continue
            if file.name == "conftest.py" or any(fnmatch_ex(p, file) for p in patterns):
                files.add(file)
    for file in sorted(files):
        cache = rewrite.get_cache_dir(file)
        pyc = cache / (file.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(file, pyc) is not None or not rewrite.try_makedirs(cache):
            continue
        source_hash, code = rewrite._rewrite_test(file, config)
        rewrite._write_pyc(state, code, source_hash, pyc)
