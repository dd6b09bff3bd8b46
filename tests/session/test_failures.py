"""A session that never dies: whatever the computer's search, a hint, a board's redraw or a
game method raises (``BaseException`` subclasses included: a check's refusal,
``KeyboardInterrupt``, ``SystemExit``), the session reports it in its message, no thread
dies with a traceback, and the session stays usable (Undo, New game, a change of players)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

import gamelib.search.engine as engine
import gamelib.session.computer as computer_module
from gamelib.game import replay
from gamelib.games import TicTacToe
from gamelib.search.stats import Decision, Stats
from gamelib.session import PlaySession

TTT = TicTacToe()


class Refused(BaseException):
    """Like a check's DelegationRefused: a BaseException that ``except Exception`` misses."""


RAISED = [Refused("the reference is not yours"), KeyboardInterrupt(), SystemExit(3),
          RuntimeError("broken")]
NAMES = ["Refused", "KeyboardInterrupt", "SystemExit", "RuntimeError"]


class Failing:
    """A stand-in for the computer's search or values: raises ``error`` while ``armed``."""

    def __init__(self, error: BaseException, answer: Any) -> None:
        self.error, self.answer, self.armed, self.calls = error, answer, True, 0

    def __call__(self, game: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.armed:
            raise self.error
        return self.answer(game, state)


def first_move(game: Any, state: Any) -> Decision:
    return Decision(game.moves(state)[0], 0.0, True, Stats())


@pytest.fixture
def thread_deaths(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """What reaches threading.excepthook (a thread that died with a traceback)."""
    died: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook",
                        lambda args: died.append(args.exc_value))  # type: ignore[arg-type]
    yield died


@pytest.mark.parametrize("background", [True, False], ids=["thread", "threadless"])
@pytest.mark.parametrize("error", RAISED, ids=NAMES)
def test_a_failing_computer_move_is_reported_and_the_session_goes_on(
        monkeypatch, thread_deaths, error: BaseException, background: bool) -> None:
    search = Failing(error, first_move)
    monkeypatch.setattr(computer_module, "choose_move", search)
    s = PlaySession(TTT, mode="computer-human", background=background, seed=1)
    assert s.wait(10)
    name = type(error).__name__
    assert s.error and not s.thinking and s.history == [] and search.calls == 1
    assert name in s.message and s.message.startswith("The computer could not move:")
    assert s.status[0] == "X to move: the computer could not move"
    assert not s.submit("1,1") and "Press Undo or New." in s.message  # refused, in words
    search.armed = False
    assert s.new_game() and s.wait(10) and len(s.history) == 1 and not s.error
    assert s.submit("3,3") and s.wait(10) and len(s.history) == 3
    assert replay(TTT, s.history) == s.state and thread_deaths == []


@pytest.mark.parametrize("error", RAISED, ids=NAMES)
def test_a_computer_game_whose_search_fails_midway_stops_in_words_and_plays_on(
        monkeypatch, thread_deaths, error: BaseException) -> None:
    search = Failing(error, first_move)
    search.armed = False
    played = []

    def third_fails(game: Any, state: Any, *args: Any) -> Decision:
        played.append(state)
        search.armed = len(played) == 3
        return search(game, state)

    monkeypatch.setattr(computer_module, "choose_move", third_fails)
    s = PlaySession(TTT, mode="computer-computer", delay=0, seed=2)
    assert s.wait(10) and len(s.history) == 2 and s.error
    assert type(error).__name__ in s.message and not s.thinking
    assert s.set_mode("computer-computer") and s.wait(10) and s.finished  # goes on to the end
    assert replay(TTT, s.history) == s.state and thread_deaths == []


@pytest.mark.parametrize("error", RAISED, ids=NAMES)
def test_a_failing_hint_returns_none_with_its_reason_and_moves_still_work(
        monkeypatch, error: BaseException) -> None:
    values = Failing(error, lambda game, state: {m: 0.0 for m in game.moves(state)})
    monkeypatch.setattr(computer_module, "move_values", values)
    s = PlaySession(TTT, mode="human-human")
    assert s.hint() is None and s.error and not s.thinking
    assert s.message.startswith("No hint: ") and type(error).__name__ in s.message
    values.armed = False
    assert s.hint() is not None and s.submit("2,2") and s.history == [(1, 1)]


class Redraw:
    """An ``on_change`` that raises ``error`` every time: a board that cannot draw."""

    def __init__(self, error: BaseException) -> None:
        self.error, self.calls = error, 0

    def __call__(self) -> None:
        self.calls += 1
        raise self.error


@pytest.mark.parametrize("error", RAISED, ids=NAMES)
def test_a_board_whose_redraw_raises_does_not_stop_the_game(thread_deaths,
                                                           error: BaseException) -> None:
    redraw = Redraw(error)
    s = PlaySession(TTT, seed=3, on_change=redraw)
    assert s.submit("2,2") and s.wait(10) and len(s.history) == 2 and not s.error
    assert redraw.calls >= 3 and thread_deaths == []


class Exiting(TicTacToe):
    """A student's game whose ``play`` calls sys.exit for the move 3,3 once 1,1 is taken:
    the computer's search meets it inside the engine."""

    def play(self, state: Any, move: Any) -> Any:
        if state[0][0] != " " and move == (2, 2):
            raise SystemExit("play() gave up")
        return super().play(state, move)


@pytest.mark.parametrize("background", [True, False], ids=["thread", "threadless"])
def test_a_game_method_that_raises_systemexit_in_the_computers_search_is_named(
        thread_deaths, background: bool) -> None:
    engine.clear_caches()  # a tic-tac-toe search of an earlier test may have kept its values
    s = PlaySession(Exiting(), seed=4, background=background)
    assert s.submit("1,1") and s.wait(30) and s.history == [(0, 0)] and s.error
    assert s.message == ("The computer could not move: the game's play() raised "
                         "SystemExit: play() gave up.")
    assert s.undo() and s.history == [] and not s.error and thread_deaths == []
