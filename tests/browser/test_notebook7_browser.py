"""A lesson in Notebook 7 (``jupyter notebook``), not JupyterLab: the board is drawn and a
click on the canvas plays a move.

Notebook 7 comes with the project (pyproject's runtime dependencies). Its pages are served by
the tests' JupyterLab server (``lessons_server``: its ``notebook`` server extension serves them
as ``jupyter notebook`` does), on a temporary copy of the lessons, to which the test adds the
notebook of tests/browser/test_untrusted_browser.py:
Lesson 1, then an output of every kind of saved output that it lacks (tests/picture_kinds.py).
One page opens it: first fresh and untrusted, where every output shows as that file checks in
JupyterLab; then the lesson's last cell runs (it imports what it uses). Lesson 1 ends with
``play(TicTacToe(), mode="human-human")``: the test clicks the centre cell, and checks on the
canvas that an X appears there and nowhere else, as a twin controller in this process
predicts.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from gamelib.games import TicTacToe
from gamelib.ui import play
from gamelib.ui.boards import TicTacToeGeometry

from .harness import (
    DROPPED_RUN_SECONDS,
    KERNEL_TIMEOUT,
    PROJECT_ROOT,
    LabPage,
    LabServer,
    page_on,
    report_if_failed,
)
from .test_tictactoe_browser import CELL, expected_marks, wait_marks
from .test_untrusted_browser import KINDS, setup_faults, untrusted_faults, write_kinds

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

LESSON = "01-Tic-Tac-Toe.ipynb"
PLAY_CALL = 'play(TicTacToe(), mode="human-human")'
"""The lesson's last code cell runs this; the twin below plays the same game."""


@pytest.fixture(scope="module")
def notebook_server(browser: Browser, lessons_server: LabServer) -> LabServer:
    """Notebook 7's pages of the lessons' server (its ``notebook`` server extension serves them
    as ``jupyter notebook`` does: the same front end), whose folder holds a copy of the lessons,
    and :data:`KINDS`, written just before (after the browser, which makes sure Chromium and
    Playwright are there)."""
    write_kinds(lessons_server.root)
    return dataclasses.replace(lessons_server, app="notebook")


@pytest.fixture(scope="module")
def kinds_page(browser: Browser, notebook_server: LabServer,
               request: pytest.FixtureRequest) -> Iterator[LabPage]:
    """One page on the Notebook 7 server for the tests of this file, which open
    :data:`KINDS` there once (its scripts and kernel start once): the first checks it
    fresh, the second runs it and plays."""
    with page_on(browser, notebook_server, request) as page:
        yield page


@pytest.fixture
def notebook7(kinds_page: LabPage, request: pytest.FixtureRequest) -> Iterator[LabPage]:
    """The page of :func:`kinds_page`; on failure, a screenshot, the prompts and the server
    log's tail go into the report."""
    yield kinds_page
    report_if_failed(kinds_page, request)


def open_kinds(notebook7: LabPage) -> None:
    """Show :data:`KINDS` on the page (loaded unless it shows it already)."""
    page, server = notebook7.page, notebook7.server
    if not page.url.startswith(server.notebook_url(KINDS).split("?")[0]):
        page.goto(server.notebook_url(KINDS), wait_until="domcontentloaded")
    page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(state="visible")


def test_the_lesson_ends_with_the_twin_game() -> None:
    notebook = json.loads((PROJECT_ROOT / "notebooks" / LESSON).read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert PLAY_CALL in "".join(code[-1]["source"])


def test_every_kind_of_saved_output_shows_fresh_and_untrusted_in_notebook_7(
    notebook7: LabPage,
) -> None:
    """As tests/browser/test_untrusted_browser.py does in JupyterLab: :data:`KINDS` (Lesson 1,
    then an output of every kind of saved output it lacks) opened fresh (untrusted) in
    Notebook 7, which shows outputs with JupyterLab's own renderers: no widget's Python
    text, every saved picture shown with its alt text, no search tree with labels under
    READABLE_PX, the setup note shown."""
    page = notebook7.page
    open_kinds(notebook7)
    assert page.locator("#jp-main-statusbar").count() == 0, "this is not Notebook 7"
    faults = untrusted_faults(page, "Notebook 7", ".jp-Notebook .jp-OutputArea-output")
    faults += setup_faults(page, "Notebook 7", ".jp-NotebookPanel")
    page.locator(".jp-Notebook .jp-OutputArea-output img").last.scroll_into_view_if_needed()
    print("screenshot:", notebook7.screenshot("notebook7-untrusted-last-lesson"))
    assert not faults, "\n".join(faults)


def test_a_click_plays_a_move_in_notebook_7(notebook7: LabPage) -> None:
    """Lesson 1's last cell (in :data:`KINDS`, whose cells are the lesson's, then the other
    kinds' outputs under comments) run in Notebook 7: a click on its board plays there."""
    twin = play(TicTacToe(), mode="human-human", background=False, display=False)
    geometry = twin.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, TicTacToeGeometry)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    open_kinds(notebook7)
    notebook7.wait_kernel_idle()
    page = notebook7.page
    assert page.locator("#jp-main-statusbar").count() == 0, "this is not Notebook 7"
    # The lesson's last cell imports what it uses: it runs alone (select it, Ctrl+Enter), as
    # the restart test runs a lesson's play cell (tests/browser/test_restart_browser.py), not
    # after the whole lesson, which nbval runs. The notebook is saved executed, so its
    # prompts are numbered before the run: wait for the board itself (no widget is saved in
    # the file). A run the page dropped (no board after DROPPED_RUN_SECONDS x 4) is asked
    # for again, once.
    play_cell = page.locator(".jp-Notebook .jp-CodeCell", has_text=PLAY_CALL).last
    board = play_cell.locator(".jp-OutputArea-output canvas").first

    def run_play_cell() -> None:
        play_cell.scroll_into_view_if_needed()
        play_cell.locator(".jp-InputArea-editor").first.click()
        page.keyboard.press("Escape")  # command mode, this cell selected
        page.keyboard.press("Control+Enter")

    run_play_cell()
    try:
        board.wait_for(state="attached", timeout=DROPPED_RUN_SECONDS * 4000)
    except PlaywrightTimeout:
        if "[*]" not in play_cell.locator(".jp-InputPrompt").inner_text():  # dropped
            run_play_cell()
        board.wait_for(state="attached", timeout=KERNEL_TIMEOUT)
    play_cell.scroll_into_view_if_needed()
    canvas = notebook7.visible_canvas(within=play_cell)
    canvas.scroll_into_view_if_needed()
    notebook7.expect_board(canvas, twin.board.width, twin.board.height)
    notebook7.wait_text(twin.message)
    wait_marks(notebook7, canvas, geometry, {"X": set(), "O": set()})

    x, y = geometry.cell_rect(CELL).center
    notebook7.click_canvas(canvas, x, y)
    assert twin.click(x, y) and twin.history == [CELL]
    wait_marks(notebook7, canvas, geometry, expected_marks(twin))
    notebook7.wait_text(twin.message)  # "X played 2,2. O to move."-like, from the twin
    print("screenshot:", notebook7.screenshot("notebook7-lesson1-after-click"))
