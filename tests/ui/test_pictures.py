"""Every board and play widget also leaves a static picture in a saved notebook.

A widget shows only while its kernel runs. GitHub, nbviewer and nbconvert skip a widget view
whose state is not saved (tools/run_notebooks.py never saves it) and show the output's next
form instead, so every output of a board or play widget must carry a picture (SVG) beside its
text. Jupyter itself prefers the widget view and shows the live board.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import ipycanvas
import ipywidgets
import pytest
from IPython.core.interactiveshell import InteractiveShell

from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.ui import board_svg, play, show_board

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PICTURES = ("image/svg+xml", "image/png")


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
    assert WIDGET_VIEW in data and data["text/plain"].endswith("in Jupyter to play]")
    expected = board_svg(game, c.state, last_move=move, status=c.status,
                         status_player=c.session.status_player)
    assert data["image/svg+xml"] == expected.svg == c.picture().svg
    c.close()


def test_a_show_board_output_carries_the_same_picture_as_board_svg() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("4453")
    data = bundle(show_board(game, state, last_move=2))
    assert WIDGET_VIEW in data and data["text/plain"] == "Canvas(height=510, width=440)"
    assert data["image/svg+xml"] == board_svg(game, state, last_move=2).svg


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_saved_widget_output_has_a_static_picture(path: Path) -> None:
    missing = widget_outputs_without_picture(json.loads(path.read_text(encoding="utf-8")))
    assert not missing, (
        f"{path.name}: widget outputs without a picture (re-execute the notebook with "
        f"tools/run_notebooks.py): {missing}"
    )
