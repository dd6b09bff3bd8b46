"""Monte-Carlo tree search (UCT): sample games instead of enumerating them.

Minimax looks at every line of play. Monte-Carlo tree search (MCTS) plays many games to
the end with quick, mostly random moves (*playouts*) and keeps a tree of the positions
it has met, with two numbers on each node: how often it was visited and the total of
the results seen through it. One *iteration* has four phases, one function each here:

1. :func:`select`: from the root, while every move of a node has a child, go to the
   child with the best UCT score (below);
2. :func:`expand`: give the node reached one new child, for its next untried move;
3. :func:`simulate`: play a game from that child to the end with a *playout policy*;
4. :func:`backpropagate`: add the result to every node on the path back to the root.

The value convention is the one of every search in this package, negamax: a node's
``total`` and ``mean`` are for the player to move in that node, as minimax's values are.
A move is worth, to the player who makes it, *minus* the mean of the child it leads to,
so :func:`backpropagate` flips the sign at every step up the path (in a game where a
player moves twice, only at the steps where the player changes: ``to_move`` decides).
Results are -1 (lost), 0 (drawn) and +1 (won); means lie in between.

The UCT score of a child ``c`` of ``n`` (Kocsis and Szepesvári, 2006) adds to the
child's value for the player choosing an exploration bonus that shrinks as the child
is tried more often::

    uct(c) = -mean(c) + exploration * sqrt(ln visits(n) / visits(c))

Children are expanded in the game's move order, one per iteration, so every move is
tried once before any is tried twice. Ties go to the first child in that order. The
random source is a seeded ``random.Random`` (see :func:`~gamelib.search.common.pick`):
a search with an iteration budget returns the same result on every run.

>>> from gamelib.games import TicTacToe
>>> from gamelib.game import replay
>>> game = TicTacToe()
>>> state = replay(game, [(0, 0), (1, 1), (0, 1)])  # O must block the top row
>>> result = mcts(game, state, iterations=2000, seed=1)
>>> game.format_move(result.move), result.stats.iterations
('1,3', 2000)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gamelib.game import GameError, Player, describe_text, other
from gamelib.search.common import (
    AnyGame,
    Budget,
    check_budget,
    check_game,
    check_number,
    check_rng,
    check_running,
    check_seconds,
    is_number,
    mover_rule,
    pick,
    rng_or_shared,
    wins_at_once,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.stats import Decision, Stats

__all__ = [
    "DEFAULT_EXPLORATION",
    "MCTSNode",
    "MCTSResult",
    "MCTSStats",
    "Iteration",
    "PlayoutPolicy",
    "mcts",
    "mcts_decision",
    "random_policy",
    "tactical_policy",
    "select",
    "expand",
    "simulate",
    "backpropagate",
    "uct_score",
    "root_node",
]

MAX_PLAYOUT_PLIES: Final = 10_000
"""The longest playout: a game still running after it has a cycle (GameError)."""

DEFAULT_EXPLORATION: Final = math.sqrt(2)
"""The exploration constant when none is given: sqrt(2), UCB1's constant for results in
[0, 1]. Results here lie in [-1, 1], where Hoeffding's bound would give sqrt(8); sqrt(2)
explores less, and keeps the value in every small tic-tac-toe position the tests try."""

PlayoutPolicy = Callable[[AnyGame, Hashable, random.Random], Hashable]
"""``policy(game, state, rng) -> move``: the move a playout makes in the running ``state``."""


# -- the tree and the counters ----------------------------------------------------------


@dataclass(eq=False)
class MCTSNode:
    """One node of the search tree: a state, whose turn it is, and what was seen there.

    ``total`` is the sum of the results backed up through this node and ``visits`` their
    number, both for ``player``, the player to move in ``state`` (negamax). ``untried``
    are the moves not yet expanded, in the game's order; ``children`` the expanded ones,
    in the order they were made. ``id`` counts the nodes of one search from 0 (the root).
    """

    id: int
    state: Hashable
    player: Player
    finished: bool
    move: Hashable | None = None
    parent: MCTSNode | None = None
    untried: list[Hashable] = field(default_factory=list)
    children: list[MCTSNode] = field(default_factory=list)
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        """The average result for :attr:`player` (0.0 before the first visit)."""
        return self.total / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        return (f"MCTSNode({self.id}, move={self.move!r}, visits={self.visits}, "
                f"mean={self.mean:+.3f})")


@dataclass
class MCTSStats(Stats):
    """:class:`~gamelib.search.stats.Stats` with the counters of a Monte-Carlo search.

    ``calls`` counts the nodes the search made (its tree's size, root included; also
    readable as :attr:`nodes`), ``terminal`` those at a finished state and ``visited``
    their distinct states. All counts are exact for a given seed and iteration budget.
    """

    iterations: int = 0
    """Completed iterations (select, expand, simulate, backpropagate)."""
    playouts: int = 0
    """Playouts run: one per iteration (of no move when the node reached is finished)."""
    playout_plies: int = 0
    """Moves made by all playouts together."""

    @property
    def nodes(self) -> int:
        """The nodes of the search tree: the same count as ``calls``."""
        return self.calls

    def add(self, other: MCTSStats) -> None:
        """Add ``other``'s counts (and its visited states and seconds) to these."""
        self.calls += other.calls
        self.terminal += other.terminal
        self.visited |= other.visited
        self.seconds += other.seconds
        self.iterations += other.iterations
        self.playouts += other.playouts
        self.playout_plies += other.playout_plies

    def as_dict(self) -> dict[str, Any]:
        """The counters as a plain dict, with the Monte-Carlo ones added."""
        return {**super().as_dict(), "nodes": self.nodes, "iterations": self.iterations,
                "playouts": self.playouts, "playout_plies": self.playout_plies}


@dataclass(frozen=True)
class Iteration:
    """What one iteration did, for the trace (:func:`~gamelib.search.trace.trace_search`).

    ``path`` is the ids of the nodes from the root to the node the playout started from;
    ``scores[k]`` the UCT score of every child of ``path[k]`` (by id) when the selection
    left it, for each selection step; ``expanded`` the id of the new node (None when the
    selection ended at a finished state); ``playout`` the moves of the playout; ``result``
    its result for the player to move at ``path[-1]``; ``backed_up[k]`` what was added to
    ``path[k]``'s total.
    """

    path: tuple[int, ...]
    scores: tuple[dict[int, float], ...]
    expanded: int | None
    playout: tuple[Hashable, ...]
    result: int
    backed_up: tuple[float, ...]


@dataclass(frozen=True)
class MCTSResult:
    """The outcome of :func:`mcts`.

    ``move`` is the most visited root move (ties: the higher value, then drawn with the
    search's rng). ``visits`` and ``values`` map each legal root move to its visits and
    its mean value for the player to move at the root (0 and 0.0 for a move never
    tried), in the game's move order. ``value`` is the chosen move's value. ``cut_short``
    is True when the time budget ran out or was cancelled before the iteration budget was
    spent. ``root`` is the whole tree.
    """

    move: Hashable
    value: float
    visits: dict[Hashable, int]
    values: dict[Hashable, float]
    stats: MCTSStats
    root: MCTSNode
    cut_short: bool = False


# -- the playout policies ---------------------------------------------------------------


def random_policy(game: AnyGame, state: Hashable, rng: random.Random) -> Hashable:
    """A legal move of ``state`` drawn uniformly at random with ``rng``."""
    moves: list[Hashable] = game.moves(state)
    if not moves:   # a running state without moves (the playout asks only running ones)
        raise NoNextState(state)
    return rng.choice(moves)


def tactical_policy(game: AnyGame, state: Hashable, rng: random.Random) -> Hashable:
    """A move that wins at once if there is one; else a random move after which the
    opponent cannot win at once (this blocks an immediate threat), if there is one;
    else any random move. Ties are drawn with ``rng``."""
    player = game.to_move(state)
    moves: list[Hashable] = game.moves(state)
    if not moves:   # a running state without moves (the playout asks only running ones)
        raise NoNextState(state)
    after = [game.play(state, m) for m in moves]
    wins: list[Hashable] = [m for m, s in zip(moves, after, strict=True)
            if game.finished(s) and game.utility(s, player) == 1]
    if wins:
        return rng.choice(wins)
    safe: list[Hashable] = [m for m, s in zip(moves, after, strict=True)
                            if not wins_at_once(game, s)]
    return rng.choice(safe or moves)


# -- the four phases --------------------------------------------------------------------


def uct_score(child: MCTSNode, parent_visits: int, exploration: float) -> float:
    """The UCT score of ``child`` for the player choosing at its parent: the child's
    value for that player (``-child.mean``, negamax; see :func:`_chooser_mean`) plus the
    exploration bonus."""
    return (_chooser_mean(child)
            + exploration * math.sqrt(math.log(parent_visits) / child.visits))


def _chooser_mean(child: MCTSNode) -> float:
    """``child``'s mean value for the player choosing at its parent: ``-child.mean``
    (negamax), or ``child.mean`` where that player moves again in ``child``."""
    parent = child.parent
    if parent is not None and parent.player == child.player:
        return child.mean
    return -child.mean


def select(root: MCTSNode, exploration: float,
           scores: list[dict[int, float]] | None = None) -> list[MCTSNode]:
    """The path from ``root`` down to the first node with an untried move or a finished
    state, going to the child of the highest UCT score (the first one on a tie).

    If ``scores`` is a list, the scores of each step's children are appended to it."""
    path = [root]
    node = root
    while not node.untried and node.children:
        visits = node.visits
        if scores is None:  # the search itself: no table of the scores
            node = max(node.children, key=lambda c: uct_score(c, visits, exploration))
        else:
            step = {c.id: uct_score(c, visits, exploration) for c in node.children}
            scores.append(step)
            node = max(node.children, key=lambda c: step[c.id])
        path.append(node)
    return path


def expand(game: AnyGame, node: MCTSNode, stats: MCTSStats) -> MCTSNode:
    """A new child of ``node`` for its first untried move (which is no longer untried)."""
    move = node.untried.pop(0)
    state = game.play(node.state, move)
    player = other(game, node.player)   # the opponent, unless the mover moves again
    if not game.finished(state):
        player = mover_rule(game)(state, player)
    child = _new_node(game, state, player, stats, move=move, parent=node)
    node.children.append(child)
    return child


def simulate(game: AnyGame, node: MCTSNode, policy: PlayoutPolicy, rng: random.Random,
             stats: MCTSStats, moves: list[Hashable] | None = None) -> int:
    """Play from ``node``'s state to the end with ``policy``; the result (-1, 0, +1) for
    ``node.player``. If ``moves`` is a list, the playout's moves are appended to it."""
    state = node.state
    stats.playouts += 1
    end = stats.playout_plies + MAX_PLAYOUT_PLIES
    while not game.finished(state):
        move = policy(game, state, rng)
        if moves is not None:
            moves.append(move)
        state = game.play(state, move)
        stats.playout_plies += 1
        if stats.playout_plies > end:
            raise GameError(f"a playout went {MAX_PLAYOUT_PLIES:,} plies without an end: "
                            "a cycle, or lines too long to play out: make every line end "
                            "(a move limit)")
    return game.utility(state, node.player)


def backpropagate(path: Sequence[MCTSNode], result: float) -> list[float]:
    """Add ``result``, the playout's result for the player to move at ``path[-1]``, to
    every node of ``path``, bottom up, flipping its sign at each step (negamax) where the
    player changes (not where the mover moves again). Returns what was added to each
    node, in ``path`` order."""
    added = []
    for node in reversed(path):
        node.visits += 1
        node.total += result
        added.append(result)
        if node.parent is None or node.parent.player != node.player:
            result = -result
    return added[::-1]


def root_node(game: AnyGame, state: Hashable, stats: MCTSStats) -> MCTSNode:
    """The root of a new search tree for the running ``state`` (node 0, counted in
    ``stats``). Precondition: ``state`` is a valid state of ``game``."""
    return _new_node(game, state, game.to_move(state), stats)


def _new_node(game: AnyGame, state: Hashable, player: Player, stats: MCTSStats,
              move: Hashable | None = None, parent: MCTSNode | None = None) -> MCTSNode:
    finished = game.finished(state)
    stats.calls += 1
    stats.visited.add(state)
    if finished:
        stats.terminal += 1
    untried = [] if finished else list(game.moves(state))
    if not finished and not untried:
        raise NoNextState(state)
    return MCTSNode(stats.calls - 1, state, player, finished, move, parent, untried)


# -- the search -------------------------------------------------------------------------


class _Limit:
    """When the search stops: after ``iterations``, or when the time budget has expired
    or was cancelled (looked at before every iteration but the first). The one place
    the search touches its :class:`~gamelib.search.common.Budget`."""

    def __init__(self, iterations: int | None, seconds: float | None,
                 budget: Budget | None) -> None:
        self.iterations = iterations
        self.budget: Budget | None = None   # iterations alone: no clock at all
        if budget is not None:
            self.budget = budget if seconds is None else budget.part(seconds)
        elif seconds is not None or iterations is None:
            self.budget = Budget(seconds)
        self.cut_short = False

    def done(self, stats: MCTSStats) -> bool:
        if self.iterations is not None and stats.iterations >= self.iterations:
            return True
        if self.budget is not None and stats.iterations and self.budget.expired():
            self.cut_short = True
            return True
        return False


@search_door
def mcts(game: AnyGame, state: Hashable, *, iterations: int | None = None,
         seconds: float | None = None, budget: Budget | None = None,
         exploration: float = DEFAULT_EXPLORATION, policy: PlayoutPolicy = random_policy,
         seed: int | None = None, rng: random.Random | None = None,
         stats: MCTSStats | None = None,
         observer: Callable[[Iteration], object] | None = None) -> MCTSResult:
    """A move for the player to move in ``state`` by Monte-Carlo tree search (UCT).

    Arguments: ``game`` and a valid, running ``state``. The budget: ``iterations`` (a
    whole number, at least 1), and/or a time limit, ``seconds`` from now and/or a
    :class:`~gamelib.search.common.Budget` that another thread may cancel; the search
    stops at whichever comes first, after at least one iteration. With none of them
    it runs until :data:`~gamelib.search.common.MAX_SECONDS`. ``exploration`` (a number
    at least 0) weighs the UCT bonus; ``policy`` chooses the playouts' moves
    (:func:`random_policy`, or :func:`tactical_policy`, or your own, see
    :data:`PlayoutPolicy`). The random source is ``rng``, else ``random.Random(seed)``,
    else the package's shared seeded one (:func:`~gamelib.search.common.pick`).

    Result: an :class:`MCTSResult`, values in the negamax convention (see the module
    docstring), with this search's own counters in ``result.stats``; ``stats``, if given,
    has them added to its counts (so one can sum up several searches). ``observer``, if
    given, is called with an :class:`Iteration` after each iteration (for the trace).

    Raises :class:`GameError` if ``state`` is finished or not valid, or an argument is
    not of the kind described.
    """
    _check(game, state, iterations, seconds, budget, exploration, policy, seed, rng,
           stats, observer)
    if rng is None:
        rng = random.Random(seed) if seed is not None else rng_or_shared(None)
    result = _search(game, state, _Limit(iterations, seconds, budget), float(exploration),
                     policy, rng, MCTSStats(), observer)
    if stats is not None:     # the caller's may hold earlier searches: add this one's counts
        stats.add(result.stats)
    return result


def _check(game: object, state: Hashable, iterations: object, seconds: object,
           budget: object, exploration: object, policy: object, seed: object, rng: object,
           stats: object, observer: object) -> None:
    """The door of :func:`mcts`: raise :class:`GameError` for a bad argument."""
    check_game(game)
    if iterations is not None and (not isinstance(iterations, int) or isinstance(iterations, bool)
                                   or iterations < 1):
        raise GameError(f"iterations must be a whole number, at least 1, or None; "
                        f"got {describe_text(iterations)}")
    check_seconds(seconds)
    check_budget(budget)
    if not is_number(exploration) or not 0 <= check_number(exploration, "exploration") < math.inf:
        raise GameError(f"exploration must be a number, 0 or more (sqrt(2) is usual); "
                        f"got {describe_text(exploration)}")
    if not callable(policy):
        raise GameError(f"policy must be a function policy(game, state, rng) -> move, such as "
                        f"random_policy or tactical_policy; got {describe_text(policy)}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise GameError(f"seed must be a whole number or None, got {describe_text(seed)}")
    check_rng(rng)
    if seed is not None and rng is not None:
        raise GameError("pass seed or rng, not both: rng=random.Random(seed) is the same")
    if stats is not None and not isinstance(stats, MCTSStats):
        raise GameError(f"stats must be an MCTSStats or None, got {type(stats).__name__}")
    if observer is not None and not callable(observer):
        raise GameError(f"observer must be a function observer(iteration) or None, "
                        f"got {type(observer).__name__}")
    check_running(game, state)  # type: ignore[arg-type]


def _search(game: AnyGame, state: Hashable, limit: _Limit, exploration: float,
            policy: PlayoutPolicy, rng: random.Random, stats: MCTSStats,
            observer: Callable[[Iteration], object] | None) -> MCTSResult:
    """:func:`mcts` on checked arguments."""
    with stats.timer():
        root = root_node(game, state, stats)
        while not limit.done(stats):
            _iterate(game, root, exploration, policy, rng, stats, observer)
            stats.iterations += 1
    return _result(root, stats, rng, limit.cut_short)


def _iterate(game: AnyGame, root: MCTSNode, exploration: float, policy: PlayoutPolicy,
             rng: random.Random, stats: MCTSStats,
             observer: Callable[[Iteration], object] | None) -> None:
    """One iteration: select, expand, simulate, backpropagate (and tell ``observer``)."""
    scores: list[dict[int, float]] | None = [] if observer is not None else None
    moves: list[Hashable] | None = [] if observer is not None else None
    path = select(root, exploration, scores)
    expanded = None
    if not path[-1].finished:
        expanded = expand(game, path[-1], stats)
        path.append(expanded)
    result = simulate(game, path[-1], policy, rng, stats, moves)
    added = backpropagate(path, result)
    if observer is not None:
        assert scores is not None and moves is not None
        observer(Iteration(tuple(n.id for n in path), tuple(scores),
                           None if expanded is None else expanded.id, tuple(moves), result,
                           tuple(added)))


def _result(root: MCTSNode, stats: MCTSStats, rng: random.Random,
            cut_short: bool) -> MCTSResult:
    """The result: every root move's visits and value, and the most visited move."""
    children = {c.move: c for c in root.children}
    visits = {m: children[m].visits if m in children else 0 for m in _root_moves(root)}
    values = {m: _chooser_mean(children[m]) + 0.0 if m in children else 0.0 for m in visits}
    best = max((visits[m], values[m]) for m in children)
    move = pick([m for m in children if (visits[m], values[m]) == best], rng)
    return MCTSResult(move, values[move], visits, values, stats, root, cut_short)


def _root_moves(root: MCTSNode) -> list[Hashable]:
    """The root's legal moves in the game's order (expanded ones first were in order)."""
    return [c.move for c in root.children] + list(root.untried)


def mcts_decision(game: AnyGame, state: Hashable, *, iterations: int | None = None,
                  seconds: float | None = None, budget: Budget | None = None,
                  rng: random.Random | None = None) -> Decision:
    """:func:`mcts` with the default exploration and random playouts, as a
    :class:`~gamelib.search.stats.Decision` for the play session.

    ``move_values`` holds the mean value of every root move that was tried; ``exact``
    is False; ``summary`` reads e.g. ``"MCTS +0.42 (1,000 playouts)"``.
    Raises :class:`GameError` as :func:`mcts` does.
    """
    result = mcts(game, state, iterations=iterations, seconds=seconds, budget=budget, rng=rng)
    tried = {m: v for m, v in result.values.items() if result.visits[m]}
    return Decision(move=result.move, value=result.value, exact=False, stats=result.stats,
                    move_values=tried,
                    summary=f"MCTS {result.value:+.2f} ({result.stats.playouts:,} playouts)",
                    cut_short=result.cut_short)
