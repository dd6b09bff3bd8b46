"""Expectiminimax (values are expectations at chance nodes) and value iteration (for games
whose states repeat), pinned by exact values worked out independently and exact counts."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from gamelib.game import CHANCE, GameError
from gamelib.games import Nim, Pig, RandomTurnTicTacToe, TicTacToe, TreeGame
from gamelib.search import Budget, Stats, memo_minimax, minimax
from gamelib.search.common import SearchTimeout
from gamelib.search.expectiminimax import expectiminimax, expectiminimax_values
from gamelib.search.value_iteration import value_iteration

RANDOM_TURN = RandomTurnTicTacToe()


class Coin:
    """Toss a coin with heads probability ``p``: heads, A wins; tails, B chooses between
    a draw and a loss for A (B takes the loss for A). Value for A: p - (1 - p)."""

    name = "Coin"
    players = ("A", "B")
    start = "toss"

    def __init__(self, p: Any) -> None:
        self.p = p

    def to_move(self, state: str) -> str:
        return {"toss": CHANCE, "tails": "B"}.get(state, "A")

    def next_states(self, state: str, player: str) -> list[str]:
        return {"toss": ["heads", "tails"], "tails": ["draw", "lost"]}.get(state, [])

    def moves(self, state: str) -> list[str]:
        return self.next_states(state, self.to_move(state))

    def play(self, state: str, move: str) -> str:
        return move

    def outcome_probabilities(self, state: str) -> list[Any]:
        return [self.p, 1 - self.p]

    def finished(self, state: str) -> bool:
        return state in ("heads", "draw", "lost")

    def utility(self, state: str, player: str) -> int:
        a = {"heads": 1, "draw": 0, "lost": -1}[state]
        return a if player == "A" else -a


def test_a_chance_node_is_the_expectation_and_a_player_node_is_max_or_min() -> None:
    assert expectiminimax(Coin(Fraction(3, 4)), "toss") == Fraction(1, 2)
    assert expectiminimax(Coin(Fraction(3, 4)), "toss", "B") == Fraction(-1, 2)
    assert expectiminimax(Coin(0.25), "toss") == pytest.approx(-0.5)
    assert expectiminimax_values(Coin(Fraction(1, 3)), "tails") == {"draw": 0, "lost": 1}


@pytest.mark.parametrize("game", [TicTacToe(), Nim((1, 2, 3)), TreeGame([[3, 12, 8], [2, 4, 6]])])
def test_without_chance_it_is_memoized_minimax(game: Any) -> None:
    stats, memo_stats = Stats(), Stats()
    first = game.players[0]
    value = expectiminimax(game, game.start, stats=stats)
    assert value == memo_minimax(game, game.start, first, stats=memo_stats)
    assert (stats.calls, stats.states) == (memo_stats.calls, memo_stats.states)
    if not isinstance(game, TicTacToe):   # plain minimax on tic-tac-toe: 549,946 calls
        assert value == minimax(game, game.start, first)


@cache
def by_hand(board: tuple[str, ...]) -> Fraction:
    """Random-turn tic-tac-toe's value for X, written independently: a board is nine
    marks, the coin is tossed in every unfinished position, and each side maximizes its
    own chances (a nine-cell formula, not gamelib's game)."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    for a, b, c in lines:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return Fraction(1 if board[a] == "X" else -1)
    empty = [i for i, m in enumerate(board) if m == " "]
    if not empty:
        return Fraction(0)
    after = {mark: [by_hand(board[:i] + (mark,) + board[i + 1:]) for i in empty]
             for mark in "XO"}
    return (max(after["X"]) + min(after["O"])) / 2


def test_random_turn_tictactoe_has_the_values_of_an_independent_formula() -> None:
    game, stats = RANDOM_TURN, Stats()
    state = game.play(game.play(game.play(game.play(game.start, "X"), (1, 1)), "O"), (0, 0))
    assert expectiminimax(game, state, stats=stats) == Fraction(11, 128)
    assert Fraction(11, 128) == by_hand(("O",) + (" ",) * 3 + ("X",) + (" ",) * 4)
    assert (stats.calls, stats.states, stats.terminal, stats.cache_hits) == (8003, 3984, 990, 4019)
    o_moves = expectiminimax_values(game, game.play(state, "O"))   # O to move: O's values
    assert max(o_moves.values()) == o_moves[(0, 1)] == o_moves[(1, 0)] == Fraction(21, 64)
    assert -o_moves[(0, 1)] == by_hand(("O", "O") + (" ",) * 2 + ("X",) + (" ",) * 4)
    assert -o_moves[(1, 2)] == by_hand(("O",) + (" ",) * 3 + ("X", "O") + (" ",) * 3)


def test_the_cache_is_shared_and_a_depth_limit_asks_the_heuristic() -> None:
    game = RandomTurnTicTacToe()
    state = game.play(game.play(game.play(game.play(game.start, "X"), (1, 1)), "O"), (0, 0))
    cache: dict[Any, Any] = {}
    first, second = Stats(), Stats()
    expectiminimax(game, state, cache=cache, stats=first)
    assert expectiminimax(game, state, cache=cache, stats=second) == Fraction(11, 128)
    assert (second.calls, second.cache_hits, first.cache_entries) == (1, 1, {"=": 3984})
    asked: list[Any] = []

    def h(s: Any, p: str) -> float:
        asked.append(s)
        return 0.5 if p == "X" else -0.5

    assert expectiminimax(game, state, depth=0, heuristic=h) == Fraction(1, 2) * 0 + 0.5
    assert len(asked) == 2   # the coin's two outcomes, each at the horizon


def test_pig_with_a_depth_limit_and_its_exact_value_by_value_iteration() -> None:
    game = Pig(2)   # A wins at once with 2-6 (5/6); a 1 hands B the same game: P = 6/7
    values = value_iteration(game)
    assert (1 + values[game.start]) / 2 == pytest.approx(Fraction(6, 7), abs=1e-12)
    stats = Stats()
    estimate = expectiminimax_values(game, game.start, depth=3, heuristic=game.lead,
                                     stats=stats)
    assert estimate == pytest.approx({"roll": 0.7175925925925926, "hold": -0.6944444444444444})
    assert stats.calls == 24
    with pytest.raises(GameError, match="comes back on its own line of play"):
        expectiminimax(game, game.start)


def neller_presser(target: int) -> float:
    """Pig's chance of winning for the first player by Neller and Presser's equations in
    their own coordinates (my score i, the opponent's j, turn total k), iterated plainly
    over all states at once until nothing moves: independent of gamelib's code."""
    p = {(i, j, k): 0.0 for i in range(target) for j in range(target) for k in range(target - i)}

    def won(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= target else p[i, j, k]

    while True:
        change = 0.0
        for (i, j, k), old in p.items():
            roll = (1 - won(j, i, 0) + sum(won(i, j, k + r) for r in range(2, 7))) / 6
            hold = 1 - won(j, i + k, 0)
            p[i, j, k] = max(roll, hold)
            change = max(change, abs(p[i, j, k] - old))
        if change < 1e-13:
            return p[0, 0, 0]


def test_value_iteration_on_pig_agrees_with_neller_and_presser_equations() -> None:
    game, stats = Pig(12), Stats()
    values = value_iteration(game, stats=stats)
    assert (1 + values[game.start]) / 2 == pytest.approx(neller_presser(12), abs=1e-10)
    assert len(values) == stats.states == 2640


def test_value_iteration_equals_expectiminimax_where_states_do_not_repeat() -> None:
    game = RandomTurnTicTacToe()
    state = game.play(game.play(game.play(game.play(game.start, "O"), (0, 0)), "X"), (1, 1))
    cache: dict[Any, Any] = {}
    expectiminimax(game, state, cache=cache)
    stats = Stats()
    values = value_iteration(game, state, stats=stats)
    assert values.keys() == cache.keys()
    assert max(abs(values[s] - float(cache[s])) for s in cache) == 0.0
    assert stats.nodes_per_depth == {1: len(cache)}   # every component one state, one sweep


def test_bad_input_gets_a_message() -> None:
    class Unfair(Coin):
        def outcome_probabilities(self, state: str) -> list[Any]:
            return [Fraction(1, 2), Fraction(1, 3)]

    with pytest.raises(GameError, match="sum to 5/6, not 1"):
        expectiminimax(Unfair(0), "toss")
    with pytest.raises(GameError, match="negative"):
        value_iteration(Coin(Fraction(3, 2)))
    with pytest.raises(GameError, match="heuristic must be a function"):
        expectiminimax(RANDOM_TURN, RANDOM_TURN.start, depth=2)
    with pytest.raises(GameError, match="strictly between -1 and 1"):
        expectiminimax(RANDOM_TURN, RANDOM_TURN.start, depth=0, heuristic=lambda s, p: 2)
    with pytest.raises(GameError, match="unknown player"):
        expectiminimax(RANDOM_TURN, RANDOM_TURN.start, "Z")
    with pytest.raises(GameError, match="tolerance must be a number from 1e-15 to 0.1"):
        value_iteration(Pig(5), tolerance=0)
    with pytest.raises(GameError, match="more than 100 states are reachable"):
        value_iteration(Pig(20), max_states=100)
    with pytest.raises(GameError, match="no move to value"):
        expectiminimax_values(Coin(Fraction(1, 2)), "heads")


def test_every_search_ends_within_its_budget() -> None:
    with pytest.raises(SearchTimeout):
        expectiminimax(RANDOM_TURN, RANDOM_TURN.start, budget=Budget(nodes=500))
    with pytest.raises(SearchTimeout):
        value_iteration(Pig(30), budget=Budget(nodes=500))
