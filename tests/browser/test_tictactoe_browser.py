"""Tic-tac-toe in a real browser: a click puts an X, the computer answers with an O, bad
input is explained, Undo takes both moves back.

The fixture notebook ``notebooks/tictactoe_game.ipynb`` runs ``play(TicTacToe(), seed=1)``
in JupyterLab (the perfect computer, thinking in a thread). The test plays the same moves
on a *twin* controller in this process (``background=False``, no display); a seeded
perfect player is deterministic, so the twin says exactly where the O must appear and
which message the page must show. The pixels are read back from the <canvas> element.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from gamelib.games import TicTacToe
from gamelib.search.engine import clear_caches
from gamelib.ui import PlayController, play
from gamelib.ui.boards import Palette, TicTacToeGeometry

from .harness import (
    UI_TIMEOUT,
    Box,
    LabPage,
    check_fixture_notebook,
    click_both,
    open_game,
    rgba,
    type_refused_move,
    undo_both_moves,
    wait_equal,
)

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = pytest.mark.browser

NOTEBOOK = "tictactoe_game.ipynb"
PLAY_CALL = "play(TicTacToe(), seed=1)"
"""What the fixture notebook runs; :func:`twin` must build the same game."""
CELL = (1, 1)
"""The cell the human clicks, 0-based (row, col): the centre, "2,2" in the game's notation."""

CROSS, CIRCLE = rgba(Palette.CROSS), rgba(Palette.CIRCLE)
Cell = tuple[int, int]
CELLS = [(row, col) for row in range(3) for col in range(3)]


def twin() -> PlayController:
    """A controller playing exactly as the notebook's does, computing at once.

    The engine's caches are cleared first: the notebook's kernel starts with empty
    ones, and the computer's message counts the positions it searched.
    """
    clear_caches()
    return play(TicTacToe(), seed=1, background=False, display=False)


def cell_boxes(geometry: TicTacToeGeometry) -> dict[Cell, Box]:
    """Each cell without a margin of 8% along its edges (where the grid lines run)."""
    boxes: dict[Cell, Box] = {}
    for cell in CELLS:
        rect = geometry.cell_rect(cell)
        inset = rect.width * 0.08
        boxes[cell] = (
            rect.x + inset,
            rect.y + inset,
            rect.width - 2 * inset,
            rect.height - 2 * inset,
        )
    return boxes


def marks(lab: LabPage, canvas: Locator, geometry: TicTacToeGeometry) -> dict[str, set[Cell]]:
    """Which cells show an X and which an O, read from the canvas: a cell counts when at
    least 5% of it has the mark's colour (an X or an O covers about 15%; a stray
    anti-aliased edge far less)."""
    boxes = cell_boxes(geometry)
    area = next(iter(boxes.values()))[2] ** 2
    counts = lab.colour_counts(canvas, boxes, {"X": CROSS, "O": CIRCLE})
    return {
        name: {c for c, n in found.items() if n >= 0.05 * area} for name, found in counts.items()
    }


def expected_marks(reference: PlayController) -> dict[str, set[Cell]]:
    """What the canvas must show for the twin's position."""
    state = reference.state
    assert isinstance(state, tuple)
    return {name: {(r, c) for r, c in CELLS if state[r][c] == name} for name in ("X", "O")}


def wait_marks(
    lab: LabPage, canvas: Locator, geometry: TicTacToeGeometry, expected: dict[str, set[Cell]]
) -> None:
    """Wait until the canvas shows exactly the marks of ``expected``."""
    wanted = {name: sorted(cells) for name, cells in expected.items()}

    def shown() -> dict[str, list[Cell]]:
        return {name: sorted(cells) for name, cells in marks(lab, canvas, geometry).items()}

    wait_equal(shown, wanted, UI_TIMEOUT / 1000, "the marks on the board")


def test_fixture_notebook_plays_the_twin_game() -> None:
    check_fixture_notebook(NOTEBOOK, PLAY_CALL)


def test_click_a_cell_and_the_computer_answers(shared_lab: LabPage) -> None:
    lab = shared_lab
    reference = twin()
    geometry = reference.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, TicTacToeGeometry)

    canvas = open_game(lab, NOTEBOOK, reference)  # the welcome: "You play X and start. ..."
    wait_marks(lab, canvas, geometry, {"X": set(), "O": set()})
    lab.screenshot("tictactoe-1-start")

    # Click the centre cell: an X appears there, then the computer's O elsewhere.
    x, y = geometry.cell_rect(CELL).center
    click_both(lab, canvas, reference, x, y)  # the twin's computer answered at once
    assert reference.history[0] == CELL
    after_reply = expected_marks(reference)
    assert after_reply["X"] == {CELL} and len(after_reply["O"]) == 1
    wait_marks(lab, canvas, geometry, after_reply)
    assert lab.pixel(canvas, x, y) == CROSS  # where the two strokes of the X cross
    assert lab.screen_pixel(canvas, x, y) == CROSS  # and so it is on screen
    lab.wait_text(reference.message)  # e.g. "O (computer) played 1,1 after searching ..."
    lab.screenshot("tictactoe-2-computer-answered")

    # A cell off the board, typed into the Move box: refused, explained, no change.
    type_refused_move(lab, reference, "9,9")
    assert marks(lab, canvas, geometry) == after_reply
    lab.screenshot("tictactoe-3-illegal-move")

    # Undo takes back the X and the computer's O.
    undo_both_moves(lab, reference)
    wait_marks(lab, canvas, geometry, {"X": set(), "O": set()})
    lab.wait_text(reference.message)  # "Took back 2,2, ..."
    lab.screenshot("tictactoe-4-undone")
