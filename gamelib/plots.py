"""Matplotlib charts of what a search did: counts per algorithm, per depth, per stone, and trees.

This is the only module of :mod:`gamelib` that imports matplotlib; ``gamelib.games`` and
``gamelib.search`` never do. Every function draws on the axes it is given (or on a fresh
figure's axes) and returns those axes, so that a notebook can add a title or combine
several charts::

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from gamelib.plots import plot_nodes_per_depth
    >>> ax = plot_nodes_per_depth({1: 7, 2: 56, 3: 392}, label="no pruning")
    >>> ax.get_yscale()
    'log'

A small game tree is described by :class:`TreeNode` and drawn by :func:`draw_game_tree`;
the lesson on alpha-beta pruning builds one by tracing the search.

For a lecture hall, :func:`hall_style` sets matplotlib's defaults (:data:`HALL_RC`): text of
14 pt and more, figures as wide as a notebook's content. The charts here follow those
defaults: their sizes scale with ``figure.figsize`` and the tree's text with ``font.size``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from gamelib.game import GameError, describe_text

__all__ = [
    "HALL_RC", "hall_style", "TreeNode", "plot_search_counts", "plot_nodes_per_depth",
    "plot_cost_by_stones", "plot_training_loss", "plot_shares", "draw_game_tree",
    "SEARCH_METRICS", "MAX_PLOTTED",
]

SEARCH_METRICS: tuple[str, ...] = ("calls", "states", "cache_entries")
"""The counts that :func:`plot_search_counts` draws, in this order, when a row has them."""

_METRIC_LABELS = {"calls": "calls", "states": "distinct states", "cache_entries": "cache entries"}
_METRIC_COLORS = {"calls": "#4c72b0", "states": "#dd8452", "cache_entries": "#55a868"}
_PRUNED_COLOR = "#a0a0a0"
_INK = "#222222"


HALL_RC: dict[str, Any] = {
    "figure.figsize": (9.6, 5.0), "figure.dpi": 100, "font.size": 14, "axes.titlesize": 17,
    "axes.labelsize": 15, "xtick.labelsize": 14, "ytick.labelsize": 14, "legend.fontsize": 14,
    "figure.titlesize": 18, "lines.linewidth": 2.2, "lines.markersize": 8,
}
"""matplotlib's defaults for a lecture hall: 960-pixel-wide figures (a notebook's content
width at 1280x800, so that they show at their size, not shrunk), and labels of at least
14 pt (19 px at 100 dpi), readable from the back of the hall."""

_DEFAULT_FIGSIZE = (6.4, 4.8)
"""matplotlib's own default figure size, for which the sizes below are written."""


def hall_style() -> dict[str, Any]:
    """Set matplotlib's defaults (``rcParams``) to :data:`HALL_RC`; return the settings.

    ``gamelib.style.load_style()`` has it called (at once, or when pyplot is first
    imported), so every lesson's charts are hall-sized; ``matplotlib.rcdefaults()`` undoes
    it.

    >>> import matplotlib
    >>> settings = hall_style()
    >>> matplotlib.rcParams["font.size"] >= 14 and settings["figure.figsize"] == (9.6, 5.0)
    True
    >>> matplotlib.rcdefaults()
    """
    plt.style.use(HALL_RC)
    return dict(HALL_RC)


def _new_axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    """``ax`` itself, or the axes of a new figure of ``size`` inches as matplotlib's default
    style sees them: scaled by how much larger the current default figure size is."""
    if ax is not None:
        if not isinstance(ax, Axes):
            raise GameError(f"ax must be a matplotlib Axes or None, not {type(ax).__name__}")
        return ax
    width, height = plt.rcParams["figure.figsize"]
    # Wider defaults make charts wider, but no wider than the default width (or the size
    # asked for, if that is wider still): a chart wider than the page is shrunk, text too.
    grown = size[0] * (width / _DEFAULT_FIGSIZE[0])
    scaled = (min(grown, max(width, size[0])), size[1] * (height / _DEFAULT_FIGSIZE[1]))
    _figure, new = plt.subplots(figsize=scaled)
    return new


MAX_PLOTTED = 10**15
"""The largest count, depth or number of stones a plot takes (a float holds it exactly;
a larger one, such as ``10**400``, cannot be drawn and is refused)."""


def _count(value: object, what: str) -> int | None:
    """A non-negative count read from a row; a mapping of counts is summed; None stays None."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return sum(_count(v, what) or 0 for v in value.values())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PLOTTED:
        raise GameError(f"{what} must be a count (an int from 0 to 10**15) or a dict of "
                        f"counts, not {describe_text(value)}")
    return value


def _whole(value: object, what: str) -> int:
    """``value``, checked to be an int from 0 to :data:`MAX_PLOTTED` (``what`` names it)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PLOTTED:
        raise GameError(f"{what} must be ints from 0 to 10**15, got {describe_text(value)}")
    return value


def plot_search_counts(
    rows: Sequence[Mapping[str, object]],
    *,
    ax: Axes | None = None,
    log: bool = True,
    metrics: Sequence[str] = SEARCH_METRICS,
) -> Axes:
    """Grouped bars: for each algorithm, its calls, distinct states and cache entries.

    Arguments:
        rows: one mapping per algorithm, drawn left to right. Each has the key
            ``"algorithm"`` (its name, a str) and any of the keys in ``metrics``. A count
            is an int >= 0, or a dict of ints that is summed (``Stats.cache_entries`` is a
            dict by flag), or None / absent when the algorithm has no such count (plain
            minimax has no cache); then no bar is drawn. ``{"algorithm": name,
            **stats.as_dict()}`` is a valid row.
        ax: the axes to draw on; default a new figure.
        log: use a logarithmic y axis (the counts differ by orders of magnitude).
        metrics: which counts to draw, from :data:`SEARCH_METRICS`.

    Result: the axes, with one bar per (algorithm, count) pair, each bar labelled with its
    count written with thousands separators, x tick labels the algorithm names and a legend
    naming the counts.

    Raises GameError when ``rows`` is empty, a row has no algorithm name, a count is not a
    count, or ``metrics`` names an unknown count or none at all.
    """
    if isinstance(rows, Mapping) or not isinstance(rows, Sequence) or len(rows) == 0:
        raise GameError("rows must be a non-empty list of mappings, one per algorithm")
    unknown = [m for m in metrics if m not in SEARCH_METRICS]
    if unknown or len(metrics) == 0:
        raise GameError(f"metrics must name some of {list(SEARCH_METRICS)}, got {list(metrics)}")
    names: list[str] = []
    table: list[dict[str, int | None]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise GameError(f"row {index} must be a mapping, not {type(row).__name__}")
        name = row.get("algorithm")
        if not isinstance(name, str) or not name:
            raise GameError(f"row {index} needs an 'algorithm' name (a non-empty str)")
        names.append(name)
        table.append({m: _count(row.get(m), f"row {index} ({name}): {m}") for m in metrics})
    shown = [m for m in metrics if any(entry[m] is not None for entry in table)]
    if not shown:
        raise GameError(f"no row has any of the counts {list(metrics)}")

    ax = _new_axes(ax, (max(6.0, 1.6 * len(rows) + 2.0), 4.0))
    width = 0.8 / len(shown)
    labelled: list[tuple[float, int]] = []
    for k, metric in enumerate(shown):
        xs = [i + (k - (len(shown) - 1) / 2) * width for i in range(len(rows))]
        heights = [entry[metric] for entry in table]
        present = [(x, h) for x, h in zip(xs, heights, strict=True) if h is not None]
        ax.bar(
            [x for x, _ in present],
            [h for _, h in present],
            width=width * 0.95,
            label=_METRIC_LABELS[metric],
            color=_METRIC_COLORS[metric],
        )
        labelled.extend(present)
    if log:
        # Bars on a log scale start at 1 (10**0), so that their lengths compare honestly.
        ax.set_yscale("log")
        ax.set_ylim(bottom=1, top=10 ** (1.15 * math.log10(max(2, *(h for _, h in labelled)))))
    ax.set_xticks(range(len(rows)), names)
    ax.set_ylabel("count" + (" (log scale)" if log else ""))
    ax.legend(frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    if not log:
        ax.margins(y=0.15)
    bottom = ax.get_ylim()[0]
    for x, h in labelled:
        y = h if h > 0 else bottom
        ax.annotate(
            f"{h:,}", (x, y), xytext=(0, 2), textcoords="offset points",
            ha="center", va="bottom", fontsize="small", color=_INK,
        )
    return ax


def plot_shares(lines: Mapping[str, Mapping[int, float]], *, ax: Axes | None = None,
                xlabel: str = "iterations (log scale)",
                ylabel: str = "share keeping the exact value") -> Axes:
    """One line per entry of ``lines`` (a label and its ``{budget: share}``): shares from 0
    to 1 (e.g. of positions where the chosen move keeps the exact value) against a budget
    in whole numbers above 0 (e.g. iterations), on a log scale. Returns the axes.
    Raises GameError for a share outside [0, 1] or a budget that is not a positive int."""
    if not isinstance(lines, Mapping) or not lines:
        raise GameError(f"lines must be a dict from a label to {{budget: share}}, got "
                        f"{describe_text(lines)}")
    ax = _new_axes(ax, (6.4, 3.6))
    for label, points in lines.items():
        budgets = [_whole(b, "budgets") for b in points]
        if 0 in budgets:
            raise GameError("budgets must be 1 or more (the scale is logarithmic)")
        shares = [float(v) if isinstance(v, Real) and 0 <= v <= 1 else math.nan
                  for v in points.values()]
        if any(math.isnan(v) for v in shares):
            raise GameError(f"shares must be numbers from 0 to 1, got {describe_text(points)}")
        ax.plot(budgets, shares, marker="o", label=str(label))
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(frameon=False)
    return ax


def _check_positive(values: Sequence[object], what: str, log: bool) -> list[float]:
    """``values`` as floats; each must be a real number, and > 0 on a log axis."""
    result: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, Real):
            raise GameError(f"{what} must be numbers, got {describe_text(value)}")
        try:
            number = float(value)
        except OverflowError:  # e.g. 10**400: no float holds it
            number = math.inf
        if not math.isfinite(number):
            raise GameError(f"{what} must be finite numbers a plot can draw (below 1e308), "
                            f"got {describe_text(value)}")
        if number < 0 or (log and number == 0):
            allowed = "> 0 on a log scale" if log else ">= 0"
            raise GameError(f"{what} must be {allowed}, got {describe_text(value)}")
        result.append(number)
    return result


def plot_nodes_per_depth(nodes_per_depth: Mapping[int, int], *, ax: Axes | None = None,
                         label: str | None = None, log: bool = True) -> Axes:
    """A line of nodes searched against the depth (in plies), one marker per depth.

    Arguments:
        nodes_per_depth: depth -> number of nodes, e.g. ``Stats.nodes_per_depth`` of an
            iterative-deepening search, or the nodes of a tree counted by level. Depths
            are ints >= 0 and are drawn in increasing order; counts are > 0 when ``log``.
        ax: the axes to draw on; default a new figure. Call again with the same ``ax``
            and another ``label`` to compare searches.
        label: the line's name in the legend; without it no legend is drawn.
        log: use a logarithmic y axis.

    Result: the axes, with one more line whose points are the sorted ``(depth, nodes)``.

    Raises GameError when the mapping is empty, a depth is not an int >= 0, or a count is
    not a positive number (non-negative when ``log`` is False).
    """
    if not isinstance(nodes_per_depth, Mapping) or len(nodes_per_depth) == 0:
        raise GameError("nodes_per_depth must be a non-empty mapping from depth to node count")
    for depth in nodes_per_depth:
        _whole(depth, "depths")
    depths = sorted(nodes_per_depth)
    counts = _check_positive([nodes_per_depth[d] for d in depths], "node counts", log)
    ax = _new_axes(ax, (6.0, 4.0))
    ax.plot(depths, counts, marker="o", label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("depth (plies)")
    ax.set_ylabel("nodes" + (" (log scale)" if log else ""))
    if len(depths) <= 20:
        ax.set_xticks(depths)
    ax.spines[["top", "right"]].set_visible(False)
    if label is not None:
        ax.legend(frameon=False)
    return ax


def plot_training_loss(losses: Sequence[float], *, ax: Axes | None = None,
                       label: str | None = None) -> Axes:
    """A training curve: the loss (e.g. the cross-entropy of :func:`gamelib.learn.train`)
    against the epoch, the first epoch numbered 0.

    Arguments:
        losses: one finite number >= 0 per epoch, at least one.
        ax: the axes to draw on; default a new figure. Call again with the same ``ax``
            and another ``label`` to compare models.
        label: the line's name in the legend; without it no legend is drawn.

    Result: the axes, with one more line. Raises GameError for an empty sequence or a loss
    that is not a finite number >= 0.
    """
    if isinstance(losses, (str, bytes)) or not isinstance(losses, Sequence) or not losses:
        raise GameError(f"losses must be a non-empty sequence of numbers, not "
                        f"{describe_text(losses)}")
    for loss in losses:
        if isinstance(loss, bool) or not isinstance(loss, Real) or not 0 <= loss < math.inf:
            raise GameError(f"a loss must be a finite number >= 0, not {describe_text(loss)}")
    ax = _new_axes(ax, (6.0, 4.0))
    ax.plot(range(len(losses)), [float(loss) for loss in losses], label=label)
    ax.set_xlabel("epoch (one full-batch step)")
    ax.set_ylabel("loss (cross-entropy)")
    ax.set_ylim(bottom=0)
    ax.spines[["top", "right"]].set_visible(False)
    if label is not None:
        ax.legend(frameon=False)
    return ax


def plot_cost_by_stones(
    stones: Sequence[int],
    costs: Sequence[float],
    *,
    ylabel: str = "nodes",
    ax: Axes | None = None,
    label: str | None = None,
    log: bool = True,
) -> Axes:
    """The cost of solving a position against the number of stones already played.

    Arguments:
        stones: the number of stones (moves) on the board of each measured position.
        costs: the cost of solving each of them (nodes, states, seconds, ...), same length;
            each > 0 when ``log``.
        ylabel: what the costs count; it becomes the y axis label.
        ax: the axes to draw on; default a new figure.
        label: the line's name in the legend; without it no legend is drawn.
        log: use a logarithmic y axis (the cost grows exponentially as stones vanish).

    Result: the axes, with one more line of the points ``(stones[i], costs[i])`` sorted
    by stones, so that a student sees the cost fall as the board fills.

    Raises GameError when the sequences are empty or of different lengths, a stone count is
    not an int >= 0, or a cost is not a positive number (non-negative without ``log``).
    """
    if len(stones) == 0 or len(stones) != len(costs):
        raise GameError(
            f"stones and costs must be non-empty and of equal length, "
            f"got {len(stones)} and {len(costs)}"
        )
    for s in stones:
        _whole(s, "stones")
    values = _check_positive(list(costs), "costs", log)
    points = sorted(zip(stones, values, strict=True))
    ax = _new_axes(ax, (6.0, 4.0))
    ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("stones on the board")
    ax.set_ylabel(ylabel + (" (log scale)" if log else ""))
    ax.spines[["top", "right"]].set_visible(False)
    if label is not None:
        ax.legend(frameon=False)
    return ax


@dataclass
class TreeNode:
    """One node of a small game tree to draw with :func:`draw_game_tree`.

    Attributes:
        label: the move that leads here from the parent, written on the edge (the root's
            label is written above it; it may be empty).
        value: the value the search returned for this node, or None if it has none (a
            pruned node was never searched). Drawn inside the node.
        maximizing: True if the player who moves here maximizes (drawn as a square),
            False if it minimizes (drawn as a circle).
        children: the nodes after each move, in the order the search tried them.
        pruned: True if the search never visited this node. A pruned node and everything
            below it are drawn grey, joined by dashed edges.
        note: a short text drawn just below the node, e.g. the window ``"[-1, 1]"`` it was
            searched with.
        bound: ``""`` if ``value`` is exact, ``"≤"`` if it is only an upper bound of the true
            value, ``"≥"`` if only a lower bound (what a search returns outside its window);
            drawn in front of the value, e.g. ``≤0``.
    """

    label: str
    value: float | None = None
    maximizing: bool = True
    children: list[TreeNode] = field(default_factory=list)
    pruned: bool = False
    note: str = ""
    bound: str = ""

    def walk(self) -> Iterator[tuple[int, TreeNode]]:
        """Every node of the tree as ``(depth, node)``, depth-first, parents before children."""
        stack: list[tuple[int, TreeNode]] = [(0, self)]
        while stack:
            depth, node = stack.pop()
            yield depth, node
            stack.extend((depth + 1, child) for child in reversed(node.children))

    def size(self) -> int:
        """The number of nodes in the tree."""
        return sum(1 for _ in self.walk())

    def visited(self) -> int:
        """The number of nodes the search visited: those not pruned and not below a pruned one."""
        return sum(1 for _ in self._visited_nodes())

    def _visited_nodes(self) -> Iterator[TreeNode]:
        if not self.pruned:
            yield self
            for child in self.children:
                yield from child._visited_nodes()


def _format_value(value: float | None) -> str:
    if value is None:
        return ""
    if float(value).is_integer():
        return f"{int(value):d}"
    return f"{value:.2f}"


def _layout(root: TreeNode) -> dict[int, tuple[float, int]]:
    """Positions by ``id(node)``: leaves at x = 0, 1, 2, ...; a parent above its children."""
    place: dict[int, tuple[float, int]] = {}
    next_leaf = 0

    def visit(node: TreeNode, depth: int) -> float:
        nonlocal next_leaf
        if not node.children:
            x = float(next_leaf)
            next_leaf += 1
        else:
            xs = [visit(child, depth + 1) for child in node.children]
            x = (xs[0] + xs[-1]) / 2
        place[id(node)] = (x, depth)
        return x

    visit(root, 0)
    return place


def _check_tree(root: object) -> None:
    if not isinstance(root, TreeNode):
        raise GameError(f"tree must be a TreeNode, not {type(root).__name__}")
    bounds = ("", "≤", "≥")
    seen: set[int] = set()
    stack: list[TreeNode] = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise GameError("tree must be a tree: a node appears twice in it")
        seen.add(id(node))
        if node.bound not in bounds:
            raise GameError(f"bound must be one of {bounds}, got {node.bound!r}")
        for child in node.children:
            if not isinstance(child, TreeNode):
                raise GameError(f"children must be TreeNodes, not {type(child).__name__}")
            stack.append(child)
        if len(seen) > 2000:
            raise GameError("tree has more than 2000 nodes: too many to draw legibly")


def _cut(node: TreeNode, depth: int | None) -> tuple[TreeNode, dict[int, int]]:
    """``node``'s tree down to ``depth`` levels (all if None), and for each node whose
    children were left out (by ``id`` of its copy) how many nodes lie below it."""
    hidden: dict[int, int] = {}

    def copy(n: TreeNode, level: int) -> TreeNode:
        keep = depth is None or level < depth
        children = [copy(c, level + 1) for c in n.children] if keep else []
        made = TreeNode(n.label, n.value, n.maximizing, children, n.pruned, n.note, n.bound)
        if n.children and not keep:
            hidden[id(made)] = n.size() - 1
        return made

    return copy(node, 0), hidden


def _draw_subtree(
    ax: Axes, node: TreeNode, greyed: bool, place: dict[int, tuple[float, int]],
    hidden: dict[int, int], font: float,
) -> None:
    """Draw ``node`` and what lies below it on ``ax`` at the places :func:`_layout` gave:
    edges, edge labels, markers, values and notes, grey where ``greyed`` (see
    :func:`draw_game_tree`)."""
    x, y = place[id(node)]
    for child in node.children:
        cut = greyed or child.pruned
        cx, cy = place[id(child)]
        edge = Line2D([x, cx], [-y, -cy], color=_PRUNED_COLOR if cut else _INK,
                      linestyle="--" if cut else "-", linewidth=1.0 if cut else 1.4, zorder=1)
        edge.set_gid("pruned-edge" if cut else "edge")
        ax.add_line(edge)
        if child.label:
            ax.text(
                x + 0.6 * (cx - x), -(y + 0.6 * (cy - y)), child.label,
                ha="center", va="center", fontsize=0.9 * font,
                color=_PRUNED_COLOR if cut else _INK,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
                zorder=2,
            )
        _draw_subtree(ax, child, cut, place, hidden, font)
    marker = ax.plot(
        [x], [-y], marker="s" if node.maximizing else "o", markersize=2.2 * font,
        markerfacecolor="#eeeeee" if greyed else "white", linestyle="none", zorder=3,
        markeredgecolor=_PRUNED_COLOR if greyed else _INK,
        markeredgewidth=1.0 if greyed else 1.5,
    )[0]
    marker.set_gid("pruned-node" if greyed else "node")
    ax.text(
        x, -y, node.bound + _format_value(node.value), ha="center", va="center",
        fontsize=font, color=_PRUNED_COLOR if greyed else _INK, zorder=4,
        fontweight="bold",
    )
    below = [node.note] if node.note else []
    if id(node) in hidden:
        below.append(f"+{hidden[id(node)]}")
    if below:
        ax.annotate(
            "\n".join(below), (x, -y), xytext=(0, -1.2 * font), textcoords="offset points",
            ha="center", va="top", fontsize=0.8 * font,
            color=_PRUNED_COLOR if greyed else "#555555", zorder=4,
            bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"},
        )


def _tree_legend(ax: Axes, font: float) -> None:
    """The key of :func:`draw_game_tree`'s pictures: max and min markers, pruned edges."""
    ax.legend(
        handles=[
            Line2D([], [], marker="s", linestyle="none", markerfacecolor="white",
                   markeredgecolor=_INK, label="max to move"),
            Line2D([], [], marker="o", linestyle="none", markerfacecolor="white",
                   markeredgecolor=_INK, label="min to move"),
            Line2D([], [], color=_PRUNED_COLOR, linestyle="--", label="pruned"),
        ],
        loc="upper left", frameon=False, fontsize=0.8 * font,
    )


def draw_game_tree(
    tree: TreeNode, *, ax: Axes | None = None, title: str | None = None,
    depth: int | None = None,
) -> Axes:
    """Draw a small game tree: values in the nodes, moves on the edges, pruning in grey.

    Arguments:
        tree: the root :class:`TreeNode`; at most 2000 nodes (a few dozen read well).
        ax: the axes to draw on; default a new figure sized to the tree and its text.
        title: a title for the axes.
        depth: draw only this many levels below the root (a whole number >= 1); a node
            whose children are left out says how many nodes lie below it (``+12``). None
            (default) draws the whole tree. Split a large tree this way, and draw its
            interesting subtrees on their own, so that every label stays readable.

    Result: the axes. Each node is a marker (square where the player to move maximizes,
    circle where they minimize) with its value written inside (after its ``bound``, if any)
    and its ``note`` just below it. The edge into a node carries the node's ``label``, a
    little nearer the node than its parent. Visited nodes and edges are black and solid;
    a pruned node, all of its descendants and the edges into them are grey and dashed.
    Each edge is a :class:`~matplotlib.lines.Line2D` whose ``gid`` is ``"edge"`` or
    ``"pruned-edge"``, and each node marker has the ``gid`` ``"node"`` or
    ``"pruned-node"``, so that tests and readers can tell them apart. The text is sized
    from matplotlib's ``font.size`` (values at that size, the rest a little smaller),
    and a new figure gives each leaf room for it.

    Raises GameError when ``tree`` is not a tree of :class:`TreeNode` objects or too big,
    or when ``depth`` is not None or a whole number >= 1.
    """
    _check_tree(tree)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                              or depth < 1):
        raise GameError(f"depth must be None or a whole number >= 1, got {depth!r}")
    tree, hidden = _cut(tree, depth)
    place = _layout(tree)
    leaves = 1 + max(x for x, _ in place.values())
    levels = max(d for _, d in place.values())
    font = float(plt.rcParams["font.size"])
    scale = font / 10  # matplotlib's default font.size is 10 pt
    size = (min(16.0, max(4.0, 0.55 * scale * leaves + 1.0)),
            1.3 * scale * levels + 1.6 * scale)
    ax = plt.subplots(figsize=size)[1] if ax is None else _new_axes(ax, size)

    _draw_subtree(ax, tree, tree.pruned, place, hidden, font)
    if tree.label:
        ax.text(place[id(tree)][0], 0.42, tree.label, ha="center", va="bottom", fontsize=font)
    ax.set_xlim(-0.7, leaves - 0.3)
    ax.set_ylim(-levels - 0.75, 0.8)
    ax.set_axis_off()
    if title:
        ax.set_title(title)
    _tree_legend(ax, font)
    return ax
