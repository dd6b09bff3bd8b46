"""Lesson 9's MCTS viewer in a real browser: the viewer fits 1280x800, each of the four phases
is in view, and Step and End change the root's visit count, read back as pixels of the page's
canvas. The page runs, word for word, the cells of the lesson that its viewer cell needs (the
setup cell, which loads the lessons' style, the imports and the viewer cell;
harness.lesson_excerpt), not the whole lesson.

The twin is a :class:`SearchView` on the very trace of the lesson's viewer cell, drawn on a
:class:`RecordingCanvas`: it says where the root's visit label ``n 0`` is, and what it reads
after each step. The test counts the ink-coloured pixels of that label on the page's canvas:
``n 0`` at the start, ``n 1`` after the first iteration's three steps, ``n 40`` at the end.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest

from gamelib.game import replay
from gamelib.games import TicTacToe
from gamelib.search.trace import Backup, Playout, Select, trace_search
from gamelib.ui.canvas import RecordingCanvas, Rect
from gamelib.ui.drawing import Palette
from gamelib.ui.search_view import PIXEL_RATIO, SHRINK, SearchView
from gamelib.ui.tree_layout import focus

from .harness import Box, LabPage, LabServer, lesson_excerpt, rgba, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import ElementHandle, Locator

pytestmark = pytest.mark.browser

LESSON = "09-Monte-Carlo-Tree-Search.ipynb"
LESSON_CALL = 'grow = trace_search(game, small, "mcts", iterations=40, seed=1)'
LESSON_CELLS = [(LESSON, "load_style()"), (LESSON, "game = TicTacToe()"), (LESSON, LESSON_CALL)]
"""The lesson's cells that its viewer cell needs, in order (:func:`harness.lesson_excerpt`)."""
NOTEBOOK = "lesson9_viewer.ipynb"
INK = rgba(Palette.INK)


def twin() -> SearchView:
    """A viewer on the trace of Lesson 9's viewer cell."""
    game = TicTacToe()
    small = replay(game, [(1, 2), (0, 2), (2, 0), (1, 0), (2, 2)])
    return SearchView(trace_search(game, small, "mcts", iterations=40, seed=1),
                      RecordingCanvas())


def root_label(view: SearchView) -> Box:
    """The root's visit label row, in device pixels of the page's canvas."""
    row = view.layout.spots[0].row(0)
    return (row.x * PIXEL_RATIO, row.y * PIXEL_RATIO, row.width * PIXEL_RATIO,
            row.height * PIXEL_RATIO)


def visits_texts(view: SearchView) -> str:
    canvas = view.canvas
    assert isinstance(canvas, RecordingCanvas)
    canvas.reset()
    view.redraw()
    return next(t for t in canvas.texts() if t.startswith("n "))


@pytest.fixture
def lessons_page(shared_lab: LabPage, lab_server: LabServer) -> LabPage:
    """The tests' shared page (``shared_lab``) at 1280 x 800 (a projector) on the fixture
    server, which holds :data:`NOTEBOOK`: Lesson 9's :data:`LESSON_CELLS`."""
    (lab_server.root / NOTEBOOK).write_text(json.dumps(lesson_excerpt(LESSON_CELLS)),
                                            encoding="utf-8")
    shared_lab.as_new(height=800)
    return shared_lab


def test_the_lesson_holds_the_viewer_cell_and_what_it_needs() -> None:
    """Each cell of :data:`LESSON_CELLS` is one code cell of Lesson 9 (else update it and the
    twin), and the viewer cell asserts the trace's size that the twin has."""
    viewer = "".join(lesson_excerpt(LESSON_CELLS)["cells"][2]["source"])
    assert "(len(grow.events), len(grow.nodes)) == (184, 29)" in viewer
    assert (len(twin().trace.events), len(twin().trace.nodes)) == (184, 29)


def on_screen(lab: LabPage, handles: list[ElementHandle], view: SearchView,
              rects: list[Rect]) -> bool:
    """Whether each of ``rects`` (layout pixels of the tree) is wholly inside the tree's
    scrolling box and the notebook's visible panel, as the page shows it now. ``handles``: the
    page's canvas, the tree's scrolling box and the notebook's visible panel, whose boxes are
    read in one call of the page (each read from here is a round trip through Playwright), as
    Playwright's bounding_box gives them: CSS pixels of the viewport."""
    shown, box, seen = lab.page.evaluate(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })", handles)
    scale = shown["width"] / view.layout.width

    def inside(rect: Rect) -> bool:
        left, top = shown["x"] + rect.x * scale, shown["y"] + rect.y * scale
        right, bottom = left + rect.width * scale, top + rect.height * scale
        return bool(box["x"] - 1 <= left and right <= box["x"] + box["width"] + 1
                    and max(box["y"], seen["y"]) - 1 <= top
                    and bottom <= min(box["y"] + box["height"], seen["y"] + seen["height"]) + 1)

    return all(inside(rect) for rect in rects)


def test_lesson_9_shows_all_four_phases_in_view_and_counts_visits_by_pixels(
    lessons_page: LabPage,
) -> None:
    """Lesson 9's viewer in JupyterLab at 1280 x 800 with the file browser open, run once:

    * the whole viewer, key included, fits the notebook panel; its controls' words are at
      least 14 px (ipywidgets' own are 13 px);
    * the root's visit label reads ``n 0`` at the start, ``n 1`` after the first iteration's
      three steps and ``n 40`` after End (ink pixels of the label: some, changed, more);
    * at the first Select all four candidates are in view; the Playout step draws its dots
      (canvas pixels in the players' colours under the new node: none before, some after)
      in view; at Backpropagate the root, its child whose values changed and the new node
      are in view, each marked with what it got. (The first Select and the step before the
      Playout are typed into the Step slider; the steps checked after a press are stepped.)"""
    lab, view = lessons_page, twin()
    assert visits_texts(view) == "n 0"
    counted = twin()
    for _ in range(3):
        counted.step()
    assert visits_texts(counted) == "n 1"
    counted.to_end()
    assert visits_texts(counted) == "n 40"
    events = view.trace.events
    select = next(k for k, e in enumerate(events) if isinstance(e, Select))
    playout = next(k for k, e in enumerate(events)
                   if k > select and isinstance(e, Playout) and len(e.moves) >= 2)
    backup = playout + 1
    assert isinstance(events[backup], Backup) and len(events[select].scores) == 4
    assert select > 3  # the visit count's three steps come first
    lab.run_in_place(NOTEBOOK)
    cell = lab.page.locator(".jp-Notebook .jp-CodeCell", has_text=LESSON_CALL).first
    viewer = cell.locator(".gamelib-viewer")
    viewer.evaluate("v => v.scrollIntoView({block: 'start'})")
    canvas: Locator = lab.visible_canvas(within=cell)
    scroller = cell.locator(".gamelib-tree-box")
    key = cell.locator(".gamelib-tree-key")
    panel = lab.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first
    whole, seen, words = viewer.bounding_box(), panel.bounding_box(), key.bounding_box()
    assert whole and seen and words
    assert lab.page.locator("#jp-left-stack").first.is_visible()   # the file browser is open
    assert whole["y"] >= seen["y"] - 1 and words["y"] + words["height"] <= (
        seen["y"] + seen["height"]), (whole, words, seen)
    lab.screenshot("lesson9_mcts_view_fits_1280x800")
    drawn = canvas.bounding_box()   # at the viewer's floor or larger: labels of 14 px or more
    assert drawn and drawn["width"] >= view.layout.width * SHRINK - 1, drawn
    sizes = cell.locator(".gamelib-viewer :is(button.widget-button, .widget-label)"
                         ).evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e)"
                                        ".fontSize))")
    assert len(sizes) >= 7 and min(sizes) >= 14, sizes
    sizes = cell.locator(".gamelib-viewer :is(button, .widget-label, .widget-readout, "
                         "label)").evaluate_all(
        "els => els.filter(e => e.innerText.trim()).map(e => "
        "parseFloat(getComputedStyle(e).fontSize))")
    assert len(sizes) >= 7 and min(sizes) >= 14, sizes
    step = cell.locator(".jp-OutputArea-output button.widget-button",
                        has_text=re.compile(r"^\s*Step\s*$"))
    handles = [canvas.element_handle(), scroller.element_handle(), panel.element_handle()]

    def step_to(target: int, typed: bool = False) -> None:
        """On to step ``target``: by Step, or ``typed`` into the Step slider (one redraw)."""
        if typed:
            while view.position < target:
                view.step()
            lab.type_into_slider("Step", target, within=cell)
        while view.position < target:
            view.step()
            step.click()
        wanted = f"step {target} of {len(view) - 1}"
        wait_until(lambda: wanted in cell.locator(".gamelib-tree-status").inner_text(), 30,
                   f"the viewer at step {target}")

    box = [root_label(view)]

    def ink() -> int:
        return lab.census(canvas, box, [INK], tolerance=40)[0][0]

    wait_until(lambda: ink() > 0, 30, "the root's label n 0 drawn")
    at_start = ink()
    step_to(3)
    wait_until(lambda: ink() not in (0, at_start), 30, "the root's label changed to n 1")
    one = ink()

    step_to(select, typed=True)
    spots = view.layout.spots
    candidates = [spots[k].box for k in events[select].scores]
    wait_until(lambda: on_screen(lab, handles, view, candidates), 10,
               "all four candidates of the first Select in view")
    lab.screenshot("lesson9_mcts_select_candidates_in_view")
    step_to(playout - 1, typed=True)
    node = events[playout].node
    chain = focus(view.trace, view.layout, playout)
    spot = spots[node]
    dots = [((spot.x - 6) * PIXEL_RATIO, spot.row(1).bottom * PIXEL_RATIO, 12 * PIXEL_RATIO,
             (chain.bottom - spot.row(1).bottom) * PIXEL_RATIO)]
    colours = [rgba(Palette.CROSS), rgba(Palette.CIRCLE)]

    def dot_pixels() -> int:
        return sum(lab.census(canvas, dots, colours, tolerance=30)[0])

    assert dot_pixels() == 0
    step_to(playout)
    wait_until(lambda: dot_pixels() > 50, 30, "the playout's dots drawn")
    wait_until(lambda: on_screen(lab, handles, view, [chain]), 10, "the playout in view")
    lab.screenshot("lesson9_mcts_playout_drawn")
    step_to(backup)
    path = [spots[k].box for k in events[backup].path[:3]]
    wait_until(lambda: on_screen(lab, handles, view, path), 10,
               "the root, its child and the new node in view at Backpropagate")
    lab.screenshot("lesson9_mcts_backpropagate_in_view")
    cell.locator(".jp-OutputArea-output button.widget-button",
                 has_text=re.compile(r"^\s*End\s*$")).click()
    wait_until(lambda: ink() > max(at_start, one), 30, "the root's label n 40 (two digits)")
    lab.screenshot("lesson9_mcts_view_end_1280x800")
