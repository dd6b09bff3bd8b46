"""A lesson in Notebook 7 (``jupyter notebook``), not JupyterLab: the board is drawn and a
click on the canvas plays a move.

Notebook 7 comes with the project (pyproject's runtime dependencies). The server is started
by the same harness as JupyterLab's (``start_lab(..., app="notebook")``), on a temporary copy
of the lessons. Lesson 1 ends with ``play(TicTacToe(), mode="human-human")``: the test runs
the whole lesson, clicks the centre cell, and checks on the canvas that an X appears there
and nowhere else, as a twin controller in this process predicts. On the same server, the
notebook of every kind of saved output (tests/picture_kinds.py) shows fresh and untrusted as
tests/browser/test_untrusted_browser.py checks in JupyterLab.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from picture_kinds import write_kinds_notebook

from gamelib.games import TicTacToe
from gamelib.ui import play
from gamelib.ui.boards import TicTacToeGeometry

from .harness import (
    KERNEL_TIMEOUT,
    PROJECT_ROOT,
    LabPage,
    LabServer,
    page_on,
    serving_copy,
)
from .test_tictactoe_browser import CELL, expected_marks, wait_marks
from .test_untrusted_browser import setup_faults, untrusted_faults

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

LESSON = "01-Tic-Tac-Toe.ipynb"
PLAY_CALL = 'play(TicTacToe(), mode="human-human")'
"""The lesson's last code cell runs this; the twin below plays the same game."""


@pytest.fixture(scope="module")
def notebook_server(browser: Browser) -> Iterator[LabServer]:
    """Notebook 7 serving a temporary copy of the lessons (after the browser, which
    makes sure Chromium and Playwright are there)."""
    with serving_copy(PROJECT_ROOT / "notebooks", app="notebook") as server:
        yield server


@pytest.fixture
def notebook7(
    browser: Browser, notebook_server: LabServer, request: pytest.FixtureRequest
) -> Iterator[LabPage]:
    """A fresh page on the Notebook 7 server; on failure, a screenshot, the prompts and
    the server log's tail go into the report."""
    with page_on(browser, notebook_server, request) as page:
        yield page


def test_the_lesson_ends_with_the_twin_game() -> None:
    notebook = json.loads((PROJECT_ROOT / "notebooks" / LESSON).read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert PLAY_CALL in "".join(code[-1]["source"])


def test_a_click_plays_a_move_in_notebook_7(notebook7: LabPage) -> None:
    twin = play(TicTacToe(), mode="human-human", background=False, display=False)
    geometry = twin.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, TicTacToeGeometry)

    notebook7.open_notebook(LESSON)
    assert notebook7.page.locator("#jp-main-statusbar").count() == 0, "this is not Notebook 7"
    notebook7.run_all_cells()
    # The lesson is saved executed, so its prompts are numbered before the run: wait for
    # the board itself (no widget is saved in the file), which the last cell makes.
    last_cell = notebook7.page.locator(".jp-Notebook .jp-CodeCell").last
    last_cell.locator(".jp-OutputArea-output canvas").first.wait_for(
        state="attached", timeout=KERNEL_TIMEOUT
    )
    last_cell.scroll_into_view_if_needed()
    canvas = notebook7.visible_canvas(within=last_cell)
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


def test_every_kind_of_saved_output_shows_fresh_and_untrusted_in_notebook_7(
    notebook7: LabPage,
) -> None:
    """As tests/browser/test_untrusted_browser.py does in JupyterLab: the notebook of every
    kind of saved output opened fresh (untrusted) in Notebook 7, which shows outputs with
    JupyterLab's own renderers: no widget's Python text, every saved picture shown with its
    alt text, no search tree with labels under READABLE_PX, the setup note shown."""
    page, server = notebook7.page, notebook7.server
    name = write_kinds_notebook(server.root)
    page.goto(server.notebook_url(name), wait_until="domcontentloaded")
    page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(state="visible")
    faults = untrusted_faults(page, "Notebook 7", ".jp-Notebook .jp-OutputArea-output")
    faults += setup_faults(page, "Notebook 7", ".jp-NotebookPanel")
    page.locator(".jp-Notebook .jp-OutputArea-output img").last.scroll_into_view_if_needed()
    print("screenshot:", notebook7.screenshot("notebook7-untrusted-last-lesson"))
    assert not faults, "\n".join(faults)
