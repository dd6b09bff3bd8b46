"""The search viewer in a real browser: five presses of Step move the highlight, by pixels.

The fixture notebook ``notebooks/search_view.ipynb`` shows alpha-beta on a tic-tac-toe
position with four empty squares. A *twin* viewer in this process, on the same trace and
a RecordingCanvas, says where the highlighted node is at each step; the test reads the
highlight colour back from the page's <canvas>, which holds PIXEL_RATIO device pixels per
layout pixel. Screenshots at 1280 x 800 go to ``tests/screenshots/``.
"""

from __future__ import annotations

import base64
import json
import re
from typing import TYPE_CHECKING

import pytest

from gamelib.game import CHANCE, replay
from gamelib.games import RandomTurnTicTacToe, TicTacToe
from gamelib.search.trace import trace_search
from gamelib.ui.boards import Palette
from gamelib.ui.canvas import STOPPED_WORDS, RecordingCanvas
from gamelib.ui.search_snapshot import snapshot
from gamelib.ui.search_svg import READABLE, search_svg
from gamelib.ui.search_view import PIXEL_RATIO, SHRINK, SearchView

from .harness import (
    SCREENSHOTS,
    Box,
    LabPage,
    LabServer,
    check_fixture_notebook,
    lesson_excerpt,
    rgba,
    wait_until,
)

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = pytest.mark.browser

NOTEBOOK = "search_view.ipynb"
CALL = 'show_search(trace_search(game, state, "alphabeta"))'
HIGHLIGHT = rgba(Palette.HIGHLIGHT)


def twin() -> SearchView:
    """A viewer on the very trace the notebook shows."""
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0)])
    return SearchView(trace_search(game, state, "alphabeta"), RecordingCanvas())


def halo(view: SearchView, node: int) -> Box:
    """The left strip of the highlight around ``node``'s box (the board inside the box
    highlights its last move in the same colour, so the box itself is left out), in
    device pixels of the page's canvas."""
    box = view.layout.spots[node].box
    return (
        (box.x - 6) * PIXEL_RATIO, (box.y + 4) * PIXEL_RATIO, 5 * PIXEL_RATIO,
        (box.height - 8) * PIXEL_RATIO,
    )


def lit(lab: LabPage, canvas: Locator, boxes: list[Box]) -> list[bool]:
    """Whether each box shows the highlight colour (over half its pixels)."""
    counts = lab.census(canvas, boxes, [HIGHLIGHT])
    return [row[0] > 0.5 * box[2] * box[3] for row, box in zip(counts, boxes, strict=True)]


def test_fixture_notebook_shows_the_twins_trace() -> None:
    check_fixture_notebook(NOTEBOOK, CALL)


# -- Lessons 4 and 10, in one page ---------------------------------------------------------
#
# The notebook of these tests holds, word for word, the cells of Lessons 4 and 10 that their
# viewer cells need (harness.lesson_excerpt): the setup cell (the lessons' style), Lesson 4's
# definitions and its first viewer cell, then Lesson 10's imports and its viewer cell: the
# lessons' own calls, in the state the lessons give them, without the rest of the lessons. The
# file's one page (``shared_lab``) runs it once; each test steps its own viewer, and the Lesson
# 4 test, which saves the notebook and shuts its kernel down, comes second.

LESSON = "04-Alpha-Beta-Pruning.ipynb"
LESSON_CALL = 'plain = trace_search(game, four, "alphabeta")'
"""The lesson's first viewer cell; Lesson 2's position, O to move: X X O / . . X / . O ."""
CHANCE_LESSON = "10-Chance-and-Expectiminimax.ipynb"
CHANCE_CALL = 'coin_trace = trace_search(game, bottom_row, "expectiminimax")'
LESSONS = "lesson_viewers.ipynb"
LESSON_CELLS = [
    (LESSON, "load_style()"), (LESSON, "def board("), (LESSON, LESSON_CALL),
    (CHANCE_LESSON, "game = RandomTurnTicTacToe()"), (CHANCE_LESSON, CHANCE_CALL),
]
"""The lessons' cells that the viewer cells need, in order (:func:`harness.lesson_excerpt`)."""


def test_the_lessons_hold_the_viewer_cells_and_what_they_need() -> None:
    """Each cell of :data:`LESSON_CELLS` is one code cell of its lesson (else update it and
    the twins); the viewer cells are there, and what the lesson asserts of them with them."""
    sources = ["".join(c["source"]) for c in lesson_excerpt(LESSON_CELLS)["cells"]]
    assert "(minimax_trace.calls, plain.calls) == (57, 32)" in sources[2]
    assert "(coin_trace.calls, steps) == (53, 128)" in sources[4]


@pytest.fixture(scope="module")
def lessons_page(shared_page: LabPage, lab_server: LabServer) -> LabPage:
    """The file's page at 1280 x 800 (a projector), once it has run :data:`LESSONS`."""
    (lab_server.root / LESSONS).write_text(json.dumps(lesson_excerpt(LESSON_CELLS)),
                                           encoding="utf-8")
    shared_page.page.set_viewport_size({"width": 1280, "height": 800})
    shared_page.run_in_place(LESSONS)
    return shared_page


@pytest.fixture
def lessons(lessons_page: LabPage, shared_lab: LabPage) -> LabPage:
    """The page of :func:`lessons_page` (``shared_lab`` leaves evidence if the test fails)."""
    return lessons_page


def viewer_cell(lab: LabPage, call: str) -> Locator:
    """The code cell whose source holds ``call``, scrolled into view."""
    cell = lab.page.locator(".jp-Notebook .jp-CodeCell", has_text=call).first
    cell.scroll_into_view_if_needed()
    return cell


def step_button(cell: Locator) -> Locator:
    return cell.locator(".jp-OutputArea-output button.widget-button",
                        has_text=re.compile(r"^\s*Step\s*$"))


def chance_twin() -> SearchView:
    """A viewer on the trace of Lesson 10's viewer cell."""
    game = RandomTurnTicTacToe()
    bottom_row = game.from_text("X|O|X\n-+-+-\nO|X|O\n-+-+-\n | | \ncoin: in the air")
    return SearchView(trace_search(game, bottom_row, "expectiminimax"), RecordingCanvas())


def round_halo(view: SearchView, node: int) -> tuple[Box, Box]:
    """Two strips just left of ``node``'s box, in device pixels of the page's canvas: one at
    its middle height, which a highlight drawn round the node lights whatever its shape,
    and one at its top corner, which only a square highlight lights."""
    box = view.layout.spots[node].box
    middle = ((box.x - 6) * PIXEL_RATIO, (box.center[1] - 4) * PIXEL_RATIO,
              4 * PIXEL_RATIO, 8 * PIXEL_RATIO)
    corner = ((box.x - 6) * PIXEL_RATIO, (box.y - 6) * PIXEL_RATIO,
              4 * PIXEL_RATIO, 8 * PIXEL_RATIO)
    return middle, corner


def test_lesson_10_chance_nodes_are_round_labelled_and_summed(lessons: LabPage) -> None:
    """Lesson 10's expectiminimax viewer, run in JupyterLab at 1280 x 800: the root, a
    chance node, is highlighted round (its middle strip lit, its corner not); one Step
    shows the probability 1/2 above the root's first outcome (label pixels where there were
    none) and highlights that outcome, a player's node, square (both strips lit); on to the
    next chance node (typed into the Step slider, as the next one) the round highlight moves
    there, and at the first outcome that returns into a chance node the status line gives the
    expectation so far."""
    lab, view = lessons, chance_twin()
    trace = view.trace
    chance = [n.id for n in trace.nodes if n.player == CHANCE]
    second = next(k for k, e in enumerate(trace.events) if e.node in chance[1:])
    summed = next(k for k in range(len(trace)) if "so far" in snapshot(trace, k).message)
    assert 0 < second < summed < 20
    cell = viewer_cell(lab, CHANCE_CALL)
    canvas = lab.visible_canvas(within=cell)
    canvas.scroll_into_view_if_needed()
    status = cell.locator(".gamelib-tree-status")
    assert lab.canvas_size(canvas) == (
        view.layout.width * PIXEL_RATIO, view.layout.height * PIXEL_RATIO)
    wait_until(lambda: lit(lab, canvas, list(round_halo(view, 0))) == [True, False], 30,
               "the root, a chance node, highlighted round")
    # A probability label: the row above the root's first outcome, empty before it is
    # entered, holds "1/2" one step later.
    first = next(n.id for n in trace.nodes if n.parent == 0)
    row = view.layout.spots[first].row(-1)
    label = [(row.x * PIXEL_RATIO, row.y * PIXEL_RATIO, row.width * PIXEL_RATIO,
              row.height * PIXEL_RATIO)]
    grey = rgba(READABLE[Palette.NEUTRAL])

    def label_ink() -> int:
        return lab.census(canvas, label, [grey], tolerance=40)[0][0]

    assert label_ink() == 0
    step = step_button(cell)
    step.click()
    view.step()
    wait_until(lambda: label_ink() > 20, 30, "the probability 1/2 above the first outcome")
    # That outcome is a player's node, a square: its highlight lights the corner strip too.
    wait_until(lambda: lit(lab, canvas, list(round_halo(view, first))) == [True, True], 30,
               "the square highlight on the first outcome")
    while view.position < second:  # on to it through the Step slider: one redraw
        view.step()
    lab.type_into_slider("Step", second, within=cell)
    node = view.event.node
    wait_until(lambda: lit(lab, canvas, list(round_halo(view, node))) == [True, False], 30,
               f"the round highlight on chance node {node} at step {second}")
    assert lit(lab, canvas, list(round_halo(view, 0))) == [False, False]
    cell.locator(".gamelib-current").scroll_into_view_if_needed()
    lab.screenshot("lesson10_chance_node_highlighted_1280x800")
    while view.position < summed:
        view.step()
    lab.type_into_slider("Step", summed, within=cell)
    wanted = f"{view.message} step {summed} of {len(view) - 1}".split()
    assert "so far." in view.message and "1/2 ×" in view.message
    wait_until(lambda: status.inner_text().split() == wanted, 30, "the expectation in words")
    status.evaluate("s => s.scrollIntoView({block: 'start'})")   # the words, then the tree
    lab.screenshot("lesson10_expectation_so_far_1280x800")


def lesson_twin() -> SearchView:
    """A viewer on the trace of Lesson 4's first viewer cell."""
    game = TicTacToe()
    four = replay(game, [(0, 0), (0, 2), (0, 1), (2, 1), (1, 2)])
    trace = trace_search(game, four, "alphabeta")
    assert (trace.value, trace.calls) == (1, 32)  # the counts the lesson asserts
    return SearchView(trace, RecordingCanvas())


def test_lesson_4_five_steps_move_the_highlight_and_leave_a_still_after_a_reload(
    lessons: LabPage,
) -> None:
    """Lesson 4's first viewer cell in JupyterLab at 1280 x 800. Five presses of Step in that
    viewer move the highlight from the root to the node of step 5 (by pixels, as the twin
    says).
    Then the notebook is saved, its kernel shut down and the page reloaded: the viewer's
    output says so (STOPPED_KERNEL_CSS) and shows, under the words, the tree at step 5 (its
    still, gamelib.ui.still), byte for byte the PNG of search_svg at that step; while the
    viewer lived, the still took no room. (After the Lesson 10 test: it ends their kernel.)"""
    lab, view = lessons, lesson_twin()
    start = view.event.node
    for _ in range(5):
        assert view.step()
    after = view.event.node
    assert after != start
    expected = base64.b64encode(search_svg(view.trace, 5).png).decode("ascii")
    page = lab.page
    cell = viewer_cell(lab, LESSON_CALL)
    still = cell.locator('.jp-OutputArea-output > img[width="0"][height="0"]')
    assert still.count() == 1
    canvas = lab.visible_canvas(within=cell)
    canvas.scroll_into_view_if_needed()
    assert lab.canvas_size(canvas) == (
        view.layout.width * PIXEL_RATIO, view.layout.height * PIXEL_RATIO)
    boxes = [halo(view, start), halo(view, after)]
    wait_until(lambda: lit(lab, canvas, boxes) == [True, False], 30, "the root highlighted")
    step = step_button(cell)
    for _ in range(5):
        step.click()
    wait_until(lambda: lit(lab, canvas, boxes) == [False, True], 30,
               f"Lesson 4: the highlight on node {after} after five steps")
    lab.screenshot("lesson4_search_view_step5_1280x800")
    wait_until(lambda: still.get_attribute("src") == f"data:image/png;base64,{expected}", 30,
               "the still of step 5")
    assert not still.is_visible()
    page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    wait_until(lambda: not page.locator(".jp-mod-dirty").count(), 30, "the notebook saved")
    lab.shut_down_kernels()  # no kernel any more
    lab.reload()
    cell = page.locator(".jp-CodeCell", has_text=LESSON_CALL).first
    cell.scroll_into_view_if_needed()
    gone = cell.locator(".jp-OutputArea-output.jupyter-widgets").first
    gone.wait_for(state="attached")
    assert STOPPED_WORDS in gone.evaluate("el => getComputedStyle(el, '::before').content")
    still = cell.locator('.jp-OutputArea-output > img[width="0"][height="0"]')
    still.wait_for(state="visible")
    assert still.get_attribute("src") == f"data:image/png;base64,{expected}"
    words, picture = gone.bounding_box(), still.bounding_box()
    assert words and picture and picture["y"] >= words["y"] + words["height"] - 1
    assert picture["width"] > 300 and picture["height"] > 200
    still.scroll_into_view_if_needed()
    lab.screenshot("lesson4_search_view_reloaded_without_kernel")


# -- The fixture notebook's wide tree (last: it closes the file browser) ------------------


def test_steps_move_the_highlight_and_a_wide_tree_keeps_it_in_view(shared_lab: LabPage) -> None:
    """The fixture's viewer at 1280 x 800 with the file browser open, run once:

    * five presses of Step move the highlight from the root to the node of step 5 (by
      pixels, as the twin says), and End brings it back to the root;
    * the tree (1,228 px) is wider than the output even at its smallest (SHRINK): the box
      scrolls, and follows the current node from the far left of the tree (step 3, by Step)
      to its far right (step 41, typed into the Step slider); the status line and the key
      stay whole and in view at 100 % and 150 % zoom;
    * saved, the output holds the search as an SVG picture; after a reload the kernel still
      holds the viewer, and the new canvas asks for its picture again."""
    lab, view, fifth = shared_lab, twin(), twin()
    assert view.layout.width * SHRINK > 1000
    for _ in range(5):
        assert fifth.step()
    start, after = view.event.node, fifth.event.node
    assert after != start, "the fixture must move the highlight within five steps"
    lab.page.set_viewport_size({"width": 1280, "height": 800})
    lab.run_in_place(NOTEBOOK)
    page = lab.page
    scroller = page.locator(".gamelib-tree-box").first
    mark = page.locator(".gamelib-current").first
    status = page.locator(".gamelib-tree-status").first
    key = page.locator(".gamelib-tree-key").first
    canvas = lab.visible_canvas()
    canvas.scroll_into_view_if_needed()
    assert lab.canvas_size(canvas) == (
        view.layout.width * PIXEL_RATIO, view.layout.height * PIXEL_RATIO)
    width, room = scroller.evaluate("s => [s.scrollWidth, s.clientWidth]")
    assert width > room + 50, f"the tree ({width} px) should be wider than its box ({room} px)"
    assert canvas.bounding_box()["width"] == pytest.approx(view.layout.width * SHRINK, abs=1)
    boxes = [halo(view, start), halo(view, after)]
    wait_until(lambda: lit(lab, canvas, boxes) == [True, False], 30, "the root highlighted")
    lab.screenshot("search_view_start_1280x800")
    for target in (3, 5, 41):
        if target == 41:  # far on: typed into the Step slider's readout (one redraw, not 36)
            while view.position < target:
                view.step()
            lab.type_into_slider("Step", target)
        while view.position < target:
            view.step()
            lab.press_button("Step")
        node = view.event.node
        wanted = f"{view.message} step {target} of {len(view) - 1}".split()
        wait_until(lambda wanted=wanted: status.inner_text().split() == wanted, 30,
                   f"the status line of step {target}")
        if target == 5:
            assert node == after
            wait_until(lambda: lit(lab, canvas, boxes) == [False, True], 30,
                       f"the highlight on node {after} after five steps")
            lab.wait_text("")  # the refusal note stays empty: no step was refused
            lab.screenshot("search_view_step5_1280x800")
            continue
        x = view.layout.spots[node].box.center[0]

        def marked(share: float = 100 * x / view.layout.width) -> bool:
            return bool(abs(mark.evaluate("m => parseFloat(m.style.left)") - share) < 0.01)

        wait_until(marked, 30, f"the mark on node {node} at step {target}")

        def in_view() -> bool:
            box, seen = mark.bounding_box(), scroller.bounding_box()
            return bool(box and seen and seen["x"] <= box["x"] <= seen["x"] + seen["width"])

        wait_until(in_view, 10, f"the current node in view at step {target}")
        lab.screenshot(f"search_view_wide_step{target}")
    # It scrolled to the right: node 41's centre lies past the box's width in the tree.
    assert view.layout.spots[view.event.node].box.center[0] * SHRINK > room
    assert scroller.evaluate("s => s.scrollLeft") > 0
    # The status line and the key stay in view: they are outside the scrolling box (the
    # tree's box clips the canvas's own), at 100 % and at 150 % browser zoom (emulated as
    # the browser does it: 1280/zoom x 800/zoom CSS pixels, zoom device pixels per CSS px).
    assert key.inner_text().split() == " ".join(view.layout.legend).split()
    with lab.devtools() as session:
        for zoom in (1.0, 1.5):
            width, height = round(1280 / zoom), round(800 / zoom)
            session.send("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": zoom, "mobile": False})
            page.wait_for_function("w => innerWidth === w", arg=width)
            scroller.evaluate("s => { s.scrollLeft = s.scrollWidth; }")  # to the right end
            wait_until(lambda: scroller.evaluate("s => s.scrollLeft") > 0, 10, "scrolled right")
            for name, part in (("status line", status), ("key", key)):
                part.scroll_into_view_if_needed()
                page.wait_for_timeout(200)  # the scroll settles
                seen = part.bounding_box()
                assert seen is not None, f"the {name} is laid out at {zoom:.0%}"
                assert seen["x"] >= 0 and seen["x"] + seen["width"] <= width, (
                    f"the {name} lies across the viewport's side at {zoom:.0%}: {seen}")
                assert seen["y"] >= 0 and seen["y"] + seen["height"] <= height, (
                    f"the {name} lies across the viewport's top or bottom at {zoom:.0%}: {seen}")
                # Whole: no word cut off or hidden in an overflow.
                assert part.evaluate("p => p.scrollWidth <= p.clientWidth + 1")
                assert scroller.evaluate("s => s.scrollLeft") > 0  # still scrolled to the right
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                shot = session.send("Page.captureScreenshot",
                                    {"format": "png", "optimizeForSpeed": True})
                path = SCREENSHOTS / (f"search_view_wide_right_end_{round(zoom * 100)}_"
                                      f"{name.split()[0]}.png")
                path.write_bytes(base64.b64decode(shot["data"]))
                print("screenshot:", path)
    lab.press_button("End")
    wait_until(lambda: lit(lab, canvas, [halo(view, 0)]) == [True], 30,
               "the root highlighted again at the end")
    lab.screenshot("search_view_end_1280x800")
    # The viewer's output also carries the whole search as an SVG picture, which a saved
    # notebook keeps for GitHub and nbviewer (the live page shows the widget instead).
    lab.page.keyboard.press("Control+s")
    saved = lab.server.root / "search_view.ipynb"
    wait_until(lambda: "image/svg+xml" in saved.read_text(encoding="utf-8"), 30,
               "the saved notebook holds the viewer's SVG picture")
    # A lecturer reloads the page: the kernel still holds the viewer, the new canvas
    # starts blank and asks for the picture again (ipycanvas's client_ready).
    lab.reload()
    canvas = lab.visible_canvas()
    wait_until(lambda: lit(lab, canvas, [halo(view, 0)]) == [True], 30,
               "the root highlighted again after a reload")
    lab.screenshot("search_view_reloaded_1280x800")
    # As in a lecture: the side bar closed, the tree in view.
    lab.page.keyboard.press("Control+b")
    canvas.scroll_into_view_if_needed()
    lab.screenshot("search_view_lecture_1280x800")
