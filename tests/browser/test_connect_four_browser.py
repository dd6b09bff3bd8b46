"""Connect Four in a real browser: the play widget fits a lecture screen at every zoom, sidebar
and mode; a click drops a disc, the computer answers, bad input is explained, Undo takes both
moves back.

The fixture notebook ``notebooks/connect_four_game.ipynb`` runs
``play(ConnectFour(), depth=4, seed=1)`` in JupyterLab: the computer thinks in a thread,
as it does for students. The test plays the same moves on a *twin* controller in this
process (``background=False``, no display). A depth-limited, seeded computer is
deterministic, so the twin says exactly which disc must appear where and which message
the page must show, without this test hard-coding the engine's choice. The pixels are
read back from the <canvas> element in the page.

Both tests use one run of the fixture notebook in one kernel (:func:`game_page`): the fit test
first, which only changes the zoom, the sidebar and the mode of the page and makes no move, so
the play test then finds the game as it starts (its welcome message and an empty board, which
it asserts as ever). One notebook opened and one kernel started instead of two: about 7 s of
CPU less.

The fit test (issue 19, "the hall at 150 %"): on a 1280x800 screen, at 100 %, 125 % and 150 %
browser zoom, with the file browser open and closed, in the notebook view and in JupyterLab's
Presentation Mode (all twelve combinations), the whole board, the column buttons, the message
and the controls lie inside the notebook's visible area at once: the controls move beside or
below the board and the board shrinks. At every zoom the canvas holds at least one pixel per
device pixel, so its drawing is sharp; the board's status line (HTML over the canvas's status
band) grows with the zoom as the page's text does, and it and the message grow in Presentation
Mode. Zoom, sidebar and mode change in place. Browser zoom is emulated as the browser does it
(Chrome DevTools' device metrics): the page gets ``1280/zoom x 800/zoom`` CSS pixels and a
device pixel ratio of ``zoom``. Each combination leaves a screenshot
(``tests/screenshots/fit-<zoom>-<sidebar>-<mode>.png``) to look at.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

import pytest

from gamelib.games import ConnectFour
from gamelib.search.engine import clear_caches
from gamelib.ui import PlayController, play
from gamelib.ui.boards import ConnectFourBoard, ConnectFourGeometry, Palette

from .harness import (
    SCREENSHOTS,
    UI_TIMEOUT,
    LabPage,
    check_fixture_notebook,
    click_both,
    disc_boxes,
    rgba,
    type_refused_move,
    undo_both_moves,
    wait_equal,
)

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Locator

pytestmark = pytest.mark.browser

NOTEBOOK = "connect_four_game.ipynb"
PLAY_CALL = "play(ConnectFour(), depth=4, seed=1)"
"""What the fixture notebook runs; :func:`twin` must build the same game."""
COLUMN = 3
"""The column the human clicks, 0-based: the centre column, "4" in the game's notation."""

RED, YELLOW, HOLE = rgba(Palette.RED), rgba(Palette.YELLOW), rgba(Palette.HOLE)
Cell = tuple[int, int]  # (row from the bottom, column), both 0-based


def twin() -> PlayController:
    """A controller playing exactly as the notebook's does, computing at once (from
    empty engine caches, as in the notebook's fresh kernel)."""
    clear_caches()
    return play(ConnectFour(), depth=4, seed=1, background=False, display=False)


def discs(lab: LabPage, canvas: Locator, geometry: ConnectFourGeometry) -> dict[str, set[Cell]]:
    """Which holes show a red disc, a yellow disc, or are empty, read from the canvas.

    A cell counts only if at least half of its box is that colour (a whole disc, not
    an anti-aliased edge).
    """
    boxes = disc_boxes(geometry)
    area = next(iter(boxes.values()))[2] ** 2
    counts = lab.colour_counts(canvas, boxes, {"red": RED, "yellow": YELLOW, "hole": HOLE})
    return {name: {c for c, n in found.items() if n >= area / 2} for name, found in counts.items()}


def expected_discs(
    reference: PlayController, geometry: ConnectFourGeometry
) -> dict[str, set[Cell]]:
    """What the canvas must show for the twin's position."""
    game = reference.game
    state = reference.state
    assert isinstance(game, ConnectFour) and isinstance(state, tuple)
    shown: dict[str, set[Cell]] = {"red": set(), "yellow": set(), "hole": set()}
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            owner = game.cell(state, row, col)
            name = "hole" if owner is None else ("red" if owner == game.players[0] else "yellow")
            shown[name].add((row, col))
    return shown


def wait_discs(
    lab: LabPage, canvas: Locator, geometry: ConnectFourGeometry, expected: dict[str, set[Cell]]
) -> None:
    """Wait until the canvas shows exactly the red and yellow discs of ``expected``."""
    wanted = {name: sorted(expected[name]) for name in ("red", "yellow")}

    def shown() -> dict[str, list[Cell]]:
        found = discs(lab, canvas, geometry)
        return {name: sorted(found[name]) for name in ("red", "yellow")}

    wait_equal(shown, wanted, UI_TIMEOUT / 1000, "the discs on the board")


_BOARD = ConnectFourBoard(ConnectFour())  # as the fixture notebook's play() draws it
BAND = _BOARD.status_area.height / _BOARD.height
"""The share of the canvas's height that its status band takes."""
SCREEN = (1280, 800)
ZOOMS = (1.0, 1.25, 1.5)


def set_zoom(lab: LabPage, session: CDPSession, zoom: float) -> None:
    """Browser zoom ``zoom`` on the 1280x800 screen, in place (the page is not reloaded)."""
    page = lab.page
    width, height = round(SCREEN[0] / zoom), round(SCREEN[1] / zoom)
    session.send("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": zoom, "mobile": False})
    page.wait_for_function(
        "([w, z]) => innerWidth === w && Math.abs(devicePixelRatio - z) < 0.01", arg=[width, zoom])


# What :func:`off_screen` reads of the page, in one call (each read of the page from here is a
# round trip through Playwright and DevTools; one per part and zoom cost seconds of CPU): the
# notebook's visible area, the boxes of the play widget's parts (as Playwright's bounding_box
# gives them: CSS pixels of the viewport), the board's canvas pixels per CSS pixel and the
# device pixel ratio, and the status line's text size in device pixels. The board is the
# largest visible canvas of the output (as LabPage.visible_canvas finds it); a part that is
# not there once (or, for the buttons and the dropdown, at least once) is reported as missing.
_READ_JS = """() => {
    const rect = el => {
        const r = el.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    const widget = document.querySelector('.gamelib-play');
    const seen = el => el.checkVisibility({visibilityProperty: true})
        && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0;
    let board = null, area = 0;
    for (const c of document.querySelectorAll('.jp-OutputArea-output canvas')) {
        const r = c.getBoundingClientRect();
        if (seen(c) && r.width * r.height > area) { board = c; area = r.width * r.height; }
    }
    const button = text => [...widget.querySelectorAll('button')].filter(
        b => b.textContent.toLowerCase().includes(text.toLowerCase()));
    const found = {
        'the board': board ? [board] : [],
        'the column buttons': button('7').slice(0, 1),
        'the message line': [...widget.querySelectorAll('.gamelib-message')],
        'the status line': [...widget.querySelectorAll('.gamelib-status')],
        'the Hint button': button('Hint'),
        'the Players dropdown': [...widget.querySelectorAll('select')].slice(0, 1),
    };
    const parts = {}, missing = [];
    for (const [what, els] of Object.entries(found)) {
        if (els.length === 1) parts[what] = rect(els[0]);
        else missing.push(`${what}: ${els.length}`);
    }
    const status = document.querySelector('.gamelib-status .widget-html-content > div');
    return {
        area: rect(document.querySelector('.jp-NotebookPanel-notebook')), parts, missing,
        density: board ? board.width / board.getBoundingClientRect().width : 0,
        ratio: devicePixelRatio,
        status_px: parseFloat(getComputedStyle(status).fontSize) * devicePixelRatio,
    };
}"""


def off_screen(lab: LabPage, session: CDPSession, name: str) -> tuple[list[str], float]:
    """What of the play widget lies outside the notebook's visible area (none: []), and the
    status line's text size in device pixels; leaves a screenshot of the screen as the hall
    sees it."""
    page = lab.page
    widget = page.locator(".gamelib-play").first
    widget.wait_for(state="visible")
    widget.evaluate("w => w.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)  # let the layout settle after the scroll
    read: dict[str, Any] = page.evaluate(_READ_JS)
    assert not read["missing"], f"{name}: parts of the play widget not found once: {read}"
    area, parts = read["area"], read["parts"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"fit-{name}.png"
    # Through the same DevTools session: Playwright's own screenshot would first restore the
    # context's device metrics, undoing the zoom. Encoded for speed: the same picture, a
    # larger file.
    shot = session.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
    path.write_bytes(base64.b64decode(shot["data"]))
    print("screenshot:", path)
    wrong = []
    # Sharp text: the canvas holds at least one pixel per device pixel it covers.
    density, ratio = read["density"], read["ratio"]
    if density < ratio - 0.01:
        wrong.append(f"{name}: {density:.2f} canvas pixels per CSS pixel at ratio {ratio}")
    # The status line lies over the canvas's status band, from its top edge down.
    board, line = parts["the board"], parts["the status line"]
    band_top = board["y"] + board["height"] * (1 - BAND)
    bottom = board["y"] + board["height"]
    if abs(line["y"] - band_top) > 1.5 or line["y"] + line["height"] < bottom - 1.5:
        wrong.append(f"{name}: the status line {line} is not over the board's band {board}")
    for what, b in parts.items():
        inside = all(area[x] - 1 <= b[x] and b[x] + b[size] <= area[x] + area[size] + 1
                     for x, size in (("x", "width"), ("y", "height")))
        if not inside:
            wrong.append(f"{name}: {what} {b} is outside the visible notebook area {area}")
    return wrong, float(read["status_px"])


@pytest.fixture(scope="module")
def game_page(shared_page: LabPage) -> LabPage:
    """The file's page once it has run :data:`NOTEBOOK` (one kernel for both tests)."""
    shared_page.run_in_place(NOTEBOOK)
    return shared_page


@pytest.fixture
def game_lab(game_page: LabPage, shared_lab: LabPage) -> LabPage:
    """The page of :func:`game_page` (``shared_lab`` leaves evidence if the test fails)."""
    return game_page


def test_fixture_notebook_plays_the_twin_game() -> None:
    check_fixture_notebook(NOTEBOOK, PLAY_CALL)


def test_the_connect_four_widget_fits_at_every_zoom_sidebar_and_mode(game_lab: LabPage) -> None:
    """See the module's docstring: all twelve combinations on the fresh game's page."""
    lab = game_lab
    lab.as_new(*SCREEN)  # a 1280x800 screen at 100 % zoom
    message = lab.page.locator(".gamelib-message .widget-html-content > div").first
    status = lab.page.locator(".gamelib-status .widget-html-content > div").first
    assert "X to move" in status.inner_text()
    wrong: list[str] = []
    # The status line's text size in device pixels, by (presenting, sidebar, zoom).
    status_px: dict[tuple[bool, bool, float], float] = {}
    with lab.devtools() as session:
        for presenting in (False, True):
            lab.set_presentation_mode(presenting)
            # The play widget's text grows with the lesson's in Presentation Mode.
            size = message.evaluate("d => getComputedStyle(d).fontSize")
            assert size == ("21px" if presenting else "18px")
            assert status.evaluate("d => getComputedStyle(d).fontSize") == (
                "24px" if presenting else "20px")
            for sidebar in (True, False):
                lab.set_sidebar(sidebar)
                # Up and down the zooms in turn (100, 125, 150, then 150, 125, 100 %...): each
                # combination is laid out once, with no trip back to 100 % in between.
                for zoom in ZOOMS if len(status_px) % (2 * len(ZOOMS)) == 0 else ZOOMS[::-1]:
                    set_zoom(lab, session, zoom)
                    name = (f"{round(zoom * 100)}-{'sidebar' if sidebar else 'nosidebar'}-"
                            f"{'presenting' if presenting else 'notebook'}")
                    found, status_px[presenting, sidebar, zoom] = off_screen(lab, session, name)
                    wrong += found
    assert not wrong, "\n".join(wrong)
    # The board's status grows with the zoom, as the page's text does (it is HTML over the
    # canvas's status band, whose own text shrinks with the board).
    for (presenting, sidebar, zoom), px in status_px.items():
        assert px == pytest.approx(zoom * status_px[presenting, sidebar, 1.0]), (
            presenting, sidebar, zoom, px)


def test_click_a_column_and_the_computer_answers(game_lab: LabPage) -> None:
    """After the fit test (its page back to 1280x1000, the notebook view, the file browser
    open), on the game it left untouched."""
    lab = game_lab
    lab.as_new()
    reference = twin()
    geometry = reference.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, ConnectFourGeometry)
    holes = disc_boxes(geometry)
    assert len(holes) == 42

    canvas = lab.visible_canvas()
    lab.expect_board(canvas, reference.board.width, reference.board.height)
    lab.wait_text(reference.message)  # the welcome: "You play X (red) and start. ..."
    wait_discs(lab, canvas, geometry, expected_discs(reference, geometry))
    assert discs(lab, canvas, geometry) == {"red": set(), "yellow": set(), "hole": set(holes)}
    lab.screenshot("connect-four-1-start")

    # Click the top hole of column 4: the disc falls to the bottom, then the computer,
    # thinking in its thread, drops its own.
    x, y = geometry.cell_center(geometry.rows - 1, COLUMN)
    click_both(lab, canvas, reference, x, y)  # the twin's computer answered at once
    assert reference.history[0] == COLUMN
    after_reply = expected_discs(reference, geometry)
    assert after_reply["red"] == {(0, COLUMN)}
    assert len(after_reply["yellow"]) == 1 and len(after_reply["hole"]) == 40
    wait_discs(lab, canvas, geometry, after_reply)
    assert discs(lab, canvas, geometry) == after_reply
    bottom = geometry.cell_center(0, COLUMN)
    assert lab.pixel(canvas, *bottom) == RED
    assert lab.screen_pixel(canvas, *bottom) == RED  # and so it is on screen
    lab.wait_text(reference.message)  # e.g. "O (computer) played 4: ..."
    lab.screenshot("connect-four-2-computer-answered")

    # A column that does not exist, typed into the Move box: refused, explained, no change.
    type_refused_move(lab, reference, "9")
    assert discs(lab, canvas, geometry) == after_reply
    lab.screenshot("connect-four-3-illegal-move")

    # Undo takes back the human's disc and the computer's reply.
    undo_both_moves(lab, reference)
    wait_discs(lab, canvas, geometry, expected_discs(reference, geometry))
    lab.wait_text(reference.message)  # "Took back 4, ..."
    lab.screenshot("connect-four-4-undone")
