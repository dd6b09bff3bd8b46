"""Lesson 9's MCTS viewer in a real browser: Step and End change the root's visit count,
read back as pixels of the page's canvas.

The twin is a :class:`SearchView` on the very trace of the lesson's viewer cell, drawn on a
:class:`RecordingCanvas`: it says where the root's visit label ``n 0`` is, and what it reads
after each step. The test counts the ink-coloured pixels of that label on the page's canvas:
``n 0`` at the start, ``n 1`` after the first iteration's three steps, ``n 40`` at the end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from gamelib.game import replay
from gamelib.games import TicTacToe
from gamelib.search.trace import trace_search
from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.drawing import Palette
from gamelib.ui.search_view import PIXEL_RATIO, SearchView

from .harness import PROJECT_ROOT, Box, LabPage, LabServer, page_on, rgba, serving_copy, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator

pytestmark = pytest.mark.browser

LESSON = "09-Monte-Carlo-Tree-Search.ipynb"
LESSON_CALL = 'grow = trace_search(game, small, "mcts", iterations=40, seed=1)'
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


@pytest.fixture(scope="module")
def lessons_server(browser: Browser) -> Iterator[LabServer]:
    with serving_copy(PROJECT_ROOT / "notebooks") as server:
        yield server


@pytest.fixture
def lessons_page(browser: Browser, lessons_server: LabServer,
                 request: pytest.FixtureRequest) -> Iterator[LabPage]:
    with page_on(browser, lessons_server, request, height=800) as page:
        yield page


def test_lesson_9_steps_change_the_visit_count_by_pixels(lessons_page: LabPage) -> None:
    lab, view = lessons_page, twin()
    assert visits_texts(view) == "n 0"
    for _ in range(3):
        view.step()
    assert visits_texts(view) == "n 1"
    view.to_end()
    assert visits_texts(view) == "n 40"
    cells = json.loads((PROJECT_ROOT / "notebooks" / LESSON).read_text(encoding="utf-8"))["cells"]
    assert any(LESSON_CALL in "".join(c["source"]) for c in cells), (
        "Lesson 9's viewer cell changed: update the twin")
    lab.open_notebook(LESSON)
    cell = lab.run_through(LESSON_CALL)  # not the lesson's Connect Four matches after it
    cell.scroll_into_view_if_needed()
    canvas: Locator = lab.visible_canvas(within=cell)
    canvas.scroll_into_view_if_needed()
    box = [root_label(view)]

    def ink() -> int:
        return lab.census(canvas, box, [INK], tolerance=40)[0][0]

    wait_until(lambda: ink() > 0, 30, "the root's label n 0 drawn")
    at_start = ink()
    step = cell.locator(".jp-OutputArea-output button.widget-button",
                        has_text=re.compile(r"^\s*Step\s*$"))
    for _ in range(3):
        step.click()
    wait_until(lambda: ink() not in (0, at_start), 30, "the root's label changed to n 1")
    one = ink()
    cell.locator(".jp-OutputArea-output button.widget-button",
                 has_text=re.compile(r"^\s*End\s*$")).click()
    wait_until(lambda: ink() > max(at_start, one), 30, "the root's label n 40 (two digits)")
    lab.screenshot("lesson9_mcts_view_end_1280x800")
    # Its controls' words are at least 14 px (ipywidgets' own are 13 px).
    sizes = cell.locator(".gamelib-viewer :is(button.widget-button, .widget-label)"
                         ).evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e)"
                                        ".fontSize))")
    assert len(sizes) >= 7 and min(sizes) >= 14, sizes
