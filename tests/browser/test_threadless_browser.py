"""Threadless play in a real browser (issue 24): a computer-versus-computer game with
``background=False`` moves once per tick of the page, Stop pauses it, a click is refused.

Without threads (``background=False``, and JupyterLite/Pyodide, where none can start) no
call plays more than one computer move: a hidden ``Play`` widget in the page ticks the
kernel (``PlaySession.tick``) and each tick plays the next move once the delay has passed.
Between ticks the kernel is free, so Stop and clicks get through. (The Play counts only
once its view has seen ``playing`` turn True, and this game runs before any view is drawn:
the controller restarts the ticker for each new view; before that, nothing moved here.)

The notebook is written by the test into the server's folder (it plays
``play(TicTacToe(), mode="computer-computer", depth=1, seed=1, delay=DELAY,
background=False)``). The test plays the same game on a *twin* controller in this process:
a seeded depth-limited computer is deterministic, so the twin says which marks the page
must show after each move. The marks are read back from the <canvas> element.

The Lite site (tests/browser/test_lite_browser.py) is not used: its fixture serves it
without a network (or with every outside address answering an empty reply), and its Pyodide
kernel loads its packages (micropip, ipywidgets, ipycanvas) from the CDN, even when npm's
Pyodide runtime is in the site: no cell can run there. The ticking code is the same in
Pyodide, where ``threaded`` turns False once a thread cannot start (tests/session).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import pytest

from gamelib.game import replay
from gamelib.games import TicTacToe
from gamelib.search.engine import clear_caches
from gamelib.ui import PlayController, play
from gamelib.ui.boards import Palette, TicTacToeGeometry

from .harness import UI_TIMEOUT, Box, LabPage, LabServer, rgba, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "threadless_demo.ipynb"
DELAY = 0.4
"""Seconds between the computers' moves: four of the page's ticks (100 ms), and several
reads of the canvas, so that every position between two moves is seen."""
PLAY_CALL = (f'play(TicTacToe(), mode="computer-computer", depth=1, seed=1, delay={DELAY}, '
             "background=False)")
PAUSED = "Paused. Move for either side, or press Run to continue."
REFUSED = "It is the computer's turn."

CROSS, CIRCLE = rgba(Palette.CROSS), rgba(Palette.CIRCLE)
Cell = tuple[int, int]
CELLS = [(row, col) for row in range(3) for col in range(3)]
Marks = dict[str, list[Cell]]


def write_notebook(server: LabServer) -> None:
    """The notebook of the game, saved clean (no outputs, no widget state)."""
    source = f"from gamelib.games import TicTacToe\nfrom gamelib.ui import play\n\n{PLAY_CALL}"
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
    controller = play(TicTacToe(), mode="computer-computer", depth=1, seed=1, delay=DELAY,
                      background=False, display=False)
    assert controller.wait(30) and controller.finished
    return controller


def marks_after(moves: list[Cell], plies: int) -> Marks:
    """The marks of the twin's game after its first ``plies`` moves."""
    state = replay(TicTacToe(), moves[:plies])
    return {name: sorted((r, c) for r, c in CELLS if state[r][c] == name) for name in "XO"}


def shown(lab: LabPage, canvas: Locator, geometry: TicTacToeGeometry) -> Marks:
    """The marks on the canvas: a cell counts when 5% of it has the mark's colour."""
    boxes: dict[Cell, Box] = {}
    for cell in CELLS:
        rect = geometry.cell_rect(cell)
        inset = rect.width * 0.08
        boxes[cell] = (rect.x + inset, rect.y + inset, rect.width - 2 * inset,
                       rect.height - 2 * inset)
    area = next(iter(boxes.values()))[2] ** 2
    counts = lab.colour_counts(canvas, boxes, {"X": CROSS, "O": CIRCLE})
    return {name: sorted(c for c, n in counts[name].items() if n >= 0.05 * area)
            for name in "XO"}


def plies(marks: Marks) -> int:
    return len(marks["X"]) + len(marks["O"])


def test_a_threadless_computer_game_moves_per_tick_stops_and_refuses_clicks(
    lab: LabPage, lab_server: LabServer
) -> None:
    reference = twin()
    moves: list[Cell] = list(reference.history)  # type: ignore[arg-type]
    assert len(moves) >= 6, moves  # enough to watch three, stop, resume and stop again
    geometry = reference.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, TicTacToeGeometry)

    write_notebook(lab_server)
    lab.open_notebook(NOTEBOOK)
    lab.run_all_cells()  # returns at once: the cell plays no move itself
    canvas = lab.visible_canvas()
    lab.expect_board(canvas, reference.board.width, reference.board.height)

    # Moves appear one at a time, each at a tick of the page once the delay has passed:
    # every position is seen (the first may have come as the board was drawn), each the
    # twin's after as many moves.
    seen: list[Marks] = []
    deadline = time.monotonic() + UI_TIMEOUT / 1000
    while (not seen or plies(seen[-1]) < 3) and time.monotonic() < deadline:
        marks = shown(lab, canvas, geometry)
        if not seen or marks != seen[-1]:
            seen.append(marks)
    counts = [plies(m) for m in seen]
    assert counts[0] <= 1 and counts == list(range(counts[0], 4)), seen
    assert seen == [marks_after(moves, k) for k in counts]
    lab.wait_text("(computer) played")
    lab.screenshot("threadless-1-moves")

    # Stop: the page says it paused, and no move comes after (three delays' worth of ticks).
    lab.press_button("Stop")
    lab.wait_text(PAUSED)
    stopped = shown(lab, canvas, geometry)
    k = plies(stopped)
    assert k < len(moves) and stopped == marks_after(moves, k)
    lab.page.wait_for_timeout(3 * DELAY * 1000)
    assert shown(lab, canvas, geometry) == stopped
    lab.screenshot("threadless-2-stopped")

    # Run again, and click an empty cell the computer is not about to take: refused with a
    # message, and no mark of the click's; the computers go on with the twin's game. (The
    # kernel takes the button's and the canvas's messages in the order they were sent.)
    lab.press_button("Run")
    target = next(c for c in CELLS if c not in moves[:k + 2])
    lab.click_canvas(canvas, *geometry.cell_rect(target).center)
    lab.wait_text(REFUSED)
    wait_until(lambda: plies(shown(lab, canvas, geometry)) > k, UI_TIMEOUT / 1000,
               "the computers to go on after Run")
    lab.press_button("Stop")
    lab.wait_text(PAUSED)
    after = shown(lab, canvas, geometry)
    assert after == marks_after(moves, plies(after)), (after, moves)
    lab.screenshot("threadless-3-click-refused")
