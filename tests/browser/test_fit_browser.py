"""The Connect Four play widget fits a lecture screen: at 1280x800, at 125 % and 150 %
browser zoom and in JupyterLab's Presentation Mode, the whole board, the column buttons,
the message beside the board and the controls are on screen at once. At 100 % the file
browser stays open; at the larger zooms and in Presentation Mode it is hidden (Ctrl+B),
as a lecturer does. At every zoom the canvas has at least one pixel per device pixel,
so its text is as sharp as the HTML beside it.

Browser zoom is emulated as the browser does it: the page gets ``1280/zoom x 800/zoom``
CSS pixels and a device pixel ratio of ``zoom``. Each case leaves a screenshot
(``tests/screenshots/fit-*.png``) to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .harness import SCREENSHOTS, UI_TIMEOUT, LabPage, LabServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator

pytestmark = pytest.mark.browser

NOTEBOOK = "connect_four_game.ipynb"
SCREEN = (1280, 800)


@pytest.fixture
def zoomed(browser: Browser, lab_server: LabServer, request: pytest.FixtureRequest
           ) -> Iterator[LabPage]:
    """A page on a 1280x800 screen at the zoom ``request.param``."""
    zoom = request.param
    context = browser.new_context(
        viewport={"width": round(SCREEN[0] / zoom), "height": round(SCREEN[1] / zoom)},
        device_scale_factor=zoom,
    )
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT)
    try:
        yield LabPage(page, lab_server)
    finally:
        context.close()
        for session in lab_server.api("sessions") or []:
            lab_server.api(f"sessions/{session['id']}", method="DELETE")


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not laid out"
    return found


def presentation_mode(lab: LabPage) -> None:
    """Turn on Presentation Mode from the command palette."""
    page = lab.page
    page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.keyboard.press("Control+Shift+C")
    page.locator(".lm-CommandPalette-input").fill("Presentation Mode")
    page.locator(".lm-CommandPalette-item", has_text="Presentation Mode").first.click()
    page.locator(".jp-mod-presentationMode").first.wait_for(state="attached")


def collapse_sidebar(lab: LabPage) -> None:
    """Hide the file browser (Ctrl+B), as a lecturer does to give the notebook the room."""
    page = lab.page
    page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.keyboard.press("Control+b")
    page.locator("#jp-left-stack").wait_for(state="hidden")


def assert_on_screen(lab: LabPage, name: str) -> None:
    """Everything of the play widget lies inside the notebook's visible area."""
    widget = lab.page.locator(".gamelib-play").first
    widget.wait_for(state="visible")
    widget.evaluate("w => w.scrollIntoView({block: 'start'})")
    lab.page.wait_for_timeout(300)  # let the layout settle after the scroll
    area = box(lab.page.locator(".jp-NotebookPanel-notebook").first)
    parts: dict[str, Any] = {
        "the board": lab.visible_canvas(),
        "the column buttons": widget.locator("button", has_text="7").first,
        "the message line": widget.locator(".gamelib-message"),
        "the Hint button": widget.locator("button", has_text="Hint"),
        "the Players dropdown": widget.locator("select").first,
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"fit-{name}.png"
    lab.page.screenshot(path=str(path))  # the screen as the hall sees it
    print("screenshot:", path)
    # Sharp text: the canvas holds at least one pixel per device pixel it covers.
    density, ratio = parts["the board"].evaluate(
        "c => [c.width / c.getBoundingClientRect().width, devicePixelRatio]")
    assert density >= ratio - 0.01, f"{name}: {density:.2f} canvas pixels per CSS pixel"
    for what, locator in parts.items():
        b = box(locator)
        assert area["y"] - 1 <= b["y"] and b["y"] + b["height"] <= area["y"] + area["height"] + 1, (
            f"{name}: {what} is outside the visible notebook area vertically: {b} vs {area}")
        assert area["x"] - 1 <= b["x"] and b["x"] + b["width"] <= area["x"] + area["width"] + 1, (
            f"{name}: {what} is outside the visible notebook area horizontally: {b} vs {area}")


@pytest.mark.parametrize("zoomed", [1.0, 1.25, 1.5], indirect=True, ids=["100", "125", "150"])
def test_the_connect_four_widget_fits_at_lecture_zoom(zoomed: LabPage) -> None:
    zoomed.open_notebook(NOTEBOOK)
    zoomed.run_all_cells()
    zoom = zoomed.page.evaluate("devicePixelRatio")
    if zoom > 1:  # at 100 % the file browser may stay open
        collapse_sidebar(zoomed)
    assert_on_screen(zoomed, f"zoom-{round(zoom * 100)}")


@pytest.mark.parametrize("zoomed", [1.0], indirect=True, ids=["100"])
def test_the_connect_four_widget_fits_in_presentation_mode(zoomed: LabPage) -> None:
    zoomed.open_notebook(NOTEBOOK)
    zoomed.run_all_cells()
    collapse_sidebar(zoomed)
    message = zoomed.page.locator(".gamelib-message .widget-html-content > div").first
    assert message.evaluate("d => getComputedStyle(d).fontSize") == "18px"
    presentation_mode(zoomed)
    # The play widget's text grows with the lesson's, and everything still fits.
    assert message.evaluate("d => getComputedStyle(d).fontSize") == "21px"
    assert_on_screen(zoomed, "presentation-mode")
