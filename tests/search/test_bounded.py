"""The bound-flagged cache (store rule, seven-case read, invariants) and the broken exhibit."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import (
    EXACT,
    LOWER,
    UPPER,
    BoundCache,
    BoundRead,
    Stats,
    bounded_alphabeta,
    broken_alphabeta,
    find_broken_cache_example,
    memo_minimax,
    read_bound,
    store_bound,
)

BOTH = [pytest.param(TicTacToe(), id="tuple"), pytest.param(TicTacToeBitboard(), id="bitboard")]


def first_player_values(game: Any) -> dict[Hashable, int]:
    """The true value of every reachable state for the first player."""
    cache: dict[Hashable, int] = {}
    memo_minimax(game, game.start, cache=cache)
    return {s: v if game.to_move(s) == game.players[0] else -v for s, v in cache.items()}


GAME = TicTacToe()
TRUTH = first_player_values(GAME)
STATES = list(TRUTH)


def entry_is_true(entry: tuple[str, int], value: int) -> bool:
    flag, v = entry
    return {EXACT: value == v, UPPER: value <= v, LOWER: value >= v}[flag]


# -- the flags, the store rule and the seven cases ------------------------------------------

def test_the_flags_are_the_unicode_characters() -> None:
    assert (EXACT, UPPER, LOWER) == ("=", "\u2264", "\u2265") == ("=", "≤", "≥")


@pytest.mark.parametrize(("v", "entry"), [(-1, (UPPER, -1)), (0, (UPPER, 0)), (1, (LOWER, 1)),
                                          (2, (LOWER, 2))])
def test_store_rule_in_the_window_0_1(v: int, entry: tuple[str, int]) -> None:
    cache: dict[Hashable, tuple[str, int]] = {}
    store_bound(cache, "s", 0, 1, v)
    assert cache == {"s": entry}


def test_store_rule_inside_the_window_is_exact() -> None:
    cache: dict[Hashable, tuple[str, int]] = {}
    store_bound(cache, "s", -1, 1, 0)
    assert cache == {"s": (EXACT, 0)}


@pytest.mark.parametrize(("entry", "alpha", "beta", "expected"), [
    (None, -1, 1, BoundRead(0, None, -1, 1)),
    ((EXACT, 0), -1, 1, BoundRead(1, 0, -1, 1)),
    ((EXACT, 1), -1, 0, BoundRead(1, 1, -1, 0)),
    ((UPPER, 0), 0, 1, BoundRead(2, 0, 0, 1)),
    ((UPPER, -1), 0, 1, BoundRead(2, -1, 0, 1)),
    ((UPPER, 0), -1, 1, BoundRead(3, None, -1, 0)),
    ((UPPER, 1), -1, 1, BoundRead(4, None, -1, 1)),
    ((UPPER, 2), -1, 1, BoundRead(4, None, -1, 1)),
    ((LOWER, 1), -1, 1, BoundRead(5, 1, -1, 1)),
    ((LOWER, 0), -1, 0, BoundRead(5, 0, -1, 0)),
    ((LOWER, 0), -1, 1, BoundRead(6, None, 0, 1)),
    ((LOWER, -1), -1, 1, BoundRead(7, None, -1, 1)),
    ((LOWER, -2), -1, 1, BoundRead(7, None, -1, 1)),
])
def test_the_seven_cases_of_reading_an_entry(entry: Any, alpha: int, beta: int,
                                             expected: BoundRead) -> None:
    assert read_bound(entry, alpha, beta) == expected


def test_an_unknown_flag_is_refused() -> None:
    with pytest.raises(GameError, match="unknown flag '<'"):
        read_bound(("<", 0), -1, 1)


@pytest.mark.parametrize("entry", [0, ("=",), ("=", 0, 1), "=0x"])
def test_an_entry_that_is_not_a_pair_is_refused(entry: Any) -> None:
    with pytest.raises(GameError, match=r"a cache entry is a pair \(flag, v\), got "):
        read_bound(entry, -1, 1)


def test_a_bound_cache_is_a_dict_that_counts_its_flags() -> None:
    cache = BoundCache()
    assert cache.by_flag() == {"=": 0, "≤": 0, "≥": 0}
    store_bound(cache, "a", -1, 1, 0)
    store_bound(cache, "b", -1, 0, 0)
    store_bound(cache, "c", 0, 1, 0)
    assert list(cache.items()) == [("a", ("=", 0)), ("b", ("≥", 0)), ("c", ("≤", 0))]
    assert cache.by_flag() == {"=": 1, "≤": 1, "≥": 1}


# -- the lecture's figures -----------------------------------------------------------------

@pytest.mark.parametrize("game", BOTH)
def test_from_the_start_the_cache_ends_with_2474_entries(game: Any) -> None:
    stats, cache = Stats(), BoundCache()
    assert bounded_alphabeta(game, game.start, cache=cache, stats=stats) == 0
    assert len(cache) == 2_474
    assert cache.by_flag() == stats.cache_entries == {"=": 32, "≤": 1_206, "≥": 1_236}
    assert stats.calls == 4_321            # calls of evaluate
    assert stats.cache_hits == 1_808       # answered by cases 1, 2 and 5
    assert stats.cutoffs == 1_535
    assert stats.terminal == 517
    assert stats.states == 2_474


def test_a_second_search_of_the_start_is_answered_by_the_cache() -> None:
    game, cache = TicTacToe(), BoundCache()
    bounded_alphabeta(game, game.start, cache=cache)
    stats = Stats()
    assert bounded_alphabeta(game, game.start, cache=cache, stats=stats) == 0
    assert (stats.calls, stats.cache_hits, len(cache)) == (1, 1, 2_474)


def test_the_value_is_for_the_first_player_whoever_moves() -> None:
    game = TicTacToe()
    o_wins_next = replay(game, [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)])  # O to move, 1,2 wins
    assert game.to_move(o_wins_next) == "O"
    assert bounded_alphabeta(game, o_wins_next) == -1


# -- invariants ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", BOTH)
def test_every_entry_is_true_after_the_search_from_the_start(game: Any) -> None:
    truth = TRUTH if isinstance(game, TicTacToe) else first_player_values(game)
    cache = BoundCache()
    bounded_alphabeta(game, game.start, cache=cache)
    for state, entry in cache.items():
        assert entry_is_true(entry, truth[state]), (state, entry)
    assert [s for s, (flag, v) in cache.items() if flag == EXACT and v != truth[s]] == []


windows = st.tuples(st.integers(-2, 2), st.integers(-2, 2)).filter(lambda w: w[0] < w[1])


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(STATES), windows), min_size=1, max_size=8))
def test_searches_sharing_a_cache_keep_the_three_cases_and_true_entries(
        searches: list[tuple[Hashable, tuple[int, int]]]) -> None:
    cache = BoundCache()
    for state, (alpha, beta) in searches:
        result = bounded_alphabeta(GAME, state, alpha, beta, cache=cache)
        value = TRUTH[state]
        if value < alpha:
            assert result <= alpha
        elif value > beta:
            assert result >= beta
        else:
            assert result == value
    for state, entry in cache.items():
        assert entry_is_true(entry, TRUTH[state])


def test_entries_stay_true_on_nim_and_connect_four() -> None:
    for game in (Nim((2, 3, 4)), ConnectFour(4, 4)):
        rng, cache = random.Random(8), BoundCache()
        state = game.start
        for _ in range(4 if isinstance(game, ConnectFour) else 0):
            state = game.play(state, rng.choice(game.moves(state)))
        first = 1 if game.to_move(state) == game.players[0] else -1
        value = bounded_alphabeta(game, state, cache=cache)
        assert value == first * memo_minimax(game, state)
        exact: dict[Hashable, int] = {}
        for s, entry in cache.items():
            sign = 1 if game.to_move(s) == game.players[0] else -1
            assert entry_is_true(entry, sign * memo_minimax(game, s, cache=exact))


@pytest.mark.parametrize(("alpha", "beta"), [(0, 0), (1, 0), ("0", 1)])  # None: default
def test_an_empty_or_malformed_window_is_refused(alpha: Any, beta: Any) -> None:
    with pytest.raises(GameError, match="alpha"):
        bounded_alphabeta(GAME, GAME.start, alpha, beta)


def test_a_cache_that_is_not_a_dict_is_refused() -> None:
    with pytest.raises(GameError, match="cache must be a BoundCache or None, got list"):
        bounded_alphabeta(GAME, GAME.start, cache=[])  # type: ignore[arg-type]


def test_a_plain_dict_serves_as_cache_and_its_entries_are_counted() -> None:
    cache: dict[Hashable, tuple[str, int]] = {}
    stats = Stats()
    assert bounded_alphabeta(GAME, GAME.start, cache=cache, stats=stats) == 0  # type: ignore[arg-type]
    assert len(cache) == 2_474
    assert stats.cache_entries == {"=": 32, "≤": 1_206, "≥": 1_236}


# -- the broken cache ----------------------------------------------------------------------

def test_the_broken_cache_gets_a_tic_tac_toe_value_wrong() -> None:
    game = TicTacToe()
    example = find_broken_cache_example(game)
    before = replay(game, [(0, 0)])
    state = replay(game, [(0, 0), (1, 2)])
    assert example.searched_before == before
    assert example.state == state
    assert (example.true_value, example.broken_value) == (1, 0)
    assert example.true_value == TRUTH[state]           # X wins after O's move to 2,3
    # The same two searches, run by hand, give the same wrong number.
    cache: dict[Hashable, int] = {}
    assert broken_alphabeta(game, before, cache=cache) == TRUTH[before] == 0
    assert broken_alphabeta(game, state, cache=cache) == 0 != TRUTH[state]
    # The culprit: a bound stored as if it were exact and read in a wider window.
    assert example.culprit == state
    assert (example.culprit_true_value, example.stored_value) == (1, 0)
    assert (example.stored_window, example.read_window) == ((-1, 0), (-1, 1))
    assert "[-1, 0]" in example.explanation() and "[-1, 1]" in example.explanation()


def test_with_a_fresh_cache_the_broken_search_happens_to_be_right_in_tic_tac_toe() -> None:
    game = TicTacToeBitboard()
    truth = first_player_values(game)
    running = [s for s in truth if not game.finished(s)]
    assert len(running) == 4_520
    assert [s for s in running if broken_alphabeta(game, s) != truth[s]] == []


def test_the_bound_cache_gets_the_same_values_right() -> None:
    game = TicTacToe()
    example = find_broken_cache_example(game)
    cache = BoundCache()
    assert bounded_alphabeta(game, example.searched_before, cache=cache) == 0
    assert bounded_alphabeta(game, example.state, cache=cache) == example.true_value


def test_a_game_without_an_example_says_so() -> None:
    with pytest.raises(GameError, match="right values around all 38 states tried"):
        find_broken_cache_example(Nim((1, 2, 3)))


def test_broken_alphabeta_counts_like_memoization() -> None:
    game, stats = TicTacToe(), Stats()
    assert broken_alphabeta(game, game.start, stats=stats) == 0
    assert stats.cache_entries == {"=": stats.states}
    assert stats.calls == stats.cache_hits + stats.states
