"""The hidden Play that ticks a threadless computer game starts counting in the page.

The page's Play counts only after its view saw ``playing`` turn True; a threadless
computer-versus-computer game runs from its start, before any view is drawn, so the page
tells the kernel of each new view (``_view_count``) and the controller turns the ticker
off and on. tests/browser/test_threadless_browser.py shows the game moving in JupyterLab.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from gamelib.games import TicTacToe
from gamelib.ui import play


def ticker_of(c: Any) -> Any:
    def walk(root: Any) -> Any:
        yield root
        for child in getattr(root, "children", ()):
            yield from walk(child)

    [ticker] = [x for x in walk(c.widget) if isinstance(x, w.Play)]
    return ticker


def test_a_new_view_of_a_playing_ticker_turns_it_off_and_on() -> None:
    c = play(TicTacToe(), mode="computer-computer", seed=1, background=False, display=False)
    ticker = ticker_of(c)
    assert ticker.playing and ticker._view_count == 0  # the page counts its views
    seen: list[bool] = []
    ticker.observe(lambda change: seen.append(change["new"]), names="playing")
    ticker._view_count = 1  # as the page reports a view drawn
    assert seen == [False, True] and ticker.playing
    ticker._view_count = 0  # a view removed: nothing to restart
    assert seen == [False, True]
    assert c.stop() and not ticker.playing
    ticker._view_count = 1  # a view of a paused game: it stays paused
    assert seen == [False, True, False] and c.history == []


def test_a_view_of_a_human_game_does_not_start_the_ticker() -> None:
    c = play(TicTacToe(), seed=1, background=False, display=False)
    ticker = ticker_of(c)
    ticker._view_count = 1
    assert not ticker.playing
