"""PUCT, MCTS guided by a prior and a value (``mcts(..., guide=...)``): scores computed by
hand, what a uniform guide does, MCTS-Solver and budgets with a guide, the trace, and the
checks of a guide's answers."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import pytest

from gamelib.game import GameError, replay
from gamelib.games import TicTacToe, TreeGame
from gamelib.search import Budget, mcts
from gamelib.search.mcts import Iteration
from gamelib.search.memo import memo_minimax
from gamelib.search.puct import puct_score
from gamelib.search.trace import Playout, Select, trace_search

ROOT2 = math.sqrt(2)


def uniform(game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
    """Every legal move equally likely; every position a draw."""
    moves = game.moves(state)
    return {m: 1 / len(moves) for m in moves}, 0.0


def test_the_first_three_iterations_on_a_hand_made_tree() -> None:
    """Moves a (0) and b (1); the guide likes b (3/4) and says every position is worth
    +0.5 to its mover.
    1: the root has no child; its best untried move is b (highest prior): b is made and
       valued +0.5 (for B), the root gets -0.5.
    2: b scores -0.5 + sqrt2 * 3/4 * sqrt(1) / 2 = 0.030; the untried a scores its bonus
       sqrt2 * 1/4 * sqrt(1) / 1 = 0.354: a is made.
    3: b scores -0.5 + sqrt2 * 3/4 * sqrt(2) / 2 = +0.25, a -0.5 + 1/4 = -0.25: go to b,
       make its first move x (equal priors: the game's order), a finished game drawn:
       its utility, 0, is backed up, not a guess."""
    tree = TreeGame([[1, -1], [0, 1]])

    def likes_b(game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
        if state == ():
            return {0: 0.25, 1: 0.75}, 0.5
        return {0: 0.5, 1: 0.5}, 0.5

    seen: list[Iteration] = []
    result = mcts(tree, (), iterations=3, guide=likes_b, observer=seen.append)
    b, a = result.root.children
    assert (b.move, b.prior, a.move, a.prior) == (1, 0.75, 0, 0.25)
    assert [it.expanded for it in seen] == [b.id, a.id, 3]
    assert [it.guided for it in seen] == [True, True, False]
    assert [it.result for it in seen] == [0.5, 0.5, 0]
    assert seen[0].scores == seen[1].scores == ()
    assert puct_score(0.0, 0.25, 1, 0, ROOT2) == pytest.approx(0.3536, abs=1e-4)
    (step,) = seen[2].scores
    assert step == {b.id: pytest.approx(0.25), a.id: pytest.approx(-0.25)}
    assert seen[2].path == (0, b.id, 3)
    assert (result.stats.guided, result.stats.playouts) == (2, 1)


@pytest.mark.parametrize("rounds", [1, 4, 10])
def test_a_uniform_guide_of_value_0_spreads_the_visits_evenly(rounds: int) -> None:
    """All means are 0 until a finished state is in the tree (5 plies down), so every
    score is the bonus, sqrt2 * 1/9 * sqrt(N) / (1 + n): the least visited move comes
    next (ties: the first in order). After 9 * m iterations every move has m visits."""
    game = TicTacToe()
    result = mcts(game, game.start, iterations=9 * rounds, guide=uniform)
    assert set(result.visits.values()) == {rounds}
    assert list(result.visits) == list(game.moves(game.start))     # the game's order
    stats = result.stats
    assert (stats.guided, stats.playouts, stats.nodes) == (9 * rounds, 0, 9 * rounds + 1)


def test_a_uniform_guide_finds_a_win_in_one() -> None:
    """X wins on the top row: that child is finished, mean -1 for O, so it scores 1 more
    than every child valued 0 by the guide once all are tried."""
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1), (2, 2)])
    result = mcts(game, state, iterations=30, guide=uniform)
    assert result.move == (0, 2) and result.values[(0, 2)] == 1.0
    assert result.stats.guided + result.stats.playouts == 30
    assert result.stats.playouts == result.visits[(0, 2)]    # a finished leaf: its utility


def test_mcts_solver_with_a_guide_proves_positions_exactly() -> None:
    """With solve=True a finished leaf is proven at its utility, guide or not: every
    position of 5 empty squares reached by a fixed line is proven at its minimax value."""
    game = TicTacToe()
    lines = [[(0, 0), (1, 1), (0, 1), (0, 2)], [(1, 1), (0, 0), (2, 2), (0, 2)],
             [(0, 0), (0, 1), (1, 1), (2, 2)]]
    for line in lines:
        state = replay(game, line)
        result = mcts(game, state, iterations=5000, guide=uniform, solve=True)
        assert result.proven == memo_minimax(game, state)
        assert result.value == result.proven and result.stats.iterations < 5000


def test_a_node_budget_holds_with_a_guide() -> None:
    game = TicTacToe()
    budget = Budget(5, nodes=40)
    result = mcts(game, game.start, budget=budget, guide=uniform)
    assert (result.stats.nodes, result.stats.iterations, result.cut_short) == (40, 39, True)


def test_the_trace_carries_priors_puct_scores_and_guided_values() -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1)])
    trace = trace_search(game, state, "mcts", iterations=12, guide=uniform)
    assert trace.nodes[0].prior is None
    assert {round(n.prior or 0, 12) for n in trace.nodes[1:]} == {round(1 / 6, 12),
                                                                   round(1 / 5, 12)}
    playouts = [e for e in trace.events if isinstance(e, Playout)]
    assert all(e.guided and e.moves == () for e in playouts if e.result == 0.0)
    selects = [e for e in trace.events if isinstance(e, Select)]
    first = selects[0]      # the 7th iteration: 6 children, each visited once, all 0
    bonus = ROOT2 * (1 / 6) * math.sqrt(6) / 2
    assert first.scores == dict.fromkeys(first.scores, pytest.approx(bonus))
    assert len(first.scores) == 6 and first.child == min(first.scores)


def test_plain_uct_is_unchanged_by_the_option() -> None:
    """guide=None is plain UCT: the same visits, and no priors anywhere."""
    game = TicTacToe()
    one = mcts(game, game.start, iterations=200, seed=3)
    two = mcts(game, game.start, iterations=200, seed=3, guide=None)
    assert one.visits == two.visits and one.stats.as_dict()["guided"] == 0
    assert all(c.prior is None for c in two.root.children) and two.root.priors is None


@pytest.mark.parametrize(("answer", "words"), [
    ([0.5, 0.5], "must be a pair (priors, value)"),
    (({(0, 2): 1.0}, 0.0), "exactly the legal moves"),
    (({(0, 2): 1.5, (1, 0): -0.5, (1, 2): 0.0, (2, 0): 0.0, (2, 1): 0.0, (2, 2): 0.0}, 0.0),
     "a number from 0 to 1"),
    (({(0, 2): 0.5, (1, 0): 0.1, (1, 2): 0.1, (2, 0): 0.1, (2, 1): 0.1, (2, 2): 0.2 + 1e-6},
      0.0), "sum to 1"),
    (({(0, 2): 1.0, (1, 0): 0, (1, 2): 0, (2, 0): 0, (2, 1): 0, (2, 2): 0}, 1.5),
     "the value must be a number from -1 to 1"),
    (({(0, 2): 1.0, (1, 0): 0, (1, 2): 0, (2, 0): 0, (2, 1): 0, (2, 2): 0}, math.nan),
     "the value must be a number"),
    (({(0, 2): "1", (1, 0): 0, (1, 2): 0, (2, 0): 0, (2, 1): 0, (2, 2): 0}, 0.0),
     "a number from 0 to 1"),
])
def test_a_bad_guide_answer_is_refused_with_what_was_wrong(answer: Any, words: str) -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1)])
    with pytest.raises(GameError, match="the guide's answer") as error:
        mcts(game, state, iterations=5, guide=lambda g, s: answer)
    assert words in str(error.value)


def test_priors_off_1_by_less_than_the_tolerance_are_accepted() -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1)])

    def close(g: Any, s: Hashable) -> tuple[dict[Hashable, float], float]:
        moves = g.moves(s)
        return {m: (1 + 1e-12) / len(moves) for m in moves}, 0.0
    assert mcts(game, state, iterations=5, guide=close).stats.guided == 5


def test_a_guide_that_is_not_a_function_is_refused() -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="guide must be a function"):
        mcts(game, game.start, iterations=5, guide="uniform")  # type: ignore[arg-type]
