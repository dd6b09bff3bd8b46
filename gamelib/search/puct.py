"""PUCT: Monte-Carlo tree search guided by a prior and a value (``mcts(..., guide=...)``).

AlphaGo (Silver et al., 2016) used a learned policy as a prior in MCTS's selection;
AlphaGo Zero (2017) and AlphaZero (2018) also valued new leaves by a learned value, with
no playout. A **guide** is a function ``guide(game, state)`` that returns
``(priors, value)``: a probability for every legal move of ``state`` (which moves look
worth searching) and a value in the game's range for the player to move there (what the
position looks worth). With a guide, :func:`~gamelib.search.mcts.mcts` values every new
node by the guide instead of a playout, and selects by AlphaZero's rule instead of UCT's.
In the negamax convention of :mod:`gamelib.search.mcts`, the PUCT score of a child ``c``
of ``n`` is::

    puct(c) = -mean(c) + exploration * P(c) * sqrt(visits(n)) / (1 + visits(c))

``mean(c)`` is for the player to move at ``c``, hence the minus (where the same player
moves again, no minus); ``P(c)`` is the prior of the move into ``c``. A move not yet in
the tree has visits 0 and counts as a draw, ``mean = 0``, so its score is its bonus alone.
The moves of a guided node are tried in the order of their priors, highest first (ties:
the game's order), so the best untried move is the first one; the search goes into it when
its score beats every child's (ties go to the children).

This module holds what PUCT adds to MCTS: the :data:`Guide` type, the score, the checked
consultation of a guide (:func:`consult`) and the priors a play session shows as hints
(:func:`guide_priors`). :mod:`gamelib.search.mcts` uses them; it imports nothing of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any, Final

from gamelib.game import GameError, describe_text
from gamelib.search.common import AnyGame, check_game, check_running, is_number
from gamelib.search.stats import Priors

if TYPE_CHECKING:
    from gamelib.search.mcts import MCTSNode

__all__ = ["Guide", "PRIOR_SUM_TOLERANCE", "puct_score", "select_puct", "consult",
           "check_guide", "check_answer", "guide_priors"]

Guide = Callable[[Any, Hashable], tuple[Mapping[Hashable, float], float]]
"""``guide(game, state) -> (priors, value)`` for a running ``state``: ``priors`` maps every
legal move to a probability (0 or more, summing to 1 within 1e-9) and ``value`` is the
state's worth for the player to move there, within the game's value range (-1 to +1).
:func:`~gamelib.search.mcts.mcts` checks every answer and raises :class:`GameError` for a
bad one."""

PRIOR_SUM_TOLERANCE: Final = 1e-9
"""How far a guide's priors may sum from 1 (rounding of the floats that make them)."""


def puct_score(value: float, prior: float, parent_visits: int, visits: int,
               exploration: float) -> float:
    """The PUCT score of a child: ``value``, the child's value for the player choosing at
    its parent (``-mean`` of the child where the player changes; 0 for a move not yet in
    the tree; ``-inf`` for a child proven lost for the chooser), plus the bonus
    ``exploration * prior * sqrt(parent_visits) / (1 + visits)``. The bonus is large for a
    move the guide likes that was rarely tried, and shrinks as it is tried; unlike UCT's,
    it is defined before the first visit.

    >>> round(puct_score(-0.5, 0.75, 2, 1, math.sqrt(2)), 9)
    0.25
    """
    return value + exploration * prior * math.sqrt(parent_visits) / (1 + visits)


def select_puct(root: MCTSNode, exploration: float, value: Callable[[MCTSNode], float],
                scores: list[dict[int, float]] | None = None) -> list[MCTSNode]:
    """:func:`~gamelib.search.mcts.select` in a tree made with a guide: the path from
    ``root`` down to the first node that is finished, proven, or whose best move by
    :func:`puct_score` is not yet in the tree. ``value(child)`` is a child's value for the
    player choosing at its parent (its mean or proof, seen by the chooser). Ties go to
    the children, then to the first in order. If ``scores`` is a list, the scores of each
    step's children are appended to it (a move not yet in the tree has no id: the step
    into it is not recorded)."""
    path = [root]
    node = root
    while node.children and node.proven is None:
        visits = node.visits
        step = {c.id: puct_score(value(c), c.prior or 0.0, visits, c.visits, exploration)
                for c in node.children}
        best = max(node.children, key=lambda c: step[c.id])
        if node.untried:        # the best of them is the first: a draw, 0, and its bonus
            assert node.priors is not None
            first = node.priors[node.untried[0]]
            if puct_score(0.0, first, visits, 0, exploration) > step[best.id]:
                break
        if scores is not None:
            scores.append(step)
        node = best
        path.append(node)
    return path


def consult(guide: Guide, game: AnyGame, node: MCTSNode) -> float:
    """Ask ``guide`` about the running, new ``node``: store its priors on the node (and put
    the untried moves in their order, highest first) and return its value for the player
    to move there. The answer is checked (:func:`check_answer`)."""
    priors, value = check_answer(guide(game, node.state), game, node.state, node.untried)
    node.priors = priors
    node.untried.sort(key=lambda m: -priors[m])     # stable: ties keep the game's order
    return value


def check_guide(guide: object) -> None:
    """Raise GameError unless ``guide`` is None or a function (the door's check of a
    guide; its answers are checked as they come, by :func:`check_answer`)."""
    if guide is not None and not callable(guide):
        raise GameError(f"guide must be a function guide(game, state) -> (priors, value), "
                        f"such as gamelib.learn.guide.load_guide(), or None; got "
                        f"{describe_text(guide)}")


def check_answer(answer: object, game: AnyGame, state: Hashable,
                 moves: list[Hashable]) -> tuple[dict[Hashable, float], float]:
    """A guide's ``answer`` for ``state``, whose legal moves are ``moves``, as ``(priors in
    the order of moves, value)``; a GameError saying what is wrong with it otherwise."""
    where = f"the guide's answer for the state {describe_text(state, 60)}"
    if not isinstance(answer, tuple) or len(answer) != 2 or not isinstance(answer[0], Mapping):
        raise GameError(f"{where} must be a pair (priors, value), priors a dict from each "
                        f"legal move to its probability; got {describe_text(answer, 80)}")
    given, value = answer
    if len(given) != len(moves) or any(m not in given for m in moves):
        raise GameError(f"{where}: the priors must name exactly the legal moves "
                        f"{describe_text(moves, 80)}; got {describe_text(list(given), 80)}")
    priors = {m: given[m] for m in moves}
    if not all(is_number(p) and 0 <= p <= 1 for p in priors.values()):
        raise GameError(f"{where}: every prior must be a number from 0 to 1; got "
                        f"{describe_text(priors, 80)}")
    total = math.fsum(float(p) for p in priors.values())
    if abs(total - 1) > PRIOR_SUM_TOLERANCE:
        raise GameError(f"{where}: the priors must sum to 1 (within "
                        f"{PRIOR_SUM_TOLERANCE:g}); they sum to {total!r}")
    low, high = getattr(game, "value_range", (-1, 1))
    if not is_number(value) or not low <= value <= high:
        raise GameError(f"{where}: the value must be a number from {low} to {high} for the "
                        f"player to move; got {describe_text(value)}")
    return {m: float(p) for m, p in priors.items()}, float(value)


def guide_priors(game: AnyGame, state: Hashable, guide: Guide) -> Priors:
    """The priors ``guide`` gives the moves of the running ``state``, checked
    (:func:`check_answer`), in the game's move order: the hints of a guided player.
    Raises GameError for a bad game, state or answer."""
    check_game(game)
    check_running(game, state)
    check_guide(guide)
    return Priors(check_answer(guide(game, state), game, state, list(game.moves(state)))[0])
