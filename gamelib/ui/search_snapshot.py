"""A search trace replayed up to a step: what is known about each node, and the step in words.

:func:`snapshot` replays a :class:`~gamelib.search.trace.SearchTrace` up to a step: which
nodes are entered, open (entered, not yet returned) or done, their windows, values, cache
reads and stores, the moves skipped by cutoffs, an MCTS node's visits, mean and UCT score,
and the status line that says in words what the step did (:func:`describe`).
:mod:`gamelib.ui.search_svg` draws a :class:`Snapshot`. :func:`check_trace` and
:func:`check_step` are the doors every viewer of a trace goes through.

>>> from gamelib.search.trace import Enter, Node, Return, SearchTrace
>>> from gamelib.games import TicTacToe
>>> game = TicTacToe()
>>> trace = SearchTrace(game, game.start, "minimax", {}, 0, 1,
...     (Node(0, None, None, game.start, 0, "X"),), (Enter(0, (-1, 1)), Return(0, 0)))
>>> snapshot(trace, 1).message
'The start position is worth 0 for X: the search is done.'
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Any, Final, cast

from gamelib.game import GameError, describe_text
from gamelib.search.common import is_number
from gamelib.search.trace import (
    Backup,
    CacheRead,
    CacheStore,
    Cutoff,
    Enter,
    Event,
    Expand,
    Leaf,
    Node,
    Return,
    SearchTrace,
    Select,
    Window,
)
from gamelib.ui.search_words import _words_for

__all__ = ["NodeState", "Snapshot", "snapshot", "describe", "check_trace", "check_step"]


@dataclass
class NodeState:
    """What is known about one entered node after some steps.

    ``window`` is its current window (None for minimax, which has none), raised as its
    children return; ``value`` and ``bound`` are set once it returned (``'='``, ``'≤'``
    or ``'≥'``); ``leaf`` is ``(value, heuristic)`` for a node valued without search;
    ``read`` its last cache read and ``stored`` its cache entry ``(flag, value)``.
    MCTS: ``visits``, ``total``, ``value`` their mean, ``uct`` its score when selected from,
    ``proven`` its exact value once MCTS-Solver proved it.
    """

    window: Window | None = None
    value: float | None = None
    bound: str = "="
    leaf: tuple[float, bool] | None = None
    read: CacheRead | None = None
    stored: tuple[str, float] | None = None
    visits: int = 0
    total: float = 0.0
    uct: float | None = None
    proven: float | None = None

    @property
    def open(self) -> bool:
        """True while the node is being searched (entered, not returned)."""
        return self.value is None


@dataclass(frozen=True)
class Snapshot:
    """The tree after the events ``0..step`` of a trace; ``current`` is the node of event
    ``step``, ``pruned`` the spots of the moves pruned so far (``(node, 0)`` for a
    cutoff at ``node``), ``message`` the status."""

    step: int
    current: int
    nodes: dict[int, NodeState]
    pruned: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    message: str = ""


def check_trace(trace: object) -> SearchTrace:
    """``trace`` itself, after checking that it is a SearchTrace with at least one event.

    Raises GameError saying what to pass instead.
    """
    if not isinstance(trace, SearchTrace):
        raise GameError(
            f"expected a SearchTrace (from gamelib.search.trace.trace_search), got "
            f"{type(trace).__name__}"
        )
    if not trace.events or not trace.nodes:
        raise GameError("this trace has no events: there is nothing to show")
    _check_parts(trace)
    return trace


_EVENT_TYPES: Final = tuple(typing.get_args(Event))


def _check_parts(trace: SearchTrace) -> None:
    """Raise GameError unless the nodes and events of ``trace`` fit together as
    trace_search makes them: node ``i`` has id ``i`` and an earlier parent, and every
    event is an event naming nodes of the trace, with numbers for values (a trace built or
    changed by hand could otherwise fail deep inside the drawing)."""
    n = len(trace.nodes)

    def forged(what: str) -> GameError:
        return GameError(f"this trace does not fit together ({what}): pass a trace made by "
                         "gamelib.search.trace.trace_search, unchanged")

    for i, node in enumerate(trace.nodes):
        parent = getattr(node, "parent", None)
        if not isinstance(node, Node) or node.id != i or not (
                (i == 0 and parent is None) or (_is_id(parent) and cast(int, parent) < i)):
            raise forged(f"node {i} is {describe_text(node, 60)}")
    for k, event in enumerate(trace.events):
        if not isinstance(event, _EVENT_TYPES):
            raise forged(f"event {k} is {describe_text(event, 60)}")
        ids = [event.node, *([event.child] if hasattr(event, "child") else []),
               *getattr(event, "path", ()), *getattr(event, "scores", {})]
        if not all(_is_id(x) and x < n for x in ids):
            raise forged(f"event {k} names a node that is not one of its {n} nodes")
        value = getattr(event, "value", 0)
        if not is_number(value) or value != value:
            raise forged(f"event {k} has the value {describe_text(value)}")


def _is_id(x: object) -> bool:
    """Whether ``x`` can be a node id: an int (not a bool), 0 or more."""
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def check_step(trace: SearchTrace, step: object) -> int:
    """``step`` as an event index of ``trace``: None is the last; negative counts from
    the end. Raises GameError, saying the allowed range, for anything else."""
    n = len(trace.events)
    if step is None:
        return n - 1
    if not isinstance(step, int) or isinstance(step, bool) or not -n <= step < n:
        raise GameError(f"step must be a whole number from 0 to {n - 1}, got "
                        f"{describe_text(step)}")
    return step % n


def describe(trace: SearchTrace, step: int) -> str:
    """The status line of event ``step`` of ``trace``, in words."""
    return _words_for(trace).describe(trace.events[step])


def snapshot(trace: SearchTrace, step: int | None = None) -> Snapshot:
    """The tree after events ``0..step`` of ``trace`` (default: the end).

    Raises GameError for a bad trace or step.
    """
    trace = check_trace(trace)
    step = check_step(trace, step)
    if trace.algorithm == "mcts":
        return _mcts_snapshot(trace, step)
    nodes: dict[int, NodeState] = {}
    pruned: set[tuple[int, int]] = set()
    windowless = trace.algorithm in ("minimax", "expectiminimax")
    first = trace.game.players[0] if trace.game is not None else None
    for event in trace.events[: step + 1]:
        state = nodes.setdefault(event.node, NodeState())
        if isinstance(event, Enter):
            state.window = None if windowless else event.window
        elif isinstance(event, Leaf):
            state.leaf = (event.value, event.heuristic)
        elif isinstance(event, CacheRead):
            state.read = event
            if not windowless:
                state.window = event.window
        elif isinstance(event, Cutoff):
            if event.pruned:
                pruned.add((event.node, 0))
        elif isinstance(event, CacheStore):
            state.stored = (event.flag, event.value)
        elif isinstance(event, Return):
            state.value, state.bound = event.value, event.bound
            parent = trace.nodes[event.node].parent
            if parent is not None and parent in nodes:
                _raise_window(nodes[parent], trace.nodes[parent], event.value,
                              trace.algorithm == "bounded", first)
    return Snapshot(step, trace.events[step].node, nodes, frozenset(pruned),
                    describe(trace, step))


def _mcts_snapshot(trace: SearchTrace, step: int) -> Snapshot:
    """:func:`snapshot` of an MCTS trace: the nodes made so far with their visits and
    means, and the candidates' UCT scores at a selection step."""
    nodes = {0: NodeState()}
    for event in trace.events[: step + 1]:
        if isinstance(event, Expand):
            nodes[event.node] = NodeState()
        elif isinstance(event, Backup):
            for key, added in zip(event.path, event.added, strict=True):
                state = nodes[key]
                state.visits += 1
                state.total += added
                state.value = state.total / state.visits
            for key, value in event.proven:
                nodes[key].proven = value
    event = trace.events[step]
    if isinstance(event, Select):
        for key, score in event.scores.items():
            nodes[key].uct = score
    return Snapshot(step, event.node, nodes, frozenset(), describe(trace, step))


def _raise_window(parent: NodeState, node: Node, value: float, bounded: bool,
                  first: Any) -> None:
    """Narrow an open parent's window by a child's returned value, as the search does."""
    if parent.window is None or not parent.open:
        return
    alpha, beta = parent.window
    if bounded:
        if node.player == first:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    else:
        alpha = max(alpha, -value)
    if alpha < beta:
        parent.window = (alpha, beta)
