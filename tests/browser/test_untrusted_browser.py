"""A lesson opened fresh (never run here, so untrusted) shows pictures, not Python text.

JupyterLab renders no SVG from an untrusted notebook and falls back to another form of an
output; every saved board and search viewer therefore carries an HTML ``<img>`` of its picture,
a PNG and a sentence (gamelib.ui.picture). A front end renders a saved output from its forms
alone, whichever lesson holds it, so the tests open one notebook made at run time from the
lessons' own saved outputs: Lesson 1, then one output of every kind it lacks, each kind by its
widest picture (tests/picture_kinds.py; tests/notebooks/test_picture_kinds.py checks without
a browser that it holds every kind, and what holds output by output in every lesson). They
open it in a
JupyterLab whose settings are new, without running a cell, and as nbconvert's HTML (what
nbviewer shows), and check every output area: no widget repr anywhere (``VBox(``,
``Canvas(`` ...), each saved picture shown as an image of non-zero size with its alt text,
no search tree shrunk below readable labels, and the setup cell's note shown. (Notebook 7:
tests/browser/test_notebook7_browser.py runs the same checks there.)

A second test then runs Lesson 1 there, plays a move and stops the kernel (Kernel > Restart,
then the saved notebook opened again): the board says so in the project's words
(gamelib.ui.canvas.STOPPED_KERNEL_CSS).
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat
import pytest
from picture_kinds import (
    REPRS,
    kinds_notebook,
    picture_alt,
    picture_outputs,
    text_of,
)

from gamelib.games import TicTacToe
from gamelib.ui.boards import TicTacToeBoard
from gamelib.ui.canvas import STOPPED_WORDS, Rect

from .harness import (
    PROJECT_ROOT,
    SCREENSHOTS,
    LabPage,
    LabServer,
    report_if_failed,
    rgba,
    serving_static,
    wait_until,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

pytestmark = pytest.mark.browser

TTT_BOARD = TicTacToeBoard(TicTacToe())


LESSON_1 = "01-Tic-Tac-Toe.ipynb"
KINDS = "kinds.ipynb"
"""Lesson 1 as saved, then an output of every kind of saved output that it lacks."""


@functools.cache
def kinds() -> Any:
    """The notebook :data:`KINDS` (picture_kinds.kinds_notebook after Lesson 1)."""
    return kinds_notebook(base=PROJECT_ROOT / "notebooks" / LESSON_1)[0]


def write_kinds(folder: Path) -> None:
    """Write :func:`kinds` into ``folder`` as :data:`KINDS` (a test saves it: each server
    gets a copy of its own)."""
    nbformat.write(kinds(), folder / KINDS)


@pytest.fixture(scope="module")
def app(shared_page: LabPage, lessons_server: LabServer) -> LabPage:
    """The tests' shared page (``shared_page``, as new): JupyterLab (new settings) showing
    :data:`KINDS`, written just before and opened alone (in place: no new page; the
    notebook's kernel starts once): the first test checks it fresh, the second runs it."""
    write_kinds(lessons_server.root)
    shared_page.open_in_place(KINDS)
    return shared_page


@pytest.fixture
def fresh(app: LabPage, request: pytest.FixtureRequest) -> Iterator[LabPage]:
    """The page of :func:`app`; a failing test leaves a screenshot and the logs' tails."""
    yield app
    report_if_failed(app, request)


PANEL = "#jp-main-dock-panel .jp-NotebookPanel"
"""The selector of :data:`KINDS`'s panel, the app's only one."""


def picture_texts() -> list[str]:
    """The sentence (``text/plain``) of each picture output of :func:`kinds`, in order."""
    return [text_of(output.data.get("text/plain", "")) for output in picture_outputs(kinds())]


# For each output area: [its text, [width, height, decoded width] of the picture it shows
# (an <img> or an <svg>; null for none), its alt text (null for none)], once every <img> in it
# is decoded.
_OUTPUTS_JS = """outs => Promise.all(outs.map(async o => {
    const picture = o.querySelector('img, svg');
    if (picture && picture.tagName === 'IMG') await picture.decode().catch(() => 0);
    const r = picture && picture.getBoundingClientRect();
    return [o.innerText, picture && [r.width, r.height,
                                     picture.tagName === 'IMG' ? picture.naturalWidth : r.width],
            picture && picture.getAttribute('alt')];
}))"""


TREE_LABEL_PX = 16  # gamelib.ui.search_svg's node labels, in picture pixels
READABLE_PX = 14  # the smallest a label may be shown
NO_ALT = "No description has been provided for this image"  # what nbconvert writes for none


def untrusted_faults(page: Page, where: str, outputs: str) -> list[str]:
    """What is wrong with the notebook of :func:`kinds` as the page shows it (``where``
    names the front end), fresh and untrusted: outputs (the elements ``outputs`` selects)
    that show a widget's Python text; fewer shown pictures of non-zero size than the notebook
    saved; a picture whose alt text is not the one saved (nbconvert's placeholder
    included); a search tree shown so narrow that its labels are under READABLE_PX (its
    bounding box against its own width). Waits (bounded) for the pictures first."""
    texts = picture_texts()
    expected = len(texts)

    def shown() -> list[Any]:
        found = page.locator(outputs).evaluate_all(_OUTPUTS_JS)
        pictures = [p for _, p, _ in found if p and min(p) > 0]
        return found if len(pictures) >= expected else []

    try:
        found = wait_until(shown, 30, f"{where}: {expected} pictures shown")
    except pytest.fail.Exception:
        found = page.locator(outputs).evaluate_all(_OUTPUTS_JS)
    faults = [f"{where}: an output shows {text[:80]!r}" for text, _, _ in found
              if any(bad in text for bad in REPRS)]
    pictures = [(p, alt) for _, p, alt in found if p and min(p) > 0]
    if len(pictures) != expected:
        return [*faults, f"{where}: {len(pictures)} pictures of non-zero size shown, "
                         f"{expected} saved ({[p for _, p, _ in found if p]})"]
    alts = [picture_alt(output) for output in picture_outputs(kinds())]
    shown_alts = [alt for _, alt in pictures]
    if shown_alts != alts:
        faults.append(f"{where}: the pictures' alt texts are {shown_alts}, not {alts}")
    # The outputs' pictures, in order, are the saved ones.
    for number, (text, ((width, _, own), _)) in enumerate(zip(texts, pictures, strict=True), 1):
        label = TREE_LABEL_PX * width / own
        if text.startswith("Search tree") and label < READABLE_PX - 0.05:
            faults.append(f"{where}: picture {number}, a search tree {own:.0f} px wide, "
                          f"is shown {width:.0f} px wide: labels of {label:.1f} px")
    return faults


# For each output of a cell: [the height of its strip, prompt included; the text of the
# output itself, prompt left out].
_STRIPS_JS = """outs => outs.map(o => [o.getBoundingClientRect().height,
    (o.querySelector('.jp-OutputArea-output') || o).innerText.trim()])"""


def setup_faults(page: Page, where: str, notebook: str) -> list[str]:
    """An output of the setup cell (the first code cell of ``notebook``, the selector of its
    panel; its saved output is every lesson's) shown as an empty strip: JupyterLab strips the
    untrusted ``<style>``, and gamelib.style.SETUP_NOTE must be what is left, not nothing."""
    setup = page.locator(f"{notebook} .jp-CodeCell").first
    strips = setup.locator(".jp-OutputArea-child").evaluate_all(_STRIPS_JS)
    if not strips:
        return [f"{where}: the setup cell shows no output (its saved one is the setup note)"]
    return [f"{where}: the setup cell shows an empty output strip {height:.0f} px high"
            for height, text in strips if height > 0 and not text]


def test_every_kind_of_saved_output_shows_fresh_and_untrusted_in_jupyterlab(
    fresh: LabPage,
) -> None:
    """The notebook of every kind of saved output opened fresh in JupyterLab (never run here:
    untrusted): no widget's Python text, every saved picture shown with its alt text, no
    search tree with labels under READABLE_PX, and under the setup cell one line of text
    (gamelib.style.SETUP_NOTE), not an empty strip."""
    page = fresh.page
    faults = untrusted_faults(page, "JupyterLab", f"{PANEL} .jp-OutputArea-output")
    faults += setup_faults(page, "JupyterLab", PANEL)
    images = page.locator(f"{PANEL} .jp-OutputArea-output img")
    images.first.scroll_into_view_if_needed()
    fresh.screenshot("untrusted-lesson-viewer")
    images.last.scroll_into_view_if_needed()
    fresh.screenshot("untrusted-lesson-play")
    trees = page.locator(f'{PANEL} .jp-OutputArea-output img[alt^="Search tree"]')
    widths = trees.evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    trees.nth(widths.index(max(widths))).scroll_into_view_if_needed()
    fresh.screenshot("untrusted-widest-tree")
    assert not faults, "\n".join(faults)


def test_every_kind_of_saved_output_shows_in_nbconvert_html(
    browser: Browser, tmp_path: Path
) -> None:
    """nbconvert's HTML of the notebook of every kind of saved output (what nbviewer shows):
    the same checks; so every picture is an <img> whose alt text says what it shows (a
    board's or tree's sentence, a chart's description: gamelib.plots.describe_figure), never
    nbconvert's "No description has been provided for this image"."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_notebook_node(kinds())
    (tmp_path / "kinds.html").write_text(body, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        with serving_static(tmp_path) as url:
            page.goto(f"{url}kinds.html", wait_until="load")
            faults = untrusted_faults(page, "nbconvert", ".jp-OutputArea-output")
            blank = page.locator(f'img[alt="{NO_ALT}"], img:not([alt])').count()
            if blank:
                faults.append(f"nbconvert: {blank} <img> without alt text")
        page.locator(".jp-OutputArea-output img").last.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "untrusted-nbconvert-last-lesson.png"))
        assert not faults, "\n".join(faults)
    finally:
        context.close()


STOPPED = STOPPED_WORDS
BEFORE = "el => getComputedStyle(el, '::before').content"


def still_of(cell: Locator) -> Locator:
    """The still of the board in code cell ``cell`` (gamelib.ui.still): its 0 x 0 PNG."""
    return cell.locator('.jp-OutputArea-output > img[width="0"][height="0"]')


def crosses(image: Locator, rect: Rect) -> int:
    """How many pixels of ``image`` on screen, inside ``rect`` of the board (in board pixels,
    scaled as the image is shown), have the colour of an X."""
    import numpy as np
    from PIL import Image

    from gamelib.ui.boards import Palette

    with Image.open(io.BytesIO(image.screenshot())) as picture:
        shown = np.asarray(picture.convert("RGB"), dtype=float)
    scale = shown.shape[1] / TTT_BOARD.width
    part = shown[round(rect.y * scale):round(rect.bottom * scale),
                 round(rect.x * scale):round(rect.right * scale)]
    cross = rgba(Palette.CROSS)[:3]
    return int((abs(part.round() - list(cross)).max(axis=2) <= 24).sum())


def test_a_board_says_so_when_its_kernel_has_stopped(fresh: LabPage) -> None:
    """Lesson 1 (:data:`KINDS`, whose cells are the lesson's, then the other kinds' outputs
    under comments) run and a move played, then its kernel restarted: the board keeps its
    picture and says so above it; saved, closed and opened again (in place, as a student opens
    the saved lesson later: a new panel, whose widget manager finds none of the board's models
    in the new kernel, as a reloaded page finds none in the restarted one; no page load): the
    words instead of ipywidgets' "model not found", and under them the board's last picture,
    with the move (its still)."""
    fresh.run_all_cells()  # KINDS is this server's copy: it is saved below
    page = fresh.page
    board = page.locator(".jp-Notebook .gamelib-live").last
    board.wait_for(state="visible")
    cell = page.locator(".jp-Notebook .jp-CodeCell", has=page.locator(".gamelib-live")).last
    still = still_of(cell)
    # The still is there while the board lives, but takes no room.
    assert still.count() == 1 and not still.is_visible()
    first_still = still.get_attribute("src")
    canvas = fresh.visible_canvas(within=cell)
    fresh.expect_board(canvas, TTT_BOARD.width, TTT_BOARD.height)
    corner = TTT_BOARD.geometry.cell_rect((0, 0))
    canvas.scroll_into_view_if_needed()
    fresh.click_canvas(canvas, *corner.center)  # X in the top left corner (two players)
    wait_until(lambda: still.get_attribute("src") != first_still, 30,
               "the still brought up to date after the move")
    assert not still.is_visible()
    # Kernel > Restart Kernel..., as a student would (the page then knows it restarts).
    page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(r"^Kernel$")).click()
    page.locator(".lm-Menu .lm-Menu-item:has(.lm-Menu-itemLabel:text-matches('^Restart Kernel'))"
                 ).first.click()
    page.locator(".jp-Dialog button.jp-mod-accept").click()
    stopped = page.locator(".jp-Notebook .gamelib-live.jupyter-widgets-disconnected").last
    stopped.wait_for(state="attached")
    assert STOPPED in stopped.evaluate(BEFORE)
    assert board.locator("canvas").first.is_visible()  # the last picture stays
    assert not still.is_visible()  # and only once
    board.scroll_into_view_if_needed()
    fresh.screenshot("stopped-kernel-1-restarted")

    fresh.wait_kernel_idle()
    page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    wait_until(lambda: not page.locator(".jp-mod-dirty").count(), 30, "the notebook saved")
    fresh.open_in_place(KINDS)  # the tab closed, its kernel shut down; opened again
    gone = page.locator(".jp-Notebook .jp-OutputArea-output.jupyter-widgets").last
    gone.wait_for(state="attached")
    assert "model not found" in gone.inner_text() or gone.inner_text() == ""
    assert STOPPED in gone.evaluate(BEFORE)
    # Under the words, the board's last picture: the still, now at its own size.
    cell = page.locator(".jp-Notebook .jp-CodeCell",
                        has=page.locator(".jp-OutputArea-output.jupyter-widgets")).last
    still = still_of(cell)
    still.wait_for(state="visible")
    words, picture = gone.bounding_box(), still.bounding_box()
    assert words and picture and picture["width"] > 100 and picture["height"] > 100
    assert picture["y"] >= words["y"] + words["height"] - 1
    cell.scroll_into_view_if_needed()
    fresh.screenshot("stopped-kernel-2-reopened")
    assert crosses(still, corner) > 50, "the still shows the X played before the restart"
    assert crosses(still, TTT_BOARD.geometry.cell_rect((1, 1))) == 0
    # Every board of the lesson shows its still under the words: show_board's too.
    cells = page.locator(".jp-Notebook .jp-CodeCell",
                         has=page.locator(".jp-OutputArea-output.jupyter-widgets"))
    assert cells.count() >= 2
    for index in range(cells.count()):
        shown = still_of(cells.nth(index))
        shown.scroll_into_view_if_needed()
        box = shown.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, f"board {index}: no still"
