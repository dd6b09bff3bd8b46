"""Fixtures for the browser tests: a real JupyterLab server driven by Debian's Chromium.

The tests in this folder open small fixture notebooks (``notebooks/*.ipynb``) in
JupyterLab, run them, click on the ipycanvas board and read its pixels back:

* ``lab_server`` (session): JupyterLab serving a temporary copy of the fixture notebooks and,
  beside them in the same folder, of the lessons (``notebooks/``), with new settings and no
  notebook signatures (every lesson untrusted); see :func:`harness.start_lab`; always stopped
  at the end. It serves Notebook 7's pages too (``/notebooks/...``). One server, not one per
  folder: each start costs seconds of CPU.
* ``lessons_server`` (session): the same server, for the tests of the lessons; a test that
  saves a lesson saves its own copy (:meth:`harness.LabServer.own_copy`);
* ``browser`` (session): Debian's Chromium (``/usr/bin/chromium``) launched headless by
  Python Playwright. Playwright never downloads a browser here.
* ``lab`` (per test): a fresh page (in the browser context the tests share), as a
  :class:`harness.LabPage`; a failing test leaves a screenshot, the browser's errors
  and the server log's tail in its report.
* ``shared_lab`` (per test, on one page per test session, a worker's): the same, for tests
  that open their notebooks in place (:meth:`harness.LabPage.open_in_place`) one after
  another, without loading JupyterLab again (a page load costs several seconds of CPU).
  Each test file finds the page as new (``shared_page``: :meth:`harness.LabPage.as_new`).

When Chromium or Playwright is missing, every browser test is skipped with a reason that
says what to install. The tests carry the ``browser`` marker (``-m "not browser"``
deselects them).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .harness import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    FIXTURE_NOTEBOOKS,
    NO_CHROMIUM,
    NO_PLAYWRIGHT,
    PROJECT_ROOT,
    LabPage,
    LabServer,
    leave_evidence,
    page_on,
    serving_copy,
    share_context,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

HERE = Path(__file__).resolve().parent

# The fixture notebooks are test data for the browser, not lessons: keep nbval (enabled
# for notebooks in the suite's options) from collecting them.
collect_ignore_glob = ["notebooks/*.ipynb", "notebooks/**/*.ipynb"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser: drives JupyterLab in Debian's Chromium via Playwright "
        "(skipped when /usr/bin/chromium or playwright is missing)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test, whether or not it says so."""
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


# ---------------------------------------------------------------------------------------
# Session fixtures: server and browser
# ---------------------------------------------------------------------------------------


def skip_without_chromium() -> None:
    """Skip the test, saying what to install, when Chromium or Playwright is missing."""
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip(NO_PLAYWRIGHT)


@pytest.fixture(scope="session")
def lab_server() -> Iterator[LabServer]:
    """JupyterLab serving a temporary copy of ``tests/browser/notebooks`` and, in the same
    folder, of the lessons (``notebooks/``: no name is in both)."""
    skip_without_chromium()
    with serving_copy((FIXTURE_NOTEBOOKS, PROJECT_ROOT / "notebooks")) as server:
        yield server


@pytest.fixture(scope="session")
def lessons_server(browser: Browser, lab_server: LabServer) -> LabServer:
    """The server of the lessons: ``lab_server``, whose folder holds a copy of them, one per
    test session (a test that saves a lesson saves its own copy,
    :meth:`harness.LabServer.own_copy`; nothing is saved automatically); after the browser,
    which makes sure Chromium and Playwright are there. Its settings are new and it knows no
    notebook signature: every lesson is untrusted."""
    return lab_server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser), on a
    profile of its own in a temporary folder (removed afterwards): the JupyterLab pages share
    the profile's context (:func:`harness.share_context`: its code cache on disk saves CPU at
    every page load); ``browser.new_context()`` makes other contexts as ever."""
    skip_without_chromium()
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="gamelib-chromium-")
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True,
                timeout=60_000,
            )
            chromium = context.browser
            assert chromium is not None, "Playwright gave the profile's context no browser"
            share_context(chromium, context)
            try:
                yield chromium
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def lab(
    browser: Browser, lab_server: LabServer, request: pytest.FixtureRequest
) -> Iterator[LabPage]:
    """A fresh page on the test server; closed afterwards.

    Its kernels are shut down afterwards too, so each test starts from a clean slate.
    """
    with page_on(browser, lab_server, request) as page:
        yield page


@pytest.fixture(scope="session")
def session_page(
    browser: Browser, lab_server: LabServer, request: pytest.FixtureRequest
) -> Iterator[LabPage]:
    """One page on the test server for the test session (a worker's); see ``shared_page``."""
    with page_on(browser, lab_server, request) as page:
        yield page


@pytest.fixture(scope="module")
def shared_page(session_page: LabPage) -> Iterator[LabPage]:
    """The session's page for a test file, found as new (1280 x 1000 at 100 %, the notebook
    view with the file browser open: :meth:`harness.LabPage.as_new`); after the file's last
    test its tabs are closed and the server's kernels shut down, or, if a test reloaded it,
    it shows a new workspace (:meth:`harness.LabPage.leave`). See ``shared_lab``."""
    session_page.as_new()
    yield session_page
    session_page.leave()


@pytest.fixture
def shared_lab(shared_page: LabPage, request: pytest.FixtureRequest) -> Iterator[LabPage]:
    """One page on the test server for the tests of the session (where one test's actions
    cannot change what the next one checks; each test file finds it as new, ``shared_page``):
    each test opens its notebook with :meth:`harness.LabPage.open_in_place`, far cheaper than
    a new page. A failing test leaves the evidence that ``lab`` leaves; the tabs are closed and
    the server's kernels shut down after each file's last test, the page at the session's
    end. Each test starts with canvas coordinates in canvas pixels (``ratio`` 1, as on a new
    page: an earlier test's :meth:`harness.LabPage.expect_board` set it)."""
    shared_page.ratio = 1.0
    yield shared_page
    leave_evidence(shared_page, request)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the item so that ``lab`` can screenshot failures."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
