"""The still of a board or viewer (gamelib.ui.still): its last picture, for a page that is
reloaded without its kernel; hidden everywhere else, dropped from the saved lessons."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from typing import Any

import nbformat
import pytest
from helpers import run_notebooks_module
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell

import gamelib.ui.still
from gamelib.game import replay
from gamelib.games import TicTacToe
from gamelib.search.trace import trace_search
from gamelib.ui import play, show_search
from gamelib.ui.canvas import STILL_CSS, WIDGET_CSS
from gamelib.ui.still import STILL_KEY, Still
from gamelib.ui.svg import board_svg

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class Recorder(DisplayPublisher):
    """A display publisher that keeps what it is given: (data, metadata, display id, update)."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[tuple[dict[str, Any], dict[str, Any], str | None, bool]] = []

    def publish(self, data: Any, metadata: Any = None, source: Any = None, *,
                transient: Any = None, update: bool = False, **kwargs: Any) -> None:
        self.shown.append((dict(data), dict(metadata or {}),
                           (transient or {}).get("display_id"), update))


class FakeTimer:
    """threading.Timer as the still uses it, fired by the test instead of by the clock."""

    made: list[FakeTimer] = []

    def __init__(self, seconds: float, action: Any) -> None:
        self.seconds, self.action = seconds, action
        self.started = self.cancelled = False
        self.daemon = False
        FakeTimer.made.append(self)

    def start(self) -> None:
        self.started = True

    def cancel(self) -> None:
        self.cancelled = True


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    """An IPython shell whose displays are recorded (and nothing is printed); the stills'
    timers are FakeTimers, fired only by the test."""
    import threading

    monkeypatch.setattr(threading, "Timer", FakeTimer)
    monkeypatch.setattr(FakeTimer, "made", [])
    shell = InteractiveShell.instance()
    recorder = Recorder()
    original = shell.display_pub
    shell.display_pub = recorder
    try:
        yield recorder
    finally:
        shell.display_pub = original
        InteractiveShell.clear_instance()


def png_of(data: dict[str, Any]) -> bytes:
    return base64.b64decode(data["image/png"])


def test_outside_ipython_a_still_does_nothing() -> None:
    InteractiveShell.clear_instance()  # another test may have left one
    calls = []
    still = Still(lambda: calls.append(1) or board_svg(TicTacToe(), None))  # type: ignore[func-returns-value]
    still.show()
    still.changed()
    still.update()
    assert calls == []  # not even the picture was made


def test_a_board_is_followed_by_its_still_which_follows_the_moves(shown: Recorder) -> None:
    game = TicTacToe()
    c = play(game, mode="human-human", background=False)
    try:
        assert [WIDGET_VIEW in data for data, *_ in shown.shown] == [True, False]
        data, metadata, display_id, update = shown.shown[1]
        # Only a PNG: nbval compares no PNG, so a lesson's fresh run matches its saved file.
        assert set(data) == {"image/png"} and display_id and not update
        alt = f"{game.name} board: Run the lesson to play."  # what it shows, in words
        assert metadata == {"image/png": {"width": 0, "height": 0, "alt": alt}, STILL_KEY: True}
        # The saved picture: the position, with "Run the lesson to play" (never whose turn).
        assert png_of(data) == board_svg(game, game.start, size=c.board.width,
                                         status=["Run the lesson to play"]).png
        assert c.play_move((1, 1))
        FakeTimer.made[-1].action()  # what the timer does QUIET s later
        data, metadata, again, update = shown.shown[-1]
        assert (again, update) == (display_id, True) and metadata[STILL_KEY]
        assert png_of(data) == c.saved_picture().png != c.picture().png
        # Shown again in a later cell: one more display of the same still, updated with it.
        shown.shown.clear()
        c.show()
        assert [(WIDGET_VIEW in data, shown_id) for data, _, shown_id, _ in shown.shown] == [
            (True, None), (False, display_id)]
    finally:
        c.close()


def test_a_still_is_updated_once_after_a_burst_of_changes(shown: Recorder) -> None:
    made = []

    def picture() -> Any:
        made.append(1)
        return board_svg(TicTacToe(), None)

    still = Still(picture)
    still.changed()  # not shown yet: nothing to update
    assert FakeTimer.made == []
    still.show()
    for _ in range(5):
        still.changed()
    # Each change waits QUIET seconds afresh: only the last timer is left to fire.
    assert [(t.seconds, t.started, t.cancelled, t.daemon) for t in FakeTimer.made] == (
        [(gamelib.ui.still.QUIET, True, True, True)] * 4
        + [(gamelib.ui.still.QUIET, True, False, True)])
    FakeTimer.made[-1].action()
    assert [update for *_, update in shown.shown] == [False, True]  # one update, not five
    assert len(made) == 2
    still.close()
    assert FakeTimer.made[-1].cancelled
    still.changed()
    still.update()  # closed: neither schedules nor updates
    assert len(FakeTimer.made) == 5 and len(shown.shown) == 2


def test_the_viewers_still_is_the_step_shown(shown: Recorder) -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0)])
    trace = trace_search(game, state, "alphabeta")
    from gamelib.ui.search_svg import search_svg

    v = show_search(trace)
    try:
        assert png_of(shown.shown[1][0]) == search_svg(trace, 0).png
        v.goto(5)
        FakeTimer.made[-1].action()  # what the timer does QUIET s later
        assert png_of(shown.shown[-1][0]) == search_svg(trace, 5).png
    finally:
        v.close()


def test_the_stylesheet_shows_a_still_only_under_a_widget_without_its_model() -> None:
    assert STILL_CSS in WIDGET_CSS
    # Chromium drops a rule whose :has() holds another :has(): none may.
    for rule in STILL_CSS.splitlines():
        for inside in re.findall(r":has\(((?:[^()]|\([^()]*\))*)\)", rule):
            assert ":has(" not in inside, rule
    assert 'img[width="0"][height="0"]' in STILL_CSS and "display: none" in STILL_CSS


def test_run_notebooks_drops_the_stills() -> None:
    tool = run_notebooks_module()
    assert tool.STILL_KEY == STILL_KEY
    still = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="},
                                   metadata={"image/png": {"width": 0, "height": 0},
                                             STILL_KEY: True})
    picture = nbformat.v4.new_output("display_data", data={"text/plain": "a board",
                                                           "image/png": "iVBORw0KGgo="})
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("play(game)", outputs=[picture, still])]
    assert tool.normalise(nb).cells[0].outputs == [picture]


def test_a_widget_and_its_still_paint_their_picture_once(
    shown: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamelib.ui.picture as picture

    painted = []
    paint = picture.png_from_calls

    def counted(*args: Any) -> bytes:
        painted.append(1)
        return paint(*args)

    monkeypatch.setattr(picture, "png_from_calls", counted)
    monkeypatch.setattr(picture, "_RECENT_PNGS", {})
    c = play(TicTacToe(), mode="human-human", background=False)
    try:
        assert len(shown.shown) == 2 and len(painted) == 1  # the output's PNG and the still's
        assert png_of(shown.shown[0][0]) == png_of(shown.shown[1][0])
    finally:
        c.close()


def test_without_threads_a_still_keeps_its_first_picture(
    shown: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where threads cannot start (Pyodide, JupyterLite) moves still play; the still keeps
    the picture it was shown with."""
    import threading

    class Refused(FakeTimer):
        def start(self) -> None:
            raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading, "Timer", Refused)
    c = play(TicTacToe(), mode="human-human", background=False)
    try:
        assert c.play_move((1, 1)) and c.history == [(1, 1)]
        assert [update for *_, update in shown.shown] == [False, False]  # no update
    finally:
        c.close()


def test_show_board_is_followed_by_its_still_as_a_cell_result_and_when_displayed(
        shown: Recorder) -> None:
    from IPython.display import display

    from gamelib.games import ConnectFour
    from gamelib.ui import show_board

    game, state = ConnectFour(), ConnectFour.from_moves("4453")
    canvas = show_board(game, state, last_move=2)
    picture = board_svg(game, state, last_move=2)
    InteractiveShell.instance().displayhook(canvas)  # a cell that ends with show_board(...)
    display(canvas)  # type: ignore[no-untyped-call]
    assert [WIDGET_VIEW in data for data, *_ in shown.shown] == [True, False, True, False]
    for (board, _, _, _), (still, metadata, display_id, update) in (
            shown.shown[0:2], shown.shown[2:4]):
        assert png_of(board) == png_of(still) == picture.png   # painted once, shown twice
        assert board["text/plain"] == "Connect Four board: X to move."
        assert metadata[STILL_KEY] and display_id and not update
    assert FakeTimer.made == []   # a board that never changes needs no updates
