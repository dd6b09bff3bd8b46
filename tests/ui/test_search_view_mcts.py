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
from gamelib.session import format_value
from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.search_snapshot import snapshot
from gamelib.ui.search_svg import search_svg
from gamelib.ui.search_view import SHRINK, SearchView
from gamelib.ui.tree_layout import LEGEND_HEIGHT, focus, label_rects, layout_tree, overlaps

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


# -- the four phases drawn ---------------------------------------------------------------------


def drawn_at(step: int) -> RecordingCanvas:
    canvas = RecordingCanvas()
    view = SearchView(TRACE, canvas)
    canvas.reset()
    view.goto(step)
    return canvas


def test_a_playout_is_drawn_as_one_dot_per_move_and_its_result() -> None:
    """The Playout step draws under its node a dot per move with the mover and the move,
    and the result in words; the steps before and after it draw none of that."""
    step, playout = next((k, e) for k, e in enumerate(TRACE.events)
                         if isinstance(e, Playout) and len(e.moves) >= 2)
    canvas = drawn_at(step)
    dots = [c for c in canvas.find("fill_circle") if c[3] == 5]
    spot = layout_tree(TRACE).spots[playout.node]
    assert len(dots) == len(playout.moves) and all(c[1] == spot.x for c in dots)
    assert [c[2] for c in dots] == sorted(c[2] for c in dots) and dots[0][2] > spot.box.bottom
    state, movers = TRACE.nodes[playout.node].state, []
    for move in playout.moves:
        movers.append(f"{GAME.to_move(state)} {GAME.format_move(move)}")
        state = GAME.play(state, move)
    texts = canvas.texts()
    assert all(m in texts for m in movers)
    player = TRACE.nodes[playout.node].player
    result = {1: f"{player} wins", 0: "draw", -1: f"{player} loses"}[playout.result]
    assert result in texts
    for other in (step - 1, step + 1):
        elsewhere = drawn_at(other)
        assert not [c for c in elsewhere.find("fill_circle") if c[3] == 5]
        assert result not in elsewhere.texts()


def test_backpropagate_marks_every_node_of_the_path_with_what_it_got() -> None:
    step, backup = next((k, e) for k, e in enumerate(TRACE.events)
                        if isinstance(e, Backup) and len(e.path) >= 3)
    texts = drawn_at(step).texts()
    got = [t for t in texts if t.startswith("got ")]
    assert got == [f"got {format_value(a)}" for a in backup.added]
    assert not any(t.startswith("got ") for t in drawn_at(step + 1).texts())


def test_the_focus_holds_what_a_step_talks_about() -> None:
    layout = layout_tree(TRACE)
    for k, event in enumerate(TRACE.events):
        area = focus(TRACE, layout, k)
        keys = [event.node]
        if isinstance(event, Select):
            keys += list(event.scores)
        if isinstance(event, Backup):
            keys += list(event.path[:3])
        for key in keys:
            box = layout.spots[key].box
            assert area.x <= box.x and box.right <= area.right
            assert area.y <= box.y and box.bottom <= area.bottom
        if isinstance(event, Playout):
            assert area.bottom >= layout.spots[event.node].box.bottom + len(event.moves) * 22


def test_lesson_9s_tree_keeps_every_focus_within_an_output_beside_the_file_browser() -> None:
    """Lesson 9's viewer: at the viewer's floor (SHRINK), every step's focus is at most 850
    CSS px wide (JupyterLab's output area beside the file browser at 1280 x 800: 848 px)
    and 380 px high (the tree's box on an 800 px screen); every playout fits the picture."""
    game = TicTacToe()
    small = replay(game, [(1, 2), (0, 2), (2, 0), (1, 0), (2, 2)])
    trace = trace_search(game, small, "mcts", iterations=40, seed=1)
    layout = layout_tree(trace)
    areas = [focus(trace, layout, k) for k in range(len(trace))]
    assert max(a.width for a in areas) * SHRINK <= 850
    assert max(a.height for a in areas) * SHRINK <= 380
    assert max(a.bottom for a in areas) <= layout.height - LEGEND_HEIGHT * len(layout.legend)
