"""``close()`` releases every widget it made: the registry of live widgets stays flat.

ipywidgets keeps every open widget (layouts and styles too) in a registry until it is
closed; a board closed without its layouts, styles and boxes kept them there for the life of
the kernel. The count is read from the registry the installed ipywidgets has.
"""

from __future__ import annotations

from typing import Any

import ipywidgets
import pytest

from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.search.trace import trace_search
from gamelib.ui import play, show_board, show_search
from gamelib.ui.cell import close_widgets


def registered() -> int:
    """How many widgets the kernel holds now."""
    module = ipywidgets.widgets.widget
    registry: Any = getattr(module, "_instances", None)
    if registry is None:  # pragma: no cover - ipywidgets 7 keeps them on the class
        registry = ipywidgets.Widget.widgets
    return len(registry)


def test_fifty_play_close_cycles_leave_no_widget() -> None:
    games: list[Any] = [TicTacToe(), ConnectFour(), Nim()]
    for game in games:  # the first board may create shared widgets (the canvas manager)
        play(game, seed=1, background=False, display=False, depth=1).close()
    before = registered()
    for k in range(50):
        c = play(games[k % 3], seed=1, background=False, display=False, depth=1)
        c.submit("1") if k % 3 == 1 else c.new_game()
        c.close()
    assert registered() == before


def test_twenty_viewer_close_cycles_leave_no_widget() -> None:
    game = TicTacToe()
    state = game.start
    for move in [(0, 0), (1, 1), (2, 2), (0, 1)]:
        state = game.play(state, move)
    trace = trace_search(game, state, "alphabeta")
    show_search(trace, display=False).close()
    before = registered()
    for _ in range(20):
        view = show_search(trace, display=False)
        view.step()
        view.close()
    assert registered() == before


def test_a_closed_board_canvas_takes_its_layout_along() -> None:
    game = TicTacToe()
    show_board(game).close()
    before = registered()
    for _ in range(10):
        show_board(game).close()
    assert registered() == before


@pytest.mark.parametrize("roots", [(), (None, "text", 3), ([[]],)])
def test_close_widgets_skips_what_is_not_a_widget(roots: tuple[Any, ...]) -> None:
    before = registered()
    close_widgets(*roots)
    assert registered() == before


def test_close_widgets_closes_a_shared_child_once_and_leaves_outsiders() -> None:
    outsider = ipywidgets.Button(description="kept")
    child = ipywidgets.Button(description="inside")
    box = ipywidgets.VBox([child, ipywidgets.HBox([child])])
    before = registered()
    close_widgets(box)
    # box, its HBox, their two layouts, the child, its layout and style: 7 closed
    assert registered() == before - 7
    assert outsider.comm is not None
    close_widgets(outsider)
