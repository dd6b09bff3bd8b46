"""A PUCT trace (MCTS with a guide) in the viewer: each node shows the prior of the move
into it, a selection step names PUCT scores, a guided leaf says the guide valued it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Hashable
from typing import Any

from gamelib.game import replay
from gamelib.games import TicTacToe
from gamelib.search.trace import Playout, Select, trace_search
from gamelib.ui.search_snapshot import describe
from gamelib.ui.search_svg import search_svg

GAME = TicTacToe()
THREAT = replay(GAME, [(0, 0), (1, 1), (0, 1)])     # O to move, six empty squares


def uniform(game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
    moves = game.moves(state)
    return {m: 1 / len(moves) for m in moves}, 0.0


TRACE = trace_search(GAME, THREAT, "mcts", iterations=12, guide=uniform)


def texts(step: int) -> list[str]:
    root = ET.fromstring(search_svg(TRACE, step).svg)
    return [el.text or "" for el in root.iter() if el.tag.endswith("text")]


def test_every_node_but_the_root_shows_its_prior() -> None:
    """Six root moves (1/6 each) and, after 12 iterations, six replies (1/5 each)."""
    shown = [t for t in texts(len(TRACE) - 1) if " P ." in t]
    assert len(shown) == 12
    assert sum(t.endswith("P .17") for t in shown) == 6
    assert sum(t.endswith("P .20") for t in shown) == 6


def test_a_selection_step_shows_and_names_puct_scores() -> None:
    step = next(k for k, e in enumerate(TRACE.events) if isinstance(e, Select))
    assert sum(t.startswith("puct ") for t in texts(step)) == 6
    assert describe(TRACE, step).startswith("Select at the start position: PUCT scores for O")


def test_a_guided_leaf_says_the_guide_valued_it() -> None:
    step = next(k for k, e in enumerate(TRACE.events) if isinstance(e, Playout) and e.guided)
    assert describe(TRACE, step) == "The guide values O's move 1,3 at 0 for X: no playout."


def test_a_plain_uct_trace_shows_no_prior() -> None:
    plain = trace_search(GAME, THREAT, "mcts", iterations=12, seed=1)
    root = ET.fromstring(search_svg(plain).svg)
    assert not any(" P ." in (el.text or "") for el in root.iter())
