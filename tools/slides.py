#!/usr/bin/env python3
"""The lessons as reveal.js slides that fit a 1280x800 projector, working offline.

Usage (from the project root, with the project's virtual environment; ``make slides`` runs it)::

    .venv/bin/python tools/slides.py                                  # every lesson
    .venv/bin/python tools/slides.py notebooks/05-Bound-Flagged-Memoization.ipynb
    .venv/bin/python tools/slides.py --output-dir /tmp/slides notebooks/[0-9]*.ipynb

Writes ``<lesson>.slides.html`` into the output folder (default build/slides), which must hold
reveal.js, require.js, jQuery and MathJax under ``lib/node_modules`` (``make slides`` fetches
them once with npm): the slides load nothing from the network. Open one in a browser and move
with the arrow keys.

Slide types come from each cell's ``slideshow`` metadata, with two additions made here so that
the notebooks stay as they are:

* **A section starts a slide.** A markdown cell with a section heading (``#`` or ``##``) after
  its first line is cut there; the heading and what follows become a new slide (so a lesson's
  sections never merge into one long stack of subslides).
* **Everything fits the slide** (tools/slides/gamelib-slides/index.html.j2): the slides are
  1280x800, text and code sized for the room, tables in a smaller font that wraps inside the
  slide, pictures and boards scaled to the slide's width and to the height left below the text
  above them; reveal.js centres each slide vertically (its default), so a short slide sits
  in the middle of the screen.

The exit status is 0 when every notebook converted, 1 when any failed, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbconvert import SlidesExporter
from nbconvert.exporters.templateexporter import TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "slides"
TEMPLATE = "gamelib-slides"
OUTPUT_DIR = ROOT / "build" / "slides"
LIB = "lib/node_modules"
WIDTH, HEIGHT = 1280, 800
"""The projector the slides are made for, in CSS pixels."""

SECTION = re.compile(r"^#{1,2} ", re.MULTILINE)
"""A section heading in markdown: ``# Title`` or ``## 3. Section``."""


def split_sections(cells: Sequence[Any]) -> list[Any]:
    """``cells`` with every markdown cell that has a section heading after its first line cut
    before that heading; each piece from a heading on becomes a ``slide``. Headings inside
    fenced code are left alone. The cells given are not changed."""
    result: list[Any] = []
    for cell in cells:
        kind = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
        if cell.get("cell_type") != "markdown" or kind == "skip":
            result.append(cell)
            continue
        pieces: list[list[str]] = [[]]
        fenced = False
        for line in cell["source"].split("\n"):
            if line.startswith("```"):
                fenced = not fenced
            if not fenced and SECTION.match(line) and any(x.strip() for x in pieces[-1]):
                pieces.append([])
            pieces[-1].append(line)
        if len(pieces) == 1 and cell["source"] == cell["source"].strip("\n"):
            result.append(cell)  # nothing to cut or trim: the cell itself (build copies it)
            continue
        for n, piece in enumerate(pieces):
            part = copy.deepcopy(cell)
            part["source"] = "\n".join(piece).strip("\n")
            if n:
                part["metadata"].setdefault("slideshow", {})["slide_type"] = "slide"
                if "id" in part:
                    part["id"] = f"{part['id']}-{n}"
            result.append(part)
    return result


NO_ALT = "No description has been provided for this image"
_TAG = re.compile(r"<(script|style)\b.*?</\1>|<(div|img)\b([^>]*)>", re.DOTALL)
"""A script or a style sheet (left as it is), or a ``<div ...>`` or ``<img ...>`` tag."""
_CLASSES = re.compile(r'\sclass="([^"]*)"')


def _accessible(tag: re.Match[str]) -> str:
    """One ``<div ...>`` or ``<img ...>`` tag as nbconvert's HTML exporter leaves it: a cell's
    input and every output focusable (``tabindex="0"``), a picture without alt text given
    nbconvert's."""
    name, attributes = tag.group(2), tag.group(3)
    if name is None:
        return tag.group(0)
    if name == "img":
        if re.search(r"\salt=", attributes):
            return tag.group(0)
        return f'<img{attributes} alt="{NO_ALT}">'
    classes = _CLASSES.search(attributes)
    wanted = {"jp-Cell-inputWrapper", "jp-OutputArea-output"}
    if not classes or not wanted & set(classes.group(1).split()) or "tabindex=" in attributes:
        return tag.group(0)
    return f'<div{attributes} tabindex="0">'


class _SlidesExporter(SlidesExporter):
    """nbconvert's slides exporter without the BeautifulSoup pass of its HTML exporter, which
    parsed and wrote out each deck again only to add three attributes (see ``_accessible``):
    two thirds of the build's CPU. Each deck, read and written out by BeautifulSoup as
    nbconvert did, is the deck nbconvert made, byte for byte."""

    def from_notebook_node(  # type: ignore[override]
        self, nb: Any, resources: dict[str, Any] | None = None, **kw: Any
    ) -> tuple[str, dict[str, Any]]:
        # HTMLExporter.from_notebook_node up to its BeautifulSoup pass.
        langinfo = nb.metadata.get("language_info", {})
        lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
        highlight_code = self.filters.get(
            "highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self)
        )
        resources = self._init_resources(resources)
        filter_data_type = WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources
        )
        self.register_filter("highlight_code", highlight_code)
        self.register_filter("filter_data_type", filter_data_type)
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        return _TAG.sub(_accessible, html), resources


def exporter(transition: str = "slide") -> SlidesExporter:
    """The slides exporter: the project's template, local libraries, 1280x800, sections cut
    (``transition``: reveal.js's, e.g. ``"none"`` for tests)."""
    made = _SlidesExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        template_name=TEMPLATE,
        reveal_url_prefix=f"{LIB}/reveal.js",
        reveal_width=str(WIDTH),
        reveal_height=str(HEIGHT),
        reveal_scroll=False,
        reveal_transition=transition,
        reveal_theme="white",  # its fonts come with reveal.js (nbconvert's "simple" fetches them)
        require_js_url=f"{LIB}/requirejs/require.js",
        jquery_url=f"{LIB}/jquery/dist/jquery.min.js",
        mathjax_url=f"{LIB}/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
        optimistic_validation=True,  # the notebook validated once after the preprocessors
    )
    return made


def build(
    notebooks: Sequence[Path], output_dir: Path, transition: str = "slide",
    reveal: Mapping[str, Any] | None = None, still: bool = False,
) -> list[Path]:
    """Write ``<name>.slides.html`` for each notebook into ``output_dir``; their paths.

    For tests: ``reveal``, reveal.js options that override the deck's (e.g. ``{"history":
    False}``), and ``still``, every CSS transition and animation off (reveal.js's progress bar
    and bouncing arrows, which would have the browser draw frames while nothing else moves)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    made = exporter(transition)
    options = {"reveal": dict(reveal or {}), "still": still}
    written = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        nb.cells = [nbformat.from_dict(cell) for cell in split_sections(nb.cells)]
        body, _ = made.from_notebook_node(
            nb, resources={"metadata": {"name": path.stem}, "gamelib": options})
        target = output_dir / f"{path.stem}.slides.html"
        target.write_text(body, encoding="utf-8")
        written.append(target)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="lessons to convert (default: notebooks/[0-9][0-9]-*.ipynb)")
    parser.add_argument("--output-dir", type=Path, default=OUTPUT_DIR,
                        help="where the slides go (default: build/slides)")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    missing = [str(p) for p in notebooks if not p.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    status = 0
    for path in notebooks:
        try:
            (written,) = build([path], args.output_dir)
        except Exception as failure:  # report and go on with the next lesson
            print(f"{path}: could not convert: {failure}", file=sys.stderr)
            status = 1
        else:
            print(f"{path} -> {written}")
    return status


if __name__ == "__main__":
    sys.exit(main())
