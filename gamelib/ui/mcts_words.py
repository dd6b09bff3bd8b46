"""The status line of a Monte-Carlo tree search's step, in words (for the search viewer).

:func:`describe_mcts` says what one event of an ``"mcts"`` trace did: which child UCT
selects and with what scores, the new node, the playout's moves and result, and the
values backed up with their signs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from gamelib.search.trace import Backup, Expand, Playout, SearchTrace, Select
from gamelib.session import format_value

__all__ = ["describe_mcts"]


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
