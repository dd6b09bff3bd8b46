"""The lessons as lecture notes and slides: slide metadata, screen-sized cells, the projector
style, offline slides, the index, and re-runs that change nothing.

* Every cell of every lesson (00-Index to 10, and the optional parts 01a and 05a) carries
  ``slideshow.slide_type``; a lesson opens with its load_style cell skipped and its title on a
  slide of its own; no markdown cell is longer than a screen (20 lines).
* nbconvert, as tools/slides.py sets it up (``make slides``), turns a lesson into reveal.js
  slides, one ``<section>`` per slide, that load reveal.js from a local copy.
* ``load_style(projector=True)`` and JupyterLab's Presentation Mode give 22 px text and 20 px
  code (checked in Chromium on the notebook's class structure when Chromium is there), and the
  projector switch changes nothing that nbval compares.
* tools/run_notebooks.py leaves a notebook untouched when a re-run differs only in masked
  noise (times, cells tagged nbval-ignore-output), and ``--check`` reports a stale one.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import subprocess
from html import escape, unescape
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from helpers import run_notebooks_module  # tools/run_notebooks.py as a module
from nbval.plugin import get_sanitize_patterns

import gamelib.style

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
# The optional parts beside a lesson (01a, 05a): the same rules for slides, cells and style.
PARTS = sorted((ROOT / "notebooks").glob("[0-9][0-9][a-z]-*.ipynb"))
SLIDE_TYPES = {"slide", "subslide", "fragment", "skip", "notes", "-"}
MAX_MARKDOWN_LINES = 20
SANITIZER = ROOT / "tests" / "nbval_sanitize.cfg"
CHROMIUM = Path("/usr/bin/chromium")


def lesson_ids() -> list[str]:
    return [path.name for path in LESSONS + PARTS]


@functools.cache
def read(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``, read (and validated) once per test process; the tests only
    look at it."""
    return nbformat.read(path, as_version=4)


def test_the_lessons_are_there() -> None:
    assert [p.name[:2] for p in LESSONS] == [f"{n:02d}" for n in range(14)]
    assert [p.name[:3] for p in PARTS] == ["01a", "05a"]


@pytest.mark.parametrize("path", LESSONS + PARTS, ids=lesson_ids())
def test_every_cell_has_slide_metadata(path: Path) -> None:
    nb = read(path)
    kinds = [cell.metadata.get("slideshow", {}).get("slide_type") for cell in nb.cells]
    missing = [i for i, kind in enumerate(kinds) if kind not in SLIDE_TYPES]
    assert not missing, f"{path.name}: cells {missing} have no valid slideshow.slide_type"
    assert kinds[0] == "skip", f"{path.name}: the load_style cell is not a slide"
    first_shown = next(i for i, kind in enumerate(kinds) if kind != "skip")
    assert kinds[first_shown] == "slide" and nb.cells[first_shown].source.startswith("# ")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and re.match(r"#{1,2} ", cell.source):
            assert kinds[i] in {"slide", "skip"}, f"{path.name}, cell {i}: a section starts a slide"


@pytest.mark.parametrize("path", LESSONS + PARTS, ids=lesson_ids())
def test_no_markdown_cell_is_longer_than_a_screen(path: Path) -> None:
    nb = read(path)
    long = {
        i: len(cell.source.splitlines())
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "markdown" and len(cell.source.splitlines()) > MAX_MARKDOWN_LINES
    }
    assert not long, f"{path.name}: markdown cells over {MAX_MARKDOWN_LINES} lines: {long}"


@pytest.mark.parametrize("path", LESSONS + PARTS, ids=lesson_ids())
def test_no_reference_to_material_the_project_does_not_have(path: Path) -> None:
    text = "\n".join(cell.source for cell in read(path).cells)
    assert not re.search(r"lecture notes|the lecture's|the lecture suggests", text), path.name


INDEX = "00-Index.ipynb"


@functools.cache
def index_slides() -> str:
    """00-Index as slides, converted once by tools/slides.py's exporter (nbconvert's
    SlidesExporter with the project's template and reveal.js from lib/node_modules)."""
    html, _ = slides_module().exporter().from_notebook_node(read(ROOT / "notebooks" / INDEX))
    return str(html)


def test_nbconvert_makes_one_section_per_slide_from_a_local_reveal() -> None:
    nb = read(ROOT / "notebooks" / INDEX)
    html = index_slides()
    slides = sum(c.metadata["slideshow"]["slide_type"] == "slide" for c in nb.cells)
    subslides = sum(c.metadata["slideshow"]["slide_type"] == "subslide" for c in nb.cells)
    # reveal.js: a <section> per slide, holding a <section> per subslide (the first included)
    assert html.count("<section") == 2 * slides + subslides
    assert '"lib/node_modules/reveal.js/dist/reveal.js"' in html
    assert "unpkg.com/reveal.js" not in html
    assert "How to play" in html
    assert "from gamelib.style import" not in html  # skipped cells are left out


def slides_module() -> ModuleType:
    """tools/slides.py, imported as a module (it is a script, not part of gamelib)."""
    spec = importlib.util.spec_from_file_location("slides", ROOT / "tools" / "slides.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_makefile_builds_slides_offline() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^slides: ", makefile, re.MULTILINE)
    assert "tools/slides.py --output-dir $(SLIDES_DIR)" in makefile
    html = index_slides()
    for local in ('"lib/node_modules/reveal.js/dist/reveal.js"', "lib/node_modules/requirejs/",
                  "lib/node_modules/jquery/", "lib/node_modules/mathjax/MathJax.js",
                  "lib/node_modules/reveal.js/dist/theme/white.css"):
        assert local in html, local
    loads = re.findall(r'<(?:script[^>]*src|link[^>]*href)="([^"]*)"', html)
    assert loads and not [url for url in loads if "//" in url], loads
    assert "mermaid" not in html
    assert "build/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()


def test_a_section_heading_inside_a_cell_starts_a_new_slide() -> None:
    split = slides_module().split_sections
    cells = [
        nbformat.v4.new_markdown_cell("Last words of section 1.\n\n## 2. Next\n\nText",
                                      metadata={"slideshow": {"slide_type": "subslide"}}),
        nbformat.v4.new_markdown_cell("```\n# a comment, not a heading\n```",
                                      metadata={"slideshow": {"slide_type": "-"}}),
        nbformat.v4.new_markdown_cell("## 3. Starts the cell", metadata={}),
        nbformat.v4.new_code_cell("## a comment\nx = 1"),
    ]
    parts = split(cells)
    assert [p.source for p in parts] == [
        "Last words of section 1.", "## 2. Next\n\nText", cells[1].source, cells[2].source,
        cells[3].source]
    assert [p.metadata.get("slideshow", {}).get("slide_type") for p in parts] == [
        "subslide", "slide", "-", None, None]
    assert parts[1].id == f"{cells[0].id}-1" and cells[0].source.startswith("Last")


# ---------------------------------------------------------------------------------------------
# The projector style
# ---------------------------------------------------------------------------------------------


def sanitize(text: str) -> str:
    for regex, replace in get_sanitize_patterns(SANITIZER.read_text(encoding="ascii")):
        text = re.sub(regex, replace, text)
    return text


def test_projector_style_adds_the_hall_sizes_and_changes_nothing_nbval_compares() -> None:
    plain, hall = gamelib.style.load_style(), gamelib.style.load_style(projector=True)
    assert gamelib.style.PROJECTOR_CSS not in plain.data
    note = f'<p class="gamelib-setup">{gamelib.style.SETUP_NOTE}</p>'
    assert hall.data.endswith(gamelib.style.PROJECTOR_CSS + "</style>" + note)
    assert hall.data.count("<style id=") == 1 and type(hall) is type(plain)  # same text/plain
    assert sanitize(hall.data) == sanitize(plain.data) == (
        '<style id="gamelib-style"><stylesheet></style>' + note
    )
    css = gamelib.style.read_style()
    assert "--gl-hall-text-size: 22px;" in css and "--gl-hall-code-size: 20px;" in css


def test_projector_switch_refuses_what_is_not_a_bool() -> None:
    with pytest.raises(TypeError, match="True or False"):
        gamelib.style.load_style(projector="yes")  # type: ignore[arg-type]


# The classes JupyterLab 4 puts around a notebook, its own Presentation Mode rule (from its
# notebook CSS) and a cell of prose and code; our stylesheet follows, as in a notebook's first
# output. Chromium computes the font sizes.
PAGE = """<!doctype html><html><head><style>
:root {{ --jp-content-font-size1: 14px; --jp-code-font-size: 13px;
         --jp-content-presentation-font-size1: 17px; --jp-code-presentation-font-size: 16px; }}
.jp-mod-presentationMode .jp-Notebook {{
  --jp-content-font-size1: var(--jp-content-presentation-font-size1);
  --jp-code-font-size: var(--jp-code-presentation-font-size); }}
.jp-Notebook pre.native {{ font-size: var(--jp-code-font-size); }}
</style></head><body>
<div class="jp-LabShell {shell}"><div class="jp-Notebook">
<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown"><p id="prose">Prose</p></div>
<div class="jp-OutputArea-output"><pre id="output">output</pre></div>
<pre class="native" id="lab">code, sized by JupyterLab's variable</pre>
{style}
</div></div></body></html>"""


# Each page is put in an iframe of one document, with a script at its end that writes the
# computed sizes into the document around it (a srcdoc frame shares its parent's origin);
# Chromium prints that document once every frame has loaded (--dump-dom). One headless
# Chromium, no driver: a third of the CPU of Playwright's browser with a tab per page.
PROBE = """<script>
parent.document.getElementById("sizes-{index}").textContent = JSON.stringify(Object.fromEntries(
  ["prose", "output", "lab"].map(id => [id, getComputedStyle(document.getElementById(id)).fontSize])
));
</script></body>"""


def font_sizes(pages: list[str], tmp_path: Path) -> list[dict[str, str]]:
    """The computed font sizes of the elements prose, output and lab of each of ``pages`` in
    Chromium (each page must end with ``</body></html>``)."""
    frames = "".join(
        f'<pre id="sizes-{index}"></pre>'
        f'<iframe srcdoc="{escape(page.replace("</body>", PROBE.format(index=index)))}">'
        "</iframe>"
        for index, page in enumerate(pages))
    path = tmp_path / "pages.html"
    path.write_text(f"<!doctype html><html><body>{frames}</body></html>", encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dumped = subprocess.run([str(CHROMIUM), *flags, "--dump-dom", path.as_uri()],
                            capture_output=True, text=True, timeout=120, check=True).stdout
    found = re.findall(r'<pre id="sizes-(\d+)">(.*?)</pre>', dumped)
    assert [int(index) for index, _ in found] == list(range(len(pages))), dumped[-2000:]
    return [json.loads(unescape(sizes)) if sizes else {} for _, sizes in found]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")
def test_presentation_mode_and_projector_switch_give_hall_sizes(tmp_path: Path) -> None:
    cases = [("", False), ("jp-mod-presentationMode", False), ("", True),
             ("jp-mod-presentationMode", True)]
    pages = [PAGE.format(shell=shell, style=gamelib.style.load_style(projector=projector).data)
             for shell, projector in cases]
    plain, presentation, projector, both = font_sizes(pages, tmp_path)
    assert plain == {"prose": "17px", "output": "15px", "lab": "15px"}
    hall = {"prose": "22px", "output": "20px", "lab": "20px"}
    assert presentation == projector == both == hall


# ---------------------------------------------------------------------------------------------
# Re-runs: tools/run_notebooks.py
# ---------------------------------------------------------------------------------------------


def timed_notebook(seconds: str, ignored: str, fact: str, cut: int = 0) -> nbformat.NotebookNode:
    """Three cells: a time, an ignored output, and a fact printed in two messages if cut."""
    def stream(text: str) -> nbformat.NotebookNode:
        return nbformat.v4.new_output("stream", name="stdout", text=text)

    facts = [stream(fact[:cut]), stream(fact[cut:])] if cut else [stream(fact)]

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("timed()", execution_count=1,
                                  outputs=[stream(f"solved in {seconds} s\n")]),
        nbformat.v4.new_code_cell("depth()", execution_count=2, outputs=[stream(ignored)],
                                  metadata={"tags": ["nbval-ignore-output"]}),
        nbformat.v4.new_code_cell("fact()", execution_count=3, outputs=facts),
    ])
    return nb


@pytest.fixture
def rerun(tmp_path: Path) -> tuple[ModuleType, Path]:
    """The tool, with execute() replaced by one that 'reruns' by rewriting the outputs."""
    tool = run_notebooks_module()
    path = tmp_path / "lesson.ipynb"
    saved = tool.normalise(timed_notebook("12.5", "depth 4\n", "549,946 calls\n"))
    nbformat.write(saved, path)
    return tool, path


def fake_run(tool: ModuleType, monkeypatch: pytest.MonkeyPatch, fresh: nbformat.NotebookNode):
    def execute(nb: nbformat.NotebookNode, folder: Path, timeout: int) -> nbformat.NotebookNode:
        for cell, new in zip(nb.cells, fresh.cells, strict=True):
            cell.outputs = new.outputs
        return nb

    monkeypatch.setattr(tool, "execute", execute)


def test_a_rerun_that_differs_only_in_masked_noise_leaves_the_file_alone(
    rerun: tuple[ModuleType, Path], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tool, path = rerun
    before = path.read_bytes()
    # other times, another ignored output, and the same fact printed in two messages
    fake_run(tool, monkeypatch, timed_notebook("3.1", "depth 7\n", "549,946 calls\n", cut=4))
    assert tool.main([str(path)]) == 0
    assert path.read_bytes() == before
    assert tool.main(["--check", str(path)]) == 0
    assert capsys.readouterr().out.count("same    ") == 2


def test_a_rerun_with_a_changed_fact_is_written_and_check_reports_it(
    rerun: tuple[ModuleType, Path], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tool, path = rerun
    before = path.read_bytes()
    fake_run(tool, monkeypatch, timed_notebook("3.1", "depth 7\n", "16,168 calls\n"))
    assert tool.main(["--check", str(path)]) == 1
    assert path.read_bytes() == before  # --check never writes
    out = capsys.readouterr()
    assert "STALE" in out.out
    assert re.search(r'^ +- +"549,946 calls', out.out, re.MULTILINE)
    assert re.search(r'^ +\+ +"16,168 calls', out.out, re.MULTILINE)
    assert tool.main([str(path)]) == 0
    assert "16,168 calls" in path.read_text(encoding="utf-8")


def test_a_rerun_whose_ignored_output_gains_a_form_is_written(
    rerun: tuple[ModuleType, Path], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An ignored output's values are not compared, its shape is: a new form (a picture's
    HTML) or metadata key (its alt) is saved; other values of that output (its PNG) are not."""
    tool, path = rerun

    def picture(png: str, **more: str) -> nbformat.NotebookNode:
        fresh = timed_notebook("3.1", "depth 7\n", "549,946 calls\n")
        alt = {"image/png": {"alt": "A board."}} if more else {}
        fresh.cells[1].outputs = [nbformat.v4.new_output(
            "display_data", data={"image/png": png, "text/plain": "A board.", **more},
            metadata=alt)]
        return fresh

    fake_run(tool, monkeypatch, picture("iVBO"))
    assert tool.main([str(path)]) == 0
    before = path.read_bytes()
    fake_run(tool, monkeypatch, picture("iVBOother"))
    assert tool.main([str(path)]) == 0 and path.read_bytes() == before
    fake_run(tool, monkeypatch, picture("iVBO", **{"text/html": '<img alt="A board.">'}))
    assert tool.main([str(path)]) == 0
    assert '<img alt=\\"A board.\\">' in path.read_text(encoding="utf-8")


def test_rerun_masks_are_the_sanitizers_minus_the_version_masks() -> None:
    tool = run_notebooks_module()
    masks = tool.run_to_run_masks()
    nbval_masks = get_sanitize_patterns(SANITIZER.read_text(encoding="ascii"))
    assert 0 < len(masks) < len(nbval_masks)
    text = '12.5 ms at 0x7f3a2c1b0e50 <style id="gamelib-style">old</style>'
    for regex, replace in masks:
        text = regex.sub(replace, text)
    # times and addresses are masked; the stylesheet is not, so a changed style.css is saved
    assert text == '<time> at 0x<address> <style id="gamelib-style">old</style>'


def test_check_and_clear_do_not_mix(tmp_path: Path) -> None:
    tool = run_notebooks_module()
    path = tmp_path / "x.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), path)
    with pytest.raises(SystemExit) as exit_info:
        tool.main(["--check", "--clear", str(path)])
    assert exit_info.value.code == 2


def test_lesson_notebooks_saved_outputs_carry_the_current_stylesheet() -> None:
    css = gamelib.style.read_style()
    for path in LESSONS + PARTS:
        first = read(path).cells[0]
        html = "".join(out.get("data", {}).get("text/html", "") for out in first.outputs)
        assert css in html, f"{path.name}: rerun it with tools/run_notebooks.py"
