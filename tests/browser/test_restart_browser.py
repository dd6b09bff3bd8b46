"""After a kernel restart, a lesson's board says what will work, and doing it works.

Lessons 2 and 7 are opened fresh in JupyterLab (untrusted, as a student first sees them; one
page, the second lesson opened in place of the first), and are not marked modified once their
kernel has started (tools/run_notebooks.py saves the
kernel's language_info).
Their play cell is run on its own in the new kernel (it imports what it uses), a move is
played, and the kernel is restarted from the Kernel menu: the board then says
:data:`gamelib.ui.canvas.STOPPED_WORDS`. The test follows those words ("Run this cell
again") and plays a move on the board that appears.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gamelib.games import ConnectFour, TicTacToe
from gamelib.ui.boards import ConnectFourBoard, TicTacToeBoard
from gamelib.ui.canvas import STOPPED_WORDS

from .harness import UI_TIMEOUT, LabPage, LabServer, leave_evidence, page_on, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator

pytestmark = pytest.mark.browser

PLAY_CELL = "from gamelib.ui import play"
BEFORE = "el => getComputedStyle(el, '::before').content"
SEEN = Path("/work/screens/look")  # where the screenshots looked at are kept (if present)


@pytest.fixture(scope="module")
def lessons_page(
    browser: Browser, lessons_server: LabServer, request: pytest.FixtureRequest
) -> Iterator[LabPage]:
    """One page on the lessons' server for both lessons: each is opened in place (closed
    after its test, its kernel shut down; LabPage.open_in_place). The tests need one cell of
    each lesson: this page lays out and paints only the cells in view (the server's pages of
    other test files render every cell: the setting is put back after this file)."""
    lessons_server.set_windowing("contentVisibility")
    try:
        with page_on(browser, lessons_server, request) as page:
            yield page
    finally:
        lessons_server.set_windowing("none")


@pytest.fixture
def fresh(lessons_page: LabPage, request: pytest.FixtureRequest) -> Iterator[LabPage]:
    yield lessons_page
    leave_evidence(lessons_page, request)


def run_cell_alone(lab: LabPage, text: str) -> Locator:
    """Run only the code cell whose source holds ``text`` (select it, Ctrl+Enter); return it
    once it shows a live board (a restarted kernel numbers its runs from 1 again, so the
    prompt alone cannot tell) and the kernel is idle."""
    page = lab.page
    cell = page.locator(".jp-Notebook .jp-CodeCell", has_text=text).last
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-InputArea-editor").first.click()
    page.keyboard.press("Escape")  # command mode, this cell selected
    page.keyboard.press("Control+Enter")
    live = cell.locator(".gamelib-live:not(.jupyter-widgets-disconnected)")
    wait_until(lambda: live.count() == 1 and re.fullmatch(
        r"\[\d+\]:", cell.locator(".jp-InputPrompt").inner_text().strip()),
        UI_TIMEOUT / 1000, f"the cell {text!r} to show a live board")
    lab.wait_kernel_idle()
    return cell


def message_of(cell: Locator) -> str:
    return cell.locator(".gamelib-message").inner_text()


def play_a_move(lab: LabPage, cell: Locator, lesson: str) -> None:
    """Click the board in ``cell`` (the centre square; column 4) and wait for the move."""
    canvas = lab.visible_canvas(within=cell)
    if lesson.startswith("07"):
        board = ConnectFourBoard(ConnectFour())
        lab.expect_board(canvas, board.width, board.height)
        x, y = board.geometry.column_rect(3).center
    else:
        ttt = TicTacToeBoard(TicTacToe())
        lab.expect_board(canvas, ttt.width, ttt.height)
        x, y = ttt.geometry.cell_rect((1, 1)).center
    canvas.scroll_into_view_if_needed()
    lab.click_canvas(canvas, x, y)
    played = "You played 4." if lesson.startswith("07") else "You played 2,2."
    wait_until(lambda: played in message_of(cell) or "(computer) played" in message_of(cell),
               UI_TIMEOUT / 1000, f"{lesson}: the click played a move")


def keep(lab: LabPage, name: str) -> None:
    path = lab.screenshot(name)
    if SEEN.parent.is_dir():
        SEEN.mkdir(exist_ok=True)
        shutil.copy(path, SEEN / path.name)


@pytest.mark.parametrize("lesson", ["02-Minimax.ipynb", "07-Connect-Four.ipynb"])
def test_after_a_restart_the_board_says_what_works_and_it_does(fresh: LabPage,
                                                              lesson: str) -> None:
    fresh.open_in_place(lesson)
    page = fresh.page
    # Its kernel has told the page its language_info, the same as saved: nothing modified.
    page.wait_for_timeout(1000)
    assert not page.locator(".lm-TabBar-tab.jp-mod-dirty").count(), f"{lesson} opened modified"
    cell = run_cell_alone(fresh, PLAY_CELL)  # in a fresh kernel: nothing above has run
    assert not page.locator(".jp-OutputArea-output", has_text="NameError").count()
    play_a_move(fresh, cell, lesson)

    # Kernel > Restart Kernel..., as a student would.
    page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(r"^Kernel$")).click()
    page.locator(".lm-Menu .lm-Menu-item:has(.lm-Menu-itemLabel:text-matches('^Restart Kernel'))"
                 ).first.click()
    page.locator(".jp-Dialog button.jp-mod-accept").click()
    stopped = cell.locator(".gamelib-live.jupyter-widgets-disconnected")
    stopped.wait_for(state="attached", timeout=UI_TIMEOUT)
    words = stopped.evaluate(BEFORE)
    assert STOPPED_WORDS in words and "Run this cell again" in words
    assert not cell.locator(".gamelib-status").get_by_text("your turn").is_visible()
    fresh.wait_kernel_idle()
    stopped.scroll_into_view_if_needed()
    keep(fresh, f"restart-{lesson[:2]}-1-stopped")

    cell = run_cell_alone(fresh, PLAY_CELL)  # what the words say: run this cell again
    assert not page.locator(".jp-OutputArea-output", has_text="Error").count()
    assert not cell.locator(".jupyter-widgets-disconnected").count()
    play_a_move(fresh, cell, lesson)
    turn = cell.locator(".gamelib-status").get_by_text("your turn")
    wait_until(turn.is_visible, UI_TIMEOUT / 1000, "the computer's reply, then your turn")
    cell.scroll_into_view_if_needed()
    keep(fresh, f"restart-{lesson[:2]}-2-playing-again")
