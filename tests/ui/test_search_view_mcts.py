"""The MCTS trace in the viewer: it replays to the plain search's result, shows visits,
means and UCT scores, and steps like any other trace."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gamelib.game import GameError, replay
from gamelib.games import TicTacToe
from gamelib.search import mcts
from gamelib.search.trace import (
    MAX_EVENTS,
    Backup,
    Expand,
    Playout,
    Select,
    trace_search,
)
from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.search_svg import search_svg, snapshot
from gamelib.ui.search_view import SearchView
from gamelib.ui.tree_layout import label_rects, layout_tree, overlaps

GAME = TicTacToe()
# O to move, four empty squares; X threatens 2,1 and 1,3: O loses whatever it does.
FOUR = replay(GAME, [(0, 0), (1, 1), (0, 1), (2, 2), (2, 0)])
TRACE = trace_search(GAME, FOUR, "mcts", iterations=12, seed=1)


def test_the_trace_replays_to_the_result_of_the_plain_search() -> None:
    plain = mcts(GAME, FOUR, iterations=12, seed=1)
    end = snapshot(TRACE)
    root_children = [n for n in TRACE.nodes if n.parent == 0]
    assert {n.move: end.nodes[n.id].visits for n in root_children} == plain.visits
    assert {n.move: -end.nodes[n.id].total / end.nodes[n.id].visits
            for n in root_children} == pytest.approx(plain.values)
    assert (TRACE.value, TRACE.calls, len(TRACE.nodes)) == (plain.value, plain.stats.calls, 12)
    assert end.nodes[0].visits == 12
    assert sum(isinstance(e, Backup) for e in TRACE.events) == 12
    assert sum(isinstance(e, Expand) for e in TRACE.events) == 11     # 1 ended at a finished game
    assert sum(isinstance(e, Playout) for e in TRACE.events) == 12


def test_each_iteration_is_select_expand_playout_backup() -> None:
    kinds = "".join(type(e).__name__[0] for e in TRACE.events)
    assert kinds.startswith("EPB" * 4 + "SEPB")     # the root's four moves first, then UCT
    first = TRACE.events[12]
    assert isinstance(first, Select) and first.node == 0 and len(first.scores) == 4
    assert first.child == max(first.scores, key=first.scores.__getitem__)


def test_the_candidates_show_their_uct_score_at_a_selection_step() -> None:
    step = 12
    shot = snapshot(TRACE, step)
    select = TRACE.events[step]
    assert isinstance(select, Select)
    assert {k: shot.nodes[k].uct for k in select.scores} == select.scores
    assert "UCT scores for O" in shot.message and shot.current == 0
    canvas = RecordingCanvas()
    view = SearchView(TRACE, canvas)
    canvas.reset()
    view.goto(step)
    texts = canvas.texts()
    assert "n 4" in texts and sum(t.startswith("uct ") for t in texts) == 4
    canvas.reset()
    view.step()
    assert not any(t.startswith("uct ") for t in canvas.texts())


def test_visit_counts_grow_on_the_canvas_as_the_viewer_steps() -> None:
    canvas = RecordingCanvas()
    view = SearchView(TRACE, canvas)
    counts = []
    while True:
        canvas.reset()
        view.redraw()
        counts.append(next(t for t in canvas.texts() if t.startswith("n ")))
        if not view.step():
            break
    assert counts[0] == "n 0" and counts[2] == "n 1" and counts[-1] == "n 12"


def test_the_svg_shows_the_same_picture_without_overlaps() -> None:
    step = len(TRACE) // 2
    root = ET.fromstring(search_svg(TRACE, step).svg)
    texts = [el.text for el in root.iter() if el.tag.endswith("text")]
    canvas = RecordingCanvas()
    view = SearchView(TRACE, canvas)
    canvas.reset()
    view.goto(step)
    assert texts == canvas.texts()
    assert overlaps(label_rects(layout_tree(TRACE))) == []


def test_bad_requests_are_refused() -> None:
    with pytest.raises(GameError, match="needs the option iterations"):
        trace_search(GAME, FOUR, "mcts")
    with pytest.raises(GameError, match="takes no option depth"):
        trace_search(GAME, FOUR, "mcts", iterations=5, depth=3)
    with pytest.raises(GameError, match="iterations must be a whole number"):
        trace_search(GAME, FOUR, "mcts", iterations=0)
    with pytest.raises(GameError, match=f"passed {MAX_EVENTS:,} events"):
        trace_search(GAME, GAME.start, "mcts", iterations=3000)
