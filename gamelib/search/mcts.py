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

**MCTS-Solver** (``solve=True``; Winands, Björnsson and Saito, 2008). Means are estimates
and lag behind what the tree already proves: a move whose one refutation is deep keeps a
good mean long after the tree holds the refutation. With ``solve=True`` a node also gets
an exact value, :attr:`MCTSNode.proven`, once it is *proven*: a finished state is proven
at its utility; a node is proven won (+1) as soon as one child is proven lost for the
opponent, and proven at the best of its children's values once every move has a child and
every child is proven (so draws are proven too, as OpenSpiel's ``MCTSBot(solve=True)``
does). Proofs go up the path after each iteration
(:func:`~gamelib.search.mcts_solver.prove`). A proven child is scored by its exact value
instead of its mean, and a proven loss for the player choosing is never chosen while
another child is left; selection stops at a proven node and backs up its value without a
playout; the search ends as soon as the root is proven; and the chosen move respects the
proofs: a proven win if there is one, else never a proven loss while another move is left.

**PUCT** (``guide=``: AlphaGo Zero's and AlphaZero's search): see :mod:`gamelib.search.puct`.

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
from typing import Final

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
    check_whole,
    is_number,
    pick,
    rng_or_shared,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.mcts_solver import allowed_moves, for_chooser, prove
from gamelib.search.movers import mover_rule
from gamelib.search.playouts import PlayoutPolicy, random_policy
from gamelib.search.puct import Guide, check_guide, consult, select_puct
from gamelib.search.stats import Decision, MCTSStats

__all__ = [
    "DEFAULT_EXPLORATION",
    "MCTSNode",
    "MCTSResult",
    "MCTSStats",
    "Iteration",
    "mcts",
    "mcts_decision",
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


# -- the tree and the counters ----------------------------------------------------------


@dataclass(eq=False, slots=True)
class MCTSNode:
    """One node of the search tree: a state, whose turn it is, and what was seen there.

    ``total`` is the sum of the results backed up through this node and ``visits`` their
    number, both for ``player``, the player to move in ``state`` (negamax). ``untried``
    are the moves not yet expanded, in the game's order; ``children`` the expanded ones,
    in the order they were made. ``id`` counts the nodes of one search from 0 (the root).
    With a guide (PUCT), ``priors`` holds the guide's prior of every legal move, in the
    game's order, and ``untried`` is in the order of those priors, highest first.
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
    proven: float | None = None
    """With ``solve=True``: the exact value for :attr:`player` once proven (+1 won, 0
    drawn, -1 lost); None while unknown (always None without ``solve``)."""
    priors: dict[Hashable, float] | None = None
    """With a guide: the prior of each legal move of :attr:`state` (None without one,
    and for a finished state)."""
    prior: float | None = None
    """The prior probability the guide gave the move into this node; None under plain UCT
    (and for the root)."""

    @property
    def mean(self) -> float:
        """The average result for :attr:`player` (0.0 before the first visit)."""
        return self.total / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        proof = "" if self.proven is None else f", proven={self.proven:+g}"
        return (f"MCTSNode({self.id}, move={self.move!r}, visits={self.visits}, "
                f"mean={self.mean:+.3f}{proof})")


@dataclass(frozen=True)
class Iteration:
    """What one iteration did, for the trace (:func:`~gamelib.search.trace.trace_search`).

    ``path`` is the ids of the nodes from the root to the node the playout started from;
    ``scores[k]`` the UCT score of every child of ``path[k]`` (by id) when the selection
    left it, for each selection step; ``expanded`` the id of the new node (None when the
    selection ended at a finished state); ``playout`` the moves of the playout; ``result``
    its result for the player to move at ``path[-1]``; ``backed_up[k]`` what was added to
    ``path[k]``'s total; ``proven`` the nodes this iteration proved (MCTS-Solver), as
    ``(id, value for the player to move there)``, bottom up. With a guide, ``scores`` are
    PUCT scores of the children in the tree (a move not yet in it has no id: the move
    expanded was the best of those), and ``guided`` is True when ``result`` is the guide's
    value of the new leaf rather than a playout's result. ``scores`` is ``()`` for an
    observer whose ``scores_wanted`` is False (:class:`~gamelib.search.root_watch.RootWatch`).
    """

    path: tuple[int, ...]
    scores: tuple[dict[int, float], ...]
    expanded: int | None
    playout: tuple[Hashable, ...]
    result: float
    backed_up: tuple[float, ...]
    proven: tuple[tuple[int, float], ...] = ()
    guided: bool = False


@dataclass(frozen=True)
class MCTSResult:
    """The outcome of :func:`mcts`.

    ``move`` is the most visited root move (ties: the higher value, then drawn with the
    search's rng), among the moves the proofs allow (MCTS-Solver: the proven wins if there
    are any; else never a move proven worse than another's proof, nor a proven loss while
    an unproven move is left). ``visits`` and ``values`` map
    each legal root move to its visits and its mean value for the player to move at the
    root (0 and 0.0 for a move never tried), in the game's move order; ``proofs`` to its
    proven value for that player, or None (always None without ``solve``). ``value`` is
    the chosen move's proven value if it has one, else its mean. ``proven`` is the root's
    proven value (None: not proven). ``cut_short`` is True when the budget (time, nodes,
    or a cancel) ran out before the iteration budget was spent. ``root`` is the whole tree.
    """

    move: Hashable
    value: float
    visits: dict[Hashable, int]
    values: dict[Hashable, float]
    stats: MCTSStats
    root: MCTSNode
    cut_short: bool = False
    proofs: dict[Hashable, float | None] = field(default_factory=dict)
    proven: float | None = None


# -- the four phases --------------------------------------------------------------------


def uct_score(child: MCTSNode, parent_visits: int, exploration: float) -> float:
    """The UCT score of ``child`` for the player choosing at its parent: the child's value for that
    player (:func:`~gamelib.search.mcts_solver.for_chooser` of its mean: ``-child.mean``
    where the player changes, negamax) plus the exploration bonus. For a proven child
    (MCTS-Solver) the value is its exact one, seen the same way; a child proven lost for the
    chooser (below 0) scores ``-inf``: it is never chosen while another child is left."""
    value = _exploit(child)
    if value == -math.inf:
        return value
    return value + exploration * math.sqrt(math.log(parent_visits) / child.visits)


def _exploit(child: MCTSNode) -> float:
    """The child's value for the player choosing at its parent: its mean or (MCTS-Solver)
    its proof, seen by the chooser; ``-inf`` for a proof of a loss for the chooser."""
    if child.proven is None:
        return for_chooser(child, child.mean)
    value = for_chooser(child, child.proven)
    return -math.inf if value < 0 else value


def select(root: MCTSNode, exploration: float,
           scores: list[dict[int, float]] | None = None) -> list[MCTSNode]:
    """The path from ``root`` down to the first node with an untried move, a finished
    state or a proven value (MCTS-Solver), going to the child of the highest UCT score
    (the first one on a tie). A tree made with a guide (the root has ``priors``) is
    walked by :func:`~gamelib.search.puct.select_puct` instead.

    If ``scores`` is a list, the scores of each step's children are appended to it."""
    if root.priors is not None:
        return select_puct(root, exploration, _exploit, scores)
    path = [root]
    node = root
    log, sqrt, minus_inf = math.log, math.sqrt, -math.inf
    while not node.untried and node.children and node.proven is None:
        # uct_score and _exploit inlined (the same arithmetic in the same order, so the same
        # floats: a test compares them): this loop is a fifth of a search's time, and the
        # calls were half of it. Every child was visited (nothing is untried).
        log_visits, player = log(node.visits), node.player
        step: dict[int, float] | None = None if scores is None else {}
        best, top = node.children[0], minus_inf     # the first child, if all score -inf
        for child in node.children:
            proven = child.proven
            if proven is None:
                value = child.total / child.visits
                if child.player != player:
                    value = -value
            else:
                value = proven if child.player == player else -proven
                if value < 0:   # a proven loss for the chooser: -inf, never above another
                    if step is not None:
                        step[child.id] = minus_inf
                    continue
            score = value + exploration * sqrt(log_visits / child.visits)
            if step is not None:
                step[child.id] = score
            if score > top:     # the first best
                best, top = child, score
        if step is not None and scores is not None:
            scores.append(step)
        node = best
        path.append(node)
    return path


def expand(game: AnyGame, node: MCTSNode, stats: MCTSStats) -> MCTSNode:
    """A new child of ``node`` for its first untried move (which is no longer untried);
    with a guide, the child's ``prior`` is that move's prior at ``node``."""
    move = node.untried.pop(0)
    state = game.play(node.state, move)
    player = other(game, node.player)   # the opponent, unless the mover moves again
    if not game.finished(state):
        player = mover_rule(game)(state, player)
    child = _new_node(game, state, player, stats, move=move, parent=node)
    if node.priors is not None:
        child.prior = node.priors[move]
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


def _backup(path: list[MCTSNode], result: float) -> None:
    """:func:`backpropagate` (the same sums, in order) without the list of what was added."""
    for node in reversed(path):
        node.visits += 1
        node.total += result
        parent = node.parent
        if parent is None or parent.player != node.player:
            result = -result


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
    """When the search stops: after ``iterations``, or when the budget has expired (its
    time, its nodes, or a cancel), looked at before every iteration but the first. The
    one place the search touches its :class:`~gamelib.search.common.Budget`: it counts
    the tree's new nodes against the budget's node limit before each look."""

    def __init__(self, iterations: int | None, seconds: float | None,
                 budget: Budget | None) -> None:
        self.iterations = iterations
        self.budget: Budget | None = None   # iterations alone: no clock at all
        if budget is not None:
            self.budget = budget if seconds is None else budget.part(seconds)
        elif seconds is not None or iterations is None:
            self.budget = Budget(seconds)
        self.cut_short = False
        self.counted = 0    # the tree's nodes counted against the budget so far

    def done(self, stats: MCTSStats) -> bool:
        if self.iterations is not None and stats.iterations >= self.iterations:
            return True
        if self.budget is not None:
            self.budget.count(stats.calls - self.counted)
            self.counted = stats.calls
            if stats.iterations and self.budget.expired():
                self.cut_short = True
                return True
        return False


@search_door
def mcts(game: AnyGame, state: Hashable, *, iterations: int | None = None,
         seconds: float | None = None, budget: Budget | None = None,
         exploration: float = DEFAULT_EXPLORATION, policy: PlayoutPolicy = random_policy,
         seed: int | None = None, rng: random.Random | None = None,
         stats: MCTSStats | None = None, solve: bool = False,
         observer: Callable[[Iteration], object] | None = None,
         guide: Guide | None = None) -> MCTSResult:
    """A move for the player to move in ``state`` by Monte-Carlo tree search (UCT).

    Arguments: ``game`` and a valid, running ``state``. The budget: ``iterations`` (a
    whole number, at least 1), and/or a time limit, ``seconds`` from now and/or a
    :class:`~gamelib.search.common.Budget` that another thread may cancel; the search
    stops at whichever comes first, after at least one iteration. With none of them
    it runs until :data:`~gamelib.search.common.MAX_SECONDS`. A budget's ``nodes`` limit
    counts the nodes of the search tree (``result.stats.nodes``, root included; each
    iteration adds at most one): the search stops when the tree has that many, so it
    ends with exactly ``nodes`` nodes (two for ``nodes=1``: the first iteration always
    runs), unless another limit comes first or the tree cannot grow (every line of a
    small game is in it already: then the time limit ends it). ``exploration`` (a number
    at least 0) weighs the UCT bonus; ``policy`` chooses the playouts' moves
    (:func:`random_policy`, or :func:`tactical_policy`, or your own, see
    :data:`PlayoutPolicy`). The random source is ``rng``, else ``random.Random(seed)``,
    else the package's shared seeded one (:func:`~gamelib.search.common.pick`).
    ``solve=True`` makes it MCTS-Solver (see the module docstring): proven values are
    backed up, the search ends once the root is proven, and the choice respects proofs.
    ``guide`` (see :data:`Guide`) makes it PUCT (see the module docstring): every new
    leaf is valued by the guide instead of a playout (``policy`` is then used for none;
    ``result.stats.guided`` counts them), selection uses :func:`puct_score` with
    ``exploration`` as its weight, and each child carries its ``prior``. It works with
    ``solve=True`` (a finished leaf is proven at its utility, as without a guide).

    Result: an :class:`MCTSResult`, values in the negamax convention (see the module
    docstring), with this search's own counters in ``result.stats``; ``stats``, if given,
    has them added to its counts (so one can sum up several searches). ``observer``, if
    given, is called with an :class:`Iteration` after each iteration (for the trace).

    Raises :class:`GameError` if ``state`` is finished or not valid, or an argument is
    not of the kind described, or the guide gives a bad answer (said which, and why).
    """
    _check(game, state, iterations, seconds, budget, exploration, policy, seed, rng,
           stats, solve, observer, guide)
    if rng is None:
        rng = random.Random(int(seed)) if seed is not None else rng_or_shared(None)
    top = getattr(game, "value_range", (-1, 1))[1] if solve else None
    result = _search(game, state, _Limit(iterations, seconds, budget), float(exploration),
                     policy, rng, MCTSStats(), top, observer, guide)
    if stats is not None:     # the caller's may hold earlier searches: add this one's counts
        stats.add(result.stats)
    return result


def _check(game: object, state: Hashable, iterations: object, seconds: object,
           budget: object, exploration: object, policy: object, seed: object, rng: object,
           stats: object, solve: object, observer: object, guide: object) -> None:
    """The door of :func:`mcts`: raise :class:`GameError` for a bad argument."""
    check_game(game)
    check_whole(iterations, "iterations", 1, optional=True)
    check_seconds(seconds)
    check_budget(budget)
    if not is_number(exploration) or not 0 <= check_number(exploration, "exploration") < math.inf:
        raise GameError(f"exploration must be a number, 0 or more (sqrt(2) is usual); "
                        f"got {describe_text(exploration)}")
    if not callable(policy):
        raise GameError(f"policy must be a function policy(game, state, rng) -> move, such as "
                        f"random_policy or tactical_policy; got {describe_text(policy)}")
    check_whole(seed, "seed", None, optional=True)
    check_rng(rng)
    if seed is not None and rng is not None:
        raise GameError("pass seed or rng, not both: rng=random.Random(seed) is the same")
    if stats is not None and not isinstance(stats, MCTSStats):
        raise GameError(f"stats must be an MCTSStats or None, got {type(stats).__name__}")
    if not isinstance(solve, bool):
        raise GameError(f"solve must be True or False, got {describe_text(solve)}")
    check_guide(guide)
    if observer is not None and not callable(observer):
        raise GameError(f"observer must be a function observer(iteration) or None, "
                        f"got {type(observer).__name__}")
    check_running(game, state)  # type: ignore[arg-type]


def _search(game: AnyGame, state: Hashable, limit: _Limit, exploration: float,
            policy: PlayoutPolicy, rng: random.Random, stats: MCTSStats, top: float | None,
            observer: Callable[[Iteration], object] | None,
            guide: Guide | None) -> MCTSResult:
    """:func:`mcts` on checked arguments; ``top`` is the game's best result with
    ``solve`` (MCTS-Solver), None without."""
    with stats.timer():
        root = root_node(game, state, stats)
        if guide is not None:
            consult(guide, game, root)      # the root's priors (its value is not used)
        wanted = getattr(observer, "scores_wanted", True) is not False   # see Iteration
        while root.proven is None and not limit.done(stats):
            _iterate(game, root, exploration, policy, rng, stats, top, observer, guide, wanted)
            stats.iterations += 1
    return _result(root, stats, rng, limit.cut_short)


def _iterate(game: AnyGame, root: MCTSNode, exploration: float, policy: PlayoutPolicy,
             rng: random.Random, stats: MCTSStats, top: float | None,
             observer: Callable[[Iteration], object] | None, guide: Guide | None,
             scores_wanted: bool = True) -> None:
    """One iteration: select, expand, simulate (or, with a ``guide``, ask it for the new
    leaf's value), backpropagate, and with MCTS-Solver (``top``, the game's best result,
    not None) prove (and tell ``observer``, with the selection's scores if
    ``scores_wanted``)."""
    scores: list[dict[int, float]] | None = [] if scores_wanted and observer is not None else None
    moves: list[Hashable] | None = [] if observer is not None else None
    path = select(root, exploration, scores)
    expanded = None
    guided = False
    result: float
    if path[-1].proven is not None:     # proven before (MCTS-Solver): its value, no playout
        result = path[-1].proven
    else:
        if not path[-1].finished:
            expanded = expand(game, path[-1], stats)
            path.append(expanded)
            if top is not None and expanded.finished:
                expanded.proven = game.utility(expanded.state, expanded.player)
        if guide is not None and not path[-1].finished:
            result = consult(guide, game, path[-1])
            stats.guided += 1
            guided = True
        else:
            result = simulate(game, path[-1], policy, rng, stats, moves)
    if observer is None:
        _backup(path, result)
        if top is not None:
            prove(path, top)
        return
    added = backpropagate(path, result)
    proved = prove(path, top) if top is not None else []
    assert moves is not None
    observer(Iteration(tuple(n.id for n in path), () if scores is None else tuple(scores),
                       None if expanded is None else expanded.id, tuple(moves), result,
                       tuple(added), tuple((n.id, n.proven) for n in proved
                                           if n.proven is not None), guided))


def _result(root: MCTSNode, stats: MCTSStats, rng: random.Random,
            cut_short: bool) -> MCTSResult:
    """The result: every root move's visits, value and proof, and the chosen move: the
    most visited of the moves the proofs allow
    (:func:`~gamelib.search.mcts_solver.allowed_moves`)."""
    children = {c.move: c for c in root.children}
    visits = {m: children[m].visits if m in children else 0 for m in _root_moves(root)}
    values = {m: for_chooser(children[m], children[m].mean) + 0.0 if m in children else 0.0
              for m in visits}
    proofs: dict[Hashable, float | None] = dict.fromkeys(visits)
    for m, child in children.items():
        if child.proven is not None:
            proofs[m] = for_chooser(child, child.proven)
    allowed = allowed_moves({m: proofs[m] for m in children})
    best = max((visits[m], values[m]) for m in allowed)
    move = pick([m for m in allowed if (visits[m], values[m]) == best], rng)
    proof = proofs[move]
    return MCTSResult(move, values[move] if proof is None else float(proof), visits, values,
                      stats, root, cut_short, proofs, root.proven)


def _root_moves(root: MCTSNode) -> list[Hashable]:
    """The root's legal moves in the game's order (without a guide, the expanded ones
    came first, in order; with one, the priors are in the game's order)."""
    if root.priors is not None:
        return list(root.priors)
    return [c.move for c in root.children] + list(root.untried)


def mcts_decision(game: AnyGame, state: Hashable, *, iterations: int | None = None,
                  seconds: float | None = None, budget: Budget | None = None,
                  rng: random.Random | None = None, guide: Guide | None = None) -> Decision:
    """:func:`mcts` with the default exploration and random playouts (or, with a
    ``guide``, PUCT), as a :class:`~gamelib.search.stats.Decision` for the play session.

    ``move_values`` holds the mean value of every root move that was tried; ``exact``
    is False; ``summary`` reads e.g. ``"MCTS +0.42 (1,000 playouts)"`` or, with a guide,
    ``"PUCT +0.42 (200 iterations)"``. A budget's node limit counts tree nodes, as
    :func:`mcts` says. Raises :class:`GameError` as :func:`mcts` does.
    """
    result = mcts(game, state, iterations=iterations, seconds=seconds, budget=budget, rng=rng,
                  guide=guide)
    tried = {m: v for m, v in result.values.items() if result.visits[m]}
    done = (f"PUCT {result.value:+.2f} ({result.stats.iterations:,} iterations)"
            if guide is not None else
            f"MCTS {result.value:+.2f} ({result.stats.playouts:,} playouts)")
    return Decision(move=result.move, value=result.value, exact=False, stats=result.stats,
                    move_values=tried, summary=done, cut_short=result.cut_short)

