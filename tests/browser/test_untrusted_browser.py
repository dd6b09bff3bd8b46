"""A lesson opened fresh (never run here, so untrusted) shows pictures, not Python text.

JupyterLab renders no SVG from an untrusted notebook and falls back to an output's plain text;
every saved board and search viewer therefore carries a PNG too (gamelib.ui.picture), and a
sentence as its text. The test opens Lesson 2 (boards drawn by ``show_board``, search viewers)
in a JupyterLab whose settings are new, without running a cell, and checks every output area:
no widget repr anywhere, and each saved picture shown as an image of non-zero size.

A second test stops the kernel of a running lesson (Kernel > Restart, then a reload): the board
says so in the project's words (gamelib.ui.canvas.STOPPED_KERNEL_CSS).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from .harness import PROJECT_ROOT, LabPage, LabServer, page_on, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

LESSON = "02-Minimax.ipynb"
REPRS = ("VBox(", "HBox(", "Canvas(", "<BoardPicture")


@pytest.fixture
def fresh(
    browser: Browser, lessons_server: LabServer, request: pytest.FixtureRequest
) -> Iterator[LabPage]:
    with page_on(browser, lessons_server, request) as page:
        yield page


def saved_pictures(name: str) -> int:
    """The number of outputs of lesson ``name`` that carry a PNG picture."""
    notebook = json.loads((PROJECT_ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return sum("image/png" in output.get("data", {})
               for cell in notebook["cells"] for output in cell.get("outputs", []))


def test_a_fresh_untrusted_lesson_shows_its_pictures(fresh: LabPage) -> None:
    pictures = saved_pictures(LESSON)
    assert pictures >= 3, f"{LESSON} should save its boards and viewers as pictures"
    fresh.open_notebook(LESSON)
    page = fresh.page
    outputs = page.locator(".jp-Notebook .jp-OutputArea-output")
    images = page.locator(".jp-Notebook .jp-OutputArea-output[data-mime-type='image/png'] img")
    images.nth(pictures - 1).wait_for(state="attached")
    assert images.count() == pictures
    # Decoded and laid out: a real picture of non-zero size, not a broken image.
    sizes = images.evaluate_all(
        "imgs => Promise.all(imgs.map(i => i.decode().then(() => "
        "[i.naturalWidth, i.getBoundingClientRect().width, i.getBoundingClientRect().height])))"
    )
    assert all(natural > 0 and width > 0 and height > 0 for natural, width, height in sizes), sizes
    texts = outputs.all_inner_texts()
    shown = [text[:80] for text in texts if any(bad in text for bad in REPRS)]
    assert not shown, f"outputs that show a widget's Python text: {shown}"
    images.first.scroll_into_view_if_needed()
    fresh.screenshot("untrusted-lesson-viewer")
    images.last.scroll_into_view_if_needed()
    fresh.screenshot("untrusted-lesson-play")


STOPPED = "The kernel has stopped: run this cell again to play."
BEFORE = "el => getComputedStyle(el, '::before').content"


def test_a_board_says_so_when_its_kernel_has_stopped(fresh: LabPage) -> None:
    """Lesson 1 run, then its kernel restarted: the board keeps its picture and says so above
    it; saved and reloaded: the words instead of ipywidgets' "model not found"."""
    lesson = "01-Tic-Tac-Toe.ipynb"
    fresh.open_notebook(lesson)
    fresh.run_all_cells()
    page = fresh.page
    board = page.locator(".jp-Notebook .gamelib-live").last
    board.wait_for(state="visible")
    # Kernel > Restart Kernel..., as a student would (the page then knows it restarts).
    page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(r"^Kernel$")).click()
    page.locator(".lm-Menu .lm-Menu-item:has(.lm-Menu-itemLabel:text-matches('^Restart Kernel'))"
                 ).first.click()
    page.locator(".jp-Dialog button.jp-mod-accept").click()
    stopped = page.locator(".jp-Notebook .gamelib-live.jupyter-widgets-disconnected").last
    stopped.wait_for(state="attached")
    assert STOPPED in stopped.evaluate(BEFORE)
    assert board.locator("canvas").first.is_visible()  # the last picture stays
    board.scroll_into_view_if_needed()
    fresh.screenshot("stopped-kernel-1-restarted")

    fresh.wait_kernel_idle()
    page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    wait_until(lambda: not page.locator(".jp-mod-dirty").count(), 30, "the notebook saved")
    page.reload(wait_until="domcontentloaded")
    page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(state="visible")
    fresh.wait_kernel_idle()
    gone = page.locator(".jp-Notebook .jp-OutputArea-output.jupyter-widgets").last
    gone.wait_for(state="attached")
    assert "model not found" in gone.inner_text() or gone.inner_text() == ""
    assert STOPPED in gone.evaluate(BEFORE)
    gone.scroll_into_view_if_needed()
    fresh.screenshot("stopped-kernel-2-reloaded")
