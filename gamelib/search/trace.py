"""A search's trace: every step of a search, as plain data. :func:`trace_search` runs one
of gamelib's searches with an observer and records what it does; the viewer in
:mod:`gamelib.ui` draws the trace, tests compare it; nothing in it refers back to a search.

A search is a tree of :class:`Node` objects, each made when the search enters a state.
The ordered ``events`` say what happened, one step of the viewer each:

=================  ===================================================================
event              meaning
=================  ===================================================================
:class:`Enter`     the search enters ``node`` (with the window ``[alpha, beta]``)
:class:`Leaf`      ``node`` is valued without search: a finished game's utility, or a
                   heuristic estimate at the depth limit
:class:`CacheRead` ``node``'s state was looked up in the cache: the entry, which of the
                   seven cases (0 for no entry), and whether it answered the query
:class:`Cutoff`    a child's value fell outside the window: the remaining moves are skipped
:class:`CacheStore` ``node``'s result was filed in the cache as ``(flag, value)``
:class:`Return`    ``node``'s value goes back to its parent, exact or a bound
=================  ===================================================================

A Monte-Carlo tree search (``"mcts"``) has its own four events, one per phase of an
iteration: :class:`Select` (one per step down the tree, with every candidate's UCT
score, or PUCT score with a guide), :class:`Expand` (the new node), :class:`Playout` (its
moves and result, or the guide's value of the new node) and
:class:`Backup` (what was added to each node of the path). Its nodes are those of the
search's tree, numbered in the order they were made.

Expectiminimax's chance nodes have ``player`` :data:`~gamelib.game.CHANCE`, their outcomes a
``probability``; its memo's answers are :class:`CacheRead` events (case 0, entry ``("=", v)``).

Values are on the scale of the algorithm traced, as in the searches themselves: for the
player to move in the node (negamax: ``"minimax"``, ``"alphabeta"``, ``"depth_limited"``,
``"mcts"``), or for ``game.players[0]`` in every node (``"bounded"``, as in the lecture's
max_value/min_value, and ``"expectiminimax"``). Windows are on the same scale.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast

from gamelib.game import CHANCE, GameError, Probability, chance_outcomes, describe_text
from gamelib.games import RandomTurnTicTacToe, TicTacToe, TicTacToeBitboard
from gamelib.search.alphabeta import alphabeta
from gamelib.search.bounded import BoundCache, bounded_alphabeta, read_bound
from gamelib.search.common import AnyGame, check_game
from gamelib.search.depth_limited import depth_limited
from gamelib.search.door import search_door
from gamelib.search.expectiminimax import expectiminimax
from gamelib.search.heuristics import default_heuristic
from gamelib.search.mcts import DEFAULT_EXPLORATION, Iteration, MCTSNode, mcts
from gamelib.search.minimax import minimax
from gamelib.search.playouts import random_policy
from gamelib.search.stats import Stats

__all__ = ["ALGORITHMS", "MAX_EVENTS", "FITS", "RANDOM_TURN_FITS", "CacheRead", "CacheStore",
           "Cutoff", "Enter", "Event", "Select", "Expand", "Playout", "Backup", "Leaf", "Node",
           "Return", "SearchTrace", "trace_search"]

MAX_EVENTS: Final = 5_000
"""The largest trace :func:`trace_search` records; a bigger search is refused up front."""

Bound = Literal["=", "≤", "≥"]
"""How a returned value relates to the true value: exact, an upper or a lower bound."""

Window = tuple[float, float]
"""``(alpha, beta)``; minimax, which has no window, records ``(-inf, inf)``."""


@dataclass(frozen=True)
class Node:
    """One state the search entered: ``id`` counts from 0 (the root) in order of entry.

    ``parent`` is the id of the node it was entered from (None for the root), ``move``
    the move that led there from the parent, ``depth`` the plies from the root and
    ``player`` the player to move in ``state`` (:data:`~gamelib.game.CHANCE` in a chance
    node); ``probability`` that of ``move`` where the parent is a chance node, else None;
    ``prior`` (MCTS with a guide only) the prior probability the guide gave the move into
    this node, else None.
    """

    id: int
    parent: int | None
    move: Hashable | None
    state: Hashable
    depth: int
    player: str
    probability: Probability | None = None
    prior: float | None = None


@dataclass(frozen=True)
class Enter:
    """The search enters ``node`` with the window ``window``."""

    node: int
    window: Window


@dataclass(frozen=True)
class Leaf:
    """``node`` is valued without search: ``heuristic`` is False for a finished game's
    utility, True for an estimate at the depth limit."""

    node: int
    value: float
    heuristic: bool = False


@dataclass(frozen=True)
class CacheRead:
    """``node``'s state was looked up: ``entry`` is ``(flag, v)`` or None, ``case`` the
    case number of :func:`gamelib.search.bounded.read_bound` (0 when there was no entry),
    ``used`` whether the entry answered without a search, and ``window`` the window
    searched afterwards (narrowed in cases 3 and 6)."""

    node: int
    entry: tuple[str, float] | None
    case: int
    used: bool
    window: Window


@dataclass(frozen=True)
class Cutoff:
    """At ``node``, the child ``child`` returned ``value``, outside ``window``: the moves
    in ``pruned`` (in the order they would have been searched) are skipped.

    ``value`` is on the node's scale: what the node is worth after that child, which is
    also what the node returns (negamax: minus the child's own returned value, and at
    least ``window[1]``; ``"bounded"``: at least beta where the first player moves, at
    most alpha where the second does). ``window`` is the node's window just before the
    cutoff (alpha may have risen since the node was entered). The child's own value is
    in its :class:`Return` event."""

    node: int
    child: int
    value: float
    window: Window
    pruned: tuple[Hashable, ...]


@dataclass(frozen=True)
class CacheStore:
    """``node``'s result was stored in the cache as ``(flag, value)``."""

    node: int
    flag: Bound
    value: float


@dataclass(frozen=True)
class Return:
    """``node`` returns ``value`` to its parent; ``bound`` says whether it is exact
    (``'='``), at most (``'≤'``) or at least (``'≥'``) the true value."""

    node: int
    value: float
    bound: Bound = "="


@dataclass(frozen=True)
class Select:
    """MCTS selection: every move at ``node`` has a child; ``scores`` are their UCT (or
    PUCT) scores by child id, and the search goes on to ``child``, the highest."""

    node: int
    child: int
    scores: dict[int, float]


@dataclass(frozen=True)
class Expand:
    """MCTS expansion: ``node`` is new, made for the next untried move of its parent."""

    node: int


@dataclass(frozen=True)
class Playout:
    """MCTS simulation: from ``node``, the playout made ``moves`` (none if ``node`` is a
    finished game) and ended with ``result`` for the player to move at ``node``. With a
    guide, ``guided`` is True and ``result`` is the guide's value of ``node`` (no moves)."""

    node: int
    moves: tuple[Hashable, ...]
    result: float
    guided: bool = False


@dataclass(frozen=True)
class Backup:
    """MCTS backpropagation: ``added[k]`` was added to the total of ``path[k]`` (each
    node's visits grew by one); ``node`` is the root, where it ends. ``proven`` (with
    MCTS-Solver, ``solve=True``) are the nodes of the path this iteration proved, as
    ``(id, exact value for the player to move there)``, bottom up."""

    node: int
    path: tuple[int, ...]
    added: tuple[float, ...]
    proven: tuple[tuple[int, float], ...] = ()


Event = Enter | Leaf | CacheRead | Cutoff | CacheStore | Return | Select | Expand | Playout | Backup
"""One step of a trace."""


@dataclass(frozen=True)
class SearchTrace:
    """What one search did, step by step: ``algorithm`` (a key of :data:`ALGORITHMS`) run
    with ``options``; ``value`` its result (as the algorithm's own function returns it; for
    ``"mcts"``, the chosen root move's mean value), ``calls`` its ``Stats.calls`` (for
    ``"mcts"``, its tree's nodes); ``nodes[i].id == i``; ``events`` in the order they
    happened."""

    game: Any
    state: Hashable
    algorithm: str
    options: dict[str, Any]
    value: float
    calls: int
    nodes: tuple[Node, ...]
    events: tuple[Event, ...]
    cache: dict[Hashable, tuple[str, float]] = field(default_factory=dict)

    def __len__(self) -> int:
        """The number of events (the viewer's steps)."""
        return len(self.events)

    def owner(self, node: Node) -> str:
        """For whom ``node``'s values and window are: the first player (``"bounded"``,
        ``"expectiminimax"``); with negamax the opponent of the parent's mover (the player
        to move there unless the parent's mover moves again); else the player to move."""
        if node.parent is None and self.algorithm not in ("bounded", "expectiminimax"):
            return node.player
        first, second = self.game.players
        if self.algorithm in ("bounded", "expectiminimax"):
            return str(first)
        if self.algorithm == "mcts" or node.parent is None:
            return node.player
        return str(second if self.nodes[node.parent].player == first else first)


# -- recording a search -------------------------------------------------------------------------

ALGORITHMS: Final[dict[str, frozenset[str]]] = {
    "minimax": frozenset(),
    "alphabeta": frozenset({"alpha", "beta", "order"}),
    "bounded": frozenset({"alpha", "beta", "cache"}),
    "depth_limited": frozenset({"depth", "heuristic"}),
    "mcts": frozenset({"iterations", "seed", "exploration", "policy", "solve", "guide"}),
    "expectiminimax": frozenset(),
}
"""The algorithms :func:`trace_search` runs, each with the options it takes."""

FITS: Final[dict[str, int]] = {"minimax": 6, "alphabeta": 6, "bounded": 7, "depth_limited": 6}
"""For each algorithm: the most empty squares a tic-tac-toe position may have for its trace
(with default options; for ``"depth_limited"``, a depth of at least the number of empty
squares) to fit in :data:`MAX_EVENTS` whatever the position. Positions with more are
refused up front; a test checks both halves of the claim."""

RANDOM_TURN_FITS: Final = 5
"""The same for ``"expectiminimax"`` on random-turn tic-tac-toe (a test checks both halves)."""


class _TooLarge(Exception):
    """Raised by the recorder when the trace passes :data:`MAX_EVENTS`."""


class _Frame:
    """What the recorder knows about a node while the search is inside it."""

    __slots__ = ("node", "state", "window", "children", "child_windows", "moves",
                 "cutoffs_after_child", "terminal_before", "answered", "move_of", "player",
                 "chances")

    def __init__(self, node: int, state: Hashable, window: Window, terminal_before: int,
                 player: str) -> None:
        self.node, self.state, self.window, self.player = node, state, window, player
        self.children: list[int] = []
        self.child_windows: list[Window] = []
        self.moves: list[Hashable] = []
        self.cutoffs_after_child = 0
        self.terminal_before = terminal_before
        self.answered = False   # by the cache, without a search
        self.move_of: dict[Hashable, Hashable] | None = None   # child state -> move
        self.chances: dict[Hashable, Probability] | None = None   # child state -> probability


def _bound(value: float, window: Window, exact_entry: bool = False) -> Bound:
    """How ``value``, returned for the window, relates to the true value: the store rule."""
    if exact_entry:
        return "="
    alpha, beta = window
    if value <= alpha:
        return "≤"
    if value >= beta:
        return "≥"
    return "="


class _Recorder:
    """Watches one search through its observer hook and writes its nodes and events.

    ``negamax`` says whether a child's window is the negated window of its parent
    (minimax, alpha-beta, depth-limited) or the parent's own (the bounded search, whose
    values are all for the first player). ``ordered(state)`` gives the moves of a state
    in the order the search tries them, for the moves a cutoff skips.
    """

    def __init__(self, game: AnyGame, stats: Stats, negamax: bool) -> None:
        self.game, self.stats, self.negamax = game, stats, negamax
        self.nodes: list[Node] = []
        self.events: list[Event] = []
        self.stack: list[_Frame] = []
        self.ordered: Callable[[Hashable], list[Hashable]] = game.moves
        self.cache: dict[Hashable, tuple[str, float]] | None = None
        self.heuristic_leaves = False

    def add(self, event: Event) -> None:
        self.events.append(event)
        if len(self.events) > MAX_EVENTS:
            raise _TooLarge

    def enter(self, state: Hashable, window: Window) -> _Frame:
        parent = self.stack[-1] if self.stack else None
        move = probability = None
        if parent is not None:
            if parent.move_of is None:
                game = self.game
                parent.move_of = {game.play(parent.state, m): m for m in game.moves(parent.state)}
                if parent.player == CHANCE:
                    parent.chances = {after: p for p, after in chance_outcomes(game, parent.state)}
            move = parent.move_of.get(state)
            if parent.chances is not None:
                probability = parent.chances.get(state)
            parent.children.append(len(self.nodes))
            parent.child_windows.append(window)
            parent.moves.append(move)
        node = Node(id=len(self.nodes), parent=None if parent is None else parent.node,
                    move=move, state=state, depth=len(self.stack),
                    player=self.game.to_move(state), probability=probability)
        self.nodes.append(node)
        frame = _Frame(node.id, state, window, self.stats.terminal, node.player)
        self.stack.append(frame)
        self.add(Enter(node.id, window))
        return frame

    def read(self, frame: _Frame, alpha: float, beta: float) -> None:
        """The bounded search's cache read, as :func:`read_bound` sees it."""
        assert self.cache is not None
        entry = self.cache.get(frame.state)
        read = read_bound(entry, alpha, beta)  # type: ignore[arg-type]
        frame.answered = read.value is not None
        self.add(CacheRead(frame.node, entry, read.case, frame.answered, (read.alpha, read.beta)))

    def leave(self, frame: _Frame, value: float) -> None:
        self.stack.pop()
        stats = self.stats
        if not frame.children and not frame.answered:
            heuristic = stats.terminal == frame.terminal_before
            self.add(Leaf(frame.node, value, heuristic=heuristic))
        if frame.children and stats.cutoffs == frame.cutoffs_after_child + 1:
            child_alpha, child_beta = frame.child_windows[-1]
            window = (-child_beta, -child_alpha) if self.negamax else (child_alpha, child_beta)
            order = self.ordered(frame.state)
            last = order.index(frame.moves[-1]) if frame.moves[-1] in order else len(order)
            self.add(Cutoff(frame.node, frame.children[-1], value, window,
                            tuple(order[last + 1:])))
        if self.cache is not None and not frame.answered:
            flag, stored = self.cache[frame.state]
            self.add(CacheStore(frame.node, flag, stored))  # type: ignore[arg-type]
        exact_entry = False
        if frame.answered and self.cache is not None:
            exact_entry = self.cache[frame.state][0] == "="
        self.add(Return(frame.node, value, _bound(value, frame.window, exact_entry)))
        if self.stack:
            self.stack[-1].cutoffs_after_child = stats.cutoffs

    def observer(self, window_of: Callable[[tuple[Any, ...]], Window], reads_cache: bool = False,
                 memo: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """The observer hook handed to the search: wraps its recursive function. ``memo``:
        the search answers a state it solved before from its memo (``stats.cache_hits``
        counts it), which the trace records as a :class:`CacheRead` that answered."""

        def observe(step: Callable[..., Any]) -> Callable[..., Any]:
            owner = getattr(step, "__self__", None)
            if owner is not None and hasattr(owner, "moves") and callable(owner.moves):
                self.ordered = owner.moves   # the depth-limited search's own move order
            if reads_cache:
                self.cache = owner.cache  # type: ignore[union-attr]

            def observed(*args: Any) -> Any:
                window = window_of(args)
                frame = self.enter(args[0], window)
                if reads_cache:
                    self.read(frame, *window)
                hits = self.stats.cache_hits
                value = step(*args)
                if memo and not frame.children and self.stats.cache_hits > hits:
                    frame.answered = True
                    self.add(CacheRead(frame.node, ("=", value), 0, True, window))
                self.leave(frame, value)
                return value

            return observed

        return observe


_NO_WINDOW: Final = (-math.inf, math.inf)


def _check_request(game: AnyGame, algorithm: object, options: dict[str, Any]) -> None:
    """Raise GameError unless ``game`` is a game, ``algorithm`` one of :data:`ALGORITHMS`
    and ``options`` its options (``depth`` given for ``"depth_limited"``)."""
    check_game(game)
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
        raise GameError(f"algorithm must be one of {', '.join(map(repr, ALGORITHMS))}; "
                        f"got {describe_text(algorithm)}")
    if unknown := sorted(set(options) - ALGORITHMS[algorithm]):
        allowed = ", ".join(sorted(ALGORITHMS[algorithm])) or "none"
        raise GameError(f"{algorithm!r} takes no option {', '.join(unknown)}: "
                        f"its options are {allowed}")
    if algorithm == "depth_limited" and "depth" not in options:
        raise GameError("'depth_limited' needs the option depth, a whole number of plies")


@search_door
def trace_search(game: AnyGame, state: Hashable, algorithm: str,
                 **options: Any) -> SearchTrace:
    """Run one of gamelib's own searches on ``state`` and record every step of it.

    ``algorithm`` and its options (all optional unless said otherwise):

    * ``"minimax"``: :func:`~gamelib.search.minimax.minimax`, no options.
    * ``"alphabeta"``: :func:`~gamelib.search.alphabeta.alphabeta` with ``alpha``,
      ``beta`` (default -1, 1, or the game's ``value_range``) and ``order``.
    * ``"bounded"``: :func:`~gamelib.search.bounded.bounded_alphabeta` with ``alpha``,
      ``beta`` and ``cache`` (a :class:`BoundCache` to start from; it is copied, so the
      trace leaves it as it was, and the trace's ``cache`` is the copy at the end).
    * ``"depth_limited"``: :func:`~gamelib.search.depth_limited.depth_limited` with
      ``depth`` (required) and ``heuristic`` (default:
      :func:`~gamelib.search.heuristics.default_heuristic`, open lines for tic-tac-toe and
      :func:`~gamelib.search.heuristics.zero` otherwise; for Connect Four's threats pass
      :func:`gamelib.session.players.heuristic_for` of the game).
    * ``"mcts"``: :func:`~gamelib.search.mcts.mcts` with ``iterations`` (required: a
      trace has no time budget), ``seed`` (default 0), ``exploration``, ``policy`` and
      ``solve`` (default False; True: MCTS-Solver, whose proofs the Backup events carry)
      and ``guide`` (default None; a guide makes it PUCT: the Select events carry PUCT
      scores, the nodes their priors, the Playout events the guide's values).
      The trace's ``value`` is the chosen root move's mean value for the player to move.

    * ``"expectiminimax"``: :func:`~gamelib.search.expectiminimax.expectiminimax` to the
      end, no options, for a game with chance states (or without): values for the first
      player, exact fractions where the probabilities are; a state met again is answered
      by the search's memo (a :class:`CacheRead`).

    The search is the algorithm's own function, run with an observer (see
    :data:`~gamelib.search.common.Observer`): the value, ``Stats.calls``, the cutoffs
    and the cache entries are those of a plain call. Values are on the algorithm's own
    scale: for the player to move (negamax) except with ``"bounded"``, where they are
    for the first player.

    Result: a :class:`SearchTrace`. Raises :class:`GameError` for an unknown algorithm
    or option, for the errors the algorithm itself raises, and for a search too large to
    show: a tic-tac-toe position with more empty squares than :data:`FITS` allows is
    refused before the search starts, and any search whose trace passes
    :data:`MAX_EVENTS` events is stopped there.
    """
    _check_request(game, algorithm, options)
    if algorithm == "mcts":
        return _trace_mcts(game, state, options)
    _refuse_large(game, state, algorithm, options.get("depth"))
    stats = Stats()
    recorder = _Recorder(game, stats, negamax=algorithm != "bounded")
    shown_options = dict(options)
    try:
        value: float
        if algorithm == "minimax":
            value = minimax(game, state, stats=stats,
                            observer=recorder.observer(lambda args: _NO_WINDOW))
        elif algorithm == "alphabeta":
            order = options.get("order")
            if callable(order):
                recorder.ordered = lambda s: list(order(game, s, game.moves(s)))
            value = alphabeta(game, state, None, options.get("alpha"),
                              options.get("beta"), stats=stats, order=order,
                              observer=recorder.observer(lambda args: (args[2], args[3])))
        elif algorithm == "bounded":
            start = options.get("cache")
            cache = BoundCache(start) if isinstance(start, dict) else start
            observer = recorder.observer(lambda args: (args[2], args[3]), reads_cache=True)
            value = bounded_alphabeta(game, state, options.get("alpha"), options.get("beta"),
                                      cache=cache, stats=stats, observer=observer)
        elif algorithm == "expectiminimax":
            # An exact Fraction where the probabilities are (a number all the same).
            value = cast(float, expectiminimax(
                game, state, stats=stats,
                observer=recorder.observer(lambda args: _NO_WINDOW, memo=True)))
        else:
            heuristic = options.get("heuristic")
            if heuristic is None:
                heuristic = default_heuristic(game)
            shown_options.setdefault("heuristic", heuristic)
            value = depth_limited(game, state, options["depth"], heuristic, stats=stats,
                                  observer=recorder.observer(lambda args: (args[3], args[4])))
    except _TooLarge:
        raise GameError(
            f"this {algorithm} search is too large to show: its trace passed "
            f"{MAX_EVENTS:,} events and was stopped. Trace a later position"
            + (f" (for tic-tac-toe, positions with at most {FITS[algorithm]} empty squares "
               "always fit)" if algorithm in FITS else "")
        ) from None
    return SearchTrace(
        game=game, state=state, algorithm=algorithm, options=shown_options, value=value,
        calls=stats.calls, nodes=tuple(recorder.nodes), events=tuple(recorder.events),
        cache=dict(recorder.cache) if recorder.cache is not None else {},
    )


def _refuse_large(game: AnyGame, state: Hashable, algorithm: str, depth: object) -> None:
    """Refuse up front a tic-tac-toe position with more empty squares than :data:`FITS`
    allows, and a random-turn one (expectiminimax) with more than :data:`RANDOM_TURN_FITS`.

    A depth-limited search shallower than the game is left to the recorder's limit: how
    large its tree is depends on the depth as much as on the position."""
    board: Any = state
    if isinstance(game, RandomTurnTicTacToe) and algorithm == "expectiminimax":
        limit, name = RANDOM_TURN_FITS, "random-turn tic-tac-toe"
        if game.finished(board):   # (which also checks that it is a state of the game)
            return
        empty = sum(row.count(" ") for row in board[0])
    elif isinstance(game, (TicTacToe, TicTacToeBitboard)) and algorithm in FITS:
        limit, name = FITS[algorithm], "tic-tac-toe"
        empty = len(game.moves(board))
        if algorithm == "depth_limited" and isinstance(depth, int) and depth < empty:
            return
    else:   # (expectiminimax on tic-tac-toe is stopped by MAX_EVENTS if need be)
        return
    if empty > limit:
        raise GameError(
            f"a{'n' if algorithm[0] in 'ae' else ''} {algorithm} trace from this position "
            f"(with {empty} empty squares) may pass {MAX_EVENTS:,} events, too many to step "
            f"through: trace a {name} position with at most {limit} empty squares"
        )


class _IterationRecorder:
    """The observer of an MCTS search: keeps its iterations, stops it at MAX_EVENTS."""

    def __init__(self) -> None:
        self.iterations: list[Iteration] = []
        self.events = 0

    def __call__(self, iteration: Iteration) -> None:
        self.iterations.append(iteration)
        self.events += len(iteration.scores) + (iteration.expanded is not None) + 2
        if self.events > MAX_EVENTS:
            raise _TooLarge


def _trace_mcts(game: AnyGame, state: Hashable, options: dict[str, Any]) -> SearchTrace:
    """:func:`trace_search` for ``"mcts"``: run :func:`mcts` with an observer, then
    write its tree's nodes and one event per phase of each iteration."""
    if "iterations" not in options:
        raise GameError("'mcts' needs the option iterations, a whole number (at least 1)")
    shown = {"seed": 0, "exploration": DEFAULT_EXPLORATION, "policy": random_policy,
             "solve": False, "guide": None, **options}
    recorder = _IterationRecorder()
    try:
        result = mcts(game, state, iterations=shown["iterations"], seed=shown["seed"],
                      exploration=shown["exploration"], policy=shown["policy"],
                      solve=shown["solve"], guide=shown["guide"], observer=recorder)
    except _TooLarge:
        raise GameError(f"this mcts search is too large to show: its trace passed {MAX_EVENTS:,}"
                        " events and was stopped. Ask for fewer iterations") from None
    nodes: list[Node] = []
    stack: list[tuple[MCTSNode, int]] = [(result.root, 0)]
    while stack:
        node, depth = stack.pop()
        nodes.append(Node(node.id, None if node.parent is None else node.parent.id,
                          node.move, node.state, depth, node.player, prior=node.prior))
        stack.extend((child, depth + 1) for child in node.children)
    events: list[Event] = []
    for it in recorder.iterations:
        for k, scores in enumerate(it.scores):
            events.append(Select(it.path[k], it.path[k + 1], scores))
        if it.expanded is not None:
            events.append(Expand(it.expanded))
        events.append(Playout(it.path[-1], it.playout, it.result, it.guided))
        events.append(Backup(it.path[0], it.path, it.backed_up, it.proven))
    return SearchTrace(
        game=game, state=state, algorithm="mcts", options=shown, value=result.value,
        calls=result.stats.calls, nodes=tuple(sorted(nodes, key=lambda n: n.id)),
        events=tuple(events),
    )
