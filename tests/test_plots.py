"""gamelib.plots draws the right artists with the right labels, and refuses bad input."""

from __future__ import annotations

import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from gamelib.game import GameError  # noqa: E402
from gamelib.plots import (  # noqa: E402
    HALL_RC,
    TreeNode,
    draw_game_tree,
    hall_style,
    plot_cost_by_stones,
    plot_nodes_per_depth,
    plot_search_counts,
    plot_shares,
    plot_training_loss,
)


@pytest.fixture(autouse=True)
def _close_figures():  # type: ignore[no-untyped-def]
    yield
    plt.close("all")


ROWS = [
    {"algorithm": "minimax", "calls": 549_946, "states": 5_478, "cache_entries": None},
    {"algorithm": "memo", "calls": 16_168, "states": 5_478, "cache_entries": {"=": 5_478}},
    {"algorithm": "alpha-beta", "calls": 20_866, "states": 7_000},
]


def bars(ax):  # type: ignore[no-untyped-def]
    return [p for p in ax.patches if isinstance(p, Rectangle)]


# -- plot_search_counts ---------------------------------------------------------------


def test_search_counts_draws_one_bar_per_present_count() -> None:
    ax = plot_search_counts(ROWS)
    heights = sorted(round(b.get_height()) for b in bars(ax))
    # minimax: 2 bars, memo: 3 bars (cache entries summed), alpha-beta: 2 bars
    assert heights == sorted([549_946, 5_478, 16_168, 5_478, 5_478, 20_866, 7_000])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["minimax", "memo", "alpha-beta"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "calls", "distinct states", "cache entries",
    ]
    assert ax.get_yscale() == "log"
    bottom, top = ax.get_ylim()
    assert bottom == 1 and top > 549_946  # bars start at 10**0; the tallest label fits
    labels = {t.get_text() for t in ax.texts}
    assert {"549,946", "5,478", "16,168", "20,866", "7,000"} <= labels


def test_search_counts_groups_bars_around_each_algorithm() -> None:
    ax = plot_search_counts(ROWS)
    centres = [b.get_x() + b.get_width() / 2 for b in bars(ax)]
    groups = [sum(1 for c in centres if abs(c - tick) < 0.4) for tick in (0, 1, 2)]
    assert groups == [2, 3, 2]  # minimax has no cache entries, alpha-beta none given


def test_search_counts_linear_scale_and_given_axes() -> None:
    _, ax = plt.subplots()
    result = plot_search_counts(ROWS[:1], ax=ax, log=False, metrics=["calls"])
    assert result is ax
    assert ax.get_yscale() == "linear"
    assert [round(b.get_height()) for b in bars(ax)] == [549_946]
    assert ax.get_ylabel() == "count"


def test_search_counts_accepts_stats_as_dict() -> None:
    from gamelib.search.stats import Stats

    stats = Stats(calls=10, cache_entries={"=": 3, "≤": 2, "≥": 1})
    stats.visited.update({1, 2, 3, 4})
    ax = plot_search_counts([{"algorithm": "x", **stats.as_dict()}])
    assert sorted(round(b.get_height()) for b in bars(ax)) == [4, 6, 10]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], "non-empty"),
        ({"algorithm": "a"}, "non-empty"),
        ([{"calls": 3}], "'algorithm' name"),
        ([{"algorithm": "a", "calls": -1}], "count"),
        ([{"algorithm": "a", "calls": 2.5}], "count"),
        ([{"algorithm": "a", "calls": True}], "count"),
        ([{"algorithm": "a"}], "no row has any"),
        (["minimax"], "mapping"),
    ],
)
def test_search_counts_rejects_bad_rows(rows: object, message: str) -> None:
    with pytest.raises(GameError, match=message):
        plot_search_counts(rows)  # type: ignore[arg-type]


def test_search_counts_rejects_unknown_metric() -> None:
    with pytest.raises(GameError, match="metrics must name"):
        plot_search_counts(ROWS, metrics=["seconds"])


def test_search_counts_rejects_non_axes() -> None:
    with pytest.raises(GameError, match="Axes"):
        plot_search_counts(ROWS, ax="left")  # type: ignore[arg-type]


# -- plot_nodes_per_depth and plot_cost_by_stones ------------------------------------


def test_nodes_per_depth_plots_sorted_points_with_label() -> None:
    ax = plot_nodes_per_depth({3: 400, 1: 8, 2: 60}, label="alpha-beta")
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [1, 2, 3]
    assert list(line.get_ydata()) == [8.0, 60.0, 400.0]
    assert line.get_label() == "alpha-beta"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["alpha-beta"]
    assert ax.get_yscale() == "log"
    assert ax.get_xlabel() == "depth (plies)"


def test_nodes_per_depth_two_lines_on_one_axes() -> None:
    ax = plot_nodes_per_depth({1: 7, 2: 49}, label="minimax")
    plot_nodes_per_depth({1: 7, 2: 13}, ax=ax, label="alpha-beta")
    assert [line.get_label() for line in ax.get_lines()] == ["minimax", "alpha-beta"]
    assert ax.get_legend() is not None
    assert len(ax.get_legend().get_texts()) == 2


def test_nodes_per_depth_without_label_has_no_legend() -> None:
    ax = plot_nodes_per_depth({0: 1})
    assert ax.get_legend() is None


@pytest.mark.parametrize(
    "data", [{}, {-1: 3}, {1.5: 3}, {1: 0}, {1: -2}, {1: "many"}, [(1, 2)]]
)
def test_nodes_per_depth_rejects_bad_data(data: object) -> None:
    with pytest.raises(GameError):
        plot_nodes_per_depth(data)  # type: ignore[arg-type]


def test_nodes_per_depth_allows_zero_on_linear_scale() -> None:
    ax = plot_nodes_per_depth({1: 0, 2: 5}, log=False)
    assert ax.get_yscale() == "linear"
    assert list(ax.get_lines()[0].get_ydata()) == [0.0, 5.0]


def test_cost_by_stones_sorts_by_stones_and_labels_axes() -> None:
    ax = plot_cost_by_stones([12, 8, 10], [50.0, 9000.0, 700.0], ylabel="states")
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [8, 10, 12]
    assert list(line.get_ydata()) == [9000.0, 700.0, 50.0]
    assert ax.get_ylabel() == "states (log scale)"
    assert ax.get_xlabel() == "stones on the board"
    assert ax.get_yscale() == "log"


@pytest.mark.parametrize(
    ("stones", "costs", "message"),
    [
        ([], [], "equal length"),
        ([1, 2], [3.0], "equal length"),
        ([-1], [3.0], "stones must be"),
        ([1], [0.0], "> 0 on a log scale"),
        ([1], [None], "numbers"),
    ],
)
def test_cost_by_stones_rejects_bad_data(
    stones: list[int], costs: list[float], message: str
) -> None:
    with pytest.raises(GameError, match=message):
        plot_cost_by_stones(stones, costs)


# -- TreeNode and draw_game_tree ------------------------------------------------------


def small_tree() -> TreeNode:
    """A max root with two min children; the second child's second move is pruned."""
    return TreeNode(
        "root", 0, True,
        [
            TreeNode("a", 0, False, [TreeNode("a1", 0, True), TreeNode("a2", 1, True)],
                     note="[-1, 1]"),
            TreeNode(
                "b", -1, False,
                [
                    TreeNode("b1", -1, True),
                    TreeNode("b2", None, True, [TreeNode("b2x", 1, False)], pruned=True),
                ],
                note="[0, 1]",
            ),
        ],
    )


def test_tree_walk_size_and_visited() -> None:
    tree = small_tree()
    assert [(d, n.label) for d, n in tree.walk()] == [
        (0, "root"), (1, "a"), (2, "a1"), (2, "a2"), (1, "b"), (2, "b1"), (2, "b2"), (3, "b2x"),
    ]
    assert tree.size() == 8
    assert tree.visited() == 6  # b2 and the node below it were never searched


def edges(ax, gid):  # type: ignore[no-untyped-def]
    return [line for line in ax.get_lines() if isinstance(line, Line2D) and line.get_gid() == gid]


def test_draw_game_tree_styles_pruned_edges_differently() -> None:
    ax = draw_game_tree(small_tree(), title="a tree")
    solid, dashed = edges(ax, "edge"), edges(ax, "pruned-edge")
    assert len(solid) == 5  # root-a, a-a1, a-a2, root-b, b-b1
    assert len(dashed) == 2  # b-b2, b2-b2x
    assert {line.get_linestyle() for line in solid} == {"-"}
    assert {line.get_linestyle() for line in dashed} == {"--"}
    assert {to_hex(line.get_color()) for line in solid} == {"#222222"}
    assert {to_hex(line.get_color()) for line in dashed} == {"#a0a0a0"}
    assert ax.get_title() == "a tree"


def test_draw_game_tree_nodes_shapes_and_texts() -> None:
    ax = draw_game_tree(small_tree())
    nodes, pruned = edges(ax, "node"), edges(ax, "pruned-node")
    assert len(nodes) == 6 and len(pruned) == 2
    assert sorted(n.get_marker() for n in nodes) == ["o", "o", "s", "s", "s", "s"]
    texts = [t.get_text() for t in ax.texts]
    for label in ("a", "a1", "a2", "b", "b1", "b2", "b2x", "root", "[-1, 1]", "[0, 1]"):
        assert label in texts
    assert texts.count("-1") == 2  # node b and leaf b1
    assert texts.count("") == 1  # the pruned node b2 has no value
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "max to move", "min to move", "pruned",
    ]


def test_draw_game_tree_places_parents_above_and_between_children() -> None:
    ax = draw_game_tree(small_tree())
    position = {}
    for line in edges(ax, "node") + edges(ax, "pruned-node"):
        position[len(position)] = (line.get_xdata()[0], line.get_ydata()[0])
    points = sorted(position.values(), key=lambda p: (-p[1], p[0]))
    # depth 0: one node at x=1.5; depth 1 at x=0.5 and 2.5; leaves 0..3; b2x below b2 at 3
    assert points == [
        (1.5, 0), (0.5, -1), (2.5, -1), (0.0, -2), (1.0, -2), (2.0, -2), (3.0, -2), (3.0, -3),
    ]


def test_draw_game_tree_formats_fractional_values() -> None:
    ax = draw_game_tree(TreeNode("", 0.25, True, [TreeNode("m", 0.5, False)]))
    texts = [t.get_text() for t in ax.texts]
    assert "0.25" in texts and "0.50" in texts


def test_draw_game_tree_writes_bounds_before_values() -> None:
    tree = TreeNode("", 0, True, [TreeNode("m", 0, False, bound="≤"), TreeNode("n", 1, False)])
    texts = [t.get_text() for t in draw_game_tree(tree).texts]
    assert "≤0" in texts and "1" in texts and "≥1" not in texts
    with pytest.raises(GameError, match="bound must be one of"):
        draw_game_tree(TreeNode("x", 1, bound="<="))


def test_draw_game_tree_on_given_axes() -> None:
    _, ax = plt.subplots()
    assert draw_game_tree(TreeNode("only", 1), ax=ax) is ax
    assert not ax.axison


def test_draw_game_tree_rejects_non_trees() -> None:
    with pytest.raises(GameError, match="TreeNode"):
        draw_game_tree({"label": "x"})  # type: ignore[arg-type]
    with pytest.raises(GameError, match="children must be TreeNodes"):
        draw_game_tree(TreeNode("x", children=["y"]))  # type: ignore[list-item]
    leaf = TreeNode("leaf", 1)
    with pytest.raises(GameError, match="appears twice"):
        draw_game_tree(TreeNode("x", children=[leaf, leaf]))


@pytest.fixture
def hall():  # type: ignore[no-untyped-def]
    """The hall style for one test, matplotlib's defaults again afterwards."""
    settings = hall_style()
    yield settings
    matplotlib.rcdefaults()


def test_hall_style_sets_labels_of_at_least_14_pt_and_wide_figures(hall) -> None:
    assert hall == HALL_RC
    for key in ("font.size", "axes.labelsize", "xtick.labelsize", "ytick.labelsize",
                "legend.fontsize", "axes.titlesize"):
        assert float(plt.rcParams[key]) >= 14, key
    width, _ = plt.rcParams["figure.figsize"]
    assert width * plt.rcParams["figure.dpi"] == 960  # a notebook's content width at 1280x800


def test_charts_grow_with_the_hall_style_but_not_beyond_its_width(hall) -> None:
    figure = plot_nodes_per_depth({1: 7, 2: 56}).figure
    assert tuple(figure.get_size_inches()) == pytest.approx((9.0, 4.0 * 5.0 / 4.8))
    five = [{"algorithm": f"a{k}", "calls": k + 1} for k in range(5)]  # 10 in by default
    assert plot_search_counts(five).figure.get_size_inches()[0] == pytest.approx(10.0)


def test_charts_keep_their_size_in_matplotlibs_default_style() -> None:
    assert tuple(plot_nodes_per_depth({1: 7}).figure.get_size_inches()) == (6.0, 4.0)


def test_the_tree_text_follows_the_font_size(hall) -> None:
    ax = draw_game_tree(small_tree())
    sizes = {t.get_text(): t.get_fontsize() for t in ax.texts}
    assert sizes["-1"] == 14 and sizes["a"] == pytest.approx(12.6)
    assert sizes["[0, 1]"] == pytest.approx(11.2)
    legend = ax.get_legend()
    assert all(t.get_fontsize() >= 11 for t in legend.get_texts())


def test_a_tree_drawn_to_a_depth_counts_the_nodes_left_out() -> None:
    ax = draw_game_tree(small_tree(), depth=1)
    nodes = edges(ax, "node") + edges(ax, "pruned-node")
    assert len(nodes) == 3  # the root, a and b
    texts = [t.get_text() for t in ax.texts]
    assert "[-1, 1]\n+2" in texts and "[0, 1]\n+3" in texts  # a1, a2; b1, b2, b2x
    assert "a1" not in texts
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(GameError, match="depth must be None or a whole number >= 1"):
            draw_game_tree(small_tree(), depth=bad)  # type: ignore[arg-type]


# That gamelib.games and gamelib.search (every submodule, gamelib.game with them) import no
# matplotlib is checked in a fresh interpreter by tests/test_packaging.py
# (test_games_and_search_import_no_ui_library: matplotlib is one of its UI_MODULES).


HALL_AFTER = """
import sys
from gamelib.style import load_style
load_style(); load_style()
print('matplotlib' in sys.modules, end=' ')
{importing}
import matplotlib
print(matplotlib.rcParams['font.size'], tuple(matplotlib.rcParams['figure.figsize']), end=' ')
print(sum(type(f).__name__ == '_HallStyleOnImport' for f in sys.meta_path))
"""

IMPORTINGS = ["import matplotlib.pyplot", "import gamelib.plots",
              "from gamelib.plots import plot_nodes_per_depth"]

HALL_FORKED = """
import os, sys, traceback
from gamelib.style import load_style
load_style(); load_style()
print('matplotlib' in sys.modules)
import matplotlib; matplotlib.use('Agg')
import matplotlib.backend_bases, matplotlib.figure   # what pyplot imports, but not pyplot
failed = 0
for importing in {importings!r}:
    sys.stdout.flush()
    child = os.fork()
    if child == 0:
        try:
            exec(importing)
            import matplotlib
            print(repr(importing), matplotlib.rcParams['font.size'],
                  tuple(matplotlib.rcParams['figure.figsize']),
                  sum(type(f).__name__ == '_HallStyleOnImport' for f in sys.meta_path))
            sys.stdout.flush()
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        os._exit(0)
    failed += os.waitpid(child, 0)[1] != 0
sys.exit(failed)
"""


@pytest.fixture(scope="module")
def hall_after() -> dict[str, str]:
    """For each of IMPORTINGS: whether load_style (called twice) loaded matplotlib, then the
    font size, figure size and hooks left once that import has brought pyplot.

    Each import must be the process's first of pyplot. One interpreter, where fork is
    available, loads matplotlib and the modules pyplot imports (pyplot itself not) after
    load_style, and forks a child per import: the hook sees each child's pyplot and
    gamelib.plots come exactly as in a fresh interpreter (the modules loaded before are
    ones it lets pass anyway), and three pyplot imports cost one (2 s of CPU each).
    Elsewhere, a fresh interpreter per import."""
    if not hasattr(os, "fork"):
        results = {}
        for importing in IMPORTINGS:
            code = "import matplotlib; matplotlib.use('Agg')\n" + importing
            out = subprocess.run([sys.executable, "-c", HALL_AFTER.format(importing=code)],
                                 capture_output=True, text=True, check=True)
            results[importing] = out.stdout.strip()
        return results
    out = subprocess.run([sys.executable, "-c", HALL_FORKED.format(importings=IMPORTINGS)],
                         capture_output=True, text=True, check=True)
    loaded, *lines = out.stdout.strip().splitlines()
    assert len(lines) == len(IMPORTINGS), out.stdout
    return {importing: f"{loaded} {line.removeprefix(repr(importing) + ' ')}"
            for importing, line in zip(IMPORTINGS, lines, strict=True)}


@pytest.mark.parametrize("importing", IMPORTINGS)
def test_load_style_sets_the_hall_style_when_pyplot_comes(importing: str,
                                                         hall_after: dict[str, str]) -> None:
    """A notebook without charts never loads matplotlib (a third of a second of CPU at each
    kernel start); the first import of pyplot, directly or through gamelib.plots, brings
    the hall style with it, and the import hook is gone."""
    assert hall_after[importing].split(" ", 1) == ["False", "14.0 (9.6, 5.0) 0"]


def test_load_style_with_pyplot_loaded_sets_the_hall_style_at_once() -> None:
    code = ("import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt\n"
            "from gamelib.style import load_style; load_style()\n"
            "print(plt.rcParams['font.size'],\n"
            "      sum(type(f).__name__ == '_HallStyleOnImport' for f in sys.meta_path))")
    out = subprocess.run([sys.executable, "-c", "import sys\n" + code],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["14.0", "0"]


# -- numbers no plot can draw: 10**400, infinities -------------------------------------------

UNDRAWABLE = [10**400, -(10**400), 10**5000, float("inf"), 10**16]


@pytest.mark.parametrize("value", UNDRAWABLE, ids=["e400", "-e400", "e5000", "inf", "e16"])
def test_plots_refuse_numbers_they_cannot_draw_in_a_short_message(value: object) -> None:
    calls = [
        lambda: plot_search_counts([{"algorithm": "a", "calls": value}]),
        lambda: plot_nodes_per_depth({0: 1, 1: value}),
        lambda: plot_nodes_per_depth({value: 1}),
        lambda: plot_cost_by_stones([1, 2], [1, value]),
        lambda: plot_cost_by_stones([value, 2], [1, 1]),
    ]
    for k, call in enumerate(calls):
        if value == 10**16 and k in (1, 3):
            continue  # a cost or a node count of 1e16 is a finite number: drawn
        with pytest.raises(GameError) as caught:
            call()
        assert len(str(caught.value)) < 200
    plt.close("all")


# -- plot_training_loss ----------------------------------------------------------------

def test_training_loss_draws_one_point_per_epoch_from_zero() -> None:
    ax = plot_training_loss([1.1, 0.7, 0.5], label="net")
    x, y = ax.lines[0].get_data()
    assert list(x) == [0, 1, 2] and list(y) == [1.1, 0.7, 0.5]
    assert ax.get_ylim()[0] == 0 and ax.get_legend() is not None
    plt.close("all")


@pytest.mark.parametrize("losses", [[], "abc", [0.5, -1.0], [float("nan")], [True]])
def test_training_loss_refuses_what_is_not_a_loss_curve(losses: object) -> None:
    with pytest.raises(GameError, match="loss"):
        plot_training_loss(losses)  # type: ignore[arg-type]


def test_plot_shares_draws_one_line_per_label_and_refuses_bad_shares() -> None:
    ax = plot_shares({"UCT": {10: 0.5, 100: 0.9}, "PUCT": {10: 0.7, 100: 1.0}})
    assert [line.get_label() for line in ax.get_lines()] == ["UCT", "PUCT"]
    assert list(ax.get_lines()[1].get_ydata()) == [0.7, 1.0] and ax.get_xscale() == "log"
    with pytest.raises(GameError, match="shares must be numbers from 0 to 1"):
        plot_shares({"UCT": {10: 1.5}})
    with pytest.raises(GameError, match="budgets must be 1 or more"):
        plot_shares({"UCT": {0: 0.5}})


# -- alt text: what a chart shows, in words ------------------------------------------------------


def test_a_chart_is_described_by_its_title_labels_categories_and_key() -> None:
    from gamelib.alt_text import describe_figure

    ax = plot_search_counts(ROWS)
    ax.set_title("Work per algorithm")
    ax.figure.canvas.draw()
    assert describe_figure(ax.figure) == (
        "Chart: Work per algorithm; count (log scale); x: minimax, memo, alpha-beta; "
        "key: calls, distinct states, cache entries.")


def test_a_figure_of_several_panels_numbers_them_and_an_empty_one_says_so() -> None:
    from gamelib.alt_text import describe_figure

    figure, (left, right) = plt.subplots(1, 2)
    figure.suptitle("Two\nlines")
    left.plot([1, 2], [3, 4], label="a")
    left.legend()
    right.set_axis_off()
    assert describe_figure(figure) == "Chart: Two lines; (1) key: a; (2) an empty panel."
    assert describe_figure(plt.figure()) == "Chart: no title, labels or key."


def test_numbers_on_the_ticks_are_not_described_words_are() -> None:
    from gamelib.alt_text import describe_figure

    ax = plot_shares({"column 7": {100: 0.5, 1000: 0.25}}, xlabel="iterations",
                     ylabel="share")
    ax.figure.canvas.draw()  # log-scale ticks: "$\\mathdefault{10^{2}}$"
    assert describe_figure(ax.figure) == (
        "Chart: share against iterations; key: column 7.")
    _figure, bars = plt.subplots()
    bars.bar(["minimax", "alpha-beta"], [3, 4])
    bars.figure.canvas.draw()
    assert describe_figure(bars.figure) == "Chart: x: minimax, alpha-beta."


def test_ipython_shows_a_figure_with_its_alt_text_and_draws_it_once() -> None:
    """load_style() has IPython show every Figure as the inline backend's PNG with the
    figure's description as alt text (metadata), and as an HTML <img> of that same PNG with
    that alt; the PNG printer is called once per display, not twice."""
    import html

    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib.figure import Figure

    from gamelib import alt_text
    from gamelib.alt_text import describe_figure
    from gamelib.style import load_style

    shell = InteractiveShell.instance()
    png = shell.display_formatter.formatters["image/png"]
    bundles = shell.display_formatter.mimebundle_formatter
    calls: list[Figure] = []

    def printer(figure: Figure) -> str:
        calls.append(figure)
        return "iVBORw0KGgo="

    png.for_type(Figure, printer)
    try:
        load_style()
        ax = plot_nodes_per_depth({1: 7, 2: 56}, label="no pruning")
        data, metadata = shell.display_formatter.format(ax.figure)
        alt = describe_figure(ax.figure)
        assert calls == [ax.figure]
        assert data["image/png"] == "iVBORw0KGgo=" and metadata == {"image/png": {"alt": alt}}
        assert data["text/html"] == (f'<img alt="{html.escape(alt)}" src="data:image/png;'
                                     'base64,iVBORw0KGgo=" '
                                     'style="display: block; margin-bottom: 0">')
        shell.display_formatter.format(ax.figure)
        assert len(calls) == 2  # the printer moved: still one call per display
    finally:
        alt_text._PNG_PRINTER.clear()
        png.pop(Figure, None)
        bundles.pop(Figure, None)
