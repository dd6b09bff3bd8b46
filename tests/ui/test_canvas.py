"""Live canvases: redrawn whenever a browser page (re)connects, sharp, fitted to the window.

A page that reloads (or a second window) makes new, blank views of every canvas and a new
ipycanvas manager that knows no target canvas; each view says "client ready". These tests
send that event as the browser does and check what the kernel sends back.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamelib.games import ConnectFour, TicTacToe
from gamelib.ui import play, show_board
from gamelib.ui.canvas import PIXEL_RATIO, LiveCanvas, RecordingCanvas, fit_width


def sent(canvas: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record the commands the canvas's manager sends to the browser from now on."""
    manager = canvas._canvas_manager
    messages: list[Any] = []
    monkeypatch.setattr(manager, "_send_custom",
                        lambda command, buffers=(): messages.append(command))
    return messages


def names(messages: list[Any]) -> list[int]:
    """The command numbers of the batches sent (a batch is a list of commands)."""
    from ipycanvas.canvas import COMMANDS  # type: ignore[attr-defined]

    inverse = {v: k for k, v in COMMANDS.items()}
    found = []
    for message in messages:
        for command in message if isinstance(message[0], list) else [message]:
            found.append(inverse[command[0]])
    return found


def client_ready(canvas: Any) -> None:
    canvas._handle_frontend_event(None, {"event": "client_ready"}, [])


def test_a_show_board_picture_is_drawn_again_and_named_after_a_reload(monkeypatch) -> None:
    canvas = show_board(ConnectFour(), ConnectFour.from_moves("44"), last_move=3)
    messages = sent(canvas, monkeypatch)
    client_ready(canvas)
    commands = names(messages)
    # The new page's manager learns the target first, then gets the whole board, scaled.
    assert commands[:2] == ["switchCanvas", "setTransform"]
    assert "clear" in commands and commands.count("fillCircle") >= 42


def test_show_board_replays_exactly_its_recorded_picture() -> None:
    drawn: list[RecordingCanvas] = []

    def paint(canvas: Any) -> None:
        recording = RecordingCanvas(100, 50)
        recording.fill_style = "#ff0000"
        recording.fill_rect(1, 2, 3, 4)
        recording.replay(canvas)
        drawn.append(recording)

    live = LiveCanvas(100, 50, paint)
    copy = RecordingCanvas(100, 50)
    drawn[0].replay(copy)
    assert copy.calls == drawn[0].calls
    assert (live.widget.width, live.widget.height) == (100 * PIXEL_RATIO, 50 * PIXEL_RATIO)


def test_a_play_board_is_redrawn_and_named_after_a_reload(monkeypatch) -> None:
    c = play(TicTacToe(), seed=1, background=False, display=False)
    c.submit("2,2")
    messages = sent(c.canvas, monkeypatch)
    client_ready(c.canvas)
    commands = names(messages)
    assert commands[:2] == ["switchCanvas", "setTransform"] and "strokeLine" in commands


def test_a_board_that_cannot_be_drawn_says_what_to_do(monkeypatch) -> None:
    calls = {"n": 0}

    def paint(canvas: Any) -> None:
        calls["n"] += 1
        if calls["n"] > 1:
            raise RuntimeError("broken render")
        canvas.fill_rect(0, 0, 10, 10)

    live = LiveCanvas(300, 200, paint)
    texts: list[str] = []
    monkeypatch.setattr(live.widget, "fill_text", lambda text, *args: texts.append(text))
    client_ready(live.widget)  # must not raise at the page
    assert calls["n"] == 2
    assert texts[0] == "This board could not be drawn" and "Run its cell again" in texts[-1]


def test_clicks_arrive_in_picture_pixels_whatever_the_ratio() -> None:
    live = LiveCanvas(300, 200, lambda canvas: None)
    clicks: list[tuple[float, float]] = []
    live.on_click(lambda x, y: clicks.append((x, y)))
    live.widget._handle_frontend_event(None, {"event": "mouse_down", "x": 100, "y": 60}, [])
    two = {"event": "touch_start", "touches": [{"x": 4, "y": 4}, {"x": 8, "y": 8}]}
    live.widget._handle_frontend_event(None, two, [])  # two fingers: no click
    one = {"event": "touch_start", "touches": [{"x": 40, "y": 20}]}
    live.widget._handle_frontend_event(None, one, [])
    assert clicks == [(100 / PIXEL_RATIO, 60 / PIXEL_RATIO), (40 / PIXEL_RATIO, 20 / PIXEL_RATIO)]


def test_a_live_canvas_is_fitted_to_the_window_and_keeps_a_plain_text_form() -> None:
    live = LiveCanvas(440, 510, lambda canvas: None)
    assert live.widget.layout.width == fit_width(440, 510)
    assert live.widget.layout.height == "auto" and live.widget.layout.max_width == "100%"
    text = live.widget._repr_mimebundle_()
    forms = text[0] if isinstance(text, tuple) else text
    assert forms["text/plain"] == "Canvas(height=510, width=440)"


def test_fit_width_keeps_the_proportions_and_leaves_room_for_the_controls() -> None:
    assert fit_width(440, 510, 84) == "max(160px, min(440px, calc((100vh - 234px) * 0.8627)))"
    assert fit_width(300, 300) == "max(160px, min(300px, calc((100vh - 150px) * 1.0000)))"


def test_a_blank_canvas_carries_the_words_that_say_what_to_do() -> None:
    import urllib.parse

    from gamelib.ui.canvas import BLANK_CANVAS_CSS
    from gamelib.ui.play_widgets import STYLE

    live = LiveCanvas(100, 50, lambda canvas: None)
    assert "gamelib-canvas" in live.widget._dom_classes
    assert BLANK_CANVAS_CSS.startswith(".gamelib-canvas {") and BLANK_CANVAS_CSS in STYLE
    words = urllib.parse.unquote(BLANK_CANVAS_CSS)
    assert "Nothing drawn here yet." in words and "Run this cell again" in words
    # Every board first paints an opaque background over the whole canvas, hiding them.
    from gamelib.ui import board_for

    recording = RecordingCanvas(440, 510)
    board_for(TicTacToe()).draw(recording, TicTacToe().start)
    style, first_fill = recording.styled("fill_rect")[0]
    assert first_fill == ("fill_rect", 0, 0, 440, 510)
    assert style["fill_style"] == "#fbf8f1" and style["global_alpha"] == 1.0


def test_a_board_and_a_viewer_say_so_when_their_kernel_stops() -> None:
    from gamelib.game import replay
    from gamelib.games import TicTacToe
    from gamelib.search.trace import trace_search
    from gamelib.style import load_style
    from gamelib.ui import play, show_search
    from gamelib.ui.canvas import STOPPED_KERNEL_CSS, STOPPED_WORDS, WIDGET_CSS

    assert STOPPED_WORDS == ("The kernel has stopped. Run this cell again; if it needs the "
                             "cells above, choose Run > Run All Cells.")
    # After a restart (ipywidgets marks the views) and after a reload ("model not found").
    assert ".gamelib-live.jupyter-widgets-disconnected::before" in STOPPED_KERNEL_CSS
    assert ".jp-OutputArea-output.jupyter-widgets:not(:has(.jupyter-widgets))" in (
        STOPPED_KERNEL_CSS)
    assert STOPPED_KERNEL_CSS in WIDGET_CSS and WIDGET_CSS in load_style().data
    game = TicTacToe()
    c = play(game, background=False, display=False)
    viewer = show_search(trace_search(game, replay(game, [(0, 0), (1, 1), (0, 1), (0, 2)]),
                                      "alphabeta"), display=False)
    def texts(widget: object) -> list[str]:  # the values of every HTML widget inside
        own = [widget.value] if isinstance(getattr(widget, "value", None), str) else []
        return own + [t for kid in getattr(widget, "children", ()) for t in texts(kid)]

    for widget in (c.widget, viewer.widget):
        assert "gamelib-live" in widget._dom_classes
        assert any(WIDGET_CSS in text for text in texts(widget) if text.startswith("<style>"))
    c.close()
