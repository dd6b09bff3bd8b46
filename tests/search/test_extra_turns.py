"""Games where a player moves twice in a row: every search gives the exact value.

The searches follow the game's ``to_move`` (negamax flips the sign only where the mover
changes). :class:`Schedule` is a small hand-made game whose plies are played in a fixed
order of movers ("XXO": X twice, then O; "XOO": X, then O twice; "XOX" alternates, the
control), each ply a choice among a few moves, every leaf worth -1, 0 or +1 to X. The
reference, :func:`exact`, is plain minimax from X's side written here without negamax:
the mover maximizes X's value if it is X and minimizes it if it is O.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable
from typing import Any

import pytest
from helpers import IntMoves

from gamelib.game import GameError
from gamelib.search import (
    BoundCache,
    alphabeta,
    best_move,
    bounded_alphabeta,
    center_first,
    choose_move,
    depth_limited,
    iterative_deepening,
    mcts,
    memo_minimax,
    minimax,
    move_values,
    trace_search,
    zero,
)
from gamelib.search.alphabeta import keeps_three_cases
from gamelib.search.movers import turns_alternate

Path = tuple[int, ...]


class Schedule(IntMoves):
    """Plies played in the order ``order`` of movers, ``width`` moves each (0, 1, ...); a
    finished state (all plies played) is worth ``leaves[path]`` to X."""

    name = "Schedule"
    players = ("X", "O")
    start: Path = ()

    def __init__(self, order: str, leaves: dict[Path, int], width: int = 2) -> None:
        self.order, self.leaves, self.width = order, leaves, width

    def finished(self, state: Path) -> bool:
        return len(state) == len(self.order)

    def to_move(self, state: Path) -> str:
        return self.order[len(state)] if len(state) < len(self.order) else "X"

    def moves(self, state: Path) -> list[int]:
        return [] if self.finished(state) else list(range(self.width))

    def next_states(self, state: Path, player: str) -> list[Path]:
        return [self.play(state, m) for m in self.moves(state)]

    def play(self, state: Path, move: Any) -> Path:
        return (*state, move)

    def utility(self, state: Path, player: str) -> int:
        value = self.leaves[state]
        return value if player == "X" else -value


def exact(game: Schedule, state: Path, player: str = "X") -> int:
    """The value of ``state`` for ``player``: max where ``player`` moves, min elsewhere."""
    if game.finished(state):
        return game.utility(state, player)
    values = [exact(game, n, player) for n in game.next_states(state, game.to_move(state))]
    return max(values) if game.to_move(state) == player else min(values)


def alternating(game: Schedule, state: Path, player: str) -> int:
    """What a search that flips the player at every ply would say (the old mistake)."""
    if game.finished(state):
        return game.utility(state, player)
    opponent = "O" if player == "X" else "X"
    return max(-alternating(game, n, opponent) for n in game.next_states(state, player))


def random_leaves(order: str, width: int, seed: int) -> dict[Path, int]:
    rng = random.Random(seed)
    return {path: rng.choice((-1, 0, 1))
            for path in itertools.product(range(width), repeat=len(order))}


# X moves twice, then O: X can reach (1, 1), where every reply of O leaves +1.
XXO = Schedule("XXO", {path: 1 if path[:2] == (1, 1) else -1
                       for path in itertools.product((0, 1), repeat=3)})
# X, then O twice: after 1, O can reach (1, 1, 1), worth -1; after 0 everything is a draw.
XOO = Schedule("XOO", {path: 0 if path[0] == 0 else -1 if path == (1, 1, 1) else 1
                       for path in itertools.product((0, 1), repeat=3)})
GAMES = [
    pytest.param(XXO, id="XXO"),
    pytest.param(XOO, id="XOO"),
    *(pytest.param(Schedule(order, random_leaves(order, 3, seed), width=3),
                   id=f"{order}-{seed}")
      for order in ("XXO", "XOO", "OXX", "XXOO", "XOOX", "XOXO") for seed in range(2)),
]


def test_the_hand_made_games_catch_a_search_that_flips_every_ply() -> None:
    assert (exact(XXO, ()), alternating(XXO, (), "X")) == (1, -1)
    assert (exact(XOO, ()), alternating(XOO, (), "X")) == (0, 1)
    assert not turns_alternate(XXO)


def root_values(game: Schedule) -> tuple[str, int, dict[Hashable, int]]:
    """The player to move at the start, the start's exact value and each move's, for them."""
    mover = game.to_move(game.start)
    return mover, exact(game, game.start, mover), {
        m: exact(game, game.play(game.start, m), mover) for m in game.moves(game.start)}


@pytest.mark.parametrize("game", GAMES)
def test_the_exact_searches_give_the_exact_value(game: Schedule) -> None:
    mover, value, _ = root_values(game)
    assert minimax(game, game.start) == value
    assert alphabeta(game, game.start) == value
    assert alphabeta(game, game.start, order=lambda g, s, ms: ms[::-1]) == value
    assert memo_minimax(game, game.start) == value
    assert bounded_alphabeta(game, game.start) == exact(game, game.start, "X")
    assert best_move(game, game.start, rng=random.Random(0))[0] == value
    for algorithm in ("minimax", "alphabeta", "bounded"):
        traced = trace_search(game, game.start, algorithm).value
        assert traced == (value if algorithm != "bounded" else exact(game, game.start, "X"))


@pytest.mark.parametrize("game", GAMES)
def test_every_state_and_either_player_of_a_finished_one(game: Schedule) -> None:
    """Every state below the start, with a cache shared between the searches of memo."""
    shared: dict[Hashable, int] = {}
    bounds = BoundCache()
    states = [path for k in range(len(game.order) + 1)
              for path in itertools.product(range(game.width), repeat=k)]
    for state in states:
        players = game.players if game.finished(state) else (game.to_move(state),)
        for player in players:
            value = exact(game, state, player)
            assert minimax(game, state, player) == value
            assert alphabeta(game, state, player) == value
            assert memo_minimax(game, state, player, cache=shared) == value
            assert memo_minimax(game, state, player) == value
        assert bounded_alphabeta(game, state, cache=bounds) == exact(game, state, "X")


@pytest.mark.parametrize("game", GAMES)
def test_windows_keep_the_three_cases(game: Schedule) -> None:
    mover, value, _ = root_values(game)
    for alpha, beta in ((-1, 0), (0, 1), (-1, -0.5), (0.5, 1), (-0.5, 0.5)):
        assert keeps_three_cases(alphabeta(game, game.start, None, alpha, beta),
                                 value, alpha, beta)
        assert keeps_three_cases(bounded_alphabeta(game, game.start, alpha, beta),
                                 exact(game, game.start, "X"), alpha, beta)


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize("game", GAMES)
def test_the_depth_limited_searches_and_the_computer_player(game: Schedule) -> None:
    mover, value, per_move = root_values(game)
    plies = len(game.order)
    assert sign(depth_limited(game, game.start, plies, zero)) == value
    traced = trace_search(game, game.start, "depth_limited", depth=plies, heuristic=zero)
    assert sign(traced.value) == value
    decision = iterative_deepening(game, game.start, zero)
    assert decision.exact and sign(decision.value) == value
    assert {m: sign(v) for m, v in decision.move_values.items()} == per_move
    assert move_values(game, game.start) == per_move
    exact_choice = choose_move(game, game.start, rng=random.Random(1))
    assert exact_choice.value == value and per_move[exact_choice.move] == value
    deep = choose_move(game, game.start, depth=plies, rng=random.Random(1))
    assert sign(deep.value) == value and per_move[deep.move] == value
    assert {m: sign(v) for m, v in move_values(game, game.start, depth=plies).items()} \
        == per_move


@pytest.mark.parametrize("game", [XXO, XOO], ids=["XXO", "XOO"])
def test_mcts_finds_the_best_move_where_a_player_moves_twice(game: Schedule) -> None:
    """Eight leaves: 400 iterations visit each many times; the chosen move is optimal and
    its mean value has the exact value's sign (a search flipping every ply gets both wrong
    on these two games)."""
    mover, value, per_move = root_values(game)
    result = mcts(game, game.start, iterations=400, rng=random.Random(3))
    assert per_move[result.move] == value
    assert sign(round(result.value, 1)) == value


def test_a_bad_to_move_is_named() -> None:
    class Bad(Schedule):
        def to_move(self, state: Path) -> str:
            return "Z" if len(state) == 1 else super().to_move(state)

    with pytest.raises(GameError, match="to_move\\(\\) returned 'Z', which is not a player"):
        minimax(Bad("XXO", XXO.leaves), ())


def test_the_built_in_games_promise_to_alternate_and_a_subclass_does_not() -> None:
    from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard, TreeGame

    class Mine(TicTacToe):
        pass

    assert all(turns_alternate(g) for g in (ConnectFour(), Nim(), TicTacToe(),
                                             TicTacToeBitboard(), TreeGame()))
    assert not turns_alternate(Mine())
    # A subclass of a built-in game is searched by to_move: the same values.
    game = Mine()
    state = game.play(game.play(game.start, (1, 1)), (0, 0))
    assert alphabeta(game, state, order=center_first) == alphabeta(TicTacToe(), state) == 0


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "depth_limited", "bounded"])
def test_the_viewers_words_give_each_value_for_the_right_player(algorithm: str) -> None:
    """Where X moves twice (XXO), a node after X's first move is valued by negamax for O
    (the search's scale: the opponent of the mover before it), though X moves there: the
    viewer's words name that player, so that every "worth v for P" is the exact value
    for P; the key says so."""
    from gamelib.search.trace import Return
    from gamelib.ui.search_snapshot import snapshot
    from gamelib.ui.tree_layout import legend

    trace = trace_search(XXO, XXO.start, algorithm, **(
        {"depth": 3, "heuristic": zero} if algorithm == "depth_limited" else {}))
    said = 0
    for k, event in enumerate(trace.events):
        node = trace.nodes[event.node]
        if isinstance(event, Return) and node.depth == 1:
            words = snapshot(trace, k).message
            player = "X" if algorithm == "bounded" else "O"
            value = exact(XXO, node.state, player)
            assert f" is worth {'+' if value > 0 else ''}{value} for {player};" in words, words
            said += 1
    assert said == 2
    assert ("moves again" in legend(trace)) == (algorithm != "bounded")
