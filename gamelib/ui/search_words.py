"""The words of the search viewer: the status line of each step, the key under the tree,
and how values are written (for :mod:`gamelib.ui.search_svg`).

:class:`_Words` says what one event of a trace did; :func:`legend` is the key of a trace's
picture, naming whose values it shows; :func:`value_format` writes a value: ``+1``, ``-0.35``
for the games valued -1 to +1, the number itself for a :class:`~gamelib.games.TreeGame`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Final

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
    Playout,
    SearchTrace,
    Select,
    Window,
)
from gamelib.session import format_value
from gamelib.ui.mcts_words import describe_mcts

__all__ = ["LEGEND", "MCTS_LEGEND", "legend", "value_format"]

LEGEND: Final = ("Key: [α, β] window of an open node · ≤ ≥ a bound · h heuristic estimate · "
                 "cache: entry stored, hit: entry used · dashed grey: pruned")
"""The key of every item the viewer can draw (:func:`legend` keeps a trace's own)."""
MCTS_LEGEND: Final = ("Key: above a node, its mean result for the player to move there · "
                      "n visits · uct: a candidate's score at a selection step")


def legend(trace: SearchTrace) -> str:
    """The key under the tree of ``trace``: whose values it shows (the player to move
    there, as negamax computes them, or the first player in the bounded search) and the
    marks its algorithm uses. A bound at the end of the value scale (``≤ -1``, ``≥ +1``
    for the games valued -1 to +1) is drawn as the exact value it is."""
    if trace.algorithm == "mcts":
        return MCTS_LEGEND
    whose = (f"values for {trace.game.players[0]}" if trace.algorithm == "bounded"
             else "values for the player to move")
    parts = [f"Key: {whose}"]
    if trace.algorithm != "minimax":
        parts += ["[α, β] window", "≤ ≥ a bound"]
    if trace.algorithm == "depth_limited":
        parts.append("h heuristic estimate")
    if trace.algorithm == "bounded":
        parts.append("cache: stored, hit: used")
    if trace.algorithm != "minimax":
        parts.append("grey: pruned")
    return " · ".join(parts)


def _plain(value: float) -> str:
    """A value of a game whose values are any numbers (a tree's leaves): as it is."""
    return f"{value:g}"


def value_format(game: object) -> Callable[[float], str]:
    """How the viewer writes a value of ``game``: ``format_value`` (+1, -1, +0.35 ...) for
    the games valued -1 to +1, the number itself for a game with a ``value_range`` (a
    :class:`~gamelib.games.TreeGame`, whose leaves are any numbers)."""
    return _plain if hasattr(game, "value_range") else format_value


def _number(value: float, fmt: Callable[[float], str] = format_value) -> str:
    if value == math.inf:
        return "+∞"
    if value == -math.inf:
        return "-∞"
    return fmt(value)


def _window_text(window: Window, fmt: Callable[[float], str] = format_value) -> str:
    return f"[{_number(window[0], fmt)}, {_number(window[1], fmt)}]"


_BOUND_WORDS: Final = {"=": "exactly", "≤": "at most", "≥": "at least"}
_COUNT_WORDS: Final = {1: "move", 2: "two moves", 3: "three moves", 4: "four moves"}


class _Words:
    """The phrases of the status line for one trace."""

    def __init__(self, trace: SearchTrace) -> None:
        self.trace = trace
        self.game = trace.game
        self.bounded = trace.algorithm == "bounded"
        self.value = value_format(self.game)
        low, high = getattr(self.game, "value_range", (-1, 1))
        # The depth-limited scale has no end at +-1 (proven results lie beyond it).
        # (Nor has the Monte Carlo search's scale: its values are means of playouts.)
        self.ends = ((-math.inf, math.inf) if trace.algorithm in ("depth_limited", "mcts")
                     else (low, high))

    def bound(self, value: float, bound: str) -> str:
        """``bound``, or ``'='`` when the bound lies at the end of the value scale: a value
        at most the lowest value (or at least the highest) is exactly that value."""
        if (bound == "≤" and value <= self.ends[0]) or (bound == "≥" and value >= self.ends[1]):
            return "="
        return bound

    def owner(self, node: Node) -> str:
        """Whose value a node's numbers are: the first player's in the bounded search
        (max and min), the player to move there in the others (negamax)."""
        return str(self.game.players[0]) if self.bounded else node.player

    def move(self, move: Hashable) -> str:
        try:
            return str(self.game.format_move(move))
        except Exception:  # a game without notation for this move: show it as it is
            return repr(move)

    def name(self, node: Node) -> str:
        if node.parent is None:
            return "The start position"
        mover = self.trace.nodes[node.parent].player
        kind = "move" if node.depth == 1 else "reply"
        return f"{mover}'s {kind} {self.move(node.move)}"

    def describe(self, event: Event) -> str:
        nodes = self.trace.nodes
        node = nodes[event.node]
        name = self.name(node)
        owner = self.owner(node)
        if isinstance(event, (Select, Expand, Playout, Backup)):
            return describe_mcts(self.trace, event, name, self.move)
        if isinstance(event, Enter):
            where = f"{name}: search it, {node.player} to move"
            if self.trace.algorithm == "minimax":
                return f"{where}."
            return f"{where}, window {_window_text(event.window, self.value)} for {owner}."
        if isinstance(event, Leaf):
            if event.heuristic:
                return (f"{name}: the depth limit is reached; the heuristic estimates it at "
                        f"{self.value(event.value)} for {owner}.")
            return f"{name} ends the game: worth {self.value(event.value)} for {owner}."
        if isinstance(event, CacheRead):
            if event.entry is None:
                return f"{name}: not in the cache, so search it."
            flag, v = event.entry
            entry = f"{flag} {self.value(v)}"
            if event.used:
                return (f"{name}: the cache entry {entry} (case {event.case}) answers at once, "
                        "no search.")
            return (f"{name}: the cache entry {entry} (case {event.case}) does not answer; "
                    f"search it in the window {_window_text(event.window, self.value)}.")
        if isinstance(event, Cutoff):
            child = nodes[event.child]
            alpha, beta = event.window
            text = self.value(event.value)
            at_end = self.bound(event.value, "≥" if event.value >= beta else "≤") == "="
            if event.value >= beta:
                worth, test = f"at least {text}", f"{text} ≥ β = {_number(beta, self.value)}"
            elif event.value <= alpha:
                worth, test = f"at most {text}", f"{text} ≤ α = {_number(alpha, self.value)}"
            else:
                window = _window_text(event.window, self.value)
                worth, test = text, f"{text} lies outside {window}"
            if at_end and worth != text:
                worth = text   # at the end of the scale the bound is the exact value
            n = len(event.pruned)
            head = f"{self.name(child)} is worth {worth} for {owner}, and {test}: cutoff"
            if not n:
                return f"{head}, though no move is left to skip."
            skipped = "; ".join(self.move(m) for m in event.pruned)
            last = "the last move" if n == 1 else f"the last {_COUNT_WORDS.get(n, f'{n} moves')}"
            return f"{head}, {last} here ({skipped}) {'is' if n == 1 else 'are'} skipped."
        if isinstance(event, CacheStore):
            meaning = {"=": "exact", "≤": "an upper bound", "≥": "a lower bound"}[event.flag]
            return (f"{name}: stored in the cache as {event.flag} {self.value(event.value)} "
                    f"({meaning}).")
        flag = self.bound(event.value, event.bound)
        worth = f"{_BOUND_WORDS[flag]} " if flag != "=" else ""
        if node.parent is None:
            return (f"{name} is worth {worth}{self.value(event.value)} for {owner}: "
                    "the search is done.")
        parent = self.name(nodes[node.parent])
        if nodes[node.parent].parent is None:
            parent = "the start position"
        return (f"{name} is worth {worth}{self.value(event.value)} for {owner}; back to "
                f"{parent}.")
