"""trace_search runs gamelib's own searches: same values, calls, cutoffs and cache entries.

The central tests compare traces with a plain call of the same function on one tic-tac-toe
position of each symmetry class with at most the number of empty squares that fits (6; 7
for the bounded search). That every position up to that number fits is shown by counting up
to 5 empty squares and from plain searches of all the positions with more (see traced()
below).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable
from typing import Any

import pytest
from helpers import one_per_symmetry

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import (
    BoundCache,
    SearchTrace,
    Stats,
    alphabeta,
    bounded_alphabeta,
    center_first,
    depth_limited,
    memo_minimax,
    minimax,
    tictactoe_open_lines,
    trace_search,
    zero,
)
from gamelib.search.trace import (
    FITS,
    MAX_EVENTS,
    CacheRead,
    CacheStore,
    Cutoff,
    Enter,
    Leaf,
    Return,
)

GAME = TicTacToe()


def all_states() -> list[Hashable]:
    cache: dict[Hashable, int] = {}
    memo_minimax(GAME, GAME.start, cache=cache)
    return sorted(cache, key=repr)


STATES = all_states()


def empty_squares(state: Hashable) -> int:
    return len(GAME.moves(state))


def positions(at_most: int) -> list[Hashable]:
    return [s for s in STATES if empty_squares(s) <= at_most]


def count(trace: SearchTrace, kind: type) -> int:
    return sum(isinstance(e, kind) for e in trace.events)


def kinds(trace: SearchTrace) -> Counter[type]:
    """How many events of each type ``trace`` holds, in one pass over its events (by exact
    type: gamelib subclasses none of its event classes)."""
    return Counter(type(e) for e in trace.events)


def check_shape(trace: SearchTrace, counted: Counter[type] | None = None) -> None:
    """What every trace satisfies: node ids, parents, one Enter and one Return per node
    (``counted``: the trace's :func:`kinds`, if the caller has them)."""
    counted = kinds(trace) if counted is None else counted
    assert [n.id for n in trace.nodes] == list(range(len(trace.nodes)))
    assert trace.nodes[0].parent is None
    for node in trace.nodes[1:]:
        assert node.parent is not None and node.parent < node.id
        assert trace.nodes[node.parent].depth == node.depth - 1
        parent_state = trace.nodes[node.parent].state
        assert GAME.play(parent_state, node.move) == node.state
    assert counted[Enter] == counted[Return] == len(trace.nodes) == trace.calls
    assert isinstance(trace.events[-1], Return) and trace.events[-1].node == 0
    assert trace.events[-1].value == trace.value
    assert len(trace) <= MAX_EVENTS


# -- the trace is the algorithm ---------------------------------------------------------------


@pytest.mark.slow
def test_minimax_traces_equal_minimax_on_every_kind_of_position_with_6_empty_squares() -> None:
    """One position of each symmetry class: minimax tries every move, so a rotated or
    reflected position has the same tree turned: the same value, calls, leaves and trace
    size (for the searches with cutoffs below, see the comment above traced())."""
    classes = traced(6)
    assert (len(positions(6)), len(classes)) == (5396, 749)
    for state in classes:
        stats = Stats()
        value = minimax(GAME, state, stats=stats)
        trace = trace_search(GAME, state, "minimax")
        counted = kinds(trace)
        assert (trace.value, trace.calls) == (value, stats.calls)
        assert counted[Leaf] == stats.terminal
        check_shape(trace, counted)


# The searches with cutoffs are traced on one position of each symmetry class, as minimax is.
# Their trees depend on the move order, so a turned position is searched in another order, but
# the recorder never looks at which cell a move is: it writes the events the search's calls give,
# the same kinds at any size and in any order (the asserts below check that each kind occurs,
# cutoffs, heuristic leaves, and every one of the eight ways of reading a cache entry). Until
# this round they also took every position with at most 3 empty squares (3,248, of 450 classes):
# half of these tests' time, for trees of at most 16 nodes of the same shapes as their classes'.
# That a trace of EVERY position up to FITS fits is then shown without tracing them (up to 5 empty
# squares by counting the tree's nodes): a trace has one Enter and one Return per call, one Leaf
# per terminal call, one Cutoff per cutoff (and, in the bounded search, one CacheRead per call and
# one CacheStore per call not answered by the cache), so its length is a sum of the plain search's
# counters, a sum checked against len(trace) on every traced position.


def traced(at_most: int) -> list[Hashable]:
    """One position of each symmetry class with at most ``at_most`` empty squares."""
    return one_per_symmetry(positions(at_most))


def plain_lengths(empty: int, search: Any, cache: bool = False) -> int:
    """The longest trace, as the sum of ``search``'s counters, of every position with
    ``empty`` empty squares (``search(state, stats)`` runs the plain search)."""
    longest = 0
    for state in STATES:
        if empty_squares(state) == empty:
            stats = Stats()
            search(state, stats)
            longest = max(longest, length(stats, cache))
    return longest


def most_calls(empty: int) -> int:
    """The most calls any search makes from a position with ``empty`` empty squares: one per
    node of the full tree of move sequences (``empty`` moves, then ``empty - 1``, ...)."""
    return sum(math.perm(empty, plies) for plies in range(empty + 1))


def length(stats: Stats, cache: bool = False) -> int:
    """The number of events of the trace of a search with these counters (see above)."""
    reads_and_stores = stats.calls + stats.calls - stats.cache_hits if cache else 0
    return 2 * stats.calls + stats.terminal + stats.cutoffs + reads_and_stores


def test_the_traced_sets_hold_a_position_of_each_symmetry_class() -> None:
    assert (len(positions(6)), len(traced(6)), len(traced(7))) == (5396, 749, 761)
    assert len(one_per_symmetry(positions(3))) == 450


@pytest.mark.slow
@pytest.mark.parametrize("order", [None, center_first])
def test_alphabeta_traces_equal_alphabeta(order: Any) -> None:
    cutoffs = 0
    for state in traced(6):
        stats = Stats()
        value = alphabeta(GAME, state, stats=stats, order=order)
        trace = trace_search(GAME, state, "alphabeta", order=order)
        counted = kinds(trace)
        assert (trace.value, trace.calls) == (value, stats.calls)
        assert counted[Cutoff] == stats.cutoffs
        assert counted[Leaf] == stats.terminal
        assert len(trace) == length(stats)
        check_shape(trace, counted)
        cutoffs += stats.cutoffs
    assert cutoffs > 0


@pytest.mark.slow
def test_bounded_traces_equal_bounded_alphabeta() -> None:
    cases: Counter[int] = Counter()
    for state in traced(7):
        stats, cache = Stats(), BoundCache()
        value = bounded_alphabeta(GAME, state, cache=cache, stats=stats)
        trace = trace_search(GAME, state, "bounded")
        counted = kinds(trace)
        reads = [e for e in trace.events if type(e) is CacheRead]
        assert (trace.value, trace.calls) == (value, stats.calls)
        assert counted[Cutoff] == stats.cutoffs
        assert trace.cache == cache
        assert counted[CacheRead] == len(reads) == stats.calls
        assert sum(e.used for e in reads) == stats.cache_hits
        assert counted[CacheStore] == stats.calls - stats.cache_hits
        assert len(trace) == length(stats, cache=True)
        check_shape(trace, counted)
        cases.update(e.case for e in reads)
    assert sorted(cases) == [0, 1, 2, 3, 4, 5, 6, 7]    # every way of reading an entry


@pytest.mark.slow
@pytest.mark.parametrize(("depth", "heuristic"), [(2, tictactoe_open_lines), (9, zero)])
def test_depth_limited_traces_equal_depth_limited(depth: int, heuristic: Any) -> None:
    for state in traced(6):
        stats = Stats()
        value = depth_limited(GAME, state, depth, heuristic, stats=stats)
        trace = trace_search(GAME, state, "depth_limited", depth=depth, heuristic=heuristic)
        counted = kinds(trace)
        assert (trace.value, trace.calls) == (value, stats.calls)
        assert counted[Cutoff] == stats.cutoffs
        leaves = [e for e in trace.events if type(e) is Leaf]
        assert sum(not leaf.heuristic for leaf in leaves) == stats.terminal
        if depth >= 9:
            assert not any(leaf.heuristic for leaf in leaves)
            assert len(trace) == length(stats)
        check_shape(trace, counted)


@pytest.mark.slow
def test_every_position_up_to_fits_gives_a_trace_that_fits() -> None:
    """Every position with at most FITS empty squares gives a trace of at most MAX_EVENTS.

    Up to 5 empty squares by counting: a trace's length is its search's counters' sum
    (checked above), at most 6 events per call (Enter, Return, Leaf, Cutoff, CacheRead,
    CacheStore), and a search makes at most :func:`most_calls` calls. With 6
    (and 7 for the bounded search) the plain searches of every such position give the
    longest trace from their counters (minimax's trees are the same in a whole symmetry
    class, traced above)."""
    assert FITS == {"minimax": 6, "alphabeta": 6, "bounded": 7, "depth_limited": 6}
    assert (most_calls(5), most_calls(6)) == (326, 1957)
    assert 6 * most_calls(5) <= MAX_EVENTS < 6 * most_calls(6)
    longest = {
        "alphabeta": plain_lengths(6, lambda s, st: alphabeta(GAME, s, stats=st)),
        "center_first": plain_lengths(
            6, lambda s, st: alphabeta(GAME, s, stats=st, order=center_first)),
        "bounded 6": plain_lengths(
            6, lambda s, st: bounded_alphabeta(GAME, s, cache=BoundCache(), stats=st), cache=True),
        "bounded 7": plain_lengths(
            7, lambda s, st: bounded_alphabeta(GAME, s, cache=BoundCache(), stats=st), cache=True),
        "depth_limited": plain_lengths(6, lambda s, st: depth_limited(GAME, s, 9, zero, stats=st)),
    }
    assert max(longest.values()) <= MAX_EVENTS
    assert longest == {"alphabeta": 1778, "center_first": 1225, "bounded 6": 1456,
                       "bounded 7": 3768, "depth_limited": 2026}


def test_a_bounded_trace_with_a_cache_reads_it_and_leaves_it_unchanged() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2)])
    cache = BoundCache()
    bounded_alphabeta(GAME, state, 0, 1, cache=cache)
    before = dict(cache)
    plain = BoundCache(cache)
    stats = Stats()
    value = bounded_alphabeta(GAME, state, cache=plain, stats=stats)
    trace = trace_search(GAME, state, "bounded", cache=cache)
    assert cache == before
    assert (trace.value, trace.calls, trace.cache) == (value, stats.calls, plain)
    cases = Counter(e.case for e in trace.events if isinstance(e, CacheRead))
    assert cases[0] < stats.calls   # some entries were there to read
    for event in trace.events:
        if isinstance(event, CacheRead):
            assert event.used == (event.case in (1, 2, 5))


def test_a_narrow_window_is_recorded() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2)])
    stats = Stats()
    value = alphabeta(GAME, state, None, 0, 1, stats=stats)
    trace = trace_search(GAME, state, "alphabeta", alpha=0, beta=1)
    assert trace.events[0] == Enter(0, (0, 1))
    assert (trace.value, trace.calls) == (value, stats.calls)


# -- what the events carry ----------------------------------------------------------------------


def test_a_cutoff_names_the_skipped_moves_in_search_order() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1)])
    trace = trace_search(GAME, state, "alphabeta")
    cutoffs = [e for e in trace.events if isinstance(e, Cutoff)]
    assert cutoffs
    for cutoff in cutoffs:
        node = trace.nodes[cutoff.node]
        searched = [n.move for n in trace.nodes if n.parent == node.id]
        assert list(searched) + list(cutoff.pruned) == GAME.moves(node.state)
        assert trace.nodes[cutoff.child].parent == node.id
        assert cutoff.value >= cutoff.window[1]


def test_returns_say_exact_or_bound_by_the_window() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2), (0, 2)])
    trace = trace_search(GAME, state, "alphabeta")
    windows = {e.node: e.window for e in trace.events if isinstance(e, Enter)}
    for event in trace.events:
        if isinstance(event, Return):
            alpha, beta = windows[event.node]
            expected = "≤" if event.value <= alpha else "≥" if event.value >= beta else "="
            assert event.bound == expected
    assert all(e.bound == "=" for e in trace_search(GAME, state, "minimax").events
               if isinstance(e, Return))


def test_nodes_carry_the_player_to_move_and_the_bitboard_works_too() -> None:
    game = TicTacToeBitboard()
    state = replay(game, [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1)])
    trace = trace_search(game, state, "minimax")
    assert trace.value == minimax(game, state)
    assert all(n.player == game.to_move(n.state) for n in trace.nodes)


def test_other_games_are_traced() -> None:
    nim = Nim((1, 2))
    trace = trace_search(nim, nim.start, "bounded")
    assert trace.value == bounded_alphabeta(nim, nim.start)
    c4 = ConnectFour(4, 4)
    stats = Stats()
    value = depth_limited(c4, c4.start, 2, zero, stats=stats)
    trace = trace_search(c4, c4.start, "depth_limited", depth=2, heuristic=zero)
    assert (trace.value, trace.calls) == (value, stats.calls)


# -- too large, and bad requests --------------------------------------------------------------


@pytest.mark.parametrize("algorithm", sorted(FITS))
def test_one_more_empty_square_than_fits_is_refused_up_front(algorithm: str) -> None:
    """Every position with FITS[a] empty squares fits (the test above). One more empty
    square is refused, naming the number that fits."""
    assert FITS == {"minimax": 6, "alphabeta": 6, "bounded": 7, "depth_limited": 6}
    options: dict[str, Any] = {"depth": 9} if algorithm == "depth_limited" else {}
    limit = FITS[algorithm]
    for state in [s for s in STATES if empty_squares(s) == limit + 1][:20]:
        with pytest.raises(GameError, match=f"with at most {limit} empty squares"):
            trace_search(GAME, state, algorithm, **options)


def test_a_trace_that_passes_the_limit_anyway_is_stopped_cleanly() -> None:
    game = ConnectFour()
    with pytest.raises(GameError, match=f"passed {MAX_EVENTS:,} events and was stopped"):
        trace_search(game, game.start, "minimax")
    state = replay(GAME, [(1, 1)])   # 8 empty squares, but a depth below the game's
    with pytest.raises(GameError, match="at most 6 empty squares always fit"):
        trace_search(GAME, state, "depth_limited", depth=7, heuristic=zero)
    assert len(trace_search(GAME, state, "depth_limited", depth=2)) < MAX_EVENTS


@pytest.mark.parametrize(("call", "message"), [
    ((GAME, GAME.start, "negamax"), "algorithm must be one of 'minimax', 'alphabeta'"),
    ((GAME, GAME.start, "minimax"), None),
    ((TicTacToe, GAME.start, "minimax"), "got the class TicTacToe instead of a game"),
    ((None, GAME.start, "minimax"), "None is not a game"),
    ((GAME, "board", "minimax"), "'board' is not a state of Tic-tac-toe"),
])
def test_bad_requests_are_refused_with_a_message(call: tuple[Any, ...],
                                                 message: str | None) -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1)])
    game, start, algorithm = call
    start = state if start is GAME.start else start
    if message is None:
        assert trace_search(game, start, algorithm).value == minimax(game, start)
        return
    with pytest.raises(GameError, match=message):
        trace_search(game, start, algorithm)


def test_bad_options_are_refused_with_a_message() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1)])
    with pytest.raises(GameError, match="'minimax' takes no option alpha: its options are none"):
        trace_search(GAME, state, "minimax", alpha=0)
    with pytest.raises(GameError, match="its options are alpha, beta, order"):
        trace_search(GAME, state, "alphabeta", cache={})
    with pytest.raises(GameError, match="needs the option depth"):
        trace_search(GAME, state, "depth_limited")
    with pytest.raises(GameError, match="the window needs alpha < beta"):
        trace_search(GAME, state, "bounded", alpha=1, beta=0)
    with pytest.raises(GameError, match="depth must be a whole number"):
        trace_search(GAME, state, "depth_limited", depth=-1)
    with pytest.raises(GameError, match="cache must be a BoundCache"):
        trace_search(GAME, state, "bounded", cache=[])
    with pytest.raises(GameError, match="heuristic's value must be a number"):
        trace_search(GAME, state, "depth_limited", depth=1, heuristic=lambda s, p: "0")


def test_the_window_of_minimax_is_everything() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1)])
    trace = trace_search(GAME, state, "minimax")
    assert all(e.window == (-math.inf, math.inf) for e in trace.events if isinstance(e, Enter))


@pytest.mark.parametrize("search", [minimax, alphabeta, bounded_alphabeta])
def test_an_observer_that_is_not_a_function_is_refused(search: Any) -> None:
    with pytest.raises(GameError, match="observer must be a function observer"):
        search(GAME, GAME.start, observer=3)


def test_an_observer_sees_every_call_and_changes_nothing() -> None:
    state = replay(GAME, [(1, 1), (0, 0)])
    seen: list[Any] = []

    def observer(step: Any) -> Any:
        def observed(*args: Any) -> Any:
            seen.append(args[0])
            return step(*args)
        return observed

    stats = Stats()
    assert alphabeta(GAME, state, observer=observer, stats=stats) == alphabeta(GAME, state)
    assert len(seen) == stats.calls
    seen.clear()
    stats = Stats()
    depth_limited(GAME, state, 3, zero, observer=observer, stats=stats)
    assert len(seen) == stats.calls


def test_a_bounded_cutoff_is_on_the_first_players_scale() -> None:
    state = replay(GAME, [(1, 1), (0, 0), (2, 2)])
    trace = trace_search(GAME, state, "bounded")
    cutoffs = [e for e in trace.events if isinstance(e, Cutoff)]
    assert {trace.nodes[c.node].player for c in cutoffs} == {"X", "O"}
    for cutoff in cutoffs:
        alpha, beta = cutoff.window
        if trace.nodes[cutoff.node].player == "X":
            assert cutoff.value >= beta
        else:
            assert cutoff.value <= alpha
        returned = next(e for e in trace.events if isinstance(e, Return) and e.node == cutoff.node)
        assert returned.value == cutoff.value


@pytest.mark.parametrize("algorithm", [["minimax"], ("minimax",), {"minimax"}, 10**400, None])
def test_an_algorithm_that_is_not_a_name_is_refused(algorithm: object) -> None:
    from gamelib.games import TicTacToe

    game = TicTacToe()
    with pytest.raises(GameError, match="algorithm must be one of 'minimax'") as caught:
        trace_search(game, game.start, algorithm)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200
