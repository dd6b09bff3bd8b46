"""Exercise 11: Monte-Carlo tree search's backpropagation, negamax sign included.

The student writes ``backpropagate(path, result)``: ``path`` is the list of
:class:`~gamelib.search.mcts.MCTSNode` from the root down to the node a playout started
from, ``result`` the playout's result (-1, 0 or +1) for the player to move at ``path[-1]``.
Every node of the path gets one visit more and the result added to its ``total``, with the
sign for the player to move in that node: as it is at the bottom, negated one level up,
and so on. :func:`check_backpropagate` checks it on hand-made paths first, then runs UCT
with it beside gamelib's own search on small seeded trees and compares the visits and
totals of every node after every iteration.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any, Final

from gamelib.exercises.guard import Forbidden
from gamelib.exercises.report import FAIL, PASS, CheckResult, Line, show
from gamelib.exercises.run import ask, checker
from gamelib.game import replay
from gamelib.games import Nim, TicTacToe
from gamelib.search.common import AnyGame, check_whole
from gamelib.search.mcts import (
    DEFAULT_EXPLORATION,
    MCTSNode,
    backpropagate,
    expand,
    root_node,
    select,
    simulate,
)
from gamelib.search.playouts import random_policy
from gamelib.search.stats import MCTSStats

__all__ = ["check_backpropagate", "SEARCHES", "run_uct"]

ITERATIONS: Final = 200
"""Iterations of each seeded search the checker compares."""

SEARCHES: Final[tuple[tuple[str, AnyGame, Hashable, int], ...]] = (
    ("tic-tac-toe, O to move, 4 empty squares", TicTacToe(),
     replay(TicTacToe(), [(1, 2), (0, 2), (2, 0), (1, 0), (2, 2)]), 1),
    ("tic-tac-toe, X to move, 6 empty squares", TicTacToe(),
     replay(TicTacToe(), [(1, 1), (0, 0), (2, 2)]), 2),
    ("Nim with heaps 1, 2, 3", Nim((1, 2, 3)), Nim((1, 2, 3)).start, 3),
)
"""The seeded searches: a description, the game, the position and the seed."""


def run_uct(game: AnyGame, state: Hashable, seed: int, iterations: int,
            backprop: Callable[[list[MCTSNode], int], Any],
            after: Callable[[int, MCTSNode], bool] | None = None) -> MCTSNode:
    """UCT as :func:`gamelib.search.mcts.mcts` runs it (random playouts, default
    exploration, ``random.Random(seed)``), with ``backprop`` for the last phase. After each
    iteration ``after(iteration, root)`` may return False to stop. Returns the root.
    Raises :class:`GameError` unless ``seed`` is a whole number and ``iterations`` one of at
    least 1 (numpy's integers too, as at every door:
    :func:`~gamelib.search.common.check_whole`)."""
    check_whole(seed, "seed", None)
    iterations = check_whole(iterations, "iterations", 1) or 1
    stats, rng = MCTSStats(), random.Random(int(seed))
    root = root_node(game, state, stats)
    for iteration in range(1, iterations + 1):
        path = select(root, DEFAULT_EXPLORATION)
        if not path[-1].finished:
            path.append(expand(game, path[-1], stats))
        result = simulate(game, path[-1], random_policy, rng, stats)
        backprop(path, result)
        if after is not None and not after(iteration, root):
            break
    return root


def _figures(root: MCTSNode) -> list[tuple[int, int, float]]:
    """(id, visits, total) of every node, by id."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append((node.id, node.visits, node.total))
        stack.extend(node.children)
    return sorted(out)


def _path_figures(path: list[MCTSNode]) -> list[tuple[Any, Any]]:
    """(visits, total) of each node of ``path``: what the student's function wrote there."""
    return [(node.visits, node.total) for node in path]


def _chain(length: int) -> list[MCTSNode]:
    """A path of ``length`` fresh nodes with earlier visits, players alternating."""
    nodes = [MCTSNode(k, k, "XO"[k % 2], False, visits=3 + k, total=1.0 - k)
             for k in range(length)]
    for parent, child in zip(nodes, nodes[1:], strict=False):
        child.parent = parent
        parent.children.append(child)
    return nodes


def _hint(before: list[tuple[int, float]], after: list[tuple[int, float]],
          expected: list[tuple[int, float]]) -> str:
    if [v for v, _ in after] != [v for v, _ in expected]:
        if [v for v, _ in after] == [v for v, _ in before]:
            return "every node of the path gets one visit more: visits += 1"
        return "each node of the path is visited once per iteration: add exactly 1 to visits"
    added = [t - t0 for (_, t), (_, t0) in zip(after, before, strict=True)]
    want = [t - t0 for (_, t), (_, t0) in zip(expected, before, strict=True)]
    if added == [-w for w in want]:
        return ("the result is for the player to move at the LAST node of the path: add it "
                "there as it is, and flip the sign on the way up")
    if added and added[-1] == want[-1] and len(set(added)) == 1 and len(set(want)) > 1:
        return ("the sign must flip at every level: a result of +1 for the player at one "
                "node is -1 for the player at its parent (negamax)")
    return "add to each total the result for the player to move in that node"


def _compare_search(title: str, student: Callable[[list[MCTSNode], int], Any], name: str,
                    game: AnyGame, state: Hashable, seed: int
                    ) -> tuple[Line | None, dict[Hashable, int]]:
    """Run the seeded search ``name`` with gamelib's backpropagation, then with the
    student's: the first iteration after which a node differs, and the root's visits."""
    reference: list[list[tuple[int, int, float]]] = []

    def record(_: int, root: MCTSNode) -> bool:
        reference.append(_figures(root))
        return True

    run_uct(game, state, seed, ITERATIONS, backpropagate, record)
    problem: list[Line] = []

    def compare(iteration: int, root: MCTSNode) -> bool:
        got, want = _figures(root), reference[iteration - 1]
        if got == want:
            return True
        expected = {k: (v, t) for k, v, t in want}
        wrong = next(g for g, e in zip(got, want, strict=False) if g != e)
        visits, total = expected.get(wrong[0], ("none", "none"))
        problem.append(Line(FAIL, f"{name}: wrong after iteration {iteration}", (
            ("node", f"node {wrong[0]} (0 is the root)"),
            ("expected", f"visits {visits}, total {total}"),
            ("returned", f"visits {wrong[1]}, total {wrong[2]}"),
            ("hint", "check the signs: the root's total is for the player to move at "
                     "the root, each child's for the player to move in the child"),
        )))
        return False

    def theirs(path: list[MCTSNode], result: int) -> None:
        _, figures = ask(title, "backpropagate",
                         f"backpropagate(path of {len(path)} nodes, {result:+d})", student,
                         path, result, read=partial(_path_figures, path))
        for node, (visits, total) in zip(path, figures, strict=True):
            node.visits, node.total = visits, total  # plain values: the search reads them

    root = run_uct(game, state, seed, ITERATIONS, theirs, compare)
    return (problem[0] if problem else None), {c.move: c.visits for c in root.children}


def _unit_cases() -> list[tuple[int, int]]:
    return [(length, result) for length in (1, 2, 3, 4) for result in (1, -1, 0)]


_FORBIDDEN: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4"),
                              allowed=(MCTSNode,))
"""Every search (gamelib's backpropagate among them) out of reach of the student's code; the
nodes of the path are handed."""


@checker(forbid=_FORBIDDEN)
def check_backpropagate(backpropagate_: Callable[[list[MCTSNode], int], Any]) -> CheckResult:
    """Check the student's ``backpropagate(path, result)``.

    First on hand-made paths of 1 to 4 nodes with results +1, -1 and 0 (12 calls): the
    visits and totals of every node are compared with gamelib's
    :func:`~gamelib.search.mcts.backpropagate`. Then in three seeded searches of
    :data:`ITERATIONS` iterations (:data:`SEARCHES`), run by :func:`run_uct` with the
    student's function beside gamelib's: every node's visits and total must match after
    every iteration. A failure names the path or the search and the iteration, the
    expected and the returned figures and a hint. ``facts``: ``paths`` (hand-made paths
    checked), ``searches``, ``root_visits`` (the root moves' visits at the end of each
    search, by description). Raises :class:`GameError` if the argument is not callable.
    """
    title = "backpropagate: visits and totals, negamax signs"
    for index, (length, result) in enumerate(_unit_cases()):
        theirs, ours = _chain(length), _chain(length)
        before = [(n.visits, n.total) for n in theirs]
        call = f"backpropagate(path of {length} node{'s' * (length > 1)}, {result:+d})"
        _, got = ask(title, "backpropagate", call, backpropagate_, theirs, result,
                     first=index == 0, read=partial(_path_figures, theirs))
        backpropagate(ours, result)
        expected = [(n.visits, n.total) for n in ours]
        if got != expected:
            return CheckResult(title, (Line(FAIL, call, (
                ("path", f"{length} nodes, root first, (visits, total) before: {show(before)}"),
                ("result", f"{result:+d} for the player to move at the last node"),
                ("expected", show(expected)),
                ("returned", show(got)),
                ("hint", _hint(before, got, expected)),
            )),))
    root_visits: dict[str, dict[Hashable, int]] = {}
    for name, game, state, seed in SEARCHES:
        problem, visits = _compare_search(title, backpropagate_, name, game, state, seed)
        if problem is not None:
            return CheckResult(title, (problem,))
        root_visits[name] = visits
    facts = {"paths": len(_unit_cases()), "searches": len(SEARCHES), "root_visits": root_visits}
    lines = [Line(PASS, f"right on {len(_unit_cases())} hand-made paths of 1 to 4 nodes")]
    for name, visits in root_visits.items():
        lines.append(Line(PASS, f"{name}: the same tree as gamelib's after each of "
                                f"{ITERATIONS} iterations; root visits {show(visits, 90)}"))
    return CheckResult(title, tuple(lines), facts=facts)
