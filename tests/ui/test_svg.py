"""Boards as SVG: the recorded canvas calls translated into a picture a notebook keeps."""

from __future__ import annotations

import doctest
import xml.etree.ElementTree as ET

import pytest

import gamelib.ui.svg
from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.ui import BoardPicture, RecordingCanvas, board_svg
from gamelib.ui.boards import Palette
from gamelib.ui.canvas import svg_from_calls

SVG = "{http://www.w3.org/2000/svg}"


def parse(picture: BoardPicture) -> ET.Element:
    return ET.fromstring(picture.svg)


def test_every_canvas_call_becomes_an_svg_element() -> None:
    canvas = RecordingCanvas(100, 80)
    canvas.clear()
    canvas.fill_style = "#ff0000"
    canvas.fill_rect(1, 2, 3, 4)
    canvas.global_alpha = 0.5
    canvas.fill_circle(10, 20, 5.5)
    canvas.global_alpha = 1.0
    canvas.stroke_style = "#00ff00"
    canvas.line_width = 3
    canvas.line_cap = "round"
    canvas.set_line_dash([4, 2])
    canvas.stroke_circle(10, 20, 6)
    canvas.set_line_dash([])
    canvas.stroke_rect(0, 0, 100, 80)
    canvas.stroke_line(0, 1, 2, 3)
    canvas.fill_polygon([(0, 0), (5, 0), (0, 5)])
    canvas.font = "bold 12px sans-serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_text("a<b & c", 50, 40, 90)
    assert svg_from_calls(canvas.calls, 100, 80).split("\n") == [
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="80" viewBox="0 0 100 80">',
        '<rect x="1" y="2" width="3" height="4" fill="#ff0000"/>',
        '<circle cx="10" cy="20" r="5.5" fill="#ff0000" opacity="0.5"/>',
        '<circle cx="10" cy="20" r="6" fill="none" stroke="#00ff00" stroke-width="3" '
        'stroke-linecap="round" stroke-linejoin="miter" stroke-dasharray="4 2"/>',
        '<rect x="0" y="0" width="100" height="80" fill="none" stroke="#00ff00" '
        'stroke-width="3" stroke-linecap="round" stroke-linejoin="miter"/>',
        '<line x1="0" y1="1" x2="2" y2="3" fill="none" stroke="#00ff00" stroke-width="3" '
        'stroke-linecap="round" stroke-linejoin="miter"/>',
        '<polygon points="0,0 5,0 0,5" fill="#ff0000"/>',
        '<text x="50" y="40" text-anchor="middle" dominant-baseline="central" '
        'style="font: bold 12px sans-serif" fill="#ff0000">a&lt;b &amp; c</text>',
        "</svg>",
    ]


def test_an_unknown_call_is_refused() -> None:
    with pytest.raises(ValueError, match="'draw_image'"):
        svg_from_calls([("draw_image", 1, 2)], 10, 10)


def test_a_connect_four_picture_shows_the_discs_where_the_canvas_has_them() -> None:
    root = parse(board_svg(ConnectFour(), ConnectFour.from_moves("44"), last_move=3))
    assert (root.get("width"), root.get("height")) == ("440", "510")
    discs = {
        (c.get("cx"), c.get("cy"), c.get("r")): c.get("fill")
        for c in root.iter(SVG + "circle") if c.get("fill") in (Palette.RED, Palette.YELLOW)
    }
    # "X to move", a single line in the middle of the status band, a red token beside it.
    status_token = ("20.7", "475", "9.5")
    assert discs == {
        ("219.5", "362.5", "22.8"): Palette.RED,
        ("219.5", "305.5", "22.8"): Palette.YELLOW,
        status_token: Palette.RED,
    }
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts == ["1", "2", "3", "4", "5", "6", "7", "X to move"]


def test_pictures_of_the_same_state_are_identical() -> None:
    moves = [(0, 0), (1, 1), (2, 2)]
    one = board_svg(TicTacToe(), replay(TicTacToe(), moves), last_move=(2, 2))
    same = board_svg(TicTacToeBitboard(), replay(TicTacToeBitboard(), moves), last_move=(2, 2))
    assert one.svg == same.svg
    assert one.svg != board_svg(TicTacToe(), replay(TicTacToe(), moves[:2])).svg


def test_a_picture_takes_a_status_of_its_own() -> None:
    picture = board_svg(Nim(), status=["Who wins?", "A to move"], status_player=None)
    texts = [t.text for t in parse(picture).iter(SVG + "text")]
    assert texts[-2:] == ["Who wins?", "A to move"]
    assert picture._repr_svg_() == picture.svg
    assert repr(picture) == picture.text == "Nim board: Who wins? A to move."


@pytest.mark.parametrize("status", [5, "one line", ["fine", 2]])
def test_a_status_that_is_not_lines_of_text_is_refused(status: object) -> None:
    with pytest.raises(GameError, match="status must be a list of lines of text"):
        board_svg(Nim(), status=status)  # type: ignore[arg-type]


def test_the_example_in_the_module_docstring_runs() -> None:
    failed, tried = doctest.testmod(gamelib.ui.svg)
    assert failed == 0 and tried > 0
