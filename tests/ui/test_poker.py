"""The poker table: buttons follow the hand, a picture says it is one, clicks are checked."""

from __future__ import annotations

from gamelib.ui.canvas import RecordingCanvas
from gamelib.ui.poker import HEIGHT, PICTURE_WORDS, WIDTH, draw_table, poker_table


def test_the_buttons_follow_the_hand() -> None:
    table = poker_table(seed=3, display=False)
    assert [b.description for b in table.buttons] == ["Check", "Bet"]
    table.press("check")
    if not table.session.finished:
        assert [b.description for b in table.buttons] == ["Fold", "Call"]
    while not table.session.finished:
        table.press("call")
    assert all(b.disabled for b in table.buttons)
    assert table.press("new hand") and table.session.hands == 2
    assert not any(b.disabled for b in table.buttons)


def test_a_refused_press_keeps_the_hand_and_says_why() -> None:
    table = poker_table(seed=3, display=False)
    state = table.session.state
    assert table.press("raise") is False
    assert table.session.state == state
    assert "write check or bet" in table.message.value


def test_the_drawing_hides_the_computers_card_until_a_showdown() -> None:
    table = poker_table(seed=3, display=False)
    canvas = RecordingCanvas(WIDTH, HEIGHT)
    draw_table(canvas, table.session, "status")
    texts = canvas.texts()
    assert "?" in texts and "Pot: 2 chips" in texts and "status" in texts
    assert "no action yet" in texts


def test_every_display_carries_a_picture_that_says_it_is_one() -> None:
    table = poker_table(seed=3, display=False)
    data = table.widget._repr_mimebundle_()
    forms = data[0] if isinstance(data, tuple) else data
    assert {"image/png", "image/svg+xml"} <= set(forms)
    assert PICTURE_WORDS.replace(":", "") not in forms["text/plain"]
    assert "run the lesson's cells to play" in forms["text/plain"]
    assert PICTURE_WORDS.split(":")[0] in forms["image/svg+xml"]
