"""The Connect Four play widget fits a lecture screen (issue 19, "the hall at 150 %").

On a 1280x800 screen, at 100 %, 125 % and 150 % browser zoom, with the file browser open and
closed, in the notebook view and in JupyterLab's Presentation Mode (all twelve combinations),
the whole board, the column buttons, the message and the controls lie inside the notebook's
visible area at once: the controls move beside or below the board and the board shrinks. At
every zoom the canvas holds at least one pixel per device pixel, so its drawing is sharp; the
board's status line (HTML over the canvas's status band) grows with the zoom as the page's text
does, and it and the message grow in Presentation Mode.

One JupyterLab page runs the game once; zoom, sidebar and mode then change in place. Browser
zoom is emulated as the browser does it (Chrome DevTools' device metrics): the page gets
``1280/zoom x 800/zoom`` CSS pixels and a device pixel ratio of ``zoom``. Each combination
leaves a screenshot (``tests/screenshots/fit-<zoom>-<sidebar>-<mode>.png``) to look at.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

import pytest

from gamelib.games import ConnectFour
from gamelib.ui.boards import ConnectFourBoard

from .harness import SCREENSHOTS, LabPage

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Locator

pytestmark = pytest.mark.browser

NOTEBOOK = "connect_four_game.ipynb"
_BOARD = ConnectFourBoard(ConnectFour())  # as the fixture notebook's play() draws it
BAND = _BOARD.status_area.height / _BOARD.height
"""The share of the canvas's height that its status band takes."""
SCREEN = (1280, 800)
ZOOMS = (1.0, 1.25, 1.5)


@pytest.fixture
def lab_screen(shared_lab: LabPage) -> LabPage:
    """The tests' shared page (``shared_lab``) on a 1280x800 screen at 100 % zoom."""
    shared_lab.as_new(*SCREEN)
    return shared_lab


def set_zoom(lab: LabPage, session: CDPSession, zoom: float) -> None:
    """Browser zoom ``zoom`` on the 1280x800 screen, in place (the page is not reloaded)."""
    page = lab.page
    width, height = round(SCREEN[0] / zoom), round(SCREEN[1] / zoom)
    session.send("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": zoom, "mobile": False})
    page.wait_for_function(
        "([w, z]) => innerWidth === w && Math.abs(devicePixelRatio - z) < 0.01", arg=[width, zoom])


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not laid out"
    return found


def off_screen(lab: LabPage, session: CDPSession, name: str) -> list[str]:
    """What of the play widget lies outside the notebook's visible area (none: []); leaves a
    screenshot of the screen as the hall sees it."""
    page = lab.page
    widget = page.locator(".gamelib-play").first
    widget.wait_for(state="visible")
    widget.evaluate("w => w.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)  # let the layout settle after the scroll
    area = box(page.locator(".jp-NotebookPanel-notebook").first)
    parts: dict[str, Any] = {
        "the board": lab.visible_canvas(),
        "the column buttons": widget.locator("button", has_text="7").first,
        "the message line": widget.locator(".gamelib-message"),
        "the status line": widget.locator(".gamelib-status"),
        "the Hint button": widget.locator("button", has_text="Hint"),
        "the Players dropdown": widget.locator("select").first,
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"fit-{name}.png"
    # Through the same DevTools session: Playwright's own screenshot would first restore the
    # context's device metrics, undoing the zoom.
    shot = session.send("Page.captureScreenshot", {"format": "png"})
    path.write_bytes(base64.b64decode(shot["data"]))
    print("screenshot:", path)
    wrong = []
    # Sharp text: the canvas holds at least one pixel per device pixel it covers.
    density, ratio = parts["the board"].evaluate(
        "c => [c.width / c.getBoundingClientRect().width, devicePixelRatio]")
    if density < ratio - 0.01:
        wrong.append(f"{name}: {density:.2f} canvas pixels per CSS pixel at ratio {ratio}")
    # The status line lies over the canvas's status band, from its top edge down.
    board, line = box(parts["the board"]), box(parts["the status line"])
    band_top = board["y"] + board["height"] * (1 - BAND)
    bottom = board["y"] + board["height"]
    if abs(line["y"] - band_top) > 1.5 or line["y"] + line["height"] < bottom - 1.5:
        wrong.append(f"{name}: the status line {line} is not over the board's band {board}")
    for what, locator in parts.items():
        b = box(locator)
        inside = all(area[x] - 1 <= b[x] and b[x] + b[size] <= area[x] + area[size] + 1
                     for x, size in (("x", "width"), ("y", "height")))
        if not inside:
            wrong.append(f"{name}: {what} {b} is outside the visible notebook area {area}")
    return wrong


def test_the_connect_four_widget_fits_at_every_zoom_sidebar_and_mode(lab_screen: LabPage) -> None:
    lab = lab_screen
    lab.open_in_place(NOTEBOOK)
    lab.run_all_cells()
    session = lab.page.context.new_cdp_session(lab.page)
    message = lab.page.locator(".gamelib-message .widget-html-content > div").first
    status = lab.page.locator(".gamelib-status .widget-html-content > div").first
    assert "X to move" in status.inner_text()
    wrong: list[str] = []
    # The status line's text size in device pixels, by (presenting, sidebar, zoom).
    status_px: dict[tuple[bool, bool, float], float] = {}
    for presenting in (False, True):
        lab.set_presentation_mode(presenting)
        # The play widget's text grows with the lesson's in Presentation Mode.
        size = message.evaluate("d => getComputedStyle(d).fontSize")
        assert size == ("21px" if presenting else "18px")
        assert status.evaluate("d => getComputedStyle(d).fontSize") == (
            "24px" if presenting else "20px")
        for sidebar in (True, False):
            lab.set_sidebar(sidebar)
            for zoom in ZOOMS:
                set_zoom(lab, session, zoom)
                name = (f"{round(zoom * 100)}-{'sidebar' if sidebar else 'nosidebar'}-"
                        f"{'presenting' if presenting else 'notebook'}")
                wrong += off_screen(lab, session, name)
                status_px[presenting, sidebar, zoom] = status.evaluate(
                    "d => parseFloat(getComputedStyle(d).fontSize) * devicePixelRatio")
            set_zoom(lab, session, 1.0)
    assert not wrong, "\n".join(wrong)
    # The board's status grows with the zoom, as the page's text does (it is HTML over the
    # canvas's status band, whose own text shrinks with the board).
    for (presenting, sidebar, zoom), px in status_px.items():
        assert px == pytest.approx(zoom * status_px[presenting, sidebar, 1.0]), (
            presenting, sidebar, zoom, px)
