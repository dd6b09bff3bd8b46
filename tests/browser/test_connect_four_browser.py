"""Connect Four in a real browser: a click drops a disc, the computer answers, bad input
is explained, Undo takes both moves back.

The fixture notebook ``notebooks/connect_four_game.ipynb`` runs
``play(ConnectFour(), depth=4, seed=1)`` in JupyterLab: the computer thinks in a thread,
as it does for students. The test plays the same moves on a *twin* controller in this
process (``background=False``, no display). A depth-limited, seeded computer is
deterministic, so the twin says exactly which disc must appear where and which message
the page must show, without this test hard-coding the engine's choice. The pixels are
read back from the <canvas> element in the page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from gamelib.games import ConnectFour
from gamelib.search.engine import clear_caches
from gamelib.ui import PlayController, play
from gamelib.ui.boards import ConnectFourGeometry, Palette

from .harness import (
    UI_TIMEOUT,
    LabPage,
    check_fixture_notebook,
    click_both,
    disc_boxes,
    open_game,
    rgba,
    type_refused_move,
    undo_both_moves,
    wait_equal,
)

if TYPE_CHECKING:
    from playwright.sync_api import Locator

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


def test_fixture_notebook_plays_the_twin_game() -> None:
    check_fixture_notebook(NOTEBOOK, PLAY_CALL)


def test_click_a_column_and_the_computer_answers(shared_lab: LabPage) -> None:
    lab = shared_lab
    reference = twin()
    geometry = reference.board.geometry  # type: ignore[attr-defined]
    assert isinstance(geometry, ConnectFourGeometry)
    holes = disc_boxes(geometry)
    assert len(holes) == 42

    canvas = open_game(lab, NOTEBOOK, reference)  # the welcome: "You play X (red) and start. ..."
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
