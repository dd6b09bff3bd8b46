"""Shared set-up of the unit tests under tests/.

Hypothesis runs derandomized (the same examples on every run and machine), without a deadline
(the CI machine has two shared cores, so a time limit per example would make tests flaky) and
without an example database. To hunt for new counterexamples locally, run with
``HYPOTHESIS_PROFILE=explore`` (random examples, ten times as many).

The session fixture ``lite_site`` builds the JupyterLite site once, offline, for the tests that
need it (tests/notebooks/test_lite.py and the Lite browser tests).

Notebook-wide settings (PYTHONHASHSEED for the nbval kernels, the sanitizer path) live in the
project root's conftest.py, which pytest also reads for runs that do not touch tests/.
"""

from __future__ import annotations

import os
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


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The JupyterLite site, built once per session (per worker) with the network off;
    its folder. Used by tests/notebooks/test_lite.py and the Lite browser tests."""
    reason = lite_tools_missing()
    if reason:
        pytest.skip(reason)
    return build_lite_site_offline(tmp_path_factory.mktemp("lite"))
