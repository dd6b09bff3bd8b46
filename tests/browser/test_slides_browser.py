"""The lessons' slides fit a 1280x800 projector (issue 21, "slides that fit the screen").

The slides are built as ``make slides`` builds them (tools/slides.py: the project's template,
sections cut into slides, the libraries from ``build/slides/lib``, which ``make slides``
fetches once with npm; without them the test is skipped and says so), into a temporary folder
served on 127.0.0.1. In Chromium at 1280x800 the test visits every slide of every lesson and
fails on any element whose box leaves the slide, naming the lesson, the slide and the element,
and on any formula that is not drawn exactly once in a box wider than 0 px (issue 36: MathJax's
formulas came out blank).
Every slide with a table, a picture or a board, and every slide that fails, leaves a screenshot
(``tests/screenshots/slides-<lesson>-<h>-<v>.jpg``) to look at.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import pytest

from .harness import PROJECT_ROOT, SCREENSHOTS, UI_TIMEOUT, serving_static

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSONS = sorted((PROJECT_ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
LIB = PROJECT_ROOT / "build" / "slides" / "lib"
SCREEN = {"width": 1280, "height": 800}
# The decks as the test builds them: reveal.js's `history` and `viewDistance` (see _VISIT_JS)
# and no CSS transitions or animations (tools/slides.py's build(still=True)).
TEST_REVEAL = {"history": False, "viewDistance": 1}


def slides_tool() -> ModuleType:
    """tools/slides.py as a module."""
    spec = importlib.util.spec_from_file_location("slides", PROJECT_ROOT / "tools" / "slides.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def slides_url(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Every lesson's slides, built without transitions and served on 127.0.0.1; their
    address (after the browser, which makes sure Chromium and Playwright are there).

    Built still: no CSS transition or animation. reveal.js's controls bounce the arrow to the
    next slide (2 s, 50 times: the walk's Reveal.slide() never counts as the reader's move that
    stops it) and its progress bar slides for 0.8 s after every move: each a frame drawn
    60 times a second in Chromium's compositor, outside the slide, for no measurement. They
    cost a screenshot half of its CPU (0.39 -> 0.17 CPU-s). A slide's layout has no part
    in them (its own transition is already "none")."""
    if not (LIB / "node_modules" / "reveal.js" / "dist" / "reveal.js").is_file():
        pytest.skip("reveal.js is not in build/slides/lib: run `make slides` once "
                    "(it fetches reveal.js and MathJax with npm)")
    folder = tmp_path_factory.mktemp("slides")
    (folder / "lib").symlink_to(LIB, target_is_directory=True)
    slides_tool().build(LESSONS, folder, transition="none", reveal=TEST_REVEAL, still=True)
    with serving_static(folder) as url:
        yield url


@pytest.fixture(scope="module")
def deck_page(browser: Browser) -> Iterator[Page]:
    """One page at 1280x800 for every lesson's slides, each loaded in turn: the libraries the
    decks share (reveal.js, MathJax) come from the browser's cache after the first lesson, and
    their scripts from its code cache (a context of their own for each lesson cost twice the
    CPU). Each lesson is a new document: nothing a deck did stays for the next."""
    context = browser.new_context(viewport=SCREEN)
    try:
        page = context.new_page()
        page.set_default_timeout(UI_TIMEOUT)
        yield page
    finally:
        context.close()


# Visits every slide of the page in order (reveal.js's own API, which the template hands
# over as window.gamelibReveal) and returns, for each, [h, v, scale, what leaves the slide,
# whether it has a table]. A slide is measured once it has settled: its pictures decoded,
# MathJax done with it (no TeX left in its prose) and the template's fitting done (the height
# it wrote on the slide is the content's height now).
#
# What leaves the slide: each element whose box is not inside the slide's box (the .slides
# frame, scaled by reveal.js), with the parts that stick out, in CSS pixels of the slide. An
# element is named once; its descendants that stick out no further are left out, and so is
# MathJax's invisible copy of each formula for screen readers (.MJX_Assistive_MathML).
#
# The test's decks are built without reveal.js's `history` (TEST_REVEAL; the deck writes each
# slide's address into the URL: a navigation of the page per slide, a third of the walk's CPU,
# in the browser's own process, its compositor and Playwright's driver; set at initialize, not
# with Reveal.configure() at the walk, whose sync() of the whole deck cost about 0.2 s a deck).
# The address plays no part in a slide's
# layout: over two runs each way, every verdict was the same, and so was every scale but those
# of the few slides whose scale varies from one run to the next either way (Lesson 0's slide
# 5/0 was fitted to 1 in one run with history and to 0.842 in another).
# They also keep only the slides next to the current one laid out (viewDistance 1 instead of 3:
# reveal.js shows the slides within that distance, display:block, for its transitions), which
# plays no part in the current slide's layout either: Chromium's style recalculations over the
# walk of Lessons 4 and 8 took 1.0-1.1 s instead of 1.6-1.7 s (CDP Performance metrics).
_VISIT_JS = r"""async () => {
    const Reveal = window.gamelibReveal;
    const frameOf = () => document.querySelector('.reveal .slides').getBoundingClientRect();
    const nextFrame = () => new Promise(done => requestAnimationFrame(() => done()));
    const settled = async slide => {
        await Promise.all(Array.from(slide.querySelectorAll('img'),
                                     i => i.decode().catch(() => 0)));
        if (window.MathJax && MathJax.Hub) await new Promise(done => MathJax.Hub.Queue(done));
        const prose = Array.from(slide.querySelectorAll('.jp-RenderedMarkdown'),
                                 m => m.innerText);
        if (prose.some(text => /\$|\\\(|\\\[/.test(text))) return false;
        const box = slide.querySelector(':scope > .gamelib-fit');
        const height = box && box.getBoundingClientRect().height / (frameOf().width / 1280);
        return Math.abs(slide.getAttribute('data-gamelib-height') - height) <= 1;
    };
    const leaving = slide => {
        const frame = frameOf();
        const scale = frame.width / 1280;
        const out = [], named = [];
        for (const el of [slide, ...slide.querySelectorAll('*')]) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) continue;
            if (getComputedStyle(el).visibility === 'hidden') continue;
            // MathJax's copy of a formula for screen readers: MathML in a 1x1 px box that clips
            // it (overflow hidden, clip), never seen; the formula drawn is checked (.mjx-chtml).
            if (el.closest('.MJX_Assistive_MathML')) continue;
            const past = {
                left: (frame.left - r.left) / scale, top: (frame.top - r.top) / scale,
                right: (r.right - frame.right) / scale, bottom: (r.bottom - frame.bottom) / scale,
            };
            const sticks = Object.entries(past).filter(([, d]) => d > 1);
            if (!sticks.length) continue;
            if (named.some(n => n.el.contains(el)
                           && sticks.every(([k, d]) => n.past[k] >= d - 1))) continue;
            named.push({el, past});
            const classes = typeof el.className === 'string' ? el.className.trim() : '';
            const name = el.tagName.toLowerCase()
                + (classes ? '.' + classes.split(/\s+/).slice(0, 2).join('.') : '');
            const text = (el.textContent || el.getAttribute('alt') || '').trim().slice(0, 50);
            out.push(`${name} "${text}" past the ` +
                     sticks.map(([k, d]) => `${k} by ${Math.round(d)} px`).join(', '));
        }
        return out;
    };
    // Every formula of the slide (MathJax's <script type="math/tex">) drawn once, in a box wider
    // than 0 px (MathJax's CommonHTML frame, the script's id + "-Frame").
    const formulas = slide => {
        const scripts = Array.from(slide.querySelectorAll('script[type^="math/tex"]'));
        const wrong = [];
        for (const script of scripts) {
            const tex = script.textContent.trim().slice(0, 40);
            const frames = slide.querySelectorAll(`[id="${script.id}-Frame"]`);
            if (frames.length !== 1) {
                wrong.push(`formula "${tex}" drawn ${frames.length} times`);
                continue;
            }
            const width = frames[0].getBoundingClientRect().width;
            if (!(width > 0)) wrong.push(`formula "${tex}" is ${width} px wide (blank)`);
        }
        const drawn = slide.querySelectorAll('.MathJax_CHTML').length;
        if (drawn !== scripts.length) {
            wrong.push(`${drawn} formulas drawn for ${scripts.length} in the slide`);
        }
        return wrong;
    };
    const results = [];
    const slides = Array.from(document.querySelectorAll('.reveal .slides > section'))
        .flatMap((s, h) => {
            const inner = s.querySelectorAll(':scope > section');
            return inner.length ? Array.from(inner, (_, v) => [h, v]) : [[h, 0]];
        });
    for (const [h, v] of slides) {
        Reveal.slide(h, v);
        const slide = Reveal.getCurrentSlide();
        let ready = false;
        for (let i = 0; i < 300 && !ready; i++) {
            ready = await settled(slide);
            if (!ready) await nextFrame();
        }
        const out = ready ? leaving(slide).concat(formulas(slide))
                          : ['the slide never settled (MathJax or fitting)'];
        results.push([h, v, parseFloat(slide.getAttribute('data-gamelib-scale')), out,
                      slide.querySelector('table') !== null]);
    }
    return results;
}"""


# Shows slide [h, v] and returns once its pictures are decoded and MathJax's queue is empty: a
# condition, not a fixed pause. No frame is waited for: the screenshot draws one of its own
# (two painted frames before it, as before, cost 0.05 CPU-s a screenshot for the same picture).
_SHOW_JS = r"""async ([h, v]) => {
    window.gamelibReveal.slide(h, v);
    const slide = window.gamelibReveal.getCurrentSlide();
    await Promise.all(Array.from(slide.querySelectorAll('img'), i => i.decode().catch(() => 0)));
    if (window.MathJax && MathJax.Hub) await new Promise(done => MathJax.Hub.Queue(done));
}"""


def screenshot(page: Page, name: str, h: int, v: int) -> None:
    """Show slide ``h``/``v`` and save it as tests/screenshots/slides-<name>-<h>-<v>.jpg (a
    JPEG of quality 90, as readable as a PNG: Chromium's PNG cost 0.19 CPU-s a screenshot,
    three fifths of this test's screenshots and nearly a fifth of the whole test)."""
    page.evaluate(_SHOW_JS, [h, v])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"slides-{name}-{h}-{v}.jpg"), type="jpeg",
                    quality=90)


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem[:2] for p in LESSONS])
def test_every_slide_fits_1280x800(deck_page: Page, slides_url: str, lesson: Path) -> None:
    page = deck_page
    remote: list[str] = []

    def outside(request: Request) -> None:
        if urlparse(request.url).hostname not in {"127.0.0.1", None} and not \
                request.url.startswith("data:"):
            remote.append(request.url)

    page.on("request", outside)
    try:
        name = lesson.stem
        page.goto(f"{slides_url}{name}.slides.html", wait_until="load")
        page.wait_for_function("() => window.gamelibReveal && window.gamelibReveal.isReady()")
        visited = page.evaluate(_VISIT_JS)
        assert len(visited) > 3, f"{name}: only {len(visited)} slides"
        wrong = [f"{name} slide {h}/{v}: {what}" for h, v, _, out, _ in visited for what in out]
        # Evidence to look at: the slides that fail, the two scaled down most, those with tables.
        smallest = sorted(visited, key=lambda slide: slide[2])[:2]
        for h, v, scale, out, table in visited:
            if out or table or [h, v, scale, out, table] in smallest:
                screenshot(page, name[:2], h, v)
        print(name, "scales below 0.8:",
              {f"{h}/{v}": scale for h, v, scale, _, _ in visited if scale < 0.8})
        assert not wrong, (f"{len(wrong)} elements leave their slide or formulas do not show:\n"
                           + "\n".join(wrong))
        assert not remote, f"{name}: the slides fetch from the network: {remote}"
    finally:
        page.remove_listener("request", outside)
