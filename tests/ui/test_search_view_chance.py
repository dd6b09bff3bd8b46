"""Expectiminimax in the search viewer: chance nodes drawn as circles, every outcome
labelled with its probability, the expectation summed up in the status line."""

from __future__ import annotations

from fractions import Fraction

from gamelib.game import CHANCE
from gamelib.games import RandomTurnTicTacToe
from gamelib.search.trace import Return, trace_search
from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.search_snapshot import snapshot
from gamelib.ui.search_svg import search_svg
from gamelib.ui.search_view import SearchView
from gamelib.ui.search_words import exact
from gamelib.ui.tree_layout import BOX, label_rects, layout_tree, overlaps

GAME = RandomTurnTicTacToe()
# The position of tests/search/test_trace_chance.py (worth +1/2 for X): chance nodes 0, 2,
# 9 and 14; node 18 is answered by the memo.
SMALL = GAME.from_text("X|O|X\n-+-+-\nO|O|X\n-+-+-\n |X| \ncoin: in the air")
TRACE = trace_search(GAME, SMALL, "expectiminimax")
CHANCE_NODES = [0, 2, 9, 14]


def step_of(node: int) -> int:
    """The step at which ``node`` returns."""
    return next(k for k, e in enumerate(TRACE.events) if isinstance(e, Return) and e.node == node)


def test_the_expectation_is_summed_outcome_by_outcome_in_words() -> None:
    assert [n.id for n in TRACE.nodes if n.player == CHANCE] == CHANCE_NODES
    assert snapshot(TRACE, 0).message == (
        "The start position leads to a chance node: nobody moves, chance does; its value is "
        "the expectation over its 2 outcomes.")
    assert snapshot(TRACE, step_of(3)).message == (
        "Outcome X is worth +1 for X. Chance node: 1/2 × (+1) = +1/2 so far.")
    assert snapshot(TRACE, step_of(5)).message == (
        "Outcome O is worth 0 for X. Chance node: 1/2 × (+1) + 1/2 × (0) = +1/2 so far.")
    assert snapshot(TRACE, step_of(2)).message == (
        "X's move 3,1, a chance node, is worth 1/2 × (+1) + 1/2 × (0) = +1/2 for X; back to "
        "outcome X.")
    assert snapshot(TRACE, step_of(8) - 1).message == (
        "O's move 3,3, a chance node, is worth 1/2 × (0) + 1/2 × (0) = 0 for X; back to "
        "outcome O.")
    assert snapshot(TRACE).message == (
        "The start position, a chance node, is worth 1/2 × (+1) + 1/2 × (0) = +1/2 for X; "
        "the search is done.")
    assert snapshot(TRACE, step_of(18) - 1).message == (
        "O's move 3,1: solved before, so the memo gives 0 for X at once.")
    assert snapshot(TRACE, 1).message == "Outcome X: search it, X to move (largest value for X)."


def test_chance_nodes_are_circles_and_players_nodes_squares() -> None:
    view = SearchView(TRACE, RecordingCanvas())
    view.to_end()
    canvas = view.canvas
    assert isinstance(canvas, RecordingCanvas)
    spots = view.layout.spots
    circles = {(round(c[1]), round(c[2]), c[3]) for c in canvas.find("stroke_circle")
               if c[3] == BOX / 2}
    assert circles == {(round(spots[k].x), round(spots[k].box.center[1]), BOX / 2)
                       for k in CHANCE_NODES}
    squares = {(round(c[1]), round(c[2])) for c in canvas.find("stroke_rect")
               if c[3] == c[4] == BOX}
    players = [n.id for n in TRACE.nodes if n.player != CHANCE]
    assert squares == {(round(spots[k].box.x), round(spots[k].box.y)) for k in players}


def test_every_outcome_is_labelled_with_its_probability_then_its_value() -> None:
    returned = {e.node: e.value for e in TRACE.events if isinstance(e, Return)}
    outcomes = [n for n in TRACE.nodes if n.probability is not None]
    assert len(outcomes) == 8 and all(n.probability == Fraction(1, 2) for n in outcomes)
    end = RecordingCanvas(1, 1)  # type: ignore[abstract]
    view = SearchView(TRACE, end)
    view.to_end()
    texts = end.texts()
    for node in outcomes:
        assert f"1/2 × {exact(returned[node.id])}" in texts
    assert texts.count("X moves") == texts.count("O moves") == 4
    view.goto(1)   # nothing valued yet: the root's two outcomes show their probability only
    end.reset()
    view.redraw()
    assert end.texts().count("1/2") == 1   # only outcome X is entered so far
    assert "memo 0" in search_svg(TRACE).svg


def test_the_key_explains_the_circle_and_the_layout_has_no_overlaps() -> None:
    layout = layout_tree(TRACE)
    key = " ".join(layout.legend)
    assert key.startswith("Key: values for X · circle: a chance node")
    assert "1/2 × v above an outcome" in key
    assert overlaps(label_rects(layout)) == []


def test_exact_values_are_written_as_fractions() -> None:
    assert [exact(v) for v in (Fraction(5, 8), Fraction(-1, 4), 1, -1, 0)] == [
        "+5/8", "-1/4", "+1", "-1", "0"]
