"""What a search did, counted exactly: the stats object every search fills in."""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Stats", "MCTSStats", "Decision", "Priors"]


@dataclass
class Stats:
    """Counters that a search increments as it runs; pass one in to have it filled.

    Every count is exact and reproducible for a given game, state and move order; only
    ``seconds`` depends on the machine. A search adds to the counts it has, so one
    ``Stats`` can also sum up several searches.
    """

    calls: int = 0
    """Invocations of the recursive search function (nodes of the search tree)."""
    terminal: int = 0
    """Calls that ended at a finished state."""
    cutoffs: int = 0
    """Times a loop over moves stopped early because the window closed."""
    cache_hits: int = 0
    """Calls answered from a cache without searching further."""
    cache_entries: dict[str, int] = field(default_factory=dict)
    """Entries of the cache when the search ended, by flag: ``'='``, ``'≤'``, ``'≥'``."""
    depth: int = 0
    """The deepest depth limit (in plies) that a depth-limited search completed."""
    nodes_per_depth: dict[int, int] = field(default_factory=dict)
    """For iterative deepening: calls made by the iteration with each depth limit."""
    seconds: float = 0.0
    """Wall-clock time spent, in seconds; never compare it in a test."""
    visited: set[Hashable] = field(default_factory=set, repr=False)
    """The distinct states the search was called on; ``states`` is its size."""

    def enter(self, state: Hashable) -> None:
        """Count a call of the search on ``state``: one more call, ``state`` visited."""
        self.calls += 1
        self.visited.add(state)

    @property
    def states(self) -> int:
        """How many distinct states the search was called on."""
        return len(self.visited)

    @contextmanager
    def timer(self) -> Iterator[None]:
        """Add the time spent in the ``with`` block to :attr:`seconds`."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds += time.perf_counter() - started

    def as_dict(self) -> dict[str, Any]:
        """The counters as a plain dict (``visited`` replaced by its size ``states``)."""
        return {
            "calls": self.calls,
            "states": self.states,
            "terminal": self.terminal,
            "cutoffs": self.cutoffs,
            "cache_hits": self.cache_hits,
            "cache_entries": dict(self.cache_entries),
            "depth": self.depth,
            "nodes_per_depth": dict(self.nodes_per_depth),
            "seconds": self.seconds,
        }


class Priors(dict[Hashable, float]):
    """Hints that are a guide's prior probabilities of the moves (PUCT's ``P``), not
    values: each from 0 to 1, together 1. A board writes them as shares ("42%") in a
    neutral colour, and the session's words call them priors."""


@dataclass(frozen=True)
class Decision:
    """A computer player's choice: the move, its value, and how it was found.

    ``value`` is for the player to move, on the scale of the search that produced it:
    -1, 0, +1 for proven results of the exact searches; strictly inside (-1, 1) for
    heuristic estimates; proven wins and losses of the depth-limited searches lie at or
    beyond +-1 (see :mod:`gamelib.search.depth_limited`). ``move_values`` maps each
    legal move to its value when the search computed them (for hints), ``exact`` says
    whether ``value`` is proven, and ``summary`` is one line for a status bar.
    ``cut_short`` is True when the time budget ran out (or was cancelled) before the search
    finished: the move is the best found so far.
    """

    move: Hashable
    value: float
    exact: bool
    stats: Stats
    move_values: dict[Hashable, float] = field(default_factory=dict)
    summary: str = ""
    cut_short: bool = False


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
    """Playouts run: one per iteration (of no move when the node reached is finished),
    except an iteration of MCTS-Solver that ends at a node proven before: it backs up the
    proven value instead."""
    playout_plies: int = 0
    """Moves made by all playouts together."""
    guided: int = 0
    """With a guide (PUCT): the new leaves valued by the guide instead of a playout (the
    guide was asked once more, for the root's priors)."""

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
        self.guided += other.guided

    def as_dict(self) -> dict[str, Any]:
        """The counters as a plain dict, with the Monte-Carlo ones added."""
        return {**super().as_dict(), "nodes": self.nodes, "iterations": self.iterations,
                "playouts": self.playouts, "playout_plies": self.playout_plies,
                "guided": self.guided}
