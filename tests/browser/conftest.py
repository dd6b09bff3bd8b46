"""Fixtures for the browser tests: a real JupyterLab server driven by Debian's Chromium.

The tests in this folder open small fixture notebooks (``notebooks/*.ipynb``) in
JupyterLab, run them, click on the ipycanvas board and read its pixels back. Everything
they need is set up here:

* ``lab_server`` (session): JupyterLab on a free port of 127.0.0.1 with a known token,
  throw-away config/data/runtime/settings/workspace directories and a temporary copy of
  the fixture notebooks as its root directory. It is always stopped at the end.
* ``browser`` (session): Debian's Chromium (``/usr/bin/chromium``) launched headless by
  Python Playwright. Playwright never downloads a browser here.
* ``lab`` (per test): a fresh browser page plus helpers (:class:`LabPage`) to open and
  run a notebook, wait for the kernel, find the visible canvas, click it and read pixels.

When Chromium or Playwright is missing, every browser test is skipped with a reason that
says what to install. The tests carry the ``browser`` marker (``-m "not browser"``
deselects them).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the fixtures skip the tests then
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

HERE = Path(__file__).resolve().parent
FIXTURE_NOTEBOOKS = HERE / "notebooks"
SCREENSHOTS = HERE.parent / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NO_CHROMIUM = (
    "Chromium not found at /usr/bin/chromium; "
    "install Debian's chromium package to run the browser tests"
)
NO_PLAYWRIGHT = (
    "Python package playwright is not installed; "
    "run `pip install -e '.[test]'` to run the browser tests"
)

# Generous but bounded: a 2-core CI machine shared with other jobs is slow.
SERVER_START_TIMEOUT = 90.0  # seconds until /api/status answers
KERNEL_TIMEOUT = 60_000  # ms: kernel start, "Run All" finishing
UI_TIMEOUT = 30_000  # ms: a widget appearing, a click taking effect, the computer answering

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
# Waiting
# ---------------------------------------------------------------------------------------

T = TypeVar("T")


def wait_until(
    probe: Callable[[], T | None], timeout: float, what: str, interval: float = 0.2
) -> T:
    """Call ``probe`` until it returns something truthy; return that, or fail after
    ``timeout`` seconds with a message naming ``what`` was awaited and the last value."""
    deadline = time.monotonic() + timeout
    last: T | None = None
    while True:
        last = probe()
        if last:
            return last
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what} (last: {last!r})")
        time.sleep(interval)


# ---------------------------------------------------------------------------------------
# The JupyterLab server
# ---------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class LabServer:
    """A running JupyterLab server started by :func:`start_lab`."""

    base_url: str
    token: str
    root: Path
    process: subprocess.Popen[bytes]
    log_path: Path

    def notebook_url(self, name: str) -> str:
        """The address that opens ``name`` (relative to the root) in JupyterLab."""
        return f"{self.base_url}lab/tree/{name}?token={self.token}"

    def api(self, path: str, method: str = "GET") -> Any:
        """Call the server's REST API; return the decoded JSON answer (None if empty)."""
        request = urllib.request.Request(
            f"{self.base_url}api/{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, lines: int = 40) -> str:
        """The last ``lines`` lines of the server's log, for failure messages."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])


def _write_json(path: Path, content: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=1))


def start_lab(workdir: Path, notebooks: Path) -> LabServer:
    """Start JupyterLab serving a copy of ``notebooks``, isolated under ``workdir``.

    Nothing of the user's Jupyter configuration is read or written: config, data,
    runtime, IPython, lab settings and workspace directories all live in ``workdir``.
    Returns once ``/api/status`` answers; fails (after stopping the process) otherwise.
    """
    root = workdir / "root"
    shutil.copytree(notebooks, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    dirs = {
        name: workdir / name
        for name in ("config", "data", "runtime", "ipython", "settings", "workspaces")
    }
    for path in dirs.values():
        path.mkdir()
    # No network: no update check, no news feed, and no "fetch news?" question popping up
    # over the notebook.
    _write_json(
        dirs["config"] / "jupyter_server_config.json",
        {"LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate"}},
    )
    _write_json(
        dirs["settings"]
        / "@jupyterlab"
        / "apputils-extension"
        / "notification.jupyterlab-settings",
        {"fetchNews": "false", "checkForUpdates": False},
    )
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        IPYTHONDIR=str(dirs["ipython"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
        PYTHONHASHSEED="0",
    )
    env.pop("JUPYTER_TOKEN", None)
    token = "gamelib-browser-test-" + os.urandom(8).hex()
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log_path = workdir / "jupyterlab.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so stop_lab can end it all
        )
    server = LabServer(f"http://127.0.0.1:{port}/", token, root, process, log_path)

    def answers() -> bool:
        if process.poll() is not None:
            pytest.fail(
                f"JupyterLab exited with code {process.returncode} while starting:\n"
                + server.log_tail()
            )
        try:
            status = server.api("status")
        except (OSError, ValueError):
            return False
        return isinstance(status, dict)

    try:
        wait_until(answers, SERVER_START_TIMEOUT, "JupyterLab to answer /api/status", 0.25)
    except BaseException:
        stop_lab(server)
        raise
    return server


def stop_lab(server: LabServer) -> None:
    """Shut the kernels down, then the server: terminate, and kill if it lingers."""
    process = server.process
    if process.poll() is None:
        with contextlib.suppress(OSError, ValueError):
            for kernel in server.api("kernels") or []:
                server.api(f"kernels/{kernel['id']}", method="DELETE")
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


# ---------------------------------------------------------------------------------------
# Session fixtures: server and browser
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def lab_server() -> Iterator[LabServer]:
    """JupyterLab serving a temporary copy of ``tests/browser/notebooks``."""
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip(NO_PLAYWRIGHT)
    workdir = Path(tempfile.mkdtemp(prefix="gamelib-browser-"))
    try:
        server = start_lab(workdir, FIXTURE_NOTEBOOKS)
        try:
            yield server
        finally:
            stop_lab(server)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def browser(lab_server: LabServer) -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


# ---------------------------------------------------------------------------------------
# A JupyterLab page
# ---------------------------------------------------------------------------------------

RGBA = tuple[int, int, int, int]


@dataclass
class LabPage:
    """One browser page showing JupyterLab, with the steps the tests take on it."""

    page: Page
    server: LabServer
    errors: list[str] = field(default_factory=list)

    # -- notebook and kernel -----------------------------------------------------------

    def open_notebook(self, name: str) -> None:
        """Open ``name`` and wait until its kernel has started and is idle."""
        self.page.goto(self.server.notebook_url(name), wait_until="domcontentloaded")
        self.page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(
            state="visible", timeout=KERNEL_TIMEOUT
        )
        self.wait_kernel_idle()

    def kernel_status(self) -> str:
        """The status bar's kernel item, e.g. "Python 3 (ipykernel) | Idle" ("" if absent)."""
        item = self.page.locator(
            "#jp-main-statusbar .jp-StatusBar-TextItem[title^='Change kernel']"
        )
        texts = item.all_inner_texts()
        return texts[0].strip() if texts else ""

    def wait_kernel_idle(self, timeout: int = KERNEL_TIMEOUT) -> None:
        """Wait until the status bar reports the kernel as idle."""
        wait_until(
            lambda: re.search(r"\|\s*Idle\b", self.kernel_status()),
            timeout / 1000,
            "the status bar to say the kernel is Idle",
            interval=0.25,
        )

    def code_cell_prompts(self) -> list[str]:
        """The input prompts of all code cells, e.g. ["[1]:", "[*]:", "[ ]:"]."""
        prompts = self.page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt")
        return [text.strip() for text in prompts.all_inner_texts()]

    def run_all_cells(self) -> None:
        """Run > Run All Cells from the menu bar (the command palette if the menu fails);
        wait until every code cell has run and the status bar says Idle again. Fails if
        an output shows a traceback."""
        page = self.page
        page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
        try:
            page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
            page.locator(".lm-Menu .lm-Menu-item", has_text=re.compile(r"^Run All Cells$")).click(
                timeout=10_000
            )
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            page.keyboard.press("Control+Shift+C")
            palette = page.locator(".lm-CommandPalette-input")
            palette.fill("Run All Cells")
            page.locator(
                ".lm-CommandPalette-item", has_text=re.compile(r"^Run All Cells")
            ).first.click()

        def all_ran() -> bool:
            prompts = self.code_cell_prompts()
            return bool(prompts) and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts)

        wait_until(all_ran, KERNEL_TIMEOUT / 1000, "every code cell to have run", 0.25)
        self.wait_kernel_idle()
        tracebacks = page.locator(".jp-OutputArea-output", has_text="Traceback")
        if tracebacks.count():
            pytest.fail("a cell raised:\n" + "\n".join(tracebacks.all_inner_texts()))

    # -- canvas ------------------------------------------------------------------------

    def visible_canvas(self) -> Locator:
        """The largest visible <canvas> in the notebook's output area (ipycanvas may stack
        several canvases or draw offscreen; the one on screen is what a user sees)."""
        canvases = self.page.locator(".jp-OutputArea-output canvas")
        canvases.first.wait_for(state="visible", timeout=UI_TIMEOUT)
        best, best_area = None, 0.0
        for index in range(canvases.count()):
            candidate = canvases.nth(index)
            box = candidate.bounding_box()
            if candidate.is_visible() and box and box["width"] * box["height"] > best_area:
                best, best_area = candidate, box["width"] * box["height"]
        assert best is not None, "no visible canvas in the output area"
        return best

    def canvas_size(self, canvas: Locator) -> tuple[int, int]:
        """The canvas's own pixel size (width, height), independent of CSS scaling."""
        width, height = canvas.evaluate("c => [c.width, c.height]")
        return int(width), int(height)

    def pixel(self, canvas: Locator, x: float, y: float) -> RGBA:
        """The colour of canvas pixel (x, y), read from the DOM canvas."""
        data = canvas.evaluate(
            "(c, [x, y]) => Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data)",
            [int(x), int(y)],
        )
        r, g, b, a = (int(v) for v in data)
        return r, g, b, a

    def wait_pixel(
        self, canvas: Locator, x: float, y: float, expected: RGBA, tolerance: int = 0
    ) -> RGBA:
        """Wait until canvas pixel (x, y) has colour ``expected`` (each channel within
        ``tolerance``); return the colour read."""

        def matches() -> RGBA | None:
            colour = self.pixel(canvas, x, y)
            close = all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))
            return colour if close else None

        return wait_until(
            matches, UI_TIMEOUT / 1000, f"canvas pixel ({x:.0f}, {y:.0f}) to be {expected}"
        )

    def screen_pixel(self, canvas: Locator, x: float, y: float) -> RGBA:
        """The colour on screen where canvas pixel (x, y) is shown, from a screenshot of
        the canvas element (what the user sees, after any CSS scaling)."""
        from matplotlib.image import imread

        width, height = self.canvas_size(canvas)
        box = canvas.bounding_box()
        assert box is not None, "canvas is not laid out"
        image = imread(io.BytesIO(canvas.screenshot()), format="png")
        row = min(int(y * box["height"] / height), image.shape[0] - 1)
        col = min(int(x * box["width"] / width), image.shape[1] - 1)
        channels = [round(float(v) * 255) for v in image[row, col]]
        r, g, b = channels[:3]
        return r, g, b, channels[3] if len(channels) > 3 else 255

    def click_canvas(self, canvas: Locator, x: float, y: float) -> None:
        """Click canvas pixel (x, y), converting to page coordinates through any CSS
        scaling of the canvas element."""
        width, height = self.canvas_size(canvas)
        box = canvas.bounding_box()
        assert box is not None, "canvas is not laid out"
        self.page.mouse.click(
            box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height
        )

    # -- text --------------------------------------------------------------------------

    def output_text(self) -> str:
        """All text shown in the notebook's output areas (labels, HTML, streams)."""
        return "\n".join(self.page.locator(".jp-OutputArea-output").all_inner_texts())

    def wait_text(self, text: str, timeout: int = UI_TIMEOUT) -> None:
        """Wait until ``text`` is shown somewhere in the notebook's output areas."""
        wait_until(
            lambda: text in self.output_text(),
            timeout / 1000,
            f"the output to show {text!r}",
        )

    # -- evidence ----------------------------------------------------------------------

    def screenshot(self, name: str) -> Path:
        """Save a full-page screenshot as tests/screenshots/<name>.png (git-ignored)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def lab(
    browser: Browser, lab_server: LabServer, request: pytest.FixtureRequest
) -> Iterator[LabPage]:
    """A fresh page (own browser context) on the test server; closed afterwards.

    Its kernels are shut down afterwards too, so each test starts from a clean slate.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT)
    helper = LabPage(page, lab_server)
    page.on("pageerror", lambda error: helper.errors.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            helper.errors.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    try:
        yield helper
    finally:
        failed = getattr(request.node, "rep_call", None)
        if failed is not None and failed.failed:
            with contextlib.suppress(Exception):
                print("screenshot:", helper.screenshot(f"FAILED-{request.node.name}"))
            print("browser errors:", *helper.errors or ["none"], sep="\n  ")
            print("server log (tail):", lab_server.log_tail(), sep="\n")
        context.close()
        with contextlib.suppress(OSError, ValueError):
            for session in lab_server.api("sessions") or []:
                lab_server.api(f"sessions/{session['id']}", method="DELETE")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the item so that ``lab`` can screenshot failures."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
