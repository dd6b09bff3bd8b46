"""The search viewer: layout without overlaps, the tree at chosen steps, SVG, the controller.

The traces come from ``gamelib.search.trace.trace_search``, which records gamelib's own
searches: minimax, alpha-beta (plain and centre first), the bounded cache (alone, and
reading a cache filled by an earlier search), a depth limit with heuristic leaves, and a
Connect Four search.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, TicTacToe
from gamelib.search import center_first, tictactoe_open_lines
from gamelib.search.trace import CacheRead, CacheStore, Cutoff, Leaf, SearchTrace, trace_search
from gamelib.session.players import heuristic_for
from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.drawing import Palette
from gamelib.ui.search_snapshot import snapshot
from gamelib.ui.search_svg import READABLE, search_svg
from gamelib.ui.search_view import SHRINK, SearchView, show_search
from gamelib.ui.tree_layout import label_rects, layout_tree, legend, overlaps

GAME = TicTacToe()
# X to move, three empty squares: 1,3  2,1  3,3.
THREE = replay(GAME, [(0, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 0)])
# O to move, four empty squares (the browser fixture's position).
FOUR = replay(GAME, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0)])
# X to move; O threatens the diagonal 1,3 2,2 3,1 (Lesson 5's position).
THREAT = replay(GAME, [(0, 0), (0, 2), (0, 1), (1, 1)])


def traces() -> dict[str, SearchTrace]:
    """Several traces: every algorithm, three and four empty squares, a cache filled by an
    earlier search, one Connect Four."""
    c4 = ConnectFour.from_moves("44332")
    first = trace_search(GAME, THREAT, "bounded")
    return {
        "minimax-3": trace_search(GAME, THREE, "minimax"),
        "minimax-4": trace_search(GAME, FOUR, "minimax"),
        "alphabeta-4": trace_search(GAME, FOUR, "alphabeta"),
        "alphabeta-4-centre": trace_search(GAME, FOUR, "alphabeta", order=center_first),
        "bounded-4": trace_search(GAME, FOUR, "bounded"),
        "bounded-5": first,
        "bounded-reuse": trace_search(GAME, GAME.play(THREAT, (2, 1)), "bounded",
                                      cache=first.cache),
        "depth-2": trace_search(GAME, FOUR, "depth_limited", depth=2,
                                heuristic=tictactoe_open_lines),
        "c4-depth-2": trace_search(ConnectFour(), c4, "depth_limited", depth=2,
                                   heuristic=heuristic_for(ConnectFour())),
    }


TRACES = traces()


def first(trace: SearchTrace, kind: type) -> int:
    """The index of the first event of ``kind``."""
    return next(i for i, e in enumerate(trace.events) if isinstance(e, kind))


# -- layout --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(TRACES))
def test_layout_places_every_node_without_overlaps(name: str) -> None:
    trace = TRACES[name]
    layout = layout_tree(trace)
    assert set(k for k in layout.spots if isinstance(k, int)) == set(range(len(trace.nodes)))
    assert overlaps(label_rects(layout)) == []
    for spot in layout.spots.values():
        assert spot.left >= 0 and spot.left + spot.slot <= layout.width
        assert spot.box.bottom < layout.height
    # A parent sits above its children, and between the first and the last.
    for key, kids in layout.children.items():
        if kids:
            xs = [layout.spots[k].x for k in kids]
            assert min(xs) <= layout.spots[key].x <= max(xs)


def test_overlaps_finds_a_collision() -> None:
    layout = layout_tree(TRACES["minimax-3"])
    rects = label_rects(layout)
    key, what, rect = rects[0]
    assert overlaps([*rects, ("intruder", "box", rect)]) != []  # type: ignore[list-item]


def test_sixty_nodes_fit_a_projector_without_scrolling() -> None:
    trace = TRACES["minimax-4"]
    assert 40 <= len(trace.nodes) <= 70
    layout = layout_tree(trace)
    # Shrunk to the viewer's floor (where its smallest words are still 14 px high).
    assert layout.width * SHRINK <= 1100 and layout.height * SHRINK <= 660


# -- snapshots and words ------------------------------------------------------------------


def test_snapshot_follows_the_events() -> None:
    trace = TRACES["alphabeta-4"]
    cut = first(trace, Cutoff)
    before, at = snapshot(trace, cut - 1), snapshot(trace, cut)
    event = trace.events[cut]
    assert isinstance(event, Cutoff)
    assert before.pruned == frozenset()
    assert at.pruned == ({(event.node, 0)} if event.pruned else set())
    assert at.current == event.node and at.nodes[event.node].open
    assert "cutoff" in at.message and "β" in at.message
    end = snapshot(trace)
    assert end.nodes[0].value == trace.value and not end.nodes[0].open
    assert "the search is done" in end.message


def test_words_use_the_games_notation() -> None:
    trace = TRACES["minimax-3"]
    messages = [snapshot(trace, i).message for i in range(len(trace.events))]
    assert any("X's move 1,3" in m for m in messages)
    assert any("O's reply" in m for m in messages)
    assert all("(" not in m.split(":")[0] for m in messages)  # no raw tuples like (0, 2)


def test_bad_step_is_refused_with_the_range() -> None:
    trace = TRACES["minimax-3"]
    with pytest.raises(GameError, match=f"from 0 to {len(trace) - 1}"):
        snapshot(trace, len(trace))
    with pytest.raises(GameError, match="SearchTrace"):
        search_svg("not a trace")  # type: ignore[arg-type]


# -- drawing -------------------------------------------------------------------------------


def draw_at(trace: SearchTrace, step: int) -> RecordingCanvas:
    canvas = RecordingCanvas()
    view = SearchView(trace, canvas)
    canvas.reset()
    assert view.goto(step)
    return canvas


def highlight_rects(canvas: RecordingCanvas) -> list[tuple[float, ...]]:
    return [tuple(call[1:]) for style, call in canvas.styled("fill_rect")
            if style.get("fill_style") == Palette.HIGHLIGHT and call[3] > 44]


def test_the_current_node_is_highlighted() -> None:
    trace = TRACES["minimax-3"]
    layout = layout_tree(trace)
    for step in (0, 3, len(trace) - 1):
        canvas = draw_at(trace, step)
        (rect,) = highlight_rects(canvas)
        box = layout.spots[trace.events[step].node].box
        assert rect[0] < box.x and rect[0] + rect[2] > box.right  # around the current box


def test_pruned_moves_are_greyed_after_the_cutoff() -> None:
    trace = TRACES["alphabeta-4"]
    cut = next(i for i, e in enumerate(trace.events) if isinstance(e, Cutoff) and e.pruned)
    event = trace.events[cut]
    assert isinstance(event, Cutoff)
    from gamelib.ui.search_svg import _Words

    skipped = [_Words(trace).move(m) for m in event.pruned]
    before = draw_at(trace, cut - 1)
    after = draw_at(trace, cut)
    # Their words are grey, readable (opaque, a grey of contrast 4.5:1 or more), in a pale box.
    framing = {*layout_tree(trace).legend, f"step {cut} of {len(trace.events) - 1}",
               f"step {cut - 1} of {len(trace.events) - 1}"}

    def grey_words(drawing: RecordingCanvas) -> list[str]:
        return [call[1] for style, call in drawing.styled("fill_text")
                if style.get("fill_style") == READABLE[Palette.MUTED]
                and style.get("global_alpha") == 1.0 and call[1] not in framing]

    grey = grey_words(after)
    assert 0 < len(skipped) <= 4 and f"{len(skipped)} pruned" in grey
    listed = " ".join(t for t in grey if not t.endswith(" pruned")).split()
    assert sorted(listed) == sorted(skipped)  # one greyed box lists the skipped moves
    assert not grey_words(before)
    assert 0.6 in [c[2] for c in after.find("set") if c[1] == "global_alpha"]  # the pale box
    dashed = [c for c in after.find("set_line_dash") if c[1]]
    assert dashed


def test_a_bounded_search_shows_its_cache_flags() -> None:
    trace = TRACES["bounded-4"]
    store = first(trace, CacheStore)
    event = trace.events[store]
    assert isinstance(event, CacheStore)
    texts = draw_at(trace, store).texts()
    from gamelib.ui.boards import format_value

    assert f"cache {event.flag}{format_value(event.value)}" in texts
    assert any(t.startswith("cache ") for t in draw_at(trace, store - 1).texts()) is (
        any(isinstance(e, CacheStore) for e in trace.events[:store]))
    flags = {e.flag for e in trace.events if isinstance(e, CacheStore)}
    assert flags - {"="}, "the bounded trace stores bounds, not only exact values"


def test_a_cache_hit_is_shown_with_its_flag() -> None:
    trace = TRACES["bounded-reuse"]
    hit = next(i for i, e in enumerate(trace.events) if isinstance(e, CacheRead) and e.used)
    event = trace.events[hit]
    assert isinstance(event, CacheRead) and event.entry is not None
    from gamelib.ui.boards import format_value

    flag, v = event.entry
    assert f"hit {flag}{format_value(v)}" in draw_at(trace, hit).texts()
    assert f"case {event.case}" in snapshot(trace, hit).message


def test_depth_limited_leaves_show_their_estimate() -> None:
    trace = TRACES["depth-2"]
    leaf = next(i for i, e in enumerate(trace.events) if isinstance(e, Leaf) and e.heuristic)
    canvas = draw_at(trace, leaf)
    assert any(t.startswith("h ") for t in canvas.texts())
    assert "heuristic" in snapshot(trace, leaf).message


def test_windows_are_shown_for_open_nodes_only() -> None:
    trace = TRACES["alphabeta-4"]
    canvas = draw_at(trace, 2)
    windows = [t for t in canvas.texts() if t.startswith("[")]
    assert windows and len(windows) == sum(s.open for s in snapshot(trace, 2).nodes.values())
    assert not [t for t in draw_at(trace, len(trace) - 1).texts() if t.startswith("[")]
    assert not [t for t in draw_at(TRACES["minimax-3"], 2).texts() if t.startswith("[")]


@pytest.mark.parametrize("name", ["minimax-3", "alphabeta-4", "bounded-4", "c4-depth-2"])
def test_svg_is_well_formed_and_shows_the_same_picture(name: str) -> None:
    trace = TRACES[name]
    step = len(trace) // 2
    svg = search_svg(trace, step).svg
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    texts = [el.text for el in root.iter() if el.tag.endswith("text")]
    assert texts == draw_at(trace, step).texts()
    assert snapshot(trace, step).message.split()[0] in " ".join(t or "" for t in texts)


# -- the controller ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow)
                                  if name == "bounded-5" else name for name in TRACES])
def test_the_viewer_steps_through_every_event_and_back(name: str) -> None:
    trace = TRACES[name]
    view = SearchView(trace, RecordingCanvas())
    seen = [view.position]
    while view.step():
        seen.append(view.position)
        assert view.event is trace.events[view.position]
        assert view.message
    assert seen == list(range(len(trace)))
    assert not view.step() and view.position == len(view) - 1
    assert "end of the search" in view.message
    while view.back():
        pass
    assert view.position == 0 and not view.back()


@pytest.mark.parametrize("bad", [-10_000, -1, 10_000, 1.5, "3", None, True, 10**400])
def test_bad_goto_says_why_and_stays(bad: object) -> None:
    view = SearchView(TRACES["minimax-3"], RecordingCanvas())
    view.goto(3)
    assert view.goto(bad) is False
    assert view.position == 3
    assert f"from 0 to {len(view) - 1}" in view.message and len(view.message) < 200
    assert view.goto(len(view) - 1) and view.position == len(view) - 1


def test_show_search_builds_widgets_with_a_play_timer_in_the_browser() -> None:
    pytest.importorskip("ipycanvas")
    import ipywidgets as w

    view = show_search(TRACES["alphabeta-4"], display=False)
    assert isinstance(view.widget, w.VBox)
    kinds = {type(x).__name__ for x in _descendants(view.widget)}
    assert {"Play", "IntSlider", "Canvas", "Button"} <= kinds
    view.step()
    slider = next(x for x in _descendants(view.widget) if isinstance(x, w.IntSlider))
    assert slider.value == 1
    slider.value = 5
    assert view.position == 5
    assert view.canvas.width == 2 * view.layout.width  # drawn at twice the size: crisp


def _descendants(widget: Any) -> list[Any]:
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_descendants(child))
    return out


def test_show_search_refuses_what_is_not_a_trace() -> None:
    with pytest.raises(GameError, match="SearchTrace"):
        show_search({"events": []}, display=False)  # type: ignore[arg-type]


def test_a_reconnecting_page_gets_the_picture_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a page reload ipycanvas's new client is blank and says "client_ready": the
    viewer redraws the current step, at the device pixel ratio."""
    pytest.importorskip("ipycanvas")
    import gamelib.ui.search_view as search_view

    view = show_search(TRACES["alphabeta-4"], display=False)
    view.goto(7)
    drawn: list[int] = []
    monkeypatch.setattr(search_view, "draw_search",
                        lambda canvas, trace, layout, shot: drawn.append(shot.step))
    view.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])  # type: ignore[attr-defined]
    assert drawn == [7]


def test_the_viewer_needs_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where threads cannot start (Pyodide, JupyterLite) the viewer works all the same:
    playing is an ipywidgets Play ticking the slider in the browser."""
    pytest.importorskip("ipycanvas")
    import threading

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    view = show_search(TRACES["bounded-reuse"], display=False)
    while view.step():
        pass
    assert view.position == len(view) - 1
    play = next(x for x in _descendants(view.widget) if type(x).__name__ == "Play")
    assert play.max == len(view) - 1


def test_the_viewers_attributes_are_read_only() -> None:
    view = SearchView(TRACES["minimax-3"], RecordingCanvas())
    assert view.step() and view.position == 1
    for name in ("trace", "position", "event", "snapshot", "layout", "canvas", "widget"):
        before = getattr(view, name)
        with pytest.raises(AttributeError, match=f"'{name}' of 'SearchView' object has no setter"):
            setattr(view, name, None)
        assert getattr(view, name) is before
    assert view.event is view.trace.events[1] and view.widget is None
    assert SearchView.position.__doc__ == "The index of the event shown, 0 to ``len(self) - 1``."


# -- readable on a projector (1280 x 800) ----------------------------------------------------


def contrast(one: str, two: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted([luminance(one), luminance(two)], reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("name", sorted(TRACES))
def test_every_word_of_the_tree_is_readable_on_a_projector(name: str) -> None:
    import re

    from PIL import ImageFont

    from gamelib.ui.tree_layout import BOX, LEGEND_PX, MARGIN, TEXT_WIDTH

    trace = TRACES[name]
    layout = layout_tree(trace)
    for step in sorted({0, len(trace.events) // 2, len(trace.events) - 1}):
        drawing = draw_at(trace, step)
        texts = drawing.styled("fill_text")
        assert texts
        for style, call in texts:
            px = float(re.search(r"(\d+)px", style["font"]).group(1))  # type: ignore[union-attr]
            # At the viewer's floor, shrunk with a wide tree, still 14 CSS px or more.
            assert px * SHRINK >= 14, (call[1], px)
            assert style["global_alpha"] == 1.0, call[1]
            for ground in (Palette.BACKGROUND, Palette.STATUS_BAND):
                assert contrast(style["fill_style"], ground) >= 4.5, (call[1], style["fill_style"])
    # The key wraps to the picture's width (measured with a real font, regular 16 px).
    font = ImageFont.truetype("DejaVuSans.ttf", LEGEND_PX)
    assert 1 <= len(layout.legend) <= 3
    # ... and to the part of it that shows without scrolling.
    visible = min(layout.width, TEXT_WIDTH)
    assert all(font.getlength(line) <= visible - MARGIN for line in layout.legend)
    # The whole key: its lines join to the trace's key (tree_layout.legend).
    assert " ".join(layout.legend) == legend(trace)
    assert BOX * SHRINK >= 48  # the boards inside the nodes


# -- forged traces: refused at the door, not a KeyError in the drawing ----------------------


def _forged(trace: Any, **changes: Any) -> Any:
    import dataclasses

    return dataclasses.replace(trace, **changes)


@pytest.mark.parametrize("how", ["node out of range", "child out of range", "not an event",
                                 "value not a number", "node id shifted", "parent later"])
def test_a_forged_trace_is_refused_by_the_viewer_and_the_picture(how: str) -> None:
    import dataclasses

    from gamelib.game import GameError
    from gamelib.ui.search_svg import search_svg

    trace = TRACES["alphabeta-4"]
    events, nodes = list(trace.events), list(trace.nodes)
    cut = next(k for k, e in enumerate(events) if hasattr(e, "child"))
    if how == "node out of range":
        events[1] = dataclasses.replace(events[1], node=10**9)
    elif how == "child out of range":
        events[cut] = dataclasses.replace(events[cut], child=-1)
    elif how == "not an event":
        events[2] = ("enter", 0)  # type: ignore[call-overload]
    elif how == "value not a number":
        k = next(k for k, e in enumerate(events) if hasattr(e, "value"))
        events[k] = dataclasses.replace(events[k], value="1")
    elif how == "node id shifted":
        nodes[1] = dataclasses.replace(nodes[1], id=2)
    else:
        nodes[1] = dataclasses.replace(nodes[1], parent=5)
    forged = _forged(trace, events=tuple(events), nodes=tuple(nodes))
    with pytest.raises(GameError, match="this trace does not fit together"):
        search_svg(forged)
    with pytest.raises(GameError, match="this trace does not fit together"):
        SearchView(forged, RecordingCanvas())


def test_the_status_line_and_the_key_stay_outside_the_scrolling_box() -> None:
    """A wide tree scrolls sideways in its box; the status line above it and the key below it
    are HTML outside that box, and the tree's box clips the canvas's own band and key."""
    pytest.importorskip("ipycanvas")
    import html

    from gamelib.ui.tree_layout import LEGEND_HEIGHT, STATUS_HEIGHT

    view = show_search(TRACES["alphabeta-4"], display=False)

    def marked(name: str) -> Any:
        return next(x for x in _descendants(view.widget) if name in x._dom_classes)

    status, key, box = marked("gamelib-tree-status"), marked("gamelib-tree-key"), marked(
        "gamelib-tree-box")
    assert status not in _descendants(box) and key not in _descendants(box)
    parts = view.widget.children
    assert parts.index(status) < parts.index(box) < parts.index(key)
    assert html.escape(" ".join(view.layout.legend)) in key.value
    for step in (0, 7):
        view.goto(step)
        assert html.escape(view.message) in status.value
        assert f"step {step} of {len(view) - 1}" in status.value
    width = view.layout.width
    top, _, bottom, _ = view.canvas.layout.margin.split()  # type: ignore[attr-defined]
    assert float(top.rstrip("%")) == pytest.approx(-100 * STATUS_HEIGHT / width, abs=1e-3)
    assert float(bottom.rstrip("%")) == pytest.approx(
        -100 * LEGEND_HEIGHT * len(view.layout.legend) / width, abs=1e-3)
    assert "overflow: clip" in marked("gamelib-live").children[0].value  # the viewer's CSS
    view.close()
