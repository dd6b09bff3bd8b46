"""After a kernel restart, a lesson's board says what will work, and doing it works.

The play cells of Lessons 2 and 7 are opened fresh in JupyterLab (untrusted, as a student
first sees them; on the page the test session's files share, each opened in place of what it
showed): each as saved, alone in a notebook under its lesson's own metadata (the lesson's other
cells are never run here, and rendering them cost the page more CPU than the rest of the test),
which is not marked modified once its kernel has started (tools/run_notebooks.py saves the
kernel's language_info). The play cell runs in the new kernel (it imports what it uses), a move
is played, and the kernel is restarted from the Kernel menu: the board then says
:data:`gamelib.ui.canvas.STOPPED_WORDS`. The test follows those words ("Run this cell
again") and plays a move on the board that appears.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gamelib.games import ConnectFour, TicTacToe
from gamelib.ui.boards import ConnectFourBoard, TicTacToeBoard
from gamelib.ui.canvas import STOPPED_WORDS

from .harness import PROJECT_ROOT, UI_TIMEOUT, LabPage, LabServer, leave_evidence, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = pytest.mark.browser

PLAY_CELL = "from gamelib.ui import play"
BEFORE = "el => getComputedStyle(el, '::before').content"
SEEN = Path("/work/screens/look")  # where the screenshots looked at are kept (if present)


def write_play_cell(server: LabServer, lesson: str) -> str:
    """Write, beside the lessons in ``server``'s folder, a notebook of ``lesson``'s play cell
    as saved (its source word for word, its saved output) under the lesson's own metadata
    (kernel and language_info, which decide whether JupyterLab marks it modified once its
    kernel has started); return its name. The test needs that one cell of the lesson: it
    runs alone in a new kernel (it imports what it uses), and the lesson's other cells,
    which the test never runs, would only cost the page seconds of CPU to render."""
    notebook = json.loads((PROJECT_ROOT / "notebooks" / lesson).read_text(encoding="utf-8"))
    cells = [cell for cell in notebook["cells"]
             if cell["cell_type"] == "code" and PLAY_CELL in "".join(cell["source"])]
    assert len(cells) == 1, f"{lesson}: {len(cells)} code cells hold {PLAY_CELL!r}, not one"
    name = f"play-cell-of-{lesson}"
    (server.root / name).write_text(json.dumps({**notebook, "cells": cells}, indent=1),
                                    encoding="utf-8")
    return name


@pytest.fixture
def fresh(shared_page: LabPage, lessons_server: LabServer,
          request: pytest.FixtureRequest) -> Iterator[LabPage]:
    """The session's page (``shared_page``, found as new) on the lessons' server: each
    test opens its notebook in place (LabPage.open_in_place; no page load)."""
    assert shared_page.server is lessons_server, "the lessons are served by the tests' server"
    shared_page.ratio = 1.0
    yield shared_page
    leave_evidence(shared_page, request)


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
    fresh.open_in_place(write_play_cell(fresh.server, lesson))
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
