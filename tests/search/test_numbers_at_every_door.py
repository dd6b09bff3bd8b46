"""Issue 35, item 5: one rule, at every door, for what a whole number, a number of seconds
and a list of moves are. Each door accepts or refuses the same inputs, with a GameError
that says what is allowed, never a raw AttributeError, TypeError, ValueError or
OverflowError."""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from gamelib.exercises.ex11_backprop import run_uct
from gamelib.game import GameError
from gamelib.games import ConnectFour, TicTacToe
from gamelib.search import Budget, depth_limited, iterative_deepening, mcts
from gamelib.search.mcts import backpropagate
from gamelib.session.play import PlaySession

TTT = TicTacToe()
C4 = ConnectFour(4, 4)


def zero(state: Any, player: Any) -> float:
    return 0.0


def small(n: Any) -> Any:
    """``n``, or 3 for a larger integer: where a door would search for long with ``n``."""
    return 3 if isinstance(n, numbers.Integral) and not isinstance(n, bool) and n > 3 else n


WHOLE_DOORS: dict[str, Callable[[Any], object]] = {
    "mcts iterations": lambda n: mcts(TTT, TTT.start, iterations=n, seconds=0.05, seed=1),
    "mcts seed": lambda n: mcts(TTT, TTT.start, iterations=5, seed=n),
    "Budget depth": lambda n: Budget(1, depth=n),
    "Budget nodes": lambda n: Budget(1, nodes=n),
    "depth_limited depth": lambda n: depth_limited(TTT, TTT.start, small(n), zero),
    "iterative_deepening max_depth": lambda n: iterative_deepening(
        TTT, TTT.start, zero, max_depth=n, seconds=0.05),
    "run_uct iterations": lambda n: run_uct(TTT, TTT.start, 1, small(n), backpropagate),
    "run_uct seed": lambda n: run_uct(TTT, TTT.start, n, 3, backpropagate),
    "PlaySession depth": lambda n: PlaySession(TTT, depth=n, background=False),
    "PlaySession mcts": lambda n: PlaySession(TTT, mcts=n, background=False),
    "PlaySession seed": lambda n: PlaySession(TTT, seed=n, background=False),
}
"""Each door of a whole number, called with ``n`` (large values cut where the door would
search for long: the rule is checked, not the search)."""

WHOLE = [3, np.int64(3), np.int32(3), np.uint8(3)]
NOT_WHOLE = [True, 3.0, np.float64(3.0), Fraction(3), "3", 3 + 0j, [3], None]


@pytest.mark.parametrize("door", WHOLE_DOORS)
def test_every_door_takes_any_integer_as_a_whole_number(door: str) -> None:
    for n in WHOLE:
        WHOLE_DOORS[door](n)


@pytest.mark.parametrize("door", WHOLE_DOORS)
def test_every_door_refuses_what_is_not_a_whole_number_with_its_message(door: str) -> None:
    name = door.split()[-1]
    for n in NOT_WHOLE:
        if n is None and door in ("mcts iterations", "mcts seed", "Budget depth",
                                  "Budget nodes", "iterative_deepening max_depth",
                                  "PlaySession depth", "PlaySession mcts", "PlaySession seed"):
            continue  # None is "no limit" or "no seed" there
        with pytest.raises(GameError, match=name):
            WHOLE_DOORS[door](n)


@pytest.mark.parametrize("door", WHOLE_DOORS)
def test_a_huge_integer_is_taken_or_refused_never_a_raw_error(door: str) -> None:
    for n in (10**400, -(10**400)):
        with contextlib.suppress(GameError):
            WHOLE_DOORS[door](n)


SECONDS_DOORS: dict[str, Callable[[Any], object]] = {
    "Budget": lambda s: Budget(s),
    "mcts": lambda s: mcts(TTT, TTT.start, seconds=s, iterations=5, seed=1),
    "iterative_deepening": lambda s: iterative_deepening(TTT, TTT.start, zero, max_depth=1,
                                                         seconds=s),
    "PlaySession": lambda s: PlaySession(TTT, seconds=s, background=False),
}
SECONDS = [0.5, 1, np.float64(0.5), np.int64(1), Fraction(1, 2)]
NOT_SECONDS = [True, 0, -1, math.nan, math.inf, 10**400, "1", np.array([1.0])]


@pytest.mark.parametrize("door", SECONDS_DOORS)
def test_every_door_takes_and_refuses_the_same_seconds(door: str) -> None:
    for s in SECONDS:
        SECONDS_DOORS[door](s)
    for s in NOT_SECONDS:
        with pytest.raises(GameError, match="seconds must be a positive number of seconds"):
            SECONDS_DOORS[door](s)


def test_a_list_of_moves_is_a_list_or_a_tuple_of_legal_moves() -> None:
    def values(moves: Any) -> Any:
        return iterative_deepening(C4, C4.start, zero, max_depth=1, root_moves=moves)

    for moves in ([0, 1], (0, 1), [np.int64(0), np.int64(1)]):
        assert values(moves).move in (0, 1)
    for moves, says in (({0, 1}, "a set has no order: pass a list"),
                        (np.array([0, 1]), "root_moves must be a list of legal moves"),
                        ([0, 0], "repeats a move"), ([], "at least one"),
                        ([9], "not one of the legal moves"), ("01", "must be a list")):
        with pytest.raises(GameError, match=says):
            values(moves)
    tictactoe = [np.int64(0)]  # numpy's 0 against the moves (0, 0) ...: no match, no error
    with pytest.raises(GameError, match="not one of the legal moves"):
        iterative_deepening(TTT, TTT.start, zero, max_depth=1, root_moves=tictactoe)


def test_numpy_integers_give_the_same_search_as_ints() -> None:
    plain = mcts(TTT, TTT.start, iterations=50, seed=7)
    numpy = mcts(TTT, TTT.start, iterations=np.int64(50), seed=np.int64(7))
    assert plain.move == numpy.move and plain.visits == numpy.visits
    assert run_uct(TTT, TTT.start, 3, 20, backpropagate).visits == \
        run_uct(TTT, TTT.start, np.int64(3), np.int64(20), backpropagate).visits


MOVES_TAKEN = {"connect four": [np.int64(3), np.int8(3), 3],
               "tictactoe": [(1, 1), (np.int64(1), np.int64(1))]}
MOVES_REFUSED = {"connect four": [3.0, True, "3", [3], (3,), 10**400, np.float64(3)],
                 "tictactoe": [[1, 1], (1.0, 1.0), (True, True), np.array([1, 1]), {1}]}


@pytest.mark.parametrize("name", MOVES_TAKEN)
def test_a_move_is_the_same_at_the_session_and_at_the_searches(name: str) -> None:
    game: Any = ConnectFour() if name == "connect four" else TTT
    for move in MOVES_TAKEN[name]:
        session = PlaySession(game, mode="human-human", background=False)
        assert session.play_move(move), session.message
        assert iterative_deepening(game, game.start, zero, max_depth=1,
                                   root_moves=[move]).move in game.moves(game.start)
    for move in MOVES_REFUSED[name]:
        session = PlaySession(game, mode="human-human", background=False)
        assert not session.play_move(move) and session.state == game.start
        with pytest.raises(GameError, match="root_moves"):
            iterative_deepening(game, game.start, zero, max_depth=1, root_moves=[move])
