"""Boards survive a reload: a play board and a ``show_board`` picture are drawn again
whenever a page (re)connects to the kernel, and when the cells run again in it.

The fixture notebook ``notebooks/boards_reload.ipynb`` shows a tic-tac-toe board with an X
in the centre (two players, so no computer thinks) and a Connect Four picture with a red
disc under a yellow one in column 4. The test runs it, saves it (so that the page that
opens it next has widget outputs to show) and then checks the boards by their pixels:

1. after Run All;
2. after the page is reloaded, before anything runs: the kernel redraws the restored views;
3. after Run All again in the same kernel (new boards, the page's new canvas manager);
4. in a second window opened on the same notebook, beside the first (it shows the saved
   outputs, whose boards the kernel still holds), and in the first one still.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from gamelib.games import ConnectFour, TicTacToe
from gamelib.ui.boards import ConnectFourBoard, Palette, TicTacToeBoard

from .harness import KERNEL_TIMEOUT, UI_TIMEOUT, LabPage, check_fixture_notebook, rgba, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = pytest.mark.browser

NOTEBOOK = "boards_reload.ipynb"
TTT_BOARD = TicTacToeBoard(TicTacToe())
C4_BOARD = ConnectFourBoard(ConnectFour())


def board_canvas(lab: LabPage, cell: int) -> Locator:
    """The canvas in the output of code cell ``cell`` (0-based), once it is attached."""
    code = lab.page.locator(".jp-Notebook .jp-CodeCell").nth(cell)
    code.locator(".jp-OutputArea-output canvas").first.wait_for(
        state="attached", timeout=KERNEL_TIMEOUT
    )
    code.scroll_into_view_if_needed()
    return lab.visible_canvas(within=code)


def check_boards(lab: LabPage, when: str, o_in_corner: bool = False) -> None:
    """Both boards show their position, read from their canvases' pixels: an X in the
    centre (and an O in the top left corner if ``o_in_corner``), and the two discs."""
    ttt = board_canvas(lab, 1)
    lab.expect_board(ttt, TTT_BOARD.width, TTT_BOARD.height)
    centre = TTT_BOARD.geometry.cell_rect((1, 1)).center
    lab.wait_pixel(ttt, *centre, rgba(Palette.CROSS))  # where the X's strokes cross
    corner = TTT_BOARD.geometry.cell_rect((0, 0))
    ring = (corner.center[0] + corner.width * 0.29, corner.center[1])  # on the O's ring
    if o_in_corner:
        lab.wait_pixel(ttt, *ring, rgba(Palette.CIRCLE), tolerance=8)
    else:
        lab.wait_pixel(ttt, *ring, rgba(Palette.BACKGROUND))
    c4 = board_canvas(lab, 2)
    lab.expect_board(c4, C4_BOARD.width, C4_BOARD.height)
    geometry = C4_BOARD.geometry
    lab.wait_pixel(c4, *geometry.cell_center(0, 3), rgba(Palette.RED), tolerance=2)
    lab.wait_pixel(c4, *geometry.cell_center(1, 3), rgba(Palette.YELLOW), tolerance=2)
    lab.wait_pixel(c4, *geometry.cell_center(0, 0), rgba(Palette.HOLE), tolerance=2)
    print("screenshot:", lab.screenshot(f"reload-{when}"))


def save(lab: LabPage) -> None:
    """Save the notebook (Ctrl+S) and wait until the file on disk holds the outputs."""
    lab.page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
    lab.page.keyboard.press("Control+s")
    lab.page.locator(".jp-NotebookPanel-toolbar").first.wait_for(state="visible")

    # The file is read from disk, not through the contents API: a read there while the server
    # writes the file makes jupyter_server answer 400, or put its backup copy back (a 500).
    def saved() -> bool:
        try:
            notebook = json.loads((lab.server.root / NOTEBOOK).read_text(encoding="utf-8"))
        except (OSError, ValueError):  # being written
            return False
        return any(cell.get("outputs") for cell in notebook["cells"]
                   if cell["cell_type"] == "code")

    wait_until(saved, KERNEL_TIMEOUT / 1000, "the notebook to be saved with its outputs")


def test_boards_are_drawn_after_a_reload_a_rerun_and_in_a_second_window(
    shared_lab: LabPage,
) -> None:
    lab = shared_lab
    lab.run_in_place(NOTEBOOK)
    check_boards(lab, "1-run")
    # O's move, clicked: the play board is now the canvas the kernel drew last, the
    # one whose redraw after a reload must name its canvas afresh.
    lab.click_canvas(board_canvas(lab, 1), *TTT_BOARD.geometry.cell_rect((0, 0)).center)
    check_boards(lab, "1-clicked", o_in_corner=True)
    save(lab)

    lab.reload()
    check_boards(lab, "2-reloaded", o_in_corner=True)

    lab.run_all_cells()
    check_boards(lab, "3-run-again")

    second = LabPage(lab.page.context.new_page(), lab.server)
    second.page.set_default_timeout(UI_TIMEOUT)
    second.page.goto(lab.page.url, wait_until="domcontentloaded")
    second.page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(
        state="visible", timeout=KERNEL_TIMEOUT
    )
    second.wait_kernel_idle()
    # It shows the saved outputs: the boards of the first run, still live in the kernel.
    check_boards(second, "4-second-window", o_in_corner=True)
    check_boards(lab, "5-first-window-still")
    second.page.close()


BLANK_NOTEBOOK = "blank_canvas.ipynb"
WORDS = rgba("#b3261e")  # the colour of "Nothing drawn here yet."


def words_on_screen(lab: LabPage, canvas: Locator) -> int:
    """How many pixels on screen, over the canvas, have the colour of the words."""
    import io

    from matplotlib.image import imread

    image = imread(io.BytesIO(canvas.screenshot()), format="png")
    colours = (image[:, :, :3] * 255).round().astype(int)
    return int((abs(colours - list(WORDS[:3])).max(axis=2) <= 24).sum())


def test_a_canvas_not_drawn_yet_says_what_to_do(shared_lab: LabPage) -> None:
    lab = shared_lab
    lab.open_in_place(BLANK_NOTEBOOK)  # in the page of the test above, if it ran
    first = lab.page.locator(".jp-Notebook .jp-CodeCell").first
    first.locator(".jp-InputArea-editor").click()
    lab.page.keyboard.press("Shift+Enter")  # runs the first cell, selects the second
    canvas = board_canvas(lab, 0)
    wait_until(lambda: words_on_screen(lab, canvas) > 50, UI_TIMEOUT / 1000,
               "the words on the blank canvas")
    print("screenshot:", lab.screenshot("blank-canvas-1-words"))
    lab.page.keyboard.press("Shift+Enter")  # the second cell draws the picture
    # Its opaque background covers the canvas, as every board's does: the words are gone.
    wait_until(lambda: words_on_screen(lab, canvas) == 0, UI_TIMEOUT / 1000,
               "the words to be covered by the picture")
    print("screenshot:", lab.screenshot("blank-canvas-2-drawn"))


def test_the_fixture_notebooks_are_saved_clean() -> None:
    check_fixture_notebook(NOTEBOOK, "show_board(")
    check_fixture_notebook(BLANK_NOTEBOOK, "LiveCanvas(")
