"""A lesson opened fresh (never run here, so untrusted) shows pictures, not Python text.

JupyterLab renders no SVG from an untrusted notebook and falls back to an output's plain text;
every saved board and search viewer therefore carries a PNG too (gamelib.ui.picture), and a
sentence as its text. The test opens Lesson 2 (boards drawn by ``show_board``, search viewers)
in a JupyterLab whose settings are new, without running a cell, and checks every output area:
no widget repr anywhere, and each saved picture shown as an image of non-zero size.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from .harness import PROJECT_ROOT, LabPage, LabServer, page_on, serving_copy

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

LESSON = "02-Minimax.ipynb"
REPRS = ("VBox(", "HBox(", "Canvas(", "<BoardPicture")


@pytest.fixture(scope="module")
def lessons_server(browser: Browser) -> Iterator[LabServer]:
    """JupyterLab serving a temporary copy of the lessons, with new settings and no
    notebook signatures: every lesson is untrusted there."""
    with serving_copy(PROJECT_ROOT / "notebooks") as server:
        yield server


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
