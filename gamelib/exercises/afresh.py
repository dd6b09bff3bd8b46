"""nbgrader's autograde round: each check runs on a copy of gamelib read afresh from its files.

``nbgrader autograde`` runs a submission top to bottom in a new kernel, with the environment
variable ``NBGRADER_EXECUTION`` set to ``"autograde"`` (nbgrader's documented switch; it is
``"validate"`` for ``nbgrader validate``). There, every call of a checker
(:func:`gamelib.exercises.run.checker`) runs the check on a fresh copy of gamelib: the
kernel's gamelib modules are set aside, ``gamelib.exercises`` is imported again from its
files (every gamelib module it needs executes anew: new classes, new functions, new caches
of expected values), the check of the same name runs there on the student's functions, and
the kernel's modules are put back. What the notebook's earlier cells did to the kernel's
gamelib (a patched ``CheckResult``, comparison, guard, limit or report, a re-armed cache, a
module attribute replaced) does not reach the check, and the report and its ``require()``
come from the fresh copy. To save the copy's cost, the check runs in the kernel first and
only a pass is checked again afresh (:func:`confirmed`): a failure stands (rebuilt as a
fresh report, whose ``require()`` raises), since a patch can turn the kernel's verdict in
the student's favour only by making it pass. The fresh check's guard also covers the
kernel's copies of what the exercise forbids (:data:`gamelib.exercises.guard.SET_ASIDE`):
a reference imported before the check is refused as before. The time limit the kernel set
(:func:`~gamelib.exercises.run.set_time_limit`) carries over.

Limits, stated for lecturers in notebooks/exercises/README.md: the checker's *name* in the
notebook (a cell that rebinds ``check_finished``), the checker object the notebook holds, the
import system and the files on disk, Python's own modules and builtins, and the student's
function itself (it runs inside the check and can reach the fresh copy while it runs) are
outside what a copy can protect. Cost, for a check that passes in the kernel: one import
of gamelib, about 0.5 s of CPU, and the check run again with its expected values computed
again (they were cached per kernel).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, Final

AUTOGRADE: Final = ("NBGRADER_EXECUTION", "autograde")
"""The environment variable, and its value, that nbgrader sets while it autogrades."""

IS_FRESH_COPY = False
"""True in a copy of gamelib that :func:`check_afresh` read for one check (its checks run
there, not again afresh)."""


def wanted() -> bool:
    """True when a check should run afresh: nbgrader autogrades, and this is the kernel's own
    gamelib (not already a fresh copy)."""
    variable, value = AUTOGRADE
    return os.environ.get(variable) == value and not IS_FRESH_COPY


_REPORT: Final = Path(__file__).with_name("report.py")
"""The file of :mod:`gamelib.exercises.report`, read when gamelib was imported."""


def confirmed(result: Any, afresh: Callable[[], Any]) -> Any:
    """What a check in the kernel gave (``result``), as the autograde round may trust it:
    a report that does not pass is rebuilt, line by line as plain text, as a report of a
    fresh copy of :mod:`gamelib.exercises.report` (its ``require()`` raises, whatever the
    kernel's ``CheckResult`` was patched to do); a report that passes (or cannot be read)
    is checked again on a fresh copy of gamelib (``afresh()``), whose verdict stands. So
    only the checks that pass pay for the copy (about 0.5 s of CPU)."""
    try:
        report = _fresh_report()
        rebuilt = report.CheckResult(
            str(result.title),
            tuple(report.Line(str(line.status), str(line.text),
                              tuple((str(label), str(text)) for label, text in line.details))
                  for line in result.lines),
            done=bool(result.done))
    except Exception:  # noqa: BLE001 - an object the kernel's code made unreadable
        return afresh()
    return afresh() if rebuilt.passed else rebuilt


def _fresh_report() -> ModuleType:
    """A new module executed from :data:`_REPORT` (it imports nothing of gamelib)."""
    name = "_gamelib_fresh_report"
    spec = importlib.util.spec_from_file_location(name, _REPORT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # for dataclasses, while the module runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def _is_gamelib(name: str) -> bool:
    return name == "gamelib" or name.startswith("gamelib.")


def check_afresh(module: str, name: str, limits: tuple[float, float],
                 args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The checker ``name`` of the module ``module`` (``gamelib.exercises.ex01_nim``) of a
    fresh copy of gamelib, called with ``args`` and ``kwargs`` under the time limits
    ``limits`` (``(per call, total)`` seconds); its :class:`CheckResult` (of the fresh copy).
    The kernel's gamelib modules are back in ``sys.modules`` when it returns or raises."""
    kernel = {key: value for key, value in sys.modules.items() if _is_gamelib(key)}
    for key in kernel:
        del sys.modules[key]
    try:
        fresh = _import_fresh(module, kernel)
        run = sys.modules["gamelib.exercises.run"]
        try:
            run.set_time_limit(*limits)
        except Exception:  # noqa: BLE001 - the kernel's limits were tampered with: defaults
            run.set_time_limit()
        return getattr(fresh, name)(*args, **kwargs)
    finally:
        for key in [key for key in sys.modules if _is_gamelib(key)]:
            del sys.modules[key]
        sys.modules.update(kernel)


def _import_fresh(module: str, kernel: dict[str, ModuleType]) -> ModuleType:
    """``module`` imported from gamelib's files into an empty gamelib namespace, marked as a
    fresh copy, its guard told about the kernel's modules."""
    importlib.invalidate_caches()
    afresh = importlib.import_module(__name__)
    afresh.IS_FRESH_COPY = True  # type: ignore[attr-defined]
    importlib.import_module("gamelib.exercises.guard").SET_ASIDE.update(kernel)
    return importlib.import_module(module)
