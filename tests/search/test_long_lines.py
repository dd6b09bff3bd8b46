"""Deepening on a game whose lines are longer than Python's stack (issue 35, item 3).

With a time budget, iterative deepening goes one ply deeper each iteration; on a line of
thousands of forced plies it soon asks for an iteration deeper than Python allows. That
iteration is abandoned like one the clock stops: the last finished iteration's move is
played and the decision says ``cut_short``. At every entry point: ``iterative_deepening``,
``choose_move``, ``move_values`` and the play session's computer.

The recursion limit is lowered for the test (to 250 frames above the test's own), so that
the deepening reaches it after a few hundred small iterations rather than a thousand.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import IntMoves

from gamelib.game import GameError
from gamelib.search import choose_move, iterative_deepening, move_values, zero
from gamelib.session import PlaySession

LENGTH = 3000


class Corridor(IntMoves):
    """States 0 to ``LENGTH``, one move a ply (``1``): every line is forced. A wins the end."""

    name = "Corridor"
    players = ("A", "B")
    start = 0

    def finished(self, s: int) -> bool:
        return s >= LENGTH

    def to_move(self, s: int) -> str:
        return self.players[s % 2]

    def moves(self, s: int) -> list[int]:
        return [] if self.finished(s) else [1]

    def next_states(self, s: int, p: str) -> list[int]:
        return [s + 1 for _ in self.moves(s)]

    def play(self, s: int, m: Any) -> int:
        return s + 1

    def utility(self, s: int, p: str) -> int:
        return 1 if p == "A" else -1


def frames() -> int:
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


@pytest.fixture
def short_stack() -> Iterator[None]:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(frames() + 250)
    yield
    sys.setrecursionlimit(limit)


def test_iterative_deepening_keeps_the_last_finished_iteration(short_stack: None) -> None:
    decision = iterative_deepening(Corridor(), 0, zero, seconds=20)
    assert decision.move == 1 and decision.cut_short and not decision.exact
    assert 50 < decision.stats.depth < 250
    assert decision.summary == f"estimate +0.00 (depth {decision.stats.depth})"


def test_choose_move_and_move_values_with_a_time_budget(short_stack: None) -> None:
    decision = choose_move(Corridor(), 0, seconds=20, rng=random.Random(0))
    assert decision.move == 1 and decision.cut_short and 50 < decision.stats.depth < 250
    assert move_values(Corridor(), 0, seconds=20) == {1: 0.0}


def test_the_session_computer_moves(short_stack: None) -> None:
    session = PlaySession(Corridor(), mode="computer-human", seconds=20, background=False)
    assert session.history == [1] and not session.error, session.message


def test_an_exact_search_still_says_no_end_in_sight(short_stack: None) -> None:
    with pytest.raises(GameError, match="no end in sight"):
        choose_move(Corridor(), 0)
