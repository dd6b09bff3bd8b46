"""minimax, memo_minimax, memoize and best_move: the lecture's figures and the contracts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from typing import Any

import pytest

from gamelib.game import GameError, replay
from gamelib.games import Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import Stats, best_move, memo_minimax, memoize, minimax

BOTH = [pytest.param(TicTacToe(), id="tuple"), pytest.param(TicTacToeBitboard(), id="bitboard")]


# -- the lecture's figures ---------------------------------------------------------------

def check_plain_minimax_from_the_start(game: Any) -> None:
    stats = Stats()
    assert minimax(game, game.start, stats=stats) == 0
    assert stats.calls == 549_946          # one call per node of the game tree
    assert stats.terminal == 255_168       # the number of different games of tic-tac-toe
    assert stats.states == 5_478
    assert (stats.cutoffs, stats.cache_hits, stats.cache_entries) == (0, 0, {})


def test_plain_minimax_from_the_start_makes_549946_calls() -> None:
    check_plain_minimax_from_the_start(TicTacToeBitboard())


@pytest.mark.slow
def test_plain_minimax_from_the_start_with_tuple_states() -> None:
    check_plain_minimax_from_the_start(TicTacToe())


@pytest.mark.parametrize("game", BOTH)
def test_memo_minimax_from_the_start_stores_5478_states(game: Any) -> None:
    stats, cache = Stats(), {}
    assert memo_minimax(game, game.start, cache=cache, stats=stats) == 0
    assert len(cache) == 5_478
    assert stats.cache_entries == {"=": 5_478}
    assert stats.states == 5_478
    assert stats.calls == 16_168           # 5,478 computed + 10,690 answered by the cache
    assert stats.cache_hits == 10_690
    assert stats.terminal == 958
    assert Counter(cache.values()) == {1: 2_836, -1: 1_574, 0: 1_068}


def test_memo_minimax_reuses_a_cache_across_calls() -> None:
    game, cache = TicTacToe(), {}
    memo_minimax(game, game.start, cache=cache)
    stats = Stats()
    state = replay(game, [(0, 0), (1, 1)])
    assert memo_minimax(game, state, cache=cache, stats=stats) == 0
    assert (stats.calls, stats.cache_hits, len(cache)) == (1, 1, 5_478)


def test_memo_minimax_values_are_for_the_player_to_move() -> None:
    game, cache = TicTacToe(), {}
    # X has two in the top row and O none: X to move wins at once.
    x_to_move = replay(game, [(0, 0), (1, 1), (0, 1), (2, 2)])
    assert memo_minimax(game, x_to_move, cache=cache) == 1
    assert cache[x_to_move] == 1
    o_to_move = replay(game, [(0, 0), (1, 1), (0, 1)])
    assert memo_minimax(game, o_to_move, cache=cache) == 0      # O must block: a draw


# -- the player argument -----------------------------------------------------------------

@pytest.mark.parametrize("search", [minimax, memo_minimax])
def test_a_finished_state_has_a_value_for_either_player(search: Any) -> None:
    game = TicTacToe()
    won_by_x = replay(game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    assert search(game, won_by_x) == -1                 # O is to move, and has lost
    assert search(game, won_by_x, "O") == -1
    assert search(game, won_by_x, "X") == 1


@pytest.mark.parametrize("search", [minimax, memo_minimax])
def test_a_running_state_is_searched_for_the_player_to_move_only(search: Any) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="it is X's turn in this state, not O's"):
        search(game, game.start, "O")
    with pytest.raises(GameError, match="unknown player 'Z'"):
        search(game, game.start, "Z")


def test_memo_minimax_refuses_a_cache_that_is_not_a_dict() -> None:
    game = TicTacToe()
    with pytest.raises(GameError,
                       match="cache must be a dict from states to values or None, got list"):
        memo_minimax(game, game.start, cache=[])  # type: ignore[arg-type]


def test_memoize_refuses_what_is_not_a_function() -> None:
    with pytest.raises(GameError, match="memoize needs a function, got 5"):
        memoize(5)  # type: ignore[arg-type]


def test_minimax_counts_add_up_over_several_searches() -> None:
    game, stats = TicTacToe(), Stats()
    state = replay(game, [(1, 1), (0, 0)])
    minimax(game, state, stats=stats)
    minimax(game, state, stats=stats)
    assert stats.calls == 2 * 6_812
    assert stats.states == 617


# -- memoize -----------------------------------------------------------------------------

def test_memoize_caches_every_argument_tuple() -> None:
    calls = []

    @memoize
    def fib(n: int) -> int:
        calls.append(n)
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    assert fib(30) == 832_040
    assert calls == list(range(30, -1, -1))             # each argument computed once
    assert fib.cache[(30,)] == 832_040                  # type: ignore[attr-defined]
    assert len(fib.cache) == 31                         # type: ignore[attr-defined]
    assert fib.__name__ == "fib"


def test_memoize_reproduces_the_lecture_count() -> None:
    game = TicTacToe()
    o = {"X": "O", "O": "X"}

    @memoize
    def value(state: Hashable, player: str) -> int:
        if game.finished(state):
            return game.utility(state, player)
        return max(-value(n, o[player]) for n in game.next_states(state, player))

    assert value(game.start, "X") == 0
    assert len(value.cache) == 5_478                    # type: ignore[attr-defined]


# -- best_move ---------------------------------------------------------------------------

def test_best_move_chooses_uniformly_among_the_optimal_moves() -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0)])                      # O must take the centre to draw
    assert best_move(game, state, rng=random.Random(0)) == (0, (1, 1))
    cache: dict[Hashable, int] = {}

    def value(g: Any, s: Hashable, p: str) -> int:
        return memo_minimax(g, s, p, cache=cache)

    start_moves = Counter(best_move(game, game.start, rng=random.Random(seed), value=value)[1]
                          for seed in range(90))
    assert set(start_moves) == set(game.moves(game.start))    # every move draws


def test_best_move_is_reproducible_with_a_seeded_rng() -> None:
    game = TicTacToe()
    first = [best_move(game, game.start, rng=random.Random(7)) for _ in range(3)]
    assert first == [first[0]] * 3


def test_best_move_takes_the_value_function_it_is_given() -> None:
    game = Nim((1, 2))
    seen: list[Hashable] = []

    def value(g: Any, state: Hashable, player: str) -> int:
        seen.append(state)
        return memo_minimax(g, state, player)

    v, move = best_move(game, game.start, rng=random.Random(1), value=value)
    assert (v, move) == (1, (1, 1))                     # leave (1, 1): nim-sum 0
    assert seen == [game.play(game.start, m) for m in game.moves(game.start)]


def test_best_move_refuses_a_finished_state() -> None:
    game = Nim((1,))
    with pytest.raises(GameError, match="the game is over"):
        best_move(game, game.play(game.start, (0, 1)))


def test_best_move_refuses_something_that_is_not_a_random_generator() -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match="rng must be a random.Random"):
        best_move(game, game.start, rng=42)             # type: ignore[arg-type]
