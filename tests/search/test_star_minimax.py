"""Star1 (*-minimax): alpha-beta's three cases through chance nodes, and its pruning counted."""

from __future__ import annotations

import pytest

from gamelib.game import GameError, replay
from gamelib.games import RandomTurnTicTacToe
from gamelib.search import Stats
from gamelib.search.expectiminimax import expectiminimax
from gamelib.search.star_minimax import expectiminimax_tree, star1

GAME = RandomTurnTicTacToe()
POSITIONS = [replay(GAME, ["X", (1, 1), "O", (0, 0), "X", (2, 2)]),   # X to move after a toss
             replay(GAME, ["O", (0, 0), "O", (0, 1), "X", (2, 2)])]   # the coin in the air
WINDOWS = [(-1, 1), (-1, 0), (0, 1), (-0.1, 0.1), (-0.5, -0.25)]


@pytest.mark.parametrize("state", POSITIONS)
@pytest.mark.parametrize(("alpha", "beta"), WINDOWS)
def test_the_three_cases_of_alpha_beta_hold(state: object, alpha: float, beta: float) -> None:
    exact = float(expectiminimax(GAME, state))
    v = star1(GAME, state, alpha, beta)
    if exact <= alpha:
        assert v <= alpha
    elif exact >= beta:
        assert v >= beta
    else:
        assert v == pytest.approx(exact, abs=1e-12)


def test_star1_looks_at_far_fewer_nodes_than_the_tree() -> None:
    state = POSITIONS[1]
    pruned, tree = Stats(), Stats()
    assert star1(GAME, state, stats=pruned) == expectiminimax_tree(GAME, state, stats=tree) \
        == -17 / 64
    assert (pruned.calls, pruned.cutoffs, tree.calls) == (1853, 716, 28091)


def test_a_bad_window_is_refused() -> None:
    with pytest.raises(GameError, match="alpha < beta"):
        star1(GAME, GAME.start, 0.5, 0.5)
