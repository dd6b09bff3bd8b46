"""Exercise 11's checker: right code passes, the usual mistakes fail with a hint."""

from __future__ import annotations

from typing import Any

import pytest

from gamelib.exercises import check_backpropagate
from gamelib.exercises.ex11_backprop import ITERATIONS, SEARCHES, run_uct
from gamelib.game import GameError
from gamelib.search import mcts
from gamelib.search.mcts import MCTSNode, backpropagate


def mine(path: list[MCTSNode], result: int) -> None:
    """Written without gamelib's: from the top, with the sign of the path's parity."""
    for depth, node in enumerate(path):
        node.visits += 1
        node.total += result if (len(path) - 1 - depth) % 2 == 0 else -result


def test_run_uct_with_gamelibs_backpropagation_is_gamelibs_search() -> None:
    for _, game, state, seed in SEARCHES:
        root = run_uct(game, state, seed, ITERATIONS, backpropagate)
        plain = mcts(game, state, iterations=ITERATIONS, seed=seed)
        assert {c.move: c.visits for c in root.children} == {
            m: v for m, v in plain.visits.items() if v}


def test_right_code_passes_with_the_root_visits_in_the_facts() -> None:
    result = check_backpropagate(mine)
    assert result.passed, repr(result)
    assert result.facts["paths"] == 12 and result.facts["searches"] == 3
    first = result.facts["root_visits"][SEARCHES[0][0]]
    assert first == {(0, 0): 14, (0, 1): 11, (1, 1): 15, (2, 1): 160}


def no_flip(path: list[MCTSNode], result: int) -> None:
    for node in path:
        node.visits += 1
        node.total += result


def top_down(path: list[MCTSNode], result: int) -> None:
    for node in path:
        node.visits += 1
        node.total += result
        result = -result


def no_visits(path: list[MCTSNode], result: int) -> None:
    for node in reversed(path):
        node.total += result
        result = -result


@pytest.mark.parametrize(("wrong", "hint"), [
    (no_flip, "the sign must flip at every level"),
    (top_down, "for the player to move at the LAST node"),
    (no_visits, "visits += 1"),
])
def test_mistakes_fail_with_a_hint(wrong: Any, hint: str) -> None:
    result = check_backpropagate(wrong)
    assert not result.passed
    assert hint in repr(result)


def test_a_stub_is_not_done_and_a_non_function_is_refused() -> None:
    def stub(path: list[MCTSNode], result: int) -> None:
        raise NotImplementedError

    result = check_backpropagate(stub)
    assert not result.done and "not done yet" in repr(result)
    with pytest.raises(GameError):
        check_backpropagate(3)  # type: ignore[arg-type]
