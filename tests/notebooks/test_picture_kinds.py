"""Every saved output of every lesson, checked without a browser, and sorted into kinds.

The browser tests of what a lesson shows fresh and untrusted (JupyterLab, Notebook 7,
nbconvert's HTML) open one notebook that holds an output of every kind the lessons save
(tests/picture_kinds.py). What they prove for that notebook holds for every lesson because
a front end renders an output from its forms alone, and because of what is checked here:

* each output, in every lesson and optional part: no widget's Python text, no saved widget
  view, a form that an untrusted notebook shows; each picture's PNG decodes, its HTML
  ``<img>`` shows the output's own SVG (of the PNG's size) or PNG, with one alt text
  everywhere: a board's or tree's sentence, a chart's description (picture_kinds.output_faults);
* the setup cell of every lesson saves the same output: gamelib.style.SETUP_NOTE after the
  stylesheet;
* the notebooks' metadata are the same (the kinds notebook takes the first one's);
* the kinds notebook holds every kind that a lesson saves, each by its widest picture (the
  widest search tree of all lessons among them), and nothing else.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat
import pytest
from picture_kinds import (
    NOTEBOOKS,
    Kind,
    Saved,
    kind_of,
    kinds_notebook,
    output_faults,
    png_size,
    read,
    saved_outputs,
    untrusted_form,
    write_kinds_notebook,
)

from gamelib.style import SETUP_NOTE


def test_the_lessons_and_parts_are_all_there() -> None:
    assert [path.name[:3].rstrip("-") for path in NOTEBOOKS] == [
        "00", "01", "01a", "02", "03", "04", "05", "05a", *(f"{n:02d}" for n in range(6, 14))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.name for path in NOTEBOOKS])
def test_every_saved_output_shows_without_its_kernel(path: Path) -> None:
    outputs = saved_outputs((path,))
    assert outputs, f"{path.name} saves no output"
    faults = [fault for saved in outputs for fault in output_faults(saved)]
    assert not faults, "\n".join(faults)


def test_the_checks_find_what_they_look_for() -> None:
    """output_faults on a lesson's picture spoiled in each way it names."""
    saved = next(s for s in saved_outputs(NOTEBOOKS[3:4])
                 if "image/svg+xml" in s.output.get("data", {}))
    assert output_faults(saved) == []

    def spoiled(change: str) -> list[str]:
        output = copy.deepcopy(saved.output)
        data, metadata = output.data, output.metadata
        if change == "repr":
            data["text/plain"] = "VBox(children=(Canvas(),))"
        elif change == "png":
            data["image/png"] = data["image/png"][:200]
        elif change == "alt":
            metadata["image/png"] = {**metadata["image/png"], "alt": "A board."}
        elif change == "svg":
            data["image/svg+xml"] = re.sub(r'width="\d+"', 'width="7"', data["image/svg+xml"],
                                           count=1)
        elif change == "unconfined":
            unconfined = not metadata["image/png"].get("unconfined")
            metadata["image/png"] = {**metadata["image/png"], "unconfined": unconfined}
        return output_faults(Saved(saved.notebook, saved.cell, output))

    assert any("VBox(" in fault for fault in spoiled("repr"))
    assert any("does not decode" in fault for fault in spoiled("png"))
    assert any("different alt texts" in fault for fault in spoiled("alt"))
    assert any("not the output's SVG" in fault for fault in spoiled("svg"))
    assert any("unconfined" in fault for fault in spoiled("unconfined"))


def test_every_setup_cell_saves_the_same_note() -> None:
    """The first code cell of every lesson saves one output, the same everywhere: the style,
    then the setup note, which an untrusted notebook shows once it strips the style."""
    firsts = []
    for path in NOTEBOOKS:
        code = [cell for cell in read(path).cells if cell.cell_type == "code"]
        assert len(code[0].outputs) == 1, f"{path.name}: the setup cell saves one output"
        firsts.append((path.name, code[0].outputs[0]))
    name, first = firsts[0]
    different = [other for other, output in firsts if output.data != first.data]
    assert not different, f"the setup output of {different} differs from {name}'s"
    form, markup = untrusted_form(first)
    assert form == "text/html"
    assert re.sub(r"<style[^>]*>.*</style>", "", markup, flags=re.DOTALL) == (
        f'<p class="gamelib-setup">{SETUP_NOTE}</p>')


def test_every_notebook_has_the_same_metadata() -> None:
    """The kinds notebook takes the first notebook's metadata (kernel, language; no widget
    state): it stands for every lesson's."""
    first = read(NOTEBOOKS[0]).metadata
    assert set(first) == {"kernelspec", "language_info"}
    assert [path.name for path in NOTEBOOKS if read(path).metadata != first] == []


def test_the_kinds_notebook_holds_one_of_every_kind_by_its_widest_picture(
        tmp_path: Path) -> None:
    saved = saved_outputs()
    kinds = {kind_of(s.output) for s in saved}
    notebook = nbformat.read(tmp_path / write_kinds_notebook(tmp_path), as_version=4)
    assert "signature" not in notebook.metadata and "widgets" not in notebook.metadata
    outputs = [output for cell in notebook.cells for output in cell.outputs]
    assert [len(cell.outputs) for cell in notebook.cells] == [1] * len(kinds)
    assert {kind_of(output) for output in outputs} == kinds
    assert len(outputs) < len(saved) / 10
    assert kind_of(outputs[0]).shows == "setup note"
    shown = {kind_of(output).shows for output in outputs}
    assert {"setup note", "text", "chart", "Tic-tac-toe board", "Connect Four board",
            "Search tree, live", "Search tree (Monte-Carlo)", "Kuhn poker table"} <= shown
    _, chosen = kinds_notebook()
    for kind, representative in chosen.items():
        if "image/png" in representative.output.get("data", {}):
            widths = [png_size(s.output)[0] for s in saved if kind_of(s.output) == kind]
            assert png_size(representative.output)[0] == max(widths), kind


def test_lesson_1_followed_by_the_kinds_it_lacks_holds_every_kind_at_its_widest(
        tmp_path: Path) -> None:
    """The notebook that the browser tests open: Lesson 1 as saved, then the other kinds;
    among the outputs of each kind, the widest picture of the lessons (the widest search
    tree of all among them)."""
    lesson = NOTEBOOKS[1]
    notebook = nbformat.read(tmp_path / write_kinds_notebook(tmp_path, base=lesson),
                             as_version=4)
    cells = read(lesson).cells
    assert notebook.cells[:len(cells)] == cells
    added = notebook.cells[len(cells):]
    assert added and all(len(cell.outputs) == 1 and cell.source.startswith("# ")
                         for cell in added)
    saved = saved_outputs()
    outputs = [output for cell in notebook.cells
               for output in cell.get("outputs", [])]
    assert {kind_of(output) for output in outputs} == {kind_of(s.output) for s in saved}
    widest: dict[Kind, int] = {}
    for output in [s.output for s in saved] + outputs:
        if "image/png" in output.get("data", {}):
            widest[kind_of(output)] = max(widest.get(kind_of(output), 0), png_size(output)[0])
    for kind, width in widest.items():
        assert width in {png_size(output)[0] for output in outputs if kind_of(output) == kind}
    trees = [(width, kind) for kind, width in widest.items()
             if kind.shows.startswith("Search tree")]
    assert trees  # the widest tree of all lessons is the widest of its kind: it is there
