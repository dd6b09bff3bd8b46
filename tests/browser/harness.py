"""The browser-test harness: a JupyterLab server, and a page driven by Playwright.

Used by ``conftest.py`` (the fixtures) and by the tests in this folder:

* :func:`start_lab` / :func:`stop_lab`: JupyterLab on a free port of 127.0.0.1 with a
  known token, throw-away config/data/runtime/settings/workspace directories and a
  temporary copy of the fixture notebooks as its root directory.
* :class:`LabPage`: one browser page on that server, with the steps the tests take: open
  and run a notebook (in a new page, or in place of the notebook the page shows, far
  cheaper: :meth:`LabPage.open_in_place`), wait for the kernel through the status bar,
  find the visible canvas, click canvas pixels, read canvas pixels (one pixel, or colour
  counts over boxes), type into a text box, press a widget button, read the output text,
  save screenshots under ``tests/screenshots/`` (git-ignored).
* :func:`wait_until` and :func:`wait_equal`: every wait is explicit and bounded, and a
  timeout says what was awaited and what was last seen.
* :func:`check_fixture_notebook`: the fixture notebooks run what the tests expect and
  are saved without outputs or widget state.
* :func:`lesson_excerpt`: a notebook of a lesson's own cells, word for word, for a test that
  needs one cell of a lesson and what it depends on, not the whole lesson.
* :func:`serving_static`: a static folder (the JupyterLite site) served on a free port of
  127.0.0.1 by Python's ``http.server``.

Nothing here imports Playwright at module level, so the tests can be collected (and
skipped with a reason) where it is not installed.
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
import urllib.request
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, BrowserContext, CDPSession, Locator, Page

    from gamelib.ui import PlayController
    from gamelib.ui.boards import ConnectFourGeometry

HERE = Path(__file__).resolve().parent
PROJECT_ROOT = HERE.parent.parent
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
    # Containers often give /dev/shm only 64 MB, too little for Chromium: use /tmp.
    "--disable-dev-shm-usage",
    "--no-proxy-server",  # only 127.0.0.1 is visited
]
NO_CHROMIUM = (
    f"Chromium not found at {CHROMIUM}; install Debian's chromium package to run the browser tests"
)
NO_PLAYWRIGHT = (
    "Python package playwright is not installed; "
    "run `pip install -e '.[test]'` to run the browser tests"
)

# Generous but bounded: a 2-core CI machine shared with other jobs is slow.
SERVER_START_TIMEOUT = 90.0  # seconds until /api/status answers
KERNEL_TIMEOUT = 60_000  # ms: kernel start, "Run All" finishing
UI_TIMEOUT = 30_000  # ms: a widget appearing, a click taking effect, the computer answering
DROPPED_RUN_SECONDS = 5.0  # every prompt blank and the kernel idle this long: the run was lost


def check_fixture_notebook(name: str, call: str) -> None:
    """Assert that fixture notebook ``name`` runs ``call`` in a code cell and is saved
    clean: no outputs, no execution counts, no widget state."""
    notebook = json.loads((FIXTURE_NOTEBOOKS / name).read_text())
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert any(call in "".join(cell["source"]) for cell in code), f"{name} must run {call}"
    assert all(not cell["outputs"] and cell["execution_count"] is None for cell in code)
    assert "widgets" not in notebook["metadata"]


def lesson_excerpt(picks: list[tuple[str, str]]) -> dict[str, Any]:
    """A notebook of lesson cells: for each ``(lesson, text)`` of ``picks``, word for word the
    one code cell of ``notebooks/<lesson>`` whose source holds ``text``, in that order, with no
    outputs. A test that needs one cell of a lesson runs it after only the cells it needs (the
    lesson's setup, its imports and definitions): the lesson's own call in the state the lesson
    gives it, without the cost of opening and running the whole lesson in the browser."""
    cells = []
    for lesson, text in picks:
        notebook = json.loads((PROJECT_ROOT / "notebooks" / lesson).read_text(encoding="utf-8"))
        found = [cell for cell in notebook["cells"]
                 if cell["cell_type"] == "code" and text in "".join(cell["source"])]
        assert len(found) == 1, f"{lesson}: {len(found)} code cells hold {text!r}, not one"
        cells.append({"cell_type": "code", "execution_count": None, "id": f"cell-{len(cells)}",
                      "metadata": {}, "outputs": [], "source": found[0]["source"]})
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                    "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


# ---------------------------------------------------------------------------------------
# Waiting
# ---------------------------------------------------------------------------------------

T = TypeVar("T")
K = TypeVar("K")


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


def wait_equal(read: Callable[[], T], expected: T, timeout: float, what: str) -> None:
    """Call ``read`` until it returns ``expected``; fail after ``timeout`` seconds with a
    message naming ``what`` was awaited, the expected and the last value read."""
    seen: list[T] = []

    def probe() -> bool:
        seen[:] = [read()]
        return seen[0] == expected

    deadline = time.monotonic() + timeout
    while not probe():
        if time.monotonic() > deadline:
            pytest.fail(
                f"timed out after {timeout:.0f} s waiting for {what}: "
                f"expected {expected!r}, last read {seen[0]!r}"
            )
        time.sleep(0.2)


# ---------------------------------------------------------------------------------------
# The JupyterLab server
# ---------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# Talks to the local server directly, whatever http_proxy a CI machine sets.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass
class LabServer:
    """A running JupyterLab server started by :func:`start_lab`."""

    base_url: str
    token: str
    root: Path
    process: subprocess.Popen[bytes]
    log_path: Path
    app: str = "lab"
    """The front end that was started: ``"lab"`` (JupyterLab) or ``"notebook"`` (Notebook 7)."""

    def notebook_url(self, name: str, workspace: str | None = None) -> str:
        """The address that opens ``name`` (relative to the root) in JupyterLab.

        With ``workspace``, in that named workspace: a new name starts from an empty
        layout, instead of reopening the notebooks an earlier page left open. Notebook 7
        has no workspaces: it opens ``name`` alone on its own page.
        """
        if self.app == "notebook":
            return f"{self.base_url}notebooks/{name}?token={self.token}"
        where = "lab" if workspace is None else f"lab/workspaces/{workspace}"
        return f"{self.base_url}{where}/tree/{name}?token={self.token}"

    def own_copy(self, name: str, folder: str) -> str:
        """Copy ``name`` (relative to the root) into the root's subfolder ``folder``; return
        the copy's name relative to the root. A test that saves a notebook works on its own
        copy, so the shared server's original stays as shipped for the tests after it."""
        target = self.root / folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.root / name, target)
        return f"{folder}/{name}"

    def api(self, path: str, method: str = "GET") -> Any:
        """Call the server's REST API; return the decoded JSON answer (None if empty)."""
        body = self._request(f"api/{path}", method)
        return json.loads(body) if body else None

    def get(self, path: str) -> str:
        """GET ``path`` (relative to the server's base address) and return the text; an HTTP
        error status raises urllib's HTTPError."""
        return self._request(path).decode("utf-8")

    def _request(self, path: str, method: str = "GET") -> bytes:
        """The body of the server's answer to ``method`` on ``path``, with the token."""
        request = urllib.request.Request(
            f"{self.base_url}{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with _DIRECT.open(request, timeout=10) as response:
            body: bytes = response.read()
        return body

    def log_tail(self, lines: int = 40) -> str:
        """The last ``lines`` lines of the server's log, for failure messages."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])


NBGRADER_SERVER_EXTENSIONS = tuple(
    f"nbgrader.server_extensions.{name}"
    for name in ("formgrader", "validate_assignment", "assignment_list", "course_list")
)
UNUSED_SERVER_EXTENSIONS = ("jupyter_server_terminals", "notebook_shim")
"""Server extensions that no test uses: terminals (the page then offers none, and asks the
server for none), the shim for classic-notebook server extensions (there are none). Each costs
CPU at every server start. jupyter_lsp stays: without it the page's request for
``/lsp/status`` fails, an error in the browser's console. The ``notebook`` extension stays: it
serves Notebook 7's pages (tests/browser/test_notebook7_browser.py) from the same server."""


def _write_json(path: Path, content: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=1))


def start_lab(workdir: Path, notebooks: Path | tuple[Path, ...], app: str = "lab") -> LabServer:
    """Start JupyterLab serving a copy of ``notebooks`` (a folder, or several folders whose
    files are copied side by side into the one root), isolated under ``workdir``.

    ``app="notebook"`` starts Notebook 7 (``jupyter notebook``) instead, the same way.

    Nothing of the user's Jupyter configuration is read or written: config, data,
    runtime, IPython, lab settings and workspace directories all live in ``workdir``.
    Returns once ``/api/status`` answers; fails (after stopping the process) otherwise.
    """
    root = workdir / "root"
    for folder in notebooks if isinstance(notebooks, tuple) else (notebooks,):
        shutil.copytree(folder, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"),
                        dirs_exist_ok=True)
    dirs = {
        name: workdir / name
        for name in ("config", "data", "runtime", "ipython", "settings", "workspaces")
    }
    for path in dirs.values():
        path.mkdir()
    # No network and no needless work: no update check, no news feed (and no "fetch
    # news?" question popping up over the notebook), no check whether JupyterLab's
    # assets need a rebuild (it runs node, which takes seconds on a busy machine).
    _write_json(
        dirs["config"] / "jupyter_server_config.json",
        {
            "LabApp": {
                "news_url": None,
                "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
            },
            "ServerApp": {
                "tornado_settings": {
                    "page_config_data": {"buildCheck": False, "buildAvailable": False}
                },
                "jpserver_extensions": dict.fromkeys(
                    NBGRADER_SERVER_EXTENSIONS + UNUSED_SERVER_EXTENSIONS, False),
            },
            # The server talks to its kernels over Unix sockets in ``workdir``, not TCP: a
            # TCP port that jupyter_client found free can be taken by another process of the
            # test run (kernels, browsers, servers) before the kernel binds it, and the
            # kernel then never answers (seen once, in nbgrader's kernels).
            "KernelManager": {"transport": "ipc", "ip": str(workdir / "kernel")},
        },
    )
    # nbgrader comes with the test tools (to grade the exercises), not with `make lab`: the
    # students' JupyterLab has neither its server extensions nor its JupyterLab extension, and
    # neither has this one (its server extensions cost about 0.5 s of CPU per server start).
    _write_json(
        dirs["config"] / "labconfig" / "page_config.json",
        {"disabledExtensions": {"@jupyter/nbgrader": True}},
    )
    _write_json(
        dirs["settings"]
        / "@jupyterlab"
        / "apputils-extension"
        / "notification.jupyterlab-settings",
        {"fetchNews": "false", "checkForUpdates": False},
    )
    # No autosave: a notebook changes on disk only when a test saves it (Ctrl+S), so a lesson
    # that one test ran stays as shipped for the next test on the same server.
    _write_json(
        dirs["settings"] / "@jupyterlab" / "docmanager-extension" / "plugin.jupyterlab-settings",
        {"autosave": False},
    )
    # JupyterLab and Notebook 7 render only the cells in view by default; the tests read
    # every cell's prompt (and run whole lessons), so render them all.
    _write_json(
        dirs["settings"] / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings",
        {"windowingMode": "none"},
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
        # The notebook's kernel imports the same gamelib as these tests (this checkout),
        # even when the environment has gamelib installed from another one.
        PYTHONPATH=os.pathsep.join(
            [str(PROJECT_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    )
    for inherited in ("JUPYTER_TOKEN", "JUPYTER_CONFIG_PATH", "JUPYTER_PATH"):
        env.pop(inherited, None)
    token = "gamelib-browser-test-" + os.urandom(8).hex()
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "jupyter",
        app,
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
    server = LabServer(f"http://127.0.0.1:{port}/", token, root, process, log_path, app)

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


@contextmanager
def serving_copy(notebooks: Path | tuple[Path, ...], app: str = "lab") -> Iterator[LabServer]:
    """A server (:func:`start_lab`) on a temporary copy of ``notebooks``; stopped and its
    folder removed afterwards."""
    workdir = Path(tempfile.mkdtemp(prefix=f"gamelib-{app}-"))
    try:
        server = start_lab(workdir, notebooks, app=app)
        try:
            yield server
        finally:
            stop_lab(server)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def serving_static(folder: Path) -> Iterator[str]:
    """Serve ``folder`` with Python's ``http.server`` on a free port of 127.0.0.1; yield its
    address (ending in "/") once it answers; stop the server afterwards."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
         str(folder), str(port)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"

    def answers() -> bool:
        if process.poll() is not None:
            pytest.fail(f"http.server exited with code {process.returncode} while starting")
        try:
            with _DIRECT.open(url, timeout=5) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    try:
        wait_until(answers, SERVER_START_TIMEOUT, f"http.server to answer on {url}", 0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


_SHARED: dict[Browser, BrowserContext] = {}


def shared_context(browser: Browser) -> BrowserContext:
    """The browser context that the JupyterLab pages of the tests share: the one given to
    :func:`share_context` (the ``browser`` fixture's profile), else one made on first use and
    closed with the browser. Its cache keeps JupyterLab's scripts, fetched and compiled once,
    for the next test's page: a context of its own costs each page about 5 s of CPU more
    (Chromium and the server). JupyterLab keeps its state on the server, where each page opens
    its own workspace (:meth:`LabPage.open_notebook`)."""
    if browser not in _SHARED:
        _SHARED[browser] = browser.new_context()
    return _SHARED[browser]


def share_context(browser: Browser, context: BrowserContext) -> None:
    """Make ``context`` the :func:`shared_context` of ``browser``: the context of a profile
    on disk (Playwright's persistent context), whose code cache keeps V8's compiled code of
    JupyterLab's scripts for the next page load, which an in-memory context does not (each
    page load after the first costs Chromium about 1.5 s of CPU less)."""
    _SHARED[browser] = context


def fresh_workspace(name: str) -> str:
    """A new JupyterLab workspace name made from ``name``: it starts from an empty layout."""
    return f"{re.sub(r'[^A-Za-z0-9]+', '-', name)}-{os.urandom(4).hex()}"


@contextmanager
def page_on(
    browser: Browser, server: LabServer, request: pytest.FixtureRequest,
    width: int = 1280, height: int = 1000,
) -> Iterator[LabPage]:
    """A fresh page on ``server`` (in the :func:`shared_context`), collecting its errors.

    If the test failed, a screenshot, the errors, the cells' prompts and the server log's
    tail go into the report; then the pages the test opened are closed and the server's
    kernels shut down, so each test starts from a clean slate.
    """
    context = shared_context(browser)
    before = set(context.pages)
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.set_default_timeout(UI_TIMEOUT)
    helper = LabPage(page, server)
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
        leave_evidence(helper, request)
        for opened in [p for p in context.pages if p not in before]:
            opened.close()
        with contextlib.suppress(OSError, ValueError):
            helper.shut_down_kernels()


def leave_evidence(helper: LabPage, request: pytest.FixtureRequest) -> None:
    """If the test of ``request`` failed, put into its report a screenshot of ``helper``'s
    page, the browser's errors, the cells' prompts and the server log's tail."""
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        with contextlib.suppress(Exception):
            print("screenshot:", helper.screenshot(f"FAILED-{request.node.name}"))
            print("prompts:", helper.code_cell_prompts(), helper.kernel_status())
        print("browser errors:", *helper.errors or ["none"], sep="\n  ")
        print("server log (tail):", helper.server.log_tail(), sep="\n")


# ---------------------------------------------------------------------------------------
# A JupyterLab page
# ---------------------------------------------------------------------------------------

RGBA = tuple[int, int, int, int]
Box = tuple[float, float, float, float]  # x, y, width, height in canvas pixels


def disc_boxes(geometry: ConnectFourGeometry) -> dict[tuple[int, int], Box]:
    """A square inside each hole of a Connect Four board, by (row, column), well clear of
    the frame and the disc's rim."""
    half = geometry.radius * 0.6
    boxes: dict[tuple[int, int], Box] = {}
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            x, y = geometry.cell_center(row, col)
            boxes[(row, col)] = (x - half, y - half, 2 * half, 2 * half)
    return boxes


def rgba(colour: str) -> RGBA:
    """An opaque CSS hex colour ``"#rrggbb"`` as the RGBA that a canvas pixel reads."""
    match = re.fullmatch(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", colour)
    assert match, f"not a #rrggbb colour: {colour!r}"
    r, g, b = (int(part, 16) for part in match.groups())
    return r, g, b, 255


# Counts, for each box, the opaque pixels within ``tolerance`` of each colour; each box's own
# pixels are read (one getImageData call a box: a viewer's canvas holds millions of pixels, and a
# read of all of them cost about 0.1 s of CPU at every poll).
CENSUS_JS = """(canvas, [boxes, colours, tolerance]) => {
    const w = canvas.width, h = canvas.height, context = canvas.getContext('2d');
    return boxes.map(([x, y, bw, bh]) => {
        const counts = colours.map(() => 0);
        const x0 = Math.max(0, Math.round(x)), x1 = Math.min(w, Math.round(x + bw));
        const y0 = Math.max(0, Math.round(y)), y1 = Math.min(h, Math.round(y + bh));
        if (x1 <= x0 || y1 <= y0) return counts;
        const data = context.getImageData(x0, y0, x1 - x0, y1 - y0).data;
        for (let k = 0; k < data.length; k += 4) {
            if (data[k + 3] !== 255) continue;
            colours.forEach(([r, g, b], n) => {
                if (Math.abs(data[k] - r) <= tolerance && Math.abs(data[k + 1] - g) <= tolerance
                    && Math.abs(data[k + 2] - b) <= tolerance) counts[n]++;
            });
        }
        return counts;
    });
}"""


@dataclass
class LabPage:
    """One browser page showing JupyterLab, with the steps the tests take on it."""

    page: Page
    server: LabServer
    errors: list[str] = field(default_factory=list)
    reloaded: bool = False
    """Whether :meth:`reload` reloaded the page since the last :meth:`leave`."""
    ratio: float = 1.0
    """Canvas pixels per picture pixel: the coordinates that :meth:`pixel`,
    :meth:`census`, :meth:`screen_pixel` and :meth:`click_canvas` take are multiplied
    by it (a gamelib board holds PIXEL_RATIO canvas pixels per board pixel; see
    :meth:`expect_board`)."""

    # -- notebook and kernel -----------------------------------------------------------

    def open_notebook(self, name: str) -> None:
        """Open ``name`` alone in a fresh workspace; wait until its kernel is idle."""
        self.page.goto(self.server.notebook_url(name, fresh_workspace(name)),
                       wait_until="domcontentloaded")
        panels = self.page.locator(".jp-NotebookPanel")
        panels.first.locator(".jp-Notebook").wait_for(state="visible", timeout=KERNEL_TIMEOUT)
        assert panels.count() == 1, f"expected {name} alone, found {panels.count()} notebooks"
        self.wait_kernel_idle()

    def open_in_place(self, name: str) -> None:
        """Open ``name`` alone, as :meth:`open_notebook` does, but on a page that already shows
        this server's JupyterLab without loading JupyterLab again (about 5 s of CPU less): File
        > Close All Tabs (their changes discarded, their kernels shut down), then File > Open
        from Path. A page that shows nothing yet opens it with :meth:`open_notebook`. For a
        test file whose tests share one page (``shared_lab``). JupyterLab only."""
        page = self.page
        if not self.shows_lab():
            self.open_notebook(name)
            return
        self.close_all()
        dialog = page.locator(".jp-Dialog")
        panels = page.locator(".jp-NotebookPanel")
        self.menu("File", "Open from Path…")
        dialog.locator("input").fill(name)
        dialog.locator("button.jp-mod-accept").click()
        panels.first.locator(".jp-Notebook").wait_for(state="visible", timeout=KERNEL_TIMEOUT)
        assert panels.count() == 1, f"expected {name} alone, found {panels.count()} notebooks"
        assert page.url.endswith(f"/tree/{name}"), page.url  # a reload reopens it
        # The Launcher that JupyterLab put in the empty main area goes too, as in a new page.
        launcher = page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="Launcher")
        for tab in launcher.all():
            tab.locator(".lm-TabBar-tabCloseIcon").click()
        self.wait_kernel_idle()

    def reload(self) -> None:
        """Reload the page, as a lecturer presses F5: JupyterLab restores the page's workspace
        as it last saved it (the open notebooks, the sidebar's width). Returns once a notebook
        shows and its kernel is idle."""
        self.reloaded = True
        self.page.reload(wait_until="domcontentloaded")
        self.page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(
            state="visible", timeout=KERNEL_TIMEOUT)
        self.wait_kernel_idle()

    @contextmanager
    def devtools(self) -> Iterator[CDPSession]:
        """A DevTools session on the page (to emulate a zoom, to take a fast screenshot); on
        leaving, however the test left, its device-metrics override is cleared and the session
        detached: a session left open keeps its override through later page loads."""
        session = self.page.context.new_cdp_session(self.page)
        try:
            yield session
        finally:
            session.send("Emulation.clearDeviceMetricsOverride")
            session.detach()

    def leave(self) -> None:
        """Leave a shared page for the next test file: its tabs closed and the server's
        kernels shut down; a page that a test reloaded shows JupyterLab again in a new
        workspace (the reloaded one restores what that test left: a sidebar widened at 150 %
        zoom, a tab that reopens after Close All)."""
        if self.reloaded:
            self.shut_down_kernels()
            url = f"{self.server.base_url}lab/workspaces/{fresh_workspace('blank')}"
            self.page.goto(f"{url}?token={self.server.token}", wait_until="domcontentloaded")
            self.page.locator(".jp-Launcher").first.wait_for(state="visible",
                                                             timeout=KERNEL_TIMEOUT)
            self.reloaded = False
        elif self.shows_lab():
            self.close_all()

    def shows_lab(self) -> bool:
        """Whether the page shows this server's JupyterLab (not a blank page, not Notebook 7)."""
        return self.page.url.startswith(f"{self.server.base_url}lab")

    def run_in_place(self, name: str) -> None:
        """Open ``name`` in place (:meth:`open_in_place`) and run all its cells
        (:meth:`run_all_cells`): the page of a test file whose tests read one run of a
        fixture notebook."""
        self.open_in_place(name)
        self.run_all_cells()

    def close_all(self) -> None:
        """File > Close All Tabs (their changes discarded), then shut down the server's kernels:
        the page shows JupyterLab with nothing open. JupyterLab only."""
        page = self.page
        page.keyboard.press("Escape")
        self.menu("File", "Close All Tabs")
        dialog = page.locator(".jp-Dialog")
        panels = page.locator(".jp-NotebookPanel")

        def closed() -> bool:
            if dialog.count():  # a modified notebook asks whether to save it
                dialog.locator("button", has_text=re.compile(r"^\s*Discard\s*$")).click()
            return not panels.count()

        wait_until(closed, UI_TIMEOUT / 1000, "every tab closed")
        self.shut_down_kernels()

    def shut_down_kernels(self) -> None:
        """Shut down every kernel of the server (its sessions deleted)."""
        for session in self.server.api("sessions") or []:
            self.server.api(f"sessions/{session['id']}", method="DELETE")

    def as_new(self, width: int = 1280, height: int = 1000) -> None:
        """Put back what a test may have changed on a page that tests share (``shared_page``):
        a ``width`` x ``height`` viewport at 100 % zoom (a zoom emulated through DevTools
        cleared), and, where the page shows JupyterLab, the notebook view (not Presentation
        Mode) with the left sidebar (the file browser) open, as a new page shows it. Checked
        by reading the page's size, zoom and layout back."""
        page = self.page
        page.bring_to_front()  # a page another one covered gets no animation frames
        with self.devtools():
            pass  # leaving it clears any zoom that a DevTools session emulated
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "([w, h]) => innerWidth === w && innerHeight === h && devicePixelRatio === 1",
            arg=[width, height])
        if self.shows_lab():
            self.set_presentation_mode(False)
            self.set_sidebar(True)

    def command(self, label: str) -> None:
        """Run JupyterLab command ``label`` from the command palette."""
        page = self.page
        page.keyboard.press("Escape")
        page.keyboard.press("Control+Shift+C")
        page.locator(".lm-CommandPalette-input").fill(label)
        page.locator(".lm-CommandPalette-item", has_text=label).first.click()

    def set_presentation_mode(self, on: bool) -> None:
        """JupyterLab's Presentation Mode on or off (View > Presentation Mode)."""
        mode = self.page.locator(".jp-mod-presentationMode")
        if (mode.count() > 0) != on:
            self.command("Presentation Mode")
            mode.first.wait_for(state="attached" if on else "detached")

    def set_sidebar(self, shown: bool) -> None:
        """Show or hide the left sidebar, the file browser (View > Left Sidebar, Ctrl+B)."""
        page = self.page
        sidebar = page.locator("#jp-left-stack")
        if sidebar.is_visible() != shown:
            notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
            if notebook.count():  # out of any editor
                notebook.first.click(position={"x": 5, "y": 5})
            page.keyboard.press("Escape")
            page.keyboard.press("Control+b")
            sidebar.wait_for(state="visible" if shown else "hidden")

    def kernel_status(self) -> str:
        """The status bar's kernel item, e.g. "Python 3 (ipykernel) | Idle" ("" if absent).

        Notebook 7 has no status bar: there, the notebook toolbar's execution indicator
        gives the status, read as "| Idle", "| Busy", ...
        """
        item = self.page.locator(
            "#jp-main-statusbar .jp-StatusBar-TextItem[title^='Change kernel']"
        )
        texts = item.all_inner_texts()
        if texts:
            return texts[0].strip()
        if self.server.app == "notebook":
            status = self.page.locator(".jp-Notebook-ExecutionIndicator[data-status]")
            if status.count():
                return f"| {(status.first.get_attribute('data-status') or '').capitalize()}"
        return ""

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
        an output shows a traceback.

        A run that the page dropped (every prompt blank, "[ ]:", and the kernel idle for
        DROPPED_RUN_SECONDS, as Notebook 7 does when asked before its kernel is connected on a
        busy machine) is asked for again, at most twice."""
        self._ask_run_all()
        asked, blank_since = 1, None

        def all_ran() -> bool:
            nonlocal asked, blank_since
            prompts = self.code_cell_prompts()
            if prompts and all(p == "[ ]:" for p in prompts) and self.kernel_status().endswith(
                    "Idle"):
                blank_since = blank_since or time.monotonic()
                if time.monotonic() - blank_since > DROPPED_RUN_SECONDS and asked < 3:
                    self._ask_run_all()
                    asked, blank_since = asked + 1, None
                return False
            blank_since = None
            return bool(prompts) and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts)

        wait_until(all_ran, KERNEL_TIMEOUT / 1000, "every code cell to have run", 0.25)
        self.wait_kernel_idle()
        self._fail_on_a_traceback()

    def menu(self, menu: str, item: str, timeout: float | None = None) -> None:
        """Click ``item`` (its exact label) in the menu bar's ``menu`` (JupyterLab)."""
        page = self.page
        page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(f"^{menu}$")).click()
        page.locator(
            f".lm-Menu .lm-Menu-item:has(.lm-Menu-itemLabel:text-is('{item}'))"
        ).click(timeout=timeout)

    def _fail_on_a_traceback(self) -> None:
        """Fail the test if an output of the notebook shows a traceback."""
        tracebacks = self.page.locator(".jp-OutputArea-output", has_text="Traceback")
        if tracebacks.count():
            pytest.fail("a cell raised:\n" + "\n".join(tracebacks.all_inner_texts()))

    def _ask_run_all(self) -> None:
        """Click Run > Run All Cells (the command palette if the menu fails)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page = self.page
        page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
        try:
            self.menu("Run", "Run All Cells", timeout=10_000)
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            page.keyboard.press("Control+Shift+C")
            palette = page.locator(".lm-CommandPalette-input")
            palette.fill("Run All Cells")
            page.locator(
                ".lm-CommandPalette-item", has_text=re.compile(r"^Run All Cells")
            ).first.click()

    # -- canvas ------------------------------------------------------------------------

    def visible_canvas(self, within: Locator | None = None) -> Locator:
        """The largest visible <canvas> in the notebook's output area (ipycanvas may stack
        several canvases or draw offscreen; the one on screen is what a user sees).

        ``within``: only in that part of the page (e.g. one cell), for notebooks that draw
        several boards."""
        canvases = (within or self.page).locator(".jp-OutputArea-output canvas")
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

    def expect_board(self, canvas: Locator, width: int, height: int) -> None:
        """Assert that ``canvas`` holds a gamelib picture of ``width`` x ``height`` board
        pixels at PIXEL_RATIO; from now on, coordinates are board pixels."""
        from gamelib.ui.canvas import PIXEL_RATIO

        assert self.canvas_size(canvas) == (width * PIXEL_RATIO, height * PIXEL_RATIO)
        self.ratio = PIXEL_RATIO

    def pixel(self, canvas: Locator, x: float, y: float) -> RGBA:
        """The colour of canvas pixel (x, y), read from the DOM canvas."""
        data = canvas.evaluate(
            "(c, [x, y]) => Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data)",
            [int(x * self.ratio), int(y * self.ratio)],
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

    def census(
        self, canvas: Locator, boxes: list[Box], colours: list[RGBA], tolerance: int = 8
    ) -> list[list[int]]:
        """``result[i][n]``: how many pixels of ``boxes[i]`` have colour ``colours[n]``
        (each channel within ``tolerance``, fully opaque)."""
        scaled = [[v * self.ratio for v in box] for box in boxes]
        counts = canvas.evaluate(
            CENSUS_JS, [scaled, [list(c[:3]) for c in colours], tolerance]
        )
        return [[int(n) for n in row] for row in counts]

    def colour_counts(
        self, canvas: Locator, boxes: Mapping[K, Box], colours: Mapping[str, RGBA]
    ) -> dict[str, dict[K, int]]:
        """For each named colour, the boxes that contain pixels of it and how many:
        ``{"red": {(0, 3): 1320}, "yellow": {}}``. Boxes without the colour are left out."""
        keys = list(boxes)
        names = list(colours)
        counts = self.census(canvas, [boxes[k] for k in keys], [colours[n] for n in names])
        return {
            name: {key: row[n] for key, row in zip(keys, counts, strict=True) if row[n]}
            for n, name in enumerate(names)
        }

    def screen_pixel(self, canvas: Locator, x: float, y: float) -> RGBA:
        """The colour on screen where canvas pixel (x, y) is shown, from a screenshot of
        the canvas element (what the user sees, after any CSS scaling)."""
        from matplotlib.image import imread

        width, height = self.canvas_size(canvas)
        box = canvas.bounding_box()
        assert box is not None, "canvas is not laid out"
        image = imread(io.BytesIO(canvas.screenshot()), format="png")
        row = min(int(y * self.ratio * image.shape[0] / height), image.shape[0] - 1)
        col = min(int(x * self.ratio * image.shape[1] / width), image.shape[1] - 1)
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
            box["x"] + x * self.ratio * box["width"] / width,
            box["y"] + y * self.ratio * box["height"] / height,
        )

    # -- widgets -----------------------------------------------------------------------

    def type_into(self, label: str, text: str) -> None:
        """Type ``text`` into the output's text box labelled ``label``; press Enter."""
        box = self.page.locator(
            f".jp-OutputArea-output .widget-text:has(label:text-is('{label}')) input"
        )
        box.click()
        box.fill(text)
        box.press("Enter")

    def type_into_slider(self, label: str, value: int, within: Locator | None = None) -> None:
        """Set the output's slider labelled ``label`` to ``value`` as a user can: click its
        readout, type the number, press Enter (one change, however far from the last value).
        ``within``: only in that part of the page (e.g. one cell)."""
        readout = (within or self.page).locator(
            f".jp-OutputArea-output .widget-hslider:has(label:text-is('{label}')) .widget-readout")
        readout.click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.type(str(value))
        self.page.keyboard.press("Enter")

    def press_button(self, name: str) -> None:
        """Click the output's widget button whose text is ``name``."""
        self.page.locator(
            ".jp-OutputArea-output button.widget-button",
            has_text=re.compile(rf"^\s*{re.escape(name)}\s*$"),
        ).click()

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


# -- steps the game tests share ------------------------------------------------------------


def open_game(lab: LabPage, notebook: str, twin: PlayController) -> Locator:
    """Open (in place: :meth:`LabPage.open_in_place`) and run the fixture ``notebook``; its
    canvas, once it has the size of the ``twin``'s board and the page shows the twin's welcome
    message."""
    lab.run_in_place(notebook)
    canvas = lab.visible_canvas()
    lab.expect_board(canvas, twin.board.width, twin.board.height)
    lab.wait_text(twin.message)
    return canvas


def click_both(lab: LabPage, canvas: Locator, twin: PlayController, x: float, y: float) -> None:
    """Click canvas pixel ``(x, y)`` on the page and on ``twin``, whose computer must have
    answered at once (two moves in its history)."""
    lab.click_canvas(canvas, x, y)
    assert twin.click(x, y)
    assert len(twin.history) == 2, twin.message


def type_refused_move(lab: LabPage, twin: PlayController, text: str) -> None:
    """Type ``text`` into the page's Move box and submit it to ``twin``, which must refuse
    it; wait until the page shows the twin's refusal, a message it did not show before."""
    assert not twin.submit(text)
    refusal = twin.message
    assert text in refusal and refusal not in lab.output_text()
    lab.type_into("Move", text)
    lab.wait_text(refusal)


def undo_both_moves(lab: LabPage, twin: PlayController) -> None:
    """Undo on ``twin``, which must take back the human's move and the computer's reply,
    and press the page's Undo button."""
    assert twin.undo() and twin.history == []
    lab.press_button("Undo")


# -- one page for the tests of a file ------------------------------------------------------


def report_if_failed(lab: LabPage, request: pytest.FixtureRequest) -> None:
    """If the test of ``request`` failed, put a screenshot, the page's errors, the cells'
    prompts and the server log's tail into its report (as :func:`page_on` does for a page of
    its own): for a test on a page that a module's tests share."""
    failed = getattr(request.node, "rep_call", None)
    if failed is None or not failed.failed:
        return
    with contextlib.suppress(Exception):
        print("screenshot:", lab.screenshot(f"FAILED-{request.node.name}"))
        print("prompts:", lab.code_cell_prompts(), lab.kernel_status())
    print("browser errors:", *lab.errors or ["none"], sep="\n  ")
    print("server log (tail):", lab.server.log_tail(), sep="\n")
