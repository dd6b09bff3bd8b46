"""The guard refuses gamelib's references to the code a check runs, not to the process.

A check runs in the student's kernel, where a play session's computer may be thinking in
a background thread: that thread runs the guarded searches as they are (issue 34, item 1).
The checking thread, and a thread the student's code starts, are refused as before.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import gamelib.exercises as ex
from gamelib.exercises.ex02_memo import check_memo_minimax
from gamelib.exercises.guard import DelegationRefused, Forbidden, checking, refusing
from gamelib.exercises.run import time_limit, total_time_limit
from gamelib.games import ConnectFour, TicTacToe
from gamelib.search import minimax
from gamelib.session import PlaySession

from .test_hostile_code import memo_value  # a correct solution of Exercise 2

WAIT = 20.0
"""Seconds a test waits at most for a move of the session (a bound, never reached)."""


@pytest.fixture
def patient() -> Iterator[None]:
    """A time limit a busy machine cannot reach: the test waits inside the student's call."""
    before = time_limit(), total_time_limit()
    ex.set_time_limit(60, 120)
    yield
    ex.set_time_limit(*before)


def wait_for(condition: Callable[[], bool]) -> bool:
    end = time.monotonic() + WAIT
    while not condition() and time.monotonic() < end:
        time.sleep(0.005)
    return condition()


def test_a_session_keeps_playing_while_a_correct_solution_is_checked(patient: None) -> None:
    """The computers play Connect Four (gamelib.connect4 and gamelib.search, both out of the
    student's reach in Exercise 2) while the check runs; the student's first call waits until
    the session has made two moves, so that its searches ran while the student's code did."""
    session = PlaySession(ConnectFour(), mode="computer-computer", depth=2, delay=0.01, seed=3)
    try:
        assert wait_for(lambda: len(session.history) >= 1)
        during: list[int] = []

        def student(game: Any, state: Any, player: Any, cache: dict[Any, Any]) -> Any:
            if not during:
                first = len(session.history)
                wait_for(lambda: len(session.history) >= first + 2 or session.finished)
                during.extend((first, len(session.history)))
            return memo_value(game, state, player, cache)

        result = check_memo_minimax(student)
        assert result.passed, repr(result)
        assert during[1] >= during[0] + 2, "the session made no move during the check"
        after = len(session.history)
        assert wait_for(lambda: len(session.history) > after + 1 or session.finished)
        assert not session.error, session.message   # its thread lives and plays on
    finally:
        session.close()


FORBID = Forbidden(objects=(minimax,))


def test_another_thread_runs_a_guarded_function_while_the_student_code_runs() -> None:
    game = TicTacToe()
    state = game.start
    for move in [(0, 0), (1, 1), (2, 2), (0, 1), (2, 1)]:
        state = game.play(state, move)
    inside, seen = threading.Event(), threading.Event()
    answers: list[object] = []

    def other_thread() -> None:
        inside.wait(WAIT)
        answers.append(minimax(game, state))
        seen.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    with checking(FORBID) as refused:
        with refusing():
            inside.set()
            seen.wait(WAIT)
            with pytest.raises(DelegationRefused):
                minimax(game, state)
        assert refused == ["gamelib.search.minimax.minimax"]  # this thread's call alone
    thread.join(WAIT)
    assert answers == [minimax(game, state)]


def test_a_thread_the_student_code_starts_is_refused_too() -> None:
    game = TicTacToe()
    outcome: list[str] = []

    def work() -> None:
        try:
            minimax(game, game.play(game.start, (1, 1)))
            outcome.append("ran")
        except DelegationRefused:
            outcome.append("refused")

    with checking(FORBID) as refused:
        with refusing():
            thread = threading.Thread(target=work)
            thread.start()
            thread.join(WAIT)
        assert outcome == ["refused"] and refused == ["gamelib.search.minimax.minimax"]
    assert threading.Thread.start.__module__ == "threading"  # the check put start back


def test_a_check_fails_when_the_students_thread_calls_the_reference(patient: None) -> None:
    def delegating(game: Any, state: Any, player: Any, cache: dict[Any, Any]) -> Any:
        def ask_gamelib() -> None:
            with contextlib.suppress(DelegationRefused):   # caught: the check's log keeps it
                minimax(game, state, player)

        thread = threading.Thread(target=ask_gamelib)
        thread.start()
        thread.join(WAIT)
        return memo_value(game, state, player, cache)

    result = check_memo_minimax(delegating)
    assert not result.passed and "gamelib.search.minimax.minimax" in repr(result)
