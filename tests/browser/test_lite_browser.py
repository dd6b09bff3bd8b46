"""The JupyterLite site in Chromium, and JupyterLab without JupyterLite's extension (issue 19).

* The site (built once per session, offline: ``lite_site`` in tests/conftest.py) is served
  by ``python -m http.server`` on a free port of 127.0.0.1. Every request to another host is
  aborted, as on a machine without a network (service workers are blocked, so that every
  request goes through the page's routes).
* Lesson 3's saved printed output shows line by line, as on a Jupyter server (JupyterLite
  had joined the saved list of lines with commas: jupyterlite/jupyterlite#1105).
* Without a network, the page says within 30 s that Python cannot be loaded and what to do;
  with the addresses answering, it says nothing. The kernel fetches Pyodide's runtime from
  the site (when npm's package was there for the build).
* JupyterLab, in the lesson environment as ``pip install -e .`` makes it (JupyterLite's tools
  live in .venv-lite, never there), opens a lesson with no error in the browser's console and
  without JupyterLite's kernel extension ("Shared module @jupyterlite/services doesn't exist").
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import pytest

from .harness import (
    KERNEL_TIMEOUT,
    PROJECT_ROOT,
    SCREENSHOTS,
    LabPage,
    LabServer,
    serving_static,
    wait_until,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "03-Memoization.ipynb"
CELL = 5  # its printed board, five lines
EXPLANATION_TIMEOUT = 30.0  # seconds from opening the page (issue 19)
NPM_PYODIDE = PROJECT_ROOT / "tests" / "pyodide" / "node_modules" / "pyodide"


@pytest.fixture(scope="module")
def lite_url(browser: Browser, lite_site: Path) -> Iterator[str]:
    """The address of the site, served on 127.0.0.1 (after the browser, which makes sure
    Chromium and Playwright are there)."""
    with serving_static(lite_site) as url:
        yield url


def offline(route: Route) -> None:
    """The page's route without a network: 127.0.0.1 answers, every other host fails."""
    if urlparse(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.abort("internetdisconnected")


def online(route: Route) -> None:
    """The page's route with every outside address answering (an empty 200 reply: enough
    for the check, not for Python)."""
    if urlparse(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.fulfill(status=200, body=b"", headers={"Access-Control-Allow-Origin": "*"})


@dataclass
class LiteVisit:
    """A page on Lesson 3 of the site, what it and its workers requested, and when it was
    opened (``time.monotonic()`` just before the address was entered)."""

    page: Page
    requested: list[str] = field(default_factory=list)
    opened: float = 0.0


def visit_lite(browser: Browser, url: str, route: Callable[[Route], None]) -> Iterator[LiteVisit]:
    """Open Lesson 3 of the site at ``url`` in a page of its own context (service workers
    blocked), every request going through ``route``; close the context afterwards."""
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    try:
        context.route("**/*", route)
        visit = LiteVisit(context.new_page())
        context.on("request", lambda request: visit.requested.append(request.url))
        visit.opened = time.monotonic()
        visit.page.goto(f"{url}lab/index.html?path={LESSON}", wait_until="domcontentloaded")
        yield visit
    finally:
        context.close()


@pytest.fixture(scope="module")
def offline_visit(browser: Browser, lite_url: str) -> Iterator[LiteVisit]:
    """One visit without a network, shared by the module's offline tests (a JupyterLite
    page takes seconds to load on a busy machine)."""
    yield from visit_lite(browser, lite_url, offline)


@pytest.fixture
def online_visit(browser: Browser, lite_url: str) -> Iterator[LiteVisit]:
    yield from visit_lite(browser, lite_url, online)


# The visit without a network is shared by the last three tests of the module and closed when the
# module ends: they come last, so that its page (and the kernel it starts) stops as soon as
# they are done instead of running on beside the other tests.


def test_lite_with_network_says_nothing(online_visit: LiteVisit) -> None:
    page = online_visit.page
    wait_until(lambda: page.evaluate("window.gamelibPython"), EXPLANATION_TIMEOUT,
               "offline.js to finish its check")
    assert page.evaluate("window.gamelibPython") == "reachable"
    assert page.locator("#gamelib-offline").count() == 0


def test_a_lesson_opens_in_jupyterlab_without_console_errors(
    lab: LabPage, lab_server: LabServer
) -> None:
    shutil.copy2(PROJECT_ROOT / "notebooks" / LESSON, lab_server.root / LESSON)
    lab.open_notebook(LESSON)
    extensions = lab.page.evaluate(
        "JSON.parse(document.getElementById('jupyter-config-data').textContent)"
        ".federated_extensions.map(e => e.name)")
    assert "@jupyter-widgets/jupyterlab-manager" in extensions  # control: the page config
    assert "@jupyterlite/pyodide-kernel-extension" not in extensions
    assert lab.errors == []


def test_lite_without_network_explains_itself_within_30_s(offline_visit: LiteVisit) -> None:
    page = offline_visit.page
    banner = page.locator("#gamelib-offline[role=alert]")
    remaining = EXPLANATION_TIMEOUT - (time.monotonic() - offline_visit.opened)
    banner.wait_for(state="visible", timeout=max(remaining, 0.1) * 1000)
    elapsed = time.monotonic() - offline_visit.opened
    print(f"explanation shown {elapsed:.1f} s after opening the page")
    assert elapsed <= EXPLANATION_TIMEOUT
    text = banner.inner_text()
    assert "Python could not be loaded" in text
    assert "cdn.jsdelivr.net" in text  # what could not be reached
    assert "Go online, then reload this page." in text
    assert "make lab" in text  # the local install
    assert page.evaluate("window.gamelibPython") == "unreachable"
    # The notebook itself may take longer than the explanation on a busy machine (Playwright's
    # default 30 s ran out twice on a machine shared by five test runs): as long as a kernel.
    page.locator(".jp-Notebook").first.wait_for(state="visible", timeout=KERNEL_TIMEOUT)
    banner.get_by_role("button", name="Close").click()
    banner.wait_for(state="detached")
    # Closed, the reason stays in the notebook, above its cells (which stay at [*]).
    said = page.locator(".jp-Notebook").first.evaluate(
        "el => getComputedStyle(el, '::before').content")
    assert "code cells do not run" in said and "make lab" in said
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lite-offline-closed.png"))


def test_lite_shows_lesson_3s_printed_board_line_by_line(offline_visit: LiteVisit) -> None:
    saved = json.loads((PROJECT_ROOT / "notebooks" / LESSON).read_text(encoding="utf-8"))
    [output] = saved["cells"][CELL]["outputs"]
    expected = "".join(output["text"]).splitlines()
    assert expected == ["X| | ", "-+-+-", " |O| ", "-+-+-", " | |X"]
    shown = offline_visit.page.locator(".jp-Notebook .jp-Cell").nth(CELL).locator(
        ".jp-OutputArea-output")
    shown.wait_for(state="visible", timeout=KERNEL_TIMEOUT)
    lines = shown.inner_text().splitlines()
    assert [line.rstrip() for line in lines] == [line.rstrip() for line in expected]
    assert not any(line.startswith(",") for line in lines)


@pytest.mark.skipif(not (NPM_PYODIDE / "pyodide.mjs").is_file(),
                    reason="npm's pyodide package is not installed (make pyodide)")
def test_lite_without_network_loads_pyodide_from_the_site(
    offline_visit: LiteVisit, lite_url: str
) -> None:
    """The kernel's worker fetches the runtime from the site; only the packages (micropip
    first) would come from the CDN."""
    wasm = f"{lite_url}static/pyodide/pyodide.asm.wasm"

    def fetched() -> bool:
        offline_visit.page.wait_for_timeout(200)  # Playwright delivers the events meanwhile
        return wasm in offline_visit.requested

    wait_until(fetched, KERNEL_TIMEOUT / 1000, "the kernel to fetch Pyodide from the site")
    requested = offline_visit.requested
    outside = sorted({urlparse(u).hostname for u in requested} - {"127.0.0.1"})
    assert outside == ["cdn.jsdelivr.net"], outside
    assert not any("pyodide.asm.wasm" in u and "127.0.0.1" not in u for u in requested)
