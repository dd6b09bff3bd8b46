"""The kinds of output that the lessons save, and a notebook that holds one output of each.

A front end renders a saved output from the output alone: its type, its forms (MIME types),
their metadata and, for the HTML form that every front end shows first, its markup. Which
lesson holds it changes nothing. So the browser tests that check what a lesson shows fresh
and untrusted (tests/browser/test_untrusted_browser.py, test_notebook7_browser.py) open one
notebook made here at run time from the lessons' own saved outputs (:func:`kinds_notebook`),
never stale, and tests/notebooks/test_picture_kinds.py checks without a browser what
holds output by output in every lesson, and that the notebook holds every kind they save.

An output's :class:`Kind` is its output type, its forms, the keys of its metadata, the
markup of its HTML form with what differs from picture to picture masked (the alt text, the
picture's data, the stylesheet), and what it shows: the setup note, a chart, a picture by
the words before the colon of its sentence ("Search tree", "Connect Four board", a
Monte-Carlo tree apart, a live one apart: its words ask to run the lesson), or text.

The representative of a kind is its widest picture in all the lessons (the first of
equals): a front end shrinks a picture to the output's width unless it is marked
unconfined, so the widest of a kind is the one whose labels a front end could shrink most,
and a check on its label size bounds every picture of its kind.
"""

from __future__ import annotations

import base64
import copy
import functools
import html
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = tuple(sorted((ROOT / "notebooks").glob("[0-9][0-9]*.ipynb")))
"""Every lesson (00-Index to 13) and the optional parts beside them (01a, 05a)."""

REPRS = ("VBox(", "HBox(", "Canvas(", "<BoardPicture")
"""The start of a widget's (or picture object's) Python text: no output may show it."""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

UNTRUSTED_ORDER = ("text/html", "text/markdown", "text/latex", "image/png", "image/jpeg",
                   "text/plain")
"""The forms that JupyterLab and Notebook 7 render in an untrusted notebook, the one they
prefer first (they render no SVG, JavaScript or widget there; HTML they sanitize)."""

_IMG = re.compile(r'<img alt="(?P<alt>[^"]*)" src="data:(?P<mime>[^;"]+);base64,(?P<data>[^"]*)"')
_SVG_SIZE = re.compile(r'<svg [^>]*\bwidth="(\d+)" height="(\d+)"')
_STYLE = re.compile(r'(<style id="gamelib-style">).*?(</style>)', re.DOTALL)


def text_of(form: Any) -> str:
    """A form as a notebook stores it (a string, or a list of lines) as one string."""
    return form if isinstance(form, str) else "".join(form)


def html_shape(markup: str) -> str:
    """The markup of an HTML form with what differs from picture to picture masked: each
    ``<img>``'s alt and data, and the stylesheet."""
    masked = _IMG.sub(lambda m: f'<img alt="ALT" src="data:{m["mime"]};base64,DATA"', markup)
    return _STYLE.sub(r"\1CSS\2", masked)


def shows(output: Any) -> str:
    """What ``output`` shows, in the words of :class:`Kind`: "setup note", "chart", a
    picture's subject (the words before the colon of its sentence; " (Monte-Carlo)" and
    ", live" added where they apply), or "text"."""
    data = output.get("data", {})
    plain = text_of(data.get("text/plain", ""))
    if 'class="gamelib-setup"' in text_of(data.get("text/html", "")):
        return "setup note"
    if "image/png" not in data:
        return "text"
    if plain.startswith("<Figure"):
        return "chart"
    subject = plain.split(":")[0] + (" (Monte-Carlo)" if "Monte-Carlo" in plain else "")
    return subject + (", live" if "Run the lesson" in plain else "")


@dataclass(frozen=True, order=True)
class Kind:
    """What a front end renders an output from, and what the output shows."""

    output_type: str
    """"stream (stdout)", "execute_result", "display_data", "error"."""
    forms: tuple[str, ...]
    """Its MIME types, sorted (a widget's view included)."""
    metadata: tuple[tuple[str, tuple[str, ...]], ...]
    """Each key of its metadata with the keys under it (e.g. ``("image/png", ("alt",))``)."""
    html: str
    """Its HTML form, masked by :func:`html_shape` ("" for none)."""
    shows: str
    """See :func:`shows`."""


def kind_of(output: Any) -> Kind:
    """The :class:`Kind` of a saved output (a dict, as nbformat reads it)."""
    kind = output["output_type"]
    if kind == "stream":
        kind = f"stream ({output['name']})"
    data = output.get("data", {})
    metadata = tuple(sorted((key, tuple(sorted(value)) if isinstance(value, dict) else ())
                            for key, value in output.get("metadata", {}).items()))
    return Kind(kind, tuple(sorted(data)), metadata,
                html_shape(text_of(data.get("text/html", ""))), shows(output))


@dataclass(frozen=True)
class Saved:
    """One saved output of a lesson, where it is."""

    notebook: str
    """The lesson's file name."""
    cell: int
    """The index of its cell among the lesson's cells."""
    output: Any
    """The output, as nbformat reads it."""


@functools.cache
def read(path: Path) -> Any:
    """The notebook at ``path`` (read once per run; callers do not change it)."""
    return nbformat.read(path, as_version=4)


def saved_outputs(paths: tuple[Path, ...] = NOTEBOOKS) -> list[Saved]:
    """Every output of every code cell of the notebooks at ``paths``, in order."""
    return [Saved(path.name, index, output)
            for path in paths for index, cell in enumerate(read(path).cells)
            if cell.cell_type == "code" for output in cell.outputs]


def png_size(output: Any) -> tuple[int, int]:
    """The width and height of ``output``'s PNG, decoded in full (Pillow)."""
    return _png_size(text_of(output["data"]["image/png"]))


@functools.cache
def _png_size(data: str) -> tuple[int, int]:
    """The width and height of the PNG ``data`` (base64), decoded in full, once per run."""
    from PIL import Image

    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        image.load()
        return image.size


def wider(saved: Saved, than: Saved) -> bool:
    """Whether ``saved`` is a picture wider than ``than`` (a picture of the same kind)."""
    return "image/png" in saved.output.get("data", {}) and (
        png_size(saved.output)[0] > png_size(than.output)[0])


def kinds_notebook(paths: tuple[Path, ...] = NOTEBOOKS,
                   base: Path | None = None) -> tuple[Any, dict[Kind, Saved]]:
    """A notebook of one output of every :class:`Kind` that the notebooks at ``paths`` save,
    and which saved output stands for each kind: its widest picture (see the module's
    docstring), or its first output.

    Each stands in a code cell of its own, whose source, a comment, says where it comes from
    (running it clears the output), in the order in which the kinds first appear (the setup
    note first: every lesson opens with it). With ``base``, a lesson, the notebook is that
    lesson, its cells as saved, followed by the outputs that stand for a kind and are not the
    lesson's: a browser test can check them all fresh, then run the lesson and play on the
    same page.
    The notebook has the first notebook's metadata (or the base's), no widget state and no
    signature (a server that never saw it finds it untrusted)."""
    chosen: dict[Kind, Saved] = {}
    for saved in saved_outputs(paths):
        kind = kind_of(saved.output)
        if kind not in chosen or wider(saved, chosen[kind]):
            chosen[kind] = saved
    start = read(base or paths[0])
    notebook = nbformat.v4.new_notebook(metadata=copy.deepcopy(start.metadata),
                                        cells=copy.deepcopy(start.cells) if base else [])
    for number, (kind, saved) in enumerate(chosen.items(), 1):
        if base is not None and saved.notebook == base.name:
            continue
        output = copy.deepcopy(saved.output)
        cell = nbformat.v4.new_code_cell(
            f"# {kind.shows}: {saved.notebook}, cell {saved.cell}",
            execution_count=output.get("execution_count"), outputs=[output])
        cell.id = f"kind-{number:02d}"
        notebook.cells.append(cell)
    nbformat.validate(notebook)
    return notebook, chosen


def write_kinds_notebook(folder: Path, name: str = "kinds.ipynb",
                         base: Path | None = None) -> str:
    """Write :func:`kinds_notebook` (of every lesson, after ``base`` if given) into
    ``folder`` as ``name``; return ``name``."""
    nbformat.write(kinds_notebook(base=base)[0], folder / name)
    return name


def picture_outputs(notebook: Any) -> list[Any]:
    """The outputs of ``notebook`` that carry a picture (a PNG, and a sentence), in order."""
    return [output for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs if "image/png" in output.get("data", {})]


def picture_alt(output: Any) -> str:
    """A picture output's alt text as saved: its PNG's metadata ``alt`` ("" for none)."""
    alt: str = output.get("metadata", {}).get("image/png", {}).get("alt", "")
    return alt


def untrusted_form(output: Any) -> tuple[str, str]:
    """The form of ``output`` that an untrusted notebook shows, and its text: the stream's
    text, or the first form of :data:`UNTRUSTED_ORDER` that it carries."""
    if output["output_type"] == "stream":
        return "stream", text_of(output["text"])
    if output["output_type"] == "error":
        return "error", "\n".join(output["traceback"])
    data = output.get("data", {})
    form = next((form for form in UNTRUSTED_ORDER if form in data), "")
    return form, text_of(data.get(form, ""))


def output_faults(saved: Saved) -> list[str]:
    """What is wrong with one saved output, as far as it shows without a browser:

    * a widget's Python text (:data:`REPRS`) in any of its text forms; a widget's view saved
      (it names a model that no fresh page has); nothing an untrusted notebook can show;
    * a picture (an output with a PNG) whose PNG does not decode or is empty; with no
      sentence (``text/plain``) or no HTML form, an ``<img>`` with its alt text;
    * an HTML ``<img>`` of an SVG that is not the output's SVG, or whose size is not the
      PNG's; of a PNG that is not the output's PNG;
    * alt text that differs between the HTML, the PNG's and the SVG's metadata; a board's or
      tree's alt text that is not its sentence; a chart's that is not a chart's description;
    * an HTML form that keeps the picture at its own size (scrolling sideways) when the
      metadata does not say ``unconfined``, or the other way round.
    """
    where = f"{saved.notebook}, cell {saved.cell}"
    output = saved.output
    data = output.get("data", {})
    texts = [text_of(form) for mime, form in data.items() if mime.startswith("text/")]
    texts += [text_of(output.get("text", ""))]
    faults = [f"{where}: an output holds {bad!r}" for bad in REPRS
              if any(bad in text for text in texts)]
    if WIDGET_VIEW in data:
        faults.append(f"{where}: a widget's view is saved (tools/run_notebooks.py drops it)")
    if not untrusted_form(output)[0]:
        faults.append(f"{where}: no form that an untrusted notebook shows: {sorted(data)}")
    if "image/png" not in data:
        if "<img" in text_of(data.get("text/html", "")):
            faults.append(f"{where}: an <img> in an output without a PNG")
        return faults
    try:
        width, height = png_size(output)
    except Exception as error:  # noqa: BLE001 - whatever Pillow raises, the PNG is bad
        return [*faults, f"{where}: the PNG does not decode: {error}"]
    if not width or not height:
        faults.append(f"{where}: the PNG is {width} x {height} pixels")
    plain, markup = text_of(data.get("text/plain", "")), text_of(data.get("text/html", ""))
    images = list(_IMG.finditer(markup))
    if not plain or len(images) != 1:
        return [*faults, f"{where}: a picture needs a sentence and one <img> in its HTML form, "
                         f"found {plain!r} and {len(images)} <img>"]
    image = images[0]
    alt, mime, picture = html.unescape(image["alt"]), image["mime"], image["data"]
    if mime == "image/svg+xml":
        svg = text_of(data.get("image/svg+xml", ""))
        if base64.b64decode(picture).decode("utf-8") != svg:
            faults.append(f"{where}: the HTML form's SVG is not the output's SVG")
        size = _SVG_SIZE.search(svg)
        if not size or (int(size[1]), int(size[2])) != (width, height):
            faults.append(f"{where}: the SVG is {size and size.groups()}, the PNG "
                          f"{width} x {height}")
    elif mime != "image/png" or picture != text_of(data["image/png"]):
        faults.append(f"{where}: the HTML form's {mime} is not the output's PNG")
    alts = {alt, picture_alt(output), *(value.get("alt", "") for key, value
                                        in output.get("metadata", {}).items()
                                        if key.startswith("image/"))}
    if len(alts) != 1:
        faults.append(f"{where}: different alt texts: {sorted(alts)}")
    if shows(output) == "chart":
        if not alt.startswith("Chart: "):
            faults.append(f"{where}: a chart's alt text is {alt!r}")
    elif alt != plain:
        faults.append(f"{where}: the alt text {alt!r} is not the picture's sentence {plain!r}")
    unconfined = bool(output.get("metadata", {}).get("image/png", {}).get("unconfined"))
    if unconfined != ("max-width: none" in markup):
        faults.append(f"{where}: unconfined in the metadata is {unconfined}, "
                      f"the HTML form {'does not keep' if unconfined else 'keeps'} its size")
    return faults
