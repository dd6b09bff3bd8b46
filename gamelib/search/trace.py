"""A search's trace: every step of minimax, alpha-beta, the bound cache or a depth limit.

This module holds the trace's data types; :func:`trace_search` (the function that runs one
of gamelib's own searches with an observer attached and records what it does) lives here
too. A trace is plain data: the viewer in :mod:`gamelib.ui` draws it, tests compare it,
and nothing in it refers back to a running search.

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

Values are for the player named by the game's utility convention, as in the searches
themselves (see :mod:`gamelib.search.minimax`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = [
    "MAX_EVENTS",
    "CacheRead",
    "CacheStore",
    "Cutoff",
    "Enter",
    "Event",
    "Leaf",
    "Node",
    "Return",
    "SearchTrace",
]

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
    ``player`` the player to move in ``state``.
    """

    id: int
    parent: int | None
    move: Hashable | None
    state: Hashable
    depth: int
    player: str


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
    in ``pruned`` (in the order they would have been searched) are skipped."""

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


Event = Enter | Leaf | CacheRead | Cutoff | CacheStore | Return
"""One step of a trace."""


@dataclass(frozen=True)
class SearchTrace:
    """What one search did, step by step.

    ``algorithm`` is ``"minimax"``, ``"alphabeta"``, ``"bounded"`` or
    ``"depth_limited"``; ``options`` the options it ran with; ``value`` its result (the
    same as the algorithm's own function returns) and ``calls`` its ``Stats.calls``.
    ``nodes[i].id == i``; ``events`` are in the order they happened.
    """

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
