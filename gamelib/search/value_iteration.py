"""Value iteration: the exact values of a game whose states repeat, to a tolerance.

A tree search to the end needs every line of play to end. In Pig they need not: a 1
rolled hands the opponent the scores as they were, and a 1 rolled by the opponent hands
them back. The values are still defined, by the same equations as expectiminimax's (see
:mod:`gamelib.search.expectiminimax`), which now refer to each other in circles. Value
iteration solves them by repeating one *sweep*: every state's value recomputed from its
next states' current values, until no value changes by more than ``tolerance``.

Two things keep the sweeps few (Neller and Presser, 2004, do the same for Pig by hand):

* The states are split into *strongly connected components*: largest sets of states that
  can each reach all the others (in Pig: every state with the same two scores). Tarjan's
  algorithm finds them in an order where each comes after every component it leads to,
  so those are solved already, and each component is solved once, alone.
* Within a component each sweep uses the values computed earlier in the same sweep
  (Gauss-Seidel), in the order in which the depth-first search finished the states: a
  state's next states come before it, except where a line of play comes back.

A component without a cycle is a single state and takes one computation: for a game
whose states never repeat, value iteration *is* memoized expectiminimax.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from gamelib.game import CHANCE, GameError, chance_outcomes
from gamelib.search.common import (
    AnyGame,
    Budget,
    check_budget,
    check_game,
    check_number,
    nodes_to_look,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.stats import Stats

__all__ = ["DEFAULT_TOLERANCE", "MAX_STATES", "value_iteration"]

DEFAULT_TOLERANCE: Final = 1e-12
"""A component's sweeps stop once no value changed by more than this in the last sweep."""

MAX_STATES: Final = 3_000_000
"""The most states :func:`value_iteration` will enumerate (Pig to 100 has 1,922,976)."""

_FINISHED, _FIRST, _SECOND, _CHANCE = range(4)


@search_door
def value_iteration(game: AnyGame, state: Hashable | None = None, *,
                    tolerance: float = DEFAULT_TOLERANCE, max_states: int = MAX_STATES,
                    stats: Stats | None = None,
                    budget: Budget | None = None) -> dict[Hashable, float]:
    """The value for the first player of every state reachable from ``state`` (default:
    the start), as floats: expectiminimax's values, also where states repeat.

    Arguments: a game (chance states allowed) whose states reachable from ``state`` are
    at most ``max_states`` (a whole number from 1); ``tolerance`` (a number from 1e-15 to
    0.1): the sweeps over a component stop when none of its values changed by more than
    that in one sweep; ``budget`` bounds the time (a
    :class:`~gamelib.search.common.SearchTimeout` when it runs out).

    Result: a dict from each reachable state to its value for ``game.players[0]``
    (-1 to +1). For a game whose states never repeat the values are those of
    :func:`~gamelib.search.expectiminimax.expectiminimax`, up to rounding.

    ``stats``, if given, is filled: ``calls`` (every computation of a state's value, in
    all sweeps), ``terminal`` (finished states), ``visited`` (the reachable states),
    ``nodes_per_depth`` (how many components needed each number of sweeps) and ``seconds``.

    Raises :class:`GameError` for a bad tolerance, ``max_states`` or budget, a game with
    more reachable states than ``max_states``, and a chance state with no outcomes or
    probabilities that are negative or do not sum to 1.
    """
    check_game(game)
    tol = check_number(tolerance, "tolerance")
    if not 1e-15 <= tol <= 0.1:
        raise GameError(f"tolerance must be a number from 1e-15 to 0.1; got {tolerance!r}")
    if not isinstance(max_states, int) or isinstance(max_states, bool) or max_states < 1:
        raise GameError(f"max_states must be a whole number from 1; got {max_states!r}")
    check_budget(budget)
    stats = Stats() if stats is None else stats
    root = game.start if state is None else state
    with stats.timer():
        return _Solver(game, tol, max_states, stats, budget).solve(root)


class _Solver:
    """One value iteration: the states found so far (by index), their kinds, next
    states, probabilities and values, and Tarjan's bookkeeping."""

    def __init__(self, game: AnyGame, tolerance: float, max_states: int, stats: Stats,
                 budget: Budget | None) -> None:
        self.game, self.tolerance, self.max_states = game, tolerance, max_states
        self.stats, self.budget = stats, budget
        self.first = game.players[0]
        self.states: list[Hashable] = []
        self.index: dict[Hashable, int] = {}
        self.kind: list[int] = []
        self.pending: list[list[Hashable] | None] = []   # next states not yet followed
        self.succ: list[list[int]] = []
        self.prob: dict[int, list[float]] = {}
        self.value: list[float] = []
        self.low: list[int] = []
        self.on_stack: list[bool] = []
        self.stack: list[int] = []
        self.left = self.step = nodes_to_look(budget, 0)

    def tick(self, nodes: int) -> None:
        """Count ``nodes`` units of work against the budget, looking at it when due."""
        self.left -= nodes
        if self.left <= 0:   # never, without a budget
            self.left = self.step = nodes_to_look(self.budget, self.step)

    def add(self, s: Hashable) -> int:
        """Give ``s`` the next index and note its kind, value and next states."""
        i = len(self.states)
        if i >= self.max_states:
            raise GameError(f"more than {self.max_states:,} states are reachable: raise "
                            "max_states, or solve a smaller game")
        game = self.game
        self.states.append(s)
        self.index[s] = i
        mover = game.to_move(s)
        value = 0.0
        if mover == CHANCE:
            pairs = chance_outcomes(game, s)
            self.prob[i] = [float(p) for p, _ in pairs]
            kind, after = _CHANCE, [n for _, n in pairs]
        elif game.finished(s):
            kind, after = _FINISHED, []
            value = float(game.utility(s, self.first))
            self.stats.terminal += 1
        else:
            after = game.next_states(s, mover)
            if not after:
                raise NoNextState(s)
            kind = _FIRST if mover == self.first else _SECOND
        self.kind.append(kind)
        self.value.append(value)
        self.pending.append(after)
        self.succ.append([])
        self.low.append(i)
        self.on_stack.append(True)
        self.stack.append(i)
        self.tick(1)
        return i

    def solve(self, root: Hashable) -> dict[Hashable, float]:
        """Tarjan's depth-first search from ``root``, without recursion; each component
        is solved the moment it is complete."""
        low, on_stack, succ, pending = self.low, self.on_stack, self.succ, self.pending
        finish: dict[int, int] = {}   # when each state's search ended (its postorder)
        work = [(self.add(root), 0)]
        while work:
            v, k = work[-1]
            after = pending[v]
            assert after is not None
            if k < len(after):
                work[-1] = (v, k + 1)
                w = self.index.get(after[k])
                if w is None:
                    w = self.add(after[k])
                    succ[v].append(w)
                    work.append((w, 0))
                else:
                    succ[v].append(w)
                    if on_stack[w] and w < low[v]:
                        low[v] = w
                continue
            work.pop()
            pending[v] = None
            finish[v] = len(finish)
            if work and low[v] < low[work[-1][0]]:
                low[work[-1][0]] = low[v]
            if low[v] == v:
                component = []
                while True:
                    w = self.stack.pop()
                    on_stack[w] = False
                    component.append(w)
                    if w == v:
                        break
                component.sort(key=finish.__getitem__)
                for w in component:
                    del finish[w]
                self.solve_component(component)
        self.stats.visited.update(self.states)
        return dict(zip(self.states, self.value, strict=True))

    def solve_component(self, component: list[int]) -> None:
        """Sweep over ``component`` (in the order their searches ended) until no value changes by
        more than the tolerance; a single state without a loop to itself needs one."""
        kind, succ, prob, value = self.kind, self.succ, self.prob, self.value
        single = len(component) == 1 and component[0] not in succ[component[0]]
        sweeps = 0
        while True:
            sweeps += 1
            change = 0.0
            for i in component:
                k = kind[i]
                if k == _FINISHED:
                    continue
                if k == _CHANCE:
                    v = sum(p * value[j] for p, j in zip(prob[i], succ[i], strict=True))
                elif k == _FIRST:
                    v = max(value[j] for j in succ[i])
                else:
                    v = min(value[j] for j in succ[i])
                if abs(v - value[i]) > change:
                    change = abs(v - value[i])
                value[i] = v
            self.stats.calls += len(component)
            self.tick(len(component))
            if single or change <= self.tolerance:
                break
        per = self.stats.nodes_per_depth
        per[sweeps] = per.get(sweeps, 0) + 1
