"""A search picture in words (for the search viewer and its static pictures).

:func:`describe_search` is the sentence of a whole picture (its plain-text form);
:func:`describe_mcts` says what one event of an ``"mcts"`` trace did: which child UCT
selects and with what scores, the new node, the playout's moves and result, and the
values backed up with their signs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final

from gamelib.search.trace import Backup, Expand, Playout, SearchTrace, Select
from gamelib.session import format_value

__all__ = ["describe_mcts", "describe_search", "ALGORITHM_NAMES"]


def describe_mcts(trace: SearchTrace, event: Select | Expand | Playout | Backup, name: str,
                  move: Callable[[Hashable], str]) -> str:
    """The status line of ``event``; ``name`` names its node (``"X's move 1,3"``) and
    ``move`` writes a move in the game's notation."""
    nodes = trace.nodes
    node = nodes[event.node]
    place = "the start position" if node.parent is None else name
    if isinstance(event, Select):
        ranked = sorted(event.scores.items(), key=lambda kv: -kv[1])
        listed = ", ".join(f"{move(nodes[k].move)} {v:.2f}" for k, v in ranked[:4])
        return (f"Select at {place}: UCT scores for {node.player} "
                f"({listed}{', ...' if len(ranked) > 4 else ''}); go to "
                f"{move(nodes[event.child].move)}.")
    if isinstance(event, Expand):
        return f"Expand: {name} is a new node of the tree."
    if isinstance(event, Playout):
        if not event.moves:
            return (f"{name} ends the game: {format_value(event.result)} for "
                    f"{node.player}, no playout needed.")
        shown = " ".join(move(m) for m in event.moves[:8])
        more = " ..." if len(event.moves) > 8 else ""
        plural = "s" if len(event.moves) > 1 else ""
        return (f"Playout from {place}: {shown}{more} ({len(event.moves)} move{plural}): "
                f"{format_value(event.result)} for {node.player}.")
    signs = ", ".join(format_value(a) for a in event.added)
    return (f"Backpropagate {signs} from the root down (the sign flips at each level): "
            "every node on the path has one visit more.")


ALGORITHM_NAMES: Final = {"minimax": "minimax", "alphabeta": "alpha-beta",
                          "bounded": "alpha-beta with a bound-flagged cache",
                          "depth_limited": "depth-limited minimax",
                          "mcts": "Monte-Carlo tree search"}
"""The algorithms of :data:`gamelib.search.trace.ALGORITHMS` in words."""


def describe_search(trace: SearchTrace, step: int) -> str:
    """The sentence of a search picture: ``'Search tree: alpha-beta from a Tic-tac-toe
    position with 3 moves, 88 steps.'`` (and ``'; shown at step 5'`` before its end)."""
    name = ALGORITHM_NAMES.get(trace.algorithm, trace.algorithm)
    moves = len(trace.game.moves(trace.state)) if not trace.game.finished(trace.state) else 0
    steps = len(trace.events) - 1  # as the picture counts them: step 0 is the start
    when = "" if step >= steps else f"; shown at step {step}"
    return (f"Search tree: {name} from a {trace.game.name} position with {moves} "
            f"move{'s' if moves != 1 else ''}, {steps} step{'s' if steps != 1 else ''}{when}.")
