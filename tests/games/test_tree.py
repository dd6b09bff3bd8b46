"""TreeGame: a game given as its tree, searched like any other game.

The figures below are worked out by hand on the textbooks' two-ply tree

            MAX
     /       |        \\
   MIN      MIN       MIN
  3 12 8   2 4 6    14 5 2

MIN holds MAX to 3, 2 and 2: the tree is worth 3 to MAX. Minimax calls itself once
per node: 1 root + 3 MIN nodes + 9 leaves = 13 calls, 9 of them on leaves. Alpha-beta
searches the first MIN node fully (value 3, so alpha = 3 at the root); in the second
its first leaf, 2, already shows MIN can hold MAX to 2 <= 3, so 4 and 6 are never
looked at (a cutoff); in the third, 14 and 5 leave MIN's bound above 3 and only the
last leaf, 2, brings it down (a cutoff with nothing left to skip). That is 1 + (1 + 3)
+ (1 + 1) + (1 + 3) = 11 calls, 7 on leaves, 2 cutoffs.
"""

from __future__ import annotations

import math

import pytest

from gamelib.game import GameError, IllegalMoveError, MoveFormatError
from gamelib.games import TreeGame
from gamelib.search import (
    Stats,
    alphabeta,
    bounded_alphabeta,
    depth_limited,
    iterative_deepening,
    memo_minimax,
    minimax,
    trace_search,
    zero,
)
from gamelib.ui import search_svg
from gamelib.ui.search_snapshot import describe

CLASSIC = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture
def game() -> TreeGame:
    return TreeGame(CLASSIC)


def test_the_states_are_paths(game: TreeGame) -> None:
    assert game.start == ()
    assert game.moves(game.start) == [0, 1, 2]
    assert game.next_states((1,), "MIN") == [(1, 0), (1, 1), (1, 2)]
    assert game.to_move(()) == "MAX" and game.to_move((2,)) == "MIN"
    assert game.finished((2, 0)) and not game.finished((2,))
    assert game.utility((2, 0), "MAX") == 14 and game.utility((2, 0), "MIN") == -14
    assert game.value_range == (-14, 14)
    assert game.parse_move("3") == 2 and game.format_move(2) == "3"
    assert game.label((1, 0)) == "2.1" and game.label(()) == "root"
    assert game.render(()) == "MAX to move at root: [[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    assert game.render((0, 1)) == "leaf 1.2: worth 12 to MAX"
    assert TreeGame().tree == TreeGame(CLASSIC).tree   # the classic tree is the default


def test_minimax_by_hand(game: TreeGame) -> None:
    stats = Stats()
    assert minimax(game, game.start, stats=stats) == 3
    assert (stats.calls, stats.terminal, len(stats.visited)) == (13, 9, 13)
    # The MIN nodes, valued for MIN (negamax): MIN holds MAX to 3, 2 and 2.
    assert [minimax(game, (i,)) for i in range(3)] == [-3, -2, -2]


def test_memo_minimax_by_hand(game: TreeGame) -> None:
    stats = Stats()
    assert memo_minimax(game, game.start, stats=stats) == 3
    assert (stats.calls, stats.terminal) == (13, 9)   # no state is met twice in a tree
    # Negative leaves: the search starts below every value, not at -1.
    assert memo_minimax(TreeGame([[-3, -12], [-2, -7]]), ()) == -7


def test_alphabeta_by_hand(game: TreeGame) -> None:
    stats = Stats()
    assert alphabeta(game, game.start, stats=stats) == 3
    assert (stats.calls, stats.terminal, stats.cutoffs) == (11, 7, 2)
    # The leaves never looked at: 4 and 6, under the second MIN node.
    assert {(1, 1), (1, 2)} == {(i, j) for i in range(3) for j in range(3)} - stats.visited
    # The default window is the tree's value range; the textbooks' infinite window prunes
    # the same leaves here.
    wide = Stats()
    assert alphabeta(game, game.start, alpha=-math.inf, beta=math.inf, stats=wide) == 3
    assert wide.calls == 11
    # A window that misses the value gives a bound only: best starts at alpha, the bound itself.
    assert alphabeta(game, game.start, alpha=5, beta=10) == 5


def test_bounded_and_depth_limited(game: TreeGame) -> None:
    stats = Stats()
    assert bounded_alphabeta(game, game.start, stats=stats) == 3
    assert stats.calls == 11
    # The depth-limited search scores a leaf two plies down as utility x (1 + 1/3).
    assert depth_limited(game, game.start, 2, zero) == 4.0
    assert depth_limited(game, game.start, 1, zero) == 0   # the horizon: all estimates 0
    assert iterative_deepening(game, game.start, zero).move == 0


def test_trace_and_picture(game: TreeGame) -> None:
    trace = trace_search(game, game.start, "alphabeta")
    assert (trace.value, trace.calls, len(trace.events)) == (3, 11, 31)
    assert describe(trace, 0) == (
        "The start position: search it, MAX to move, window [-14, 14] for MAX."
    )
    assert "(2; 3) are skipped" in describe(trace, 16)
    svg = search_svg(trace).svg
    assert ">root<" in svg and ">12<" in svg and "2 pruned" in svg
    minimax_trace = trace_search(game, game.start, "minimax")
    assert minimax_trace.calls == 13 and minimax_trace.value == 3
    assert ">14<" not in search_svg(minimax_trace, 5).svg   # the third MIN node: not yet


def test_a_ragged_tree() -> None:
    game = TreeGame([[1, [0, -1]], -1])
    assert game.finished((1,)) and game.utility((1,), "MAX") == -1
    # MAX to move at 1.2 takes 0 over -1; MIN at 1 then takes 0 over 1; MAX takes 0 over -1.
    assert minimax(game, (0, 1)) == 0
    assert minimax(game, ()) == 0 and alphabeta(game, ()) == 0


@pytest.mark.parametrize(("tree", "message"), [
    ([], "the tree is an empty list"),
    ([[3, 12], []], "the subtree at 2 is an empty list"),
    ([[3, "x"]], "the subtree at 1.2 is 'x'"),
    ([[3, True]], "the subtree at 1.2 is True"),
    ([[3, math.nan]], "the subtree at 1.2 is nan: a leaf must be a finite number"),
    ([[3, math.inf]], "a leaf must be a finite number"),
    (5, "the tree is the single number 5"),
    ("abc", "the tree is 'abc'"),
    (None, "the tree is None"),
])
def test_bad_trees_are_refused(tree: object, message: str) -> None:
    with pytest.raises(GameError, match="a tree is a non-empty list|finite|single number") as info:
        TreeGame(tree)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_bad_players_states_and_moves_are_refused(game: TreeGame) -> None:
    with pytest.raises(GameError, match="players must be two different names"):
        TreeGame(CLASSIC, ("A", "A"))
    for bad in ["x", (5,), (0, 0, 0), (-1,), (True,), None]:
        with pytest.raises(GameError, match="is not a state of Game tree"):
            game.moves(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="0 to 2 \\(written 1 to 3\\)"):
        game.play((), 3)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play((0, 0), 0)
    with pytest.raises(MoveFormatError, match="the number of a child counted from 1"):
        game.parse_move("0")
    with pytest.raises(GameError, match="only for finished states"):
        game.utility((), "MAX")


def test_the_computer_player_takes_a_tree(game: TreeGame) -> None:
    from gamelib.search import choose_move

    decision = choose_move(game, game.start)
    assert (decision.move, decision.value) == (0, 3)
    assert decision.move_values == {0: 3, 1: 2, 2: 2}
    assert decision.summary == "worth 3 to MAX with best play"
