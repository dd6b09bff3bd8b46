"""A test-only tracer: the lecture's searches on tiny trees, recording every event.

Used by the viewer's tests (``from search_tracer import tiny_trace``) and by its browser
fixture notebook (``from tests.search_tracer import ...``) until
``gamelib.search.trace.trace_search`` exists; then :func:`tiny_trace` hands over to it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from gamelib.game import other, replay
from gamelib.games import TicTacToe
from gamelib.search import trace as trace_module
from gamelib.search.trace import (
    CacheRead,
    CacheStore,
    Cutoff,
    Enter,
    Event,
    Leaf,
    Node,
    Return,
    SearchTrace,
)

GAME = TicTacToe()
# X to move, three empty squares: 1,3  2,1  3,3 (X wins with 3,3 or loses the race).
THREE = replay(GAME, [(0, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 0)])
FOUR = replay(GAME, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0)])


def tiny_trace(game: Any, state: Hashable, algorithm: str, *, naive: bool = False,
               depth: int = 9, order: bool = False) -> SearchTrace:
    """A test-only tracer: the lecture's searches on tiny trees, recording every event.

    ``minimax``, ``alphabeta`` and ``depth_limited`` are negamax (values for the player
    to move); ``bounded`` is max/min (values for the first player) with a cache that
    stores flags, or plain values when ``naive``.
    """
    if hasattr(trace_module, "trace_search"):
        options: dict[str, Any] = {}
        if algorithm == "depth_limited":
            options = {"depth": depth,
                       "heuristic": _centre if isinstance(game, TicTacToe) else _zero}
        return trace_module.trace_search(game, state, algorithm, **options)  # type: ignore[no-any-return]
    nodes: list[Node] = []
    events: list[Event] = []
    cache: dict[Hashable, tuple[str, float]] = {}
    first = game.players[0]

    def enter(s: Hashable, parent: int | None, move: Hashable, d: int,
              window: tuple[float, float]) -> int:
        node = Node(len(nodes), parent, move, s, d, game.to_move(s))
        nodes.append(node)
        events.append(Enter(node.id, window))
        return node.id

    def moves(s: Hashable) -> list[Hashable]:
        ms: list[Hashable] = game.moves(s)
        return sorted(ms, key=lambda m: m != (1, 1)) if order else ms

    def nega(s: Hashable, parent: int | None, move: Hashable, d: int, a: float,
             b: float) -> float:
        me = enter(s, parent, move, d, (a, b))
        p = game.to_move(s)
        if game.finished(s):
            v: float = game.utility(s, p)
            events.append(Leaf(me, v))
        elif d >= depth:
            v = _centre(s, p) if isinstance(game, TicTacToe) else _zero(s, p)
            events.append(Leaf(me, v, heuristic=True))
        else:
            best = -math.inf if algorithm == "minimax" else a
            ms = moves(s)
            for k, m in enumerate(ms):
                child = len(nodes)
                best = max(best, -nega(game.play(s, m), me, m, d + 1, -b, -a))
                if algorithm != "minimax" and best >= b:
                    events.append(Cutoff(me, child, best, (a, b), tuple(ms[k + 1:])))
                    break
                if algorithm != "minimax":
                    a = max(a, best)
            v = best
        bound = "≥" if v >= b else "≤" if v <= a and algorithm != "minimax" else "="
        events.append(Return(me, v, "=" if algorithm == "minimax" else bound))
        return v

    def evaluate(s: Hashable, parent: int | None, move: Hashable, d: int, a: float,
                 b: float) -> float:
        me = enter(s, parent, move, d, (a, b))
        entry = cache.get(s)
        if entry is not None:
            flag, v = entry
            if naive or flag == "=" or (flag == "≤" and v <= a) or (flag == "≥" and v >= b):
                case = 1 if flag == "=" else 2 if flag == "≤" else 5
                events.append(CacheRead(me, entry, case, True, (a, b)))
                events.append(Return(me, v, flag))  # type: ignore[arg-type]
                return v
            events.append(CacheRead(me, entry, 4 if flag == "≤" else 7, False, (a, b)))
        else:
            events.append(CacheRead(me, None, 0, False, (a, b)))
        p = game.to_move(s)
        if game.finished(s):
            v = game.utility(s, first)
            events.append(Leaf(me, v))
        else:
            ms = game.moves(s)
            v = a if p == first else b
            for k, m in enumerate(ms):
                child = len(nodes)
                if p == first:
                    v = max(v, evaluate(game.play(s, m), me, m, d + 1, v, b))
                    cut = v >= b
                else:
                    v = min(v, evaluate(game.play(s, m), me, m, d + 1, a, v))
                    cut = v <= a
                if cut:
                    events.append(Cutoff(me, child, v, (a, b), tuple(ms[k + 1:])))
                    break
        flag = "=" if naive else "≤" if v <= a else "≥" if v >= b else "="
        cache[s] = (flag, v)
        events.append(CacheStore(me, flag, v))  # type: ignore[arg-type]
        events.append(Return(me, v, flag))  # type: ignore[arg-type]
        return v

    if algorithm == "bounded":
        value = evaluate(state, None, None, 0, -1, 1)
    else:
        window = (-math.inf, math.inf) if algorithm == "minimax" else (-1.0, 1.0)
        value = nega(state, None, None, 0, *window)
    return SearchTrace(game, state, algorithm, {}, value, len(nodes), tuple(nodes),
                       tuple(events), cache)


def _centre(state: Any, player: str) -> float:
    """A toy heuristic: 0.25 per corner-or-centre mark of ``player`` minus the other's."""
    mine = sum(state[r][c] == player for r, c in [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)])
    theirs = sum(state[r][c] == other(GAME, player)
                 for r, c in [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)])
    return 0.2 * (mine - theirs)


def _zero(state: Any, player: str) -> float:
    """The heuristic that knows nothing (for games other than tic-tac-toe)."""
    return 0.0
