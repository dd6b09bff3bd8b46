"""Every board and play widget also leaves a static picture in a saved notebook.

A widget shows only while its kernel runs. GitHub, nbviewer and nbconvert skip a widget view
whose state is not saved (tools/run_notebooks.py never saves it) and show the output's next
form instead, so every output of a board or play widget must carry a picture beside its
text. JupyterLab and Notebook 7 render no SVG in an untrusted notebook (one this user has not
run: every freshly opened lesson) and fall back to the plain text, so the picture must be a PNG
too, and the plain text a sentence, never a widget's Python repr. Jupyter itself prefers the
widget view in a trusted notebook and shows the live board.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from pathlib import Path
from typing import Any

import ipycanvas
import ipywidgets
import pytest
from IPython.core.interactiveshell import InteractiveShell

from gamelib.game import replay
from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.search.trace import trace_search
from gamelib.ui import ConnectFourGeometry, board_svg, play, search_svg, show_board, show_search

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PICTURES = ("image/svg+xml", "image/png")
# What an untrusted JupyterLab renders: safe forms (HTML is sanitized first).
SAFE_PICTURES = ("image/png", "text/html")
# Plain text that no reader should meet: a widget's or a picture's Python repr.
REPR_TEXT = re.compile(r"\s*(?:VBox|HBox|Box|Canvas|MultiCanvas)\(|<BoardPicture|<SearchView")


def _widget_names() -> list[str]:
    names = set()
    for module in (ipywidgets, ipycanvas):
        for name in dir(module):
            thing = getattr(module, name)
            if isinstance(thing, type) and issubclass(thing, ipywidgets.Widget):
                names.add(name)
    return sorted(names, key=len, reverse=True)


# A widget's plain-text form: ipywidgets' repr, e.g. "Canvas(height=510, width=440)" or
# "HBox(children=(...))", or gamelib's one-line label for an interactive widget.
WIDGETS = "|".join(_widget_names())
# (Python cuts a long widget text short with "…".)
WIDGET_TEXT = re.compile(
    rf"^(?:(?:{WIDGETS})\(.*(?:\)|…)|\[[^\]]*\binteractive\b[^\]]*\])\s*$", re.S
)


def text_of(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def widget_outputs_without_picture(notebook: dict[str, Any]) -> list[str]:
    """Where ``notebook`` saved a widget's output with no picture: ``'cell N: text'`` each."""
    missing = []
    for number, cell in enumerate(notebook.get("cells", []), 1):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data", {})
            text = text_of(data.get("text/plain", ""))
            is_widget = WIDGET_VIEW in data or bool(WIDGET_TEXT.match(text))
            if is_widget and not any(kind in data for kind in PICTURES):
                missing.append(f"cell {number}: {text[:60]}")
    return missing


def outputs_an_untrusted_notebook_shows_as_text(notebook: dict[str, Any]) -> list[str]:
    """Where ``notebook`` saved a picture that an untrusted JupyterLab shows as its plain text:
    a widget, an SVG without a PNG, or a Python repr as the text: ``'cell N: text'`` each."""
    found = []
    for number, cell in enumerate(notebook.get("cells", []), 1):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data", {})
            text = text_of(data.get("text/plain", ""))
            picture = WIDGET_VIEW in data or "image/svg+xml" in data
            if (picture and not any(kind in data for kind in SAFE_PICTURES)) or (
                REPR_TEXT.match(text)
            ):
                found.append(f"cell {number}: {text[:60]}")
    return found


def bundle(thing: Any) -> dict[str, Any]:
    data, _ = InteractiveShell.instance().display_formatter.format(thing)
    return dict(data)


# -- what the outputs carry ------------------------------------------------------------------


@pytest.mark.parametrize("game", [TicTacToe(), ConnectFour(), Nim()], ids=["ttt", "c4", "nim"])
def test_a_play_widget_output_carries_a_picture_of_the_board_as_shown(game) -> None:
    c = play(game, mode="human-human", background=False, display=False)
    move = game.moves(game.start)[0]
    c.play_move(move)
    data = bundle(c.widget)
    expected = board_svg(game, c.state, last_move=move, status=["Run the lesson to play"])
    assert WIDGET_VIEW in data
    assert data["text/plain"] == f"{game.name} board: Run the lesson to play."
    assert data["image/svg+xml"] == expected.svg == c.saved_picture().svg
    assert base64.b64decode(data["image/png"]) == expected.png
    c.close()


def test_a_saved_board_says_it_is_a_picture_and_never_whose_turn() -> None:
    """The live board says "your turn"; its saved picture says to run the lesson, in the
    status line's place, with no player's token beside the words."""
    game = TicTacToe()
    c = play(game, background=False, display=False)
    assert c.status == ["X to move: your turn"] and "your turn" in c.picture().svg
    saved = c.saved_picture().svg
    assert "Run the lesson to play" in saved and "your turn" not in saved
    assert "to move" not in saved and saved != c.picture().svg
    live_tokens = board_svg(game, c.state, status=["Run the lesson to play"],
                            status_player="X").svg
    assert saved != live_tokens  # no token beside the words
    c.close()


def test_a_show_board_output_carries_the_same_picture_as_board_svg() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("4453")
    # Displayed, it is two outputs (this bundle, then its still: tests/ui/test_still.py).
    data, metadata = show_board(game, state, last_move=2)._repr_mimebundle_()
    picture = board_svg(game, state, last_move=2)
    assert WIDGET_VIEW in data and data["text/plain"] == "Connect Four board: X to move."
    assert metadata == picture.metadata() and data["text/html"] == picture.forms()["text/html"]
    assert data["image/svg+xml"] == picture.svg
    assert base64.b64decode(data["image/png"]) == picture.png


def test_a_search_viewer_output_carries_a_picture_and_a_sentence() -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0), (1, 0)])
    trace = trace_search(game, state, "alphabeta")
    data = bundle(show_search(trace).widget)
    picture = search_svg(trace)
    assert WIDGET_VIEW in data and data["image/svg+xml"] == picture.svg
    assert base64.b64decode(data["image/png"]) == picture.png
    steps = len(trace.events) - 1
    assert data["text/plain"] == (f"Search tree: alpha-beta from a Tic-tac-toe position with 3 "
                                  f"moves, {steps} steps. Run the lesson to step through it.")


def test_a_search_tree_is_shown_at_its_own_size_and_a_board_shrinks_to_fit() -> None:
    """A tree's saved picture is marked unconfined (its 16 px labels stay readable in a
    narrow output, which scrolls sideways), in its metadata and in its HTML form; a board's
    fits the output's width. Both carry their sentence as alt text."""
    game = TicTacToe()
    state = replay(game, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0), (1, 0)])
    trace = trace_search(game, state, "alphabeta")
    shell = InteractiveShell.instance()
    viewer = show_search(trace, display=False)
    for thing in (viewer.widget, search_svg(trace)):
        data, metadata = shell.display_formatter.format(thing)
        alt = {"alt": data["text/plain"], "unconfined": True}
        assert "image/png" in data and metadata == {"image/png": alt, "image/svg+xml": alt}
        assert data["text/html"].startswith(
            '<div style="overflow-x: auto; margin-bottom: 0"><img alt="Search')
        assert data["text/html"].endswith('" style="display: block; max-width: none"></div>')
    c = play(game, background=False, display=False)
    for thing in (c.widget, board_svg(game, state)):
        data, metadata = shell.display_formatter.format(thing)
        alt = {"alt": data["text/plain"]}
        assert "image/png" in data and metadata == {"image/png": alt, "image/svg+xml": alt}
        assert "max-width" not in data["text/html"] and "<div" not in data["text/html"]
    c.close()
    viewer.close()


def test_the_html_form_is_the_svg_with_the_sentence_as_its_alt_text() -> None:
    """What front ends show first: an <img> of the SVG itself, the sentence as its alt
    (escaped), and nothing else; a play widget's note is part of the alt as of the text."""
    picture = board_svg(TicTacToe(), TicTacToe().start, status=['"X" <to> move & win'])
    data = bundle(picture)
    found = re.fullmatch(r'<img alt="([^"]*)" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"'
                         r' style="display: block; margin-bottom: 0">', data["text/html"])
    assert found, data["text/html"][:120]
    assert html.unescape(found.group(1)) == data["text/plain"] == picture.text
    assert base64.b64decode(found.group(2)).decode("utf-8") == picture.svg
    c = play(TicTacToe(), mode="human-human", background=False, display=False)
    data, metadata = InteractiveShell.instance().display_formatter.format(c.widget)
    assert f'alt="{html.escape(data["text/plain"])}"' in data["text/html"]
    assert metadata["image/png"]["alt"] == data["text/plain"].strip()
    c.close()


def test_a_picture_is_a_png_of_its_own_size_with_the_colours_of_its_svg() -> None:
    from PIL import Image

    picture = board_svg(ConnectFour(), ConnectFour.from_moves("4453"), last_move=2)
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    assert image.size == (440, 510)
    assert image.getpixel((2, 2)) == (0xFB, 0xF8, 0xF1)  # the board's background, exactly
    g = ConnectFourGeometry(size=440)  # between the holes of columns 1 and 2: the blue frame
    assert image.getpixel((round(g.grid.x + g.cell), round(g.grid.y + g.cell / 2))) == (
        0x1F, 0x4E, 0x9C)
    assert bundle(picture)["text/plain"] == repr(picture) == "Connect Four board: X to move."


# -- the check of saved notebooks ----------------------------------------------------------------


def test_the_check_finds_widget_outputs_without_a_picture_and_only_those() -> None:
    def output(**data: Any) -> dict[str, Any]:
        return {"output_type": "display_data", "data": data, "metadata": {}}

    notebook = {"cells": [
        {"cell_type": "code",
         "outputs": [output(**{"text/plain": "Canvas(height=510, width=440)"})]},
        {"cell_type": "code", "outputs": [output(**{
            "text/plain": "[Tic-tac-toe: an interactive board; run the notebook in Jupyter to play]"
        })]},
        {"cell_type": "code", "outputs": [output(**{WIDGET_VIEW: {"model_id": "x"},
                                                     "text/plain": "HBox(children=())"})]},
        {"cell_type": "code", "outputs": [output(**{"text/plain": "Canvas(height=1, width=1)",
                                                     "image/svg+xml": "<svg/>"})]},
        {"cell_type": "code", "outputs": [output(**{"text/plain": "(3, 4)"}),
                                          {"output_type": "stream", "text": "Canvas(x=1)"}]},
        {"cell_type": "markdown", "source": "Canvas(height=510, width=440)"},
    ]}
    assert widget_outputs_without_picture(notebook) == [
        "cell 1: Canvas(height=510, width=440)",
        "cell 2: [Tic-tac-toe: an interactive board; run the notebook in Jupy",
        "cell 3: HBox(children=())",
    ]


def test_the_untrusted_check_finds_svg_only_pictures_and_repr_texts() -> None:
    def output(**data: Any) -> dict[str, Any]:
        return {"output_type": "display_data", "data": data, "metadata": {}}

    notebook = {"cells": [
        {"cell_type": "code", "outputs": [output(**{WIDGET_VIEW: {}, "image/svg+xml": "<svg/>",
                                                     "text/plain": "A board."})]},
        {"cell_type": "code", "outputs": [output(**{"image/svg+xml": "<svg/>",
                                                     "image/png": "iVBO",
                                                     "text/plain": "<BoardPicture, 4 chars>"})]},
        {"cell_type": "code", "outputs": [output(**{WIDGET_VIEW: {}, "image/png": "iVBO",
                                                     "text/plain": "A board."})]},
        {"cell_type": "code", "outputs": [output(**{"text/plain": "VBox(children=(...))"})]},
        {"cell_type": "code", "outputs": [output(**{"text/html": "<b>x</b>",
                                                     "text/plain": "(3, 4)"})]},
    ]}
    assert outputs_an_untrusted_notebook_shows_as_text(notebook) == [
        "cell 1: A board.", "cell 2: <BoardPicture, 4 chars>", "cell 4: VBox(children=(...))",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_saved_picture_shows_in_an_untrusted_notebook(path: Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = outputs_an_untrusted_notebook_shows_as_text(notebook)
    assert not found, (
        f"{path.name}: outputs that an untrusted JupyterLab shows as text, not as a picture "
        f"(re-execute the notebook with tools/run_notebooks.py): {found}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_saved_widget_output_has_a_static_picture(path: Path) -> None:
    missing = widget_outputs_without_picture(json.loads(path.read_text(encoding="utf-8")))
    assert not missing, (
        f"{path.name}: widget outputs without a picture (re-execute the notebook with "
        f"tools/run_notebooks.py): {missing}"
    )


def test_the_example_in_the_picture_module_runs() -> None:
    import doctest

    import gamelib.ui.picture

    failed, tried = doctest.testmod(gamelib.ui.picture)
    assert failed == 0 and tried > 0


# -- hostile arguments: a GameError saying what is allowed --------------------------------


@pytest.mark.parametrize("hints", [[1], "hints", 5, {(0, 0): "good"}, {(0, 0): None}])
def test_board_svg_refuses_hints_that_are_not_values(hints: object) -> None:
    from gamelib.game import GameError
    from gamelib.games import TicTacToe
    from gamelib.ui.svg import board_svg

    with pytest.raises(GameError, match=r"hints must be a dict \{move: value\} of numbers"):
        board_svg(TicTacToe(), hints=hints)  # type: ignore[arg-type]
