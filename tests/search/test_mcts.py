"""Monte-Carlo tree search: hand-computed first iterations, reproducibility, budgets,
cancellation, door checks and convergence on tic-tac-toe."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

import pytest
from helpers import one_per_symmetry

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.search import Budget, MCTSResult, MCTSStats, mcts, random_policy, tactical_policy
from gamelib.search.mcts import Iteration, backpropagate, mcts_decision, uct_score
from gamelib.search.memo import memo_minimax

ROOT2 = math.sqrt(2)


class TreeGame:
    """A game tree written by hand: a state is the tuple of moves from the root; a
    subtree is a dict from moves to subtrees, a leaf the first player's utility."""

    name = "Tree"
    players = ("A", "B")
    start: tuple[str, ...] = ()

    def __init__(self, tree: dict[str, Any]) -> None:
        self.tree = tree

    def _at(self, state: tuple[str, ...]) -> Any:
        node: Any = self.tree
        for move in state:
            node = node[move]
        return node

    def moves(self, state: tuple[str, ...]) -> list[str]:
        node = self._at(state)
        return [] if isinstance(node, int) else list(node)

    def finished(self, state: tuple[str, ...]) -> bool:
        return isinstance(self._at(state), int)

    def to_move(self, state: tuple[str, ...]) -> str:
        return self.players[len(state) % 2]

    def play(self, state: tuple[str, ...], move: str) -> tuple[str, ...]:
        return (*state, move)

    def next_states(self, state: tuple[str, ...], player: str) -> list[tuple[str, ...]]:
        return [self.play(state, m) for m in self.moves(state)]

    def utility(self, state: tuple[str, ...], player: str) -> int:
        value = int(self._at(state))
        return value if player == "A" else -value

    def format_move(self, move: str) -> str:
        return move

    def parse_move(self, text: str) -> str:
        return text

    def render(self, state: tuple[str, ...]) -> str:
        return "-".join(state)


# A to move at the root. After L, B chooses between x (A wins) and y (a draw): L is worth 0
# to A. After R, B chooses between x (A loses) and y (A wins): R is worth -1 to A.
TREE = TreeGame({"L": {"x": 1, "y": 0}, "R": {"x": -1, "y": 1}})


def first_move(game: Any, state: Hashable, rng: random.Random) -> Hashable:
    """A playout policy without chance: always the first legal move."""
    return game.moves(state)[0]


def tree_figures(result: MCTSResult) -> dict[str, tuple[int, float]]:
    """(visits, total) of every node, by its path: 'root', 'L', 'Lx', ..."""
    figures = {}
    stack = [result.root]
    while stack:
        node = stack.pop()
        name = "".join(node.state) or "root"   # type: ignore[arg-type]
        figures[name] = (node.visits, node.total)
        stack.extend(node.children)
    return figures


# Worked by hand, exploration sqrt(2), playouts always take the first move; totals are
# for the player to move in the node (A at the root and at Lx, Ly; B at L and R):
# 1. expand L; playout L-x: A wins, -1 for B.         L (1, -1)   root (1, +1)
# 2. expand R; playout R-x: A loses, +1 for B.        R (1, +1)   root (2, 0)
# 3. uct(L) = 1 + sqrt2*sqrt(ln 2 / 1) = 2.18 > uct(R) = -1 + 1.18 = 0.18: go to L,
#    expand Lx, finished: +1 for A.                   Lx (1, +1)  L (2, -2)  root (3, +1)
# 4. uct(L) = 1 + sqrt2*sqrt(ln 3 / 2) = 2.05 > uct(R) = -1 + sqrt2*sqrt(ln 3) = 0.48:
#    go to L, expand Ly, a draw: 0.                   Ly (1, 0)   L (3, -2)  root (4, +1)
# 5. uct(L) = 2/3 + sqrt2*sqrt(ln 4 / 3) = 1.63 > uct(R) = -1 + sqrt2*sqrt(ln 4) = 0.67: L;
#    at L (for B): uct(Lx) = -1 + sqrt2*sqrt(ln 3) = 0.48 < uct(Ly) = 0 + 1.48: Ly, a draw.
#                                                     Ly (2, 0)   L (4, -2)  root (5, +1)
BY_HAND = [
    {"root": (1, 1.0), "L": (1, -1.0)},
    {"root": (2, 0.0), "L": (1, -1.0), "R": (1, 1.0)},
    {"root": (3, 1.0), "L": (2, -2.0), "R": (1, 1.0), "Lx": (1, 1.0)},
    {"root": (4, 1.0), "L": (3, -2.0), "R": (1, 1.0), "Lx": (1, 1.0), "Ly": (1, 0.0)},
    {"root": (5, 1.0), "L": (4, -2.0), "R": (1, 1.0), "Lx": (1, 1.0), "Ly": (2, 0.0)},
]


@pytest.mark.parametrize("iterations", range(1, 6))
def test_first_iterations_match_the_hand_computation(iterations: int) -> None:
    result = mcts(TREE, TREE.start, iterations=iterations, policy=first_move, seed=0)
    assert tree_figures(result) == BY_HAND[iterations - 1]


def test_after_five_iterations_the_root_moves_are_valued_for_the_player_to_move() -> None:
    result = mcts(TREE, TREE.start, iterations=5, policy=first_move, seed=0)
    assert result.visits == {"L": 4, "R": 1}
    assert result.values == {"L": 0.5, "R": -1.0}      # -(-2 / 4) and -(1 / 1)
    assert (result.move, result.value) == ("L", 0.5)
    stats = result.stats
    assert (stats.iterations, stats.nodes, stats.terminal, stats.playouts,
            stats.playout_plies) == (5, 5, 2, 5, 2)


def test_the_observer_sees_the_uct_scores_and_the_backed_up_values() -> None:
    seen: list[Iteration] = []
    mcts(TREE, TREE.start, iterations=5, policy=first_move, seed=0, observer=seen.append)
    assert [it.path for it in seen] == [(0, 1), (0, 2), (0, 1, 3), (0, 1, 4), (0, 1, 4)]
    assert [it.expanded for it in seen] == [1, 2, 3, 4, None]
    assert [it.playout for it in seen] == [("x",), ("x",), (), (), ()]
    assert [it.result for it in seen] == [-1, 1, 1, 0, 0]
    assert seen[2].backed_up == (1, -1, 1)       # +1 for A at Lx, -1 for B at L, +1 for A
    assert seen[2].scores == ({1: pytest.approx(1 + ROOT2 * math.sqrt(math.log(2))),
                               2: pytest.approx(-1 + ROOT2 * math.sqrt(math.log(2)))},)
    assert seen[4].scores[1] == {3: pytest.approx(-1 + ROOT2 * math.sqrt(math.log(3))),
                                 4: pytest.approx(ROOT2 * math.sqrt(math.log(3)))}


def test_uct_score_and_backpropagate_follow_the_negamax_signs() -> None:
    result = mcts(TREE, TREE.start, iterations=2, policy=first_move, seed=0)
    left, right = result.root.children
    assert uct_score(left, 2, 0.0) == 1.0 and uct_score(right, 2, 0.0) == -1.0
    assert backpropagate([result.root, left], 1.0) == [-1.0, 1.0]
    assert (result.root.visits, result.root.total, left.visits, left.total) == (3, -1.0, 2, 0.0)


def test_an_iteration_budget_gives_the_same_result_on_every_run() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("4453")
    runs = [mcts(game, state, iterations=300, seed=7) for _ in range(2)]
    first, second = runs
    assert (first.move, first.visits, first.values) == (second.move, second.visits, second.values)
    assert first.stats.as_dict() | {"seconds": 0} == second.stats.as_dict() | {"seconds": 0}
    assert sum(first.visits.values()) == 300 and not first.cut_short
    again = mcts(game, state, iterations=300, rng=random.Random(7))
    assert again.visits == first.visits


def test_a_cancelled_budget_stops_after_the_first_iteration() -> None:
    budget = Budget(10)
    budget.cancel()
    result = mcts(TicTacToe(), TicTacToe().start, budget=budget, seed=1)
    assert result.cut_short and result.stats.iterations == 1
    assert result.move in TicTacToe().moves(TicTacToe().start)


def test_a_budget_cancelled_during_the_search_ends_it_at_the_next_iteration() -> None:
    budget = Budget(10)
    calls = 0

    def cancelling(game: Any, state: Hashable, rng: random.Random) -> Hashable:
        nonlocal calls
        calls += 1
        if calls == 50:       # another thread would do this: the session's Undo button
            budget.cancel()
        return random_policy(game, state, rng)

    result = mcts(ConnectFour(), ConnectFour().start, iterations=10_000, budget=budget,
                  policy=cancelling, seed=3)
    assert result.cut_short
    assert 1 <= result.stats.iterations < 50      # the iteration under way finished, no more
    assert sum(result.visits.values()) == result.stats.iterations
    assert result.visits[result.move] == max(result.visits.values())


def test_the_tactical_policy_wins_at_once_and_blocks() -> None:
    game, rng = TicTacToe(), random.Random(0)
    win = replay(game, [(0, 0), (1, 1), (0, 1), (2, 2)])          # X wins at (0, 2)
    assert {tactical_policy(game, win, rng) for _ in range(20)} == {(0, 2)}
    block = replay(game, [(0, 0), (1, 1), (0, 1)])                 # O must take (0, 2)
    assert {tactical_policy(game, block, rng) for _ in range(20)} == {(0, 2)}
    assert len({random_policy(game, block, rng) for _ in range(50)}) > 1


def test_the_decision_for_the_play_session() -> None:
    game = Nim((1, 2))
    decision = mcts_decision(game, game.start, iterations=500, rng=random.Random(2))
    assert decision.move == (1, 1) and not decision.exact   # leave (1, 1): the only win
    assert decision.stats.calls > 1 and "playouts" in decision.summary


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"iterations": 0}, "iterations must be a whole number, at least 1"),
    ({"iterations": 2.5}, "iterations must be a whole number"),
    ({"seconds": -1}, "seconds must be a positive number"),
    ({"budget": 3}, "budget must be a gamelib.search.Budget"),
    ({"exploration": -1}, "exploration must be a number, 0 or more"),
    ({"exploration": "big"}, "exploration must be a number"),
    ({"policy": "random"}, "policy must be a function"),
    ({"seed": "x"}, "seed must be a whole number"),
    ({"rng": 4}, "rng must be a random.Random"),
    ({"seed": 1, "rng": random.Random(1)}, "pass seed or rng, not both"),
    ({"stats": {}}, "stats must be an MCTSStats"),
    ({"observer": 5}, "observer must be a function"),
])
def test_bad_arguments_are_refused_at_the_door(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(GameError, match=message):
        mcts(TicTacToe(), TicTacToe().start, **{"iterations": 10, **kwargs})


def test_a_stats_object_sums_up_several_searches() -> None:
    stats = MCTSStats()
    first = mcts(TREE, TREE.start, iterations=5, policy=first_move, seed=0, stats=stats)
    second = mcts(TREE, TREE.start, iterations=5, policy=first_move, seed=0, stats=stats)
    assert tree_figures(first) == tree_figures(second) == BY_HAND[4]   # node ids from 0 again
    assert (stats.iterations, stats.nodes, stats.playouts) == (10, 10, 10)
    assert first.stats.iterations == 5


def test_a_finished_state_or_a_class_is_refused() -> None:
    game = TicTacToe()
    over = replay(game, [(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)])
    with pytest.raises(GameError, match="the game is over"):
        mcts(game, over, iterations=10)
    with pytest.raises(GameError, match="pass TicTacToe()"):
        mcts(TicTacToe, game.start, iterations=10)  # type: ignore[arg-type]
    assert isinstance(mcts(game, game.start, iterations=1).stats, MCTSStats)


# -- convergence ------------------------------------------------------------------------


def positions_with_empty(game: TicTacToe, most: int) -> list[Hashable]:
    """Every reachable, running tic-tac-toe position with at most ``most`` empty squares."""
    seen = {game.start}
    frontier = [game.start]
    while frontier:
        state = frontier.pop()
        for move in game.moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                if not game.finished(after):
                    frontier.append(after)
    return sorted((s for s in seen if not game.finished(s) and len(game.moves(s)) <= most),
                  key=repr)


@pytest.mark.slow
def test_1000_iterations_keep_the_value_in_every_position_with_at_most_5_empty_squares() -> None:
    """One position of each symmetry class (a rotated or reflected board is the same
    problem; the search, which expands moves in board order, may sample it differently).
    1,000 iterations (Lesson 9: "from a thousand on"); with seed 1, 500 also lose no value."""
    game = TicTacToe()
    cache: dict[Hashable, int] = {}
    checked = wrong = 0
    positions = positions_with_empty(game, 5)
    classes = one_per_symmetry(positions)
    assert (len(positions), len(classes)) == (4186, 573)
    for state in classes:
        values = {m: -memo_minimax(game, game.play(state, m), cache=cache)
                  for m in game.moves(state)}
        keeping = {m for m, v in values.items() if v == max(values.values())}
        if len(keeping) == len(values):
            continue     # every move keeps the value: nothing to get wrong
        checked += 1
        result = mcts(game, state, iterations=1000, seed=1)
        wrong += result.move not in keeping
    assert (checked, wrong) == (391, 0)     # 182 classes: every move keeps the value


# -- a budget's node limit ----------------------------------------------------------------


@pytest.mark.parametrize("nodes", [1, 2, 100])
def test_a_node_limit_gives_a_tree_of_exactly_that_many_nodes(nodes: int) -> None:
    """A node of MCTS is a node of its tree (root included); the first iteration always
    runs (there is always a move), so nodes=1 gives 2. The clock does not decide here:
    5 s is far more than 100 iterations take."""
    c4 = ConnectFour()
    budget = Budget(5, nodes=nodes)
    result = mcts(c4, c4.start, budget=budget, seed=1)
    made = max(nodes, 2)
    assert (result.stats.nodes, result.stats.iterations, budget.used) == (made, made - 1, made)
    assert result.cut_short
    # Within a larger budget (seconds and a budget: a part of it), the nodes count there.
    outer = Budget(5, nodes=nodes)
    assert mcts(c4, c4.start, seconds=4, budget=outer, seed=1).stats.nodes == made
    assert outer.used == made


def test_iterations_or_a_node_limit_whichever_comes_first() -> None:
    c4 = ConnectFour()
    assert mcts(c4, c4.start, iterations=50, budget=Budget(5, nodes=100),
                seed=1).stats.iterations == 50
    result = mcts(c4, c4.start, iterations=500, budget=Budget(5, nodes=100), seed=1)
    assert (result.stats.nodes, result.cut_short) == (100, True)


def test_every_mcts_door_meets_a_node_limit() -> None:
    """mcts, mcts_decision and the play session's MCTS player (gamelib.session.computer's
    mcts_move, which passes the session's budget on)."""
    from gamelib.session.computer import mcts_move

    c4 = ConnectFour()
    decision = mcts_decision(c4, c4.start, budget=Budget(5, nodes=300), rng=random.Random(1))
    assert (decision.stats.calls, decision.cut_short) == (300, True)
    budget = Budget(5, nodes=300)
    decision = mcts_move(c4, c4.start, 100_000, None, random.Random(1), budget)
    assert (decision.stats.calls, decision.cut_short, budget.used) == (300, True, 300)


# -- MCTS-Solver --------------------------------------------------------------------------

# X's move a looks won to every sample until O's one good reply x is tried: a trap of depth
# 2. With first_move playouts there is no chance at all.
TRAPPED = TreeGame({"a": {"y": 1, "z": 1, "w": 1, "x": -1}, "b": 0})


def test_plain_uct_chooses_the_trap_while_its_mean_lags() -> None:
    result = mcts(TRAPPED, TRAPPED.start, iterations=8, policy=first_move, seed=0)
    assert (result.move, result.visits, result.values["a"]) == ("a", {"a": 6, "b": 2}, 1 / 3)
    assert result.proofs == {"a": None, "b": None} and result.proven is None


@pytest.mark.parametrize("iterations", range(1, 9))
def test_mcts_solver_proves_the_trap_lost_and_never_chooses_it_after(iterations: int) -> None:
    """Iteration 6 tries x: a is proven lost (-1 for A) though it has 5 of the 6 visits and
    a mean of +0.6; b was proven a draw when it was made; the root is then proven (0) and
    the search ends: 6 iterations, however many are allowed."""
    result = mcts(TRAPPED, TRAPPED.start, iterations=iterations, policy=first_move, seed=0,
                  solve=True)
    if iterations < 6:
        assert result.move == "a" and result.proofs["a"] is None and result.proven is None
        return
    assert result.stats.iterations == 6
    assert (result.visits, result.values["a"]) == ({"a": 5, "b": 1}, 0.6)
    assert (result.proofs, result.proven) == ({"a": -1, "b": 0}, 0)
    assert (result.move, result.value) == ("b", 0.0)


def small_positions(game: TicTacToe, most: int) -> list[Hashable]:
    """One position of each symmetry class with at most ``most`` empty squares."""
    return one_per_symmetry(positions_with_empty(game, most))


def test_mcts_solver_proves_every_small_tictactoe_position_exactly() -> None:
    """One position of each symmetry class with at most 4 empty squares: the root is proven
    at its minimax value within 5,000 iterations (4,766 in all), every root move proven is
    proven at its minimax value (854 moves), and the chosen move keeps the value."""
    game = TicTacToe()
    cache: dict[Hashable, int] = {}
    classes: list[Any] = small_positions(game, 4)
    iterations = proven_moves = 0
    for state in classes:
        result = mcts(game, state, iterations=5000, seed=1, solve=True)
        exact = memo_minimax(game, state, cache=cache)
        assert result.proven == exact == result.proofs[result.move]
        for move, proof in result.proofs.items():
            if proof is not None:
                proven_moves += 1
                assert proof == -memo_minimax(game, game.play(state, move), cache=cache)
        iterations += result.stats.iterations
    assert (len(classes), iterations, proven_moves) == (465, 4766, 854)


TRAP = "5611761122133562247367317662"   # Lesson 9's trap: X to move; 2, 3, 4 draw; 5, 7 lose


def test_every_proof_in_the_trap_tree_agrees_with_the_connect_four_solver() -> None:
    """3,000 iterations of MCTS-Solver on Lesson 9's trap: 247 running positions of the
    tree are proven (163 won, 73 drawn, 11 lost for the player to move), each as the
    exact solver scores it."""
    from gamelib.connect4 import Solver

    c4 = ConnectFour()
    result = mcts(c4, ConnectFour.from_moves(TRAP), iterations=3000, seed=1, solve=True)
    solver, stack, proven = Solver(c4), [result.root], {-1: 0, 0: 0, 1: 0}
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.proven is not None and not node.finished:
            score = solver.solve(node.state)  # type: ignore[arg-type]
            assert node.proven == (score > 0) - (score < 0), node
            proven[int(node.proven)] += 1
    assert proven == {1: 163, 0: 73, -1: 11}


@pytest.mark.parametrize(("column", "iterations"), [(5, 6022)])
def test_mcts_solver_proves_that_o_refutes_the_losing_columns(column: int,
                                                              iterations: int) -> None:
    """After X's losing column 5 in the trap, O to move: the search proves O's win (seed 1)
    and stops, choosing O's one winning reply, as the exact solver says. (After column 7
    it takes 25,943 iterations: left out for time.)"""
    from gamelib.connect4 import Solver

    c4 = ConnectFour()
    after = c4.play(ConnectFour.from_moves(TRAP), column - 1)
    result = mcts(c4, after, iterations=100_000, seed=1, solve=True)
    scores = Solver(c4).analyze(after)
    winning = [c for c, s in enumerate(scores) if s is not None and s > 0]
    assert (result.stats.iterations, result.proven, result.value) == (iterations, 1, 1.0)
    assert [result.move] == winning == [m for m, p in result.proofs.items() if p == 1]


def test_solve_must_be_a_bool() -> None:
    with pytest.raises(GameError, match="solve must be True or False"):
        mcts(TicTacToe(), TicTacToe().start, iterations=10, solve=1)  # type: ignore[arg-type]


def test_the_trace_and_its_picture_show_what_mcts_solver_proved() -> None:
    """Lesson 9's small position (O to move, 4 empty squares): MCTS-Solver proves the root
    a draw after 34 iterations and stops. The Backup events carry the proofs (14 nodes,
    in 9 iterations); the picture at the end marks each proven node, and the last step's
    words name what it proved."""
    from gamelib.search import trace_search
    from gamelib.search.trace import Backup
    from gamelib.ui.search_snapshot import snapshot
    from gamelib.ui.search_svg import search_svg

    game = TicTacToe()
    small = replay(game, [(1, 2), (0, 2), (2, 0), (1, 0), (2, 2)])
    trace = trace_search(game, small, "mcts", iterations=40, seed=1, solve=True)
    result = mcts(game, small, iterations=40, seed=1, solve=True)
    assert (result.stats.iterations, result.proven, len(trace.nodes)) == (34, 0, 29)
    assert result.proofs == {(0, 0): -1, (0, 1): -1, (1, 1): -1, (2, 1): 0}
    proving = [e for e in trace.events if isinstance(e, Backup) and e.proven]
    assert (len(proving), sum(len(e.proven) for e in proving)) == (9, 14)
    assert proving[-1].proven == ((21, 1), (12, 0), (4, 0), (0, 0))
    shot = snapshot(trace)
    assert sum(s.proven is not None for s in shot.nodes.values()) == 14
    assert shot.message.endswith("Proven exactly: 1,2 is +1 for X; 2,2 is 0 for O; 3,2 is "
                                 "0 for X; the start position is 0 for O.")
    assert search_svg(trace)._repr_svg_().count("proven ") == 14


def test_selection_scores_are_uct_score_exactly() -> None:
    """Selection computes the children's scores in one loop (uct_score inlined): on every
    node of a seeded MCTS-Solver tree where selection goes on, the scores it reports equal
    uct_score's, float for float."""
    from gamelib.search.mcts import select, uct_score

    game = ConnectFour()
    root = mcts(game, ConnectFour.from_moves("5611761122133562247367317662"),
                iterations=600, seed=1, solve=True).root
    nodes, checked, proven = [root], 0, 0
    while nodes:
        node = nodes.pop()
        nodes.extend(node.children)
        if node.children and not node.untried and node.proven is None:
            expected = {c.id: uct_score(c, node.visits, 1.3) for c in node.children}
            scores: list[dict[int, float]] = []
            select(node, 1.3, scores)
            assert list(scores[0].items()) == list(expected.items())
            checked += 1
            proven += any(c.proven is not None for c in node.children)
    assert checked > 50 and proven > 0


class Bare:
    """An observer that keeps every iteration and wants no scores."""

    scores_wanted = False

    def __init__(self) -> None:
        self.seen: list[Iteration] = []

    def __call__(self, iteration: Iteration) -> None:
        self.seen.append(iteration)


def test_an_observer_without_scores_sees_the_same_search() -> None:
    """An observer whose ``scores_wanted`` is False (RootWatch's) gets no scores, and the
    search, which then selects without recording them, takes the same paths, plays the same
    playouts and proves the same nodes as for an observer that records every score, and
    gives the same result as a search with no observer (UCT and MCTS-Solver, seed 1)."""
    from gamelib.search.root_watch import RootWatch

    game = ConnectFour()
    trap = ConnectFour.from_moves("5611761122133562247367317662")
    for solve in (False, True):
        full: list[Iteration] = []
        mcts(game, trap, iterations=800, seed=1, solve=solve, observer=full.append)
        bare = Bare()
        mcts(game, trap, iterations=800, seed=1, solve=solve, observer=bare)
        watch = RootWatch(game.moves(trap), [800])
        watched = mcts(game, trap, iterations=800, seed=1, solve=solve, observer=watch)
        plain = mcts(game, trap, iterations=800, seed=1, solve=solve)
        assert all(i.scores == () for i in bare.seen) and sum(len(i.scores) for i in full) > 800
        def what(i: Iteration) -> tuple[Any, ...]:
            return i.path, i.expanded, i.playout, i.result, i.backed_up, i.proven

        assert [what(i) for i in bare.seen] == [what(i) for i in full]
        assert (watched.visits, watched.values, watched.proofs, watched.move) == \
            (plain.visits, plain.values, plain.proofs, plain.move) and watch.visits[800] == \
            plain.visits
