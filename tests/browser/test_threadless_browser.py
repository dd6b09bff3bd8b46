"""Threadless play in a real browser (issue 24): a computer-versus-computer game with
``background=False`` moves once per tick of the page, Stop pauses it, a click is refused.

Without threads (``background=False``, and JupyterLite/Pyodide, where none can start) no
call plays more than one computer move: a hidden ``Play`` widget in the page ticks the
kernel (``PlaySession.tick``) and each tick plays the next move once the delay has passed.
Between ticks the kernel is free, so Stop and clicks get through. (The Play counts only
once its view has seen ``playing`` turn True, and this game runs before any view is drawn:
the controller restarts the ticker for each new view; before that, nothing moved here.)

The notebook is written by the test into the server's folder (it plays Connect Four,
``play(ConnectFour(), mode="computer-computer", depth=2, seed=1, delay=DELAY,
background=False)``: 29 moves, time enough to watch, stop and resume however late the page
is read). The test plays the same game on a *twin* controller in this process: a seeded
depth-limited computer is deterministic, so the twin says which discs the page must show
after each move. The discs are read back from the <canvas> element.

The Lite site (tests/browser/test_lite_browser.py) is not used: its fixture serves it
without a network (or with every outside address answering an empty reply), and its Pyodide
kernel loads its packages (micropip, ipywidgets, ipycanvas) from the CDN, even when npm's
Pyodide runtime is in the site: no cell can run there. The ticking code is the same in
Pyodide, where ``threaded`` turns False once a thread cannot start (tests/session).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from gamelib.game import replay
from gamelib.games import ConnectFour
from gamelib.search.engine import clear_caches
from gamelib.ui import PlayController, play
from gamelib.ui.boards import ConnectFourGeometry, Palette

from .harness import CENSUS_JS, UI_TIMEOUT, LabPage, LabServer, disc_boxes, rgba, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "threadless_demo.ipynb"
DELAY = 0.4
"""Seconds between the computers' moves: four of the page's ticks (100 ms), and several
reads of the canvas, so that every position between two moves is seen."""
PLAY_CALL = (f'play(ConnectFour(), mode="computer-computer", depth=2, seed=1, delay={DELAY}, '
             "background=False)")
PAUSED = "Paused. Move for either side, or press Run to continue."
REFUSED = "It is the computer's turn."

RED, YELLOW = rgba(Palette.RED), rgba(Palette.YELLOW)
Cell = tuple[int, int]  # (row from the bottom, column), both 0-based
Discs = dict[str, list[Cell]]


def write_notebook(server: LabServer) -> None:
    """The notebook of the game, saved clean (no outputs, no widget state)."""
    source = f"from gamelib.games import ConnectFour\nfrom gamelib.ui import play\n\n{PLAY_CALL}"
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "threadless-1",
                   "metadata": {}, "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                    "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    (server.root / NOTEBOOK).write_text(json.dumps(notebook), encoding="utf-8")


def twin() -> PlayController:
    """The notebook's game (:data:`PLAY_CALL`), played out at once (``wait`` plays a
    threadless game's moves itself): its history is the page's game."""
    clear_caches()
    controller = play(ConnectFour(), mode="computer-computer", depth=2, seed=1, delay=DELAY,
                      background=False, display=False)
    assert controller.wait(60) and controller.finished
    return controller


def discs_after(moves: list[int], plies: int) -> Discs:
    """The discs of the twin's game after its first ``plies`` moves."""
    game = ConnectFour()
    state = replay(game, moves[:plies])
    discs: Discs = {"red": [], "yellow": []}
    for row in range(game.rows):
        for col in range(game.cols):
            owner = game.cell(state, row, col)
            if owner is not None:
                discs["red" if owner == game.players[0] else "yellow"].append((row, col))
    return discs


def shown(lab: LabPage, canvas: Locator, geometry: ConnectFourGeometry) -> Discs:
    """The discs on the canvas: a hole counts when half of a square inside it has the
    disc's colour."""
    boxes = disc_boxes(geometry)
    counts = lab.census(canvas, list(boxes.values()), [RED, YELLOW])
    return discs_of(geometry, counts)


def discs_of(geometry: ConnectFourGeometry, counts: list[list[int]]) -> Discs:
    """The discs that a census of :func:`disc_boxes` in red and yellow shows: a hole counts
    when half of a square inside it has the disc's colour."""
    half = geometry.radius * 0.6
    holes = list(disc_boxes(geometry))
    return {name: sorted(c for c, row in zip(holes, counts, strict=True)
                         if row[n] >= 2 * half * half)
            for n, name in enumerate(("red", "yellow"))}


# Records in the page, at every frame it draws, the canvas's census (harness.CENSUS_JS) each
# time it changes, until it has changed ``wanted - 1`` times: the positions the page shows, in
# order, however late this process reads them (a read from here takes a round trip, on a
# busy machine longer than the delay between two moves).
_RECORD_JS = """(canvas, [boxes, colours, tolerance, wanted]) => {
    const census = CENSUS;
    const log = window.gamelibPositions = [];
    let last = null;
    const sample = () => {
        const counts = census(canvas, [boxes, colours, tolerance]);
        const key = JSON.stringify(counts);
        if (key !== last) {
            log.push(counts);
            last = key;
        }
        if (log.length < wanted) requestAnimationFrame(sample);
    };
    sample();
}""".replace("CENSUS", CENSUS_JS)


def record_positions(lab: LabPage, canvas: Locator, geometry: ConnectFourGeometry,
                     wanted: int) -> list[Discs]:
    """The first ``wanted`` positions the page shows from now on, each seen at a frame it
    drew (waits for them, bounded)."""
    boxes = [[v * lab.ratio for v in box] for box in disc_boxes(geometry).values()]
    canvas.evaluate(_RECORD_JS, [boxes, [list(RED[:3]), list(YELLOW[:3])], 8, wanted])

    def recorded() -> list[list[list[int]]] | None:
        log: list[list[list[int]]] = lab.page.evaluate("window.gamelibPositions")
        return log if len(log) >= wanted else None

    log = wait_until(recorded, UI_TIMEOUT / 1000, f"the page to show {wanted} positions")
    return [discs_of(geometry, counts) for counts in log[:wanted]]


_WATCH_JS = """(text) => {
    window.gamelibSawText = false;
    const notebook = document.querySelector('.jp-Notebook');
    new MutationObserver((_records, observer) => {
        if (notebook.innerText.includes(text)) {
            window.gamelibSawText = true;
            observer.disconnect();
        }
    }).observe(notebook, {subtree: true, childList: true, characterData: true});
}"""


def watch_for(lab: LabPage, text: str) -> None:
    """Note in the page whether ``text`` is ever shown from now on, however briefly (the
    computer's next move may replace a message before a poll would read it); wait with
    :func:`wait_seen`."""
    lab.page.evaluate(_WATCH_JS, text)


def wait_seen(lab: LabPage, text: str) -> None:
    wait_until(lambda: lab.page.evaluate("window.gamelibSawText"), UI_TIMEOUT / 1000,
               f"the page to show {text!r}")


def plies(discs: Discs) -> int:
    return len(discs["red"]) + len(discs["yellow"])


def test_a_threadless_computer_game_moves_per_tick_stops_and_refuses_clicks(
    shared_lab: LabPage, lab_server: LabServer
) -> None:
    lab, reference = shared_lab, twin()
    moves: list[int] = list(reference.history)  # type: ignore[arg-type]
    assert len(moves) >= 20, moves  # moves enough to watch, stop, resume and stop again
    geometry = reference.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, ConnectFourGeometry)

    write_notebook(lab_server)
    lab.run_in_place(NOTEBOOK)  # returns at once: the cell plays no move itself
    canvas = lab.visible_canvas()
    lab.expect_board(canvas, reference.board.width, reference.board.height)

    # The game runs from the start: moves appear one at a time, each at a tick of the page
    # once the delay has passed. Three positions in a row are seen (the first moves may
    # come before the page is first read), each the twin's after as many moves.
    seen = record_positions(lab, canvas, geometry, 3)
    counts = [plies(d) for d in seen]
    assert len(seen) == 3 and counts == list(range(counts[0], counts[0] + 3)), seen
    assert seen == [discs_after(moves, k) for k in counts]
    lab.wait_text("(computer) played")
    lab.screenshot("threadless-1-moves")

    # Stop: the page says it paused, and no move comes after (three delays' worth of ticks).
    lab.press_button("Stop")
    lab.wait_text(PAUSED)
    stopped = shown(lab, canvas, geometry)
    k = plies(stopped)
    assert k + 2 < len(moves) and stopped == discs_after(moves, k)
    lab.page.wait_for_timeout(3 * DELAY * 1000)
    assert shown(lab, canvas, geometry) == stopped
    lab.screenshot("threadless-2-stopped")

    # Run again, and click a column: refused with a message, and no disc of the click's; the
    # computers go on with the twin's game. (The kernel takes the button's and the
    # canvas's messages in the order they were sent.)
    watch_for(lab, REFUSED)
    lab.press_button("Run")
    lab.click_canvas(canvas, *geometry.cell_center(geometry.rows - 1, 0))
    wait_seen(lab, REFUSED)
    wait_until(lambda: plies(shown(lab, canvas, geometry)) > k, UI_TIMEOUT / 1000,
               "the computers to go on after Run")
    lab.press_button("Stop")
    lab.wait_text(PAUSED)
    after = shown(lab, canvas, geometry)
    assert after == discs_after(moves, plies(after)), (after, moves)
    lab.screenshot("threadless-3-click-refused")
