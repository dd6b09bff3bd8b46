"""Where each node of a search tree goes on the page: pure arithmetic, no drawing.

:func:`layout_tree` places the whole tree of a :class:`~gamelib.search.trace.SearchTrace`
once, as it stands at the end of the search, so that nothing moves while the viewer
steps through it: a node appears where it will stay. The moves skipped by a cutoff share
one *pruned* spot after their searched siblings.

The layout is a tidy tree: leaves take consecutive slots from left to right and a parent
sits centred over its children, one row per depth. Every node owns the column of its
slot, and all of its labels (the value on the edge above it, its window and its cache
entry below it) lie inside that column, so no two labels can overlap;
:func:`overlaps` checks this on any layout.

>>> from gamelib.search.trace import Node, SearchTrace, Enter
>>> nodes = (Node(0, None, None, "s", 0, "X"), Node(1, 0, "a", "t", 1, "O"))
>>> trace = SearchTrace(None, "s", "minimax", {}, 0, 2, nodes, (Enter(0, (-1, 1)),))
>>> layout = layout_tree(trace)
>>> layout.spots[0].x == layout.spots[1].x      # an only child sits under its parent
True
>>> overlaps(label_rects(layout))
[]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final

from gamelib.search.trace import Backup, CacheRead, CacheStore, Cutoff, Playout, SearchTrace, Select
from gamelib.ui.canvas import Rect

__all__ = [
    "SpotKey",
    "Spot",
    "TreeLayout",
    "layout_tree",
    "label_rects",
    "overlaps",
    "BOX",
    "STATUS_HEIGHT",
    "LEGEND_HEIGHT",
    "LEGEND_PX",
    "TEXT_WIDTH",
    "LEGEND",
    "MCTS_LEGEND",
    "CHANCE_LEGEND",
    "PLAYOUT_STEP",
    "MCTS_SLOT",
    "CHAR_WIDTH",
    "wrap",
    "legend_lines",
    "legend",
    "level",
    "focus",
]

SpotKey = int | tuple[int, int]
"""A node's id, or ``(parent id, 0)`` for the moves skipped by a cutoff at the parent."""

BOX: Final = 56
"""Side of a node's square (its small board) in pixels: at least 48 CSS px on the page even
when a wide tree is shrunk to the viewer's floor (``gamelib.ui.search_view.SHRINK``)."""
LABEL: Final = 22
"""Height of a label row: the edge value above a box, the window and the cache entry below."""
GAP: Final = 10
"""Vertical space between one row's last label and the next row's edge label."""


def level(below: int) -> int:
    """Height of one depth's row with ``below`` label rows under each box."""
    return LABEL + BOX + below * LABEL + GAP

SLOT_MIN: Final = 108
SLOT_MAX: Final = 124
"""Width of a searched leaf's column: as wide as the page allows, within these bounds
(minimax, which has no windows to show, goes down to ``BOX + 8``)."""
MCTS_SLOT: Final = 84
"""The column of a Monte-Carlo tree's node, whatever the page: its labels are short (a mean,
``n 12``, ``uct 0.85``), and narrow columns keep a selection's candidates within an output
area of about 850 CSS px (JupyterLab's beside its file browser) at the viewer's floor."""
PRUNED_SHARE: Final = 0.9
"""The pruned moves' column is this share of a searched one."""
PLAYOUT_STEP: Final = 22
"""Height of one move of an MCTS playout drawn under its node (a dot and the move), and of
its result."""
MARGIN: Final = 16
STATUS_HEIGHT: Final = 62
"""The band at the top for the status line (two lines of words)."""
LEGEND_HEIGHT: Final = 24
"""One line of the key at the bottom, which explains the signs (it wraps: :func:`legend_lines`)."""
LEGEND_PX: Final = 16
"""Font size in pixels of the key."""
LEGEND: Final = ("Key: [α, β] window of an open node · ≤ ≥ a bound · h heuristic estimate · "
                 "cache: entry stored, hit: entry used · dashed grey: pruned")
"""The key under the tree."""
MCTS_LEGEND: Final = ("Key: above a node, its mean result for the player to move there · "
                      "n visits · uct: a candidate's score at a selection step · dots: a "
                      "playout's moves, then its result · got: what Backpropagate added")
"""The key under a Monte-Carlo tree search's tree."""
CHANCE_LEGEND: Final = ("Key: values for {first} · circle: a chance node, worth the sum of "
                        "probability × value over its outcomes · 1/2 × v above an outcome: its "
                        "probability, then its value · memo: solved before, answered at once")
"""The key under an expectiminimax tree (``{first}``: the first player's name)."""
CHAR_WIDTH: Final = 0.68
"""A generous estimate of a character's width in em of the bold sans-serif font."""
PAGE_WIDTH: Final = 1100
"""The width a tree should fit: a notebook's output area at 1280 x 800."""
MIN_WIDTH: Final = 720
"""The narrowest picture: the status line needs room even for a tiny tree."""
TEXT_WIDTH: Final = 900
"""The status line and the key keep to the picture's left this many pixels, which show
without scrolling at 1280 x 800 even beside JupyterLab's file browser (an output area of
about 850 CSS px, holding a wide tree at its shrink floor: 900 x 0.875)."""


@dataclass(frozen=True)
class Spot:
    """Where one node (or the moves pruned at a node) goes: its column
    ``[left, left + slot)`` and its box.

    ``x`` is the centre of the column and of the box, ``y`` the top of the box.
    ``parent`` is the parent's id (None for the root), ``move`` the move from it
    (None for a pruned spot, whose ``skipped`` are the moves it stands for);
    ``below`` is the number of label rows under the box (the window; the cache entry).
    """

    key: SpotKey
    parent: int | None
    move: Hashable | None
    depth: int
    pruned: bool
    left: float
    slot: float
    x: float
    y: float
    below: int = 1
    skipped: tuple[Hashable, ...] = ()

    @property
    def box(self) -> Rect:
        """The node's square; pruned moves get a shorter box for their moves' text."""
        side = BOX if not self.pruned else BOX * 0.6
        width = BOX if not self.pruned else self.slot - 8
        return Rect(self.x - width / 2, self.y, width, side)

    def row(self, k: int) -> Rect:
        """Label row ``k`` of the column: -1 above the box (the edge value), 0 (the window)
        and 1 (the cache entry) below it."""
        inset = 3
        top = self.y - LABEL if k < 0 else self.y + BOX + k * LABEL
        return Rect(self.left + inset, top, self.slot - 2 * inset, LABEL)


@dataclass(frozen=True)
class TreeLayout:
    """Spots by key, children in drawing order, and the size of the whole picture."""

    spots: dict[SpotKey, Spot]
    children: dict[int, tuple[SpotKey, ...]]
    width: int
    height: int
    legend: tuple[str, ...] = ()
    """The key's lines, wrapped to the picture's width (drawn at its bottom)."""


def wrap(text: str, width: float, px: float, lines: int | None = None) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width`` pixels at ``px`` (by the
    estimate :data:`CHAR_WIDTH`); with ``lines``, the rest joins the last line."""
    room = max(10, int(width / (CHAR_WIDTH * px)))
    out: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > room:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    if lines is not None and len(out) > lines:
        out = out[: lines - 1] + [" ".join(out[lines - 1:])]
    return out


def legend_lines(width: int, mcts: bool = False, key: str | None = None) -> tuple[str, ...]:
    """The key (``key`` if given, else :data:`MCTS_LEGEND` if ``mcts``, else :data:`LEGEND`)
    broken into lines that fit a picture ``width`` pixels wide (at most its first
    :data:`TEXT_WIDTH` pixels, which show without scrolling)."""
    if key is None:
        key = MCTS_LEGEND if mcts else LEGEND
    return tuple(wrap(key, min(width, TEXT_WIDTH) - 2 * MARGIN, LEGEND_PX))


def legend(trace: SearchTrace) -> str:
    """The key under the tree of ``trace``: whose values it shows (the player to move
    there, as negamax computes them, or the first player in the bounded search) and the
    marks its algorithm uses. A bound at the end of the value scale (``≤ -1``, ``≥ +1``
    for the games valued -1 to +1) is drawn as the exact value it is."""
    if trace.algorithm == "mcts":
        return MCTS_LEGEND
    if trace.algorithm == "expectiminimax":
        return CHANCE_LEGEND.format(first=trace.game.players[0])
    whose = (f"values for {trace.game.players[0]}" if trace.algorithm == "bounded"
             else "values for the player to move")
    if (trace.algorithm != "bounded" and hasattr(trace.game, "players")
            and any(trace.owner(n) != n.player for n in trace.nodes)):
        whose += " (where a player moves again: for the opponent, as the search keeps them)"
    parts = [f"Key: {whose}"]
    if trace.algorithm != "minimax":
        parts += ["[α, β] window of an open node", "≤ ≥ a bound"]
    if trace.algorithm == "depth_limited":
        parts.append("h heuristic estimate")
    if trace.algorithm == "bounded":
        parts.append("cache: entry stored, hit: entry used")
    if trace.algorithm != "minimax":
        parts.append("dashed grey: pruned")
    return " · ".join(parts)


def _tree(trace: SearchTrace) -> dict[int, list[SpotKey]]:
    children: dict[int, list[SpotKey]] = {node.id: [] for node in trace.nodes}
    for node in trace.nodes:
        if node.parent is not None:
            children[node.parent].append(node.id)
    for event in trace.events:
        if isinstance(event, Cutoff) and event.pruned:
            children[event.node].append((event.node, 0))
    return children


def layout_tree(trace: SearchTrace, page_width: int = PAGE_WIDTH) -> TreeLayout:
    """The spot of every node of ``trace``'s final tree, and the picture's size.

    Subtrees are packed as closely as their rows allow (a game that ended early leaves
    room below it for its neighbour's deeper nodes). Columns are as wide as fits
    ``page_width`` within SLOT_MIN..SLOT_MAX; a tree that does not fit at SLOT_MIN makes
    a wider picture (the viewer scrolls it).
    """
    if not trace.nodes:
        return TreeLayout({}, {}, MIN_WIDTH, STATUS_HEIGHT + MARGIN,
                          legend_lines(MIN_WIDTH, key=legend(trace)))
    children = _tree(trace)
    # A second label row: cache entries, or an MCTS candidate's UCT score.
    below = 2 if trace.algorithm == "mcts" or any(
        isinstance(e, (CacheRead, CacheStore)) for e in trace.events) else 1
    pruned_moves = {
        (event.node, 0): event.pruned
        for event in trace.events if isinstance(event, Cutoff) and event.pruned
    }
    depth_of = {node.id: node.depth for node in trace.nodes}

    def depth(key: SpotKey) -> int:
        return depth_of[key[0]] + 1 if isinstance(key, tuple) else depth_of[key]

    def share(key: SpotKey) -> float:
        return PRUNED_SHARE if isinstance(key, tuple) else 1.0

    # Positions in units of one slot, relative to the subtree's root, and the subtree's
    # extent on each row: (leftmost edge, rightmost edge).
    Contour = dict[int, tuple[float, float]]

    def place(key: SpotKey) -> tuple[dict[SpotKey, float], Contour]:
        half = share(key) / 2
        kids = children.get(key, []) if isinstance(key, int) else []
        if not kids:
            return {key: 0.0}, {depth(key): (-half, half)}
        xs: dict[SpotKey, float] = {}
        contour: Contour = {}
        centres = []
        for kid in kids:
            kid_xs, kid_contour = place(kid)
            shift = max(
                (contour[d][1] - lo for d, (lo, _) in kid_contour.items() if d in contour),
                default=0.0,
            )
            for k, x in kid_xs.items():
                xs[k] = x + shift
            for d, (lo, hi) in kid_contour.items():
                old = contour.get(d)
                contour[d] = (lo + shift, hi + shift) if old is None else (old[0], hi + shift)
            centres.append(kid_xs[kid] + shift)
        middle = (centres[0] + centres[-1]) / 2
        xs = {k: x - middle for k, x in xs.items()}
        contour = {d: (lo - middle, hi - middle) for d, (lo, hi) in contour.items()}
        xs[key] = 0.0
        contour[depth(key)] = (-half, half)
        return xs, contour

    xs, contour = place(0)
    lo = min(lo for lo, _ in contour.values())
    hi = max(hi for _, hi in contour.values())
    # Minimax shows no windows: its columns need room for a box and a value only.
    least = BOX + 8 if trace.algorithm == "minimax" else SLOT_MIN
    slot = max(least, min(SLOT_MAX, (page_width - 2 * MARGIN) / (hi - lo)))
    if trace.algorithm == "mcts":
        slot = MCTS_SLOT
    spots: dict[SpotKey, Spot] = {}
    for key, x in xs.items():
        width = share(key) * slot
        centre = MARGIN + (x - lo) * slot
        y = STATUS_HEIGHT + MARGIN + LABEL + depth(key) * level(below)
        if isinstance(key, tuple):
            spots[key] = Spot(key, key[0], None, depth(key), True, centre - width / 2, width,
                              centre, y, below, pruned_moves[key])
        else:
            node = trace.nodes[key]
            spots[key] = Spot(key, node.parent, node.move, depth(key), False,
                              centre - width / 2, width, centre, y, below)
    deepest = max(contour)
    width = max(MIN_WIDTH, round((hi - lo) * slot + 2 * MARGIN))
    rows = STATUS_HEIGHT + MARGIN + LABEL + (deepest + 1) * level(below)
    for event in trace.events:   # room for the MCTS playouts drawn under their nodes
        if isinstance(event, Playout):
            top = spots[event.node].y + BOX + below * LABEL
            rows = max(rows, round(top + (len(event.moves) + 1) * PLAYOUT_STEP + GAP))
    key_lines = legend_lines(width, key=legend(trace))
    height = round(rows - GAP + LEGEND_HEIGHT * len(key_lines) + GAP)
    return TreeLayout(spots, {k: tuple(v) for k, v in children.items()}, width, height,
                      key_lines)


def label_rects(layout: TreeLayout) -> list[tuple[SpotKey, str, Rect]]:
    """Every rectangle a node's drawing may fill: ``(key, what, rect)``, ``what`` one of
    ``'box'``, ``'value'``, ``'window'``, ``'cache'``."""
    rects: list[tuple[SpotKey, str, Rect]] = []
    for key, spot in layout.spots.items():
        rects.append((key, "box", spot.box))
        if key != 0:
            rects.append((key, "value", spot.row(-1)))
        if not spot.pruned:
            rects.append((key, "window", spot.row(0)))
            if spot.below > 1:
                rects.append((key, "cache", spot.row(1)))
    return rects


def overlaps(
    rects: Sequence[tuple[SpotKey, str, Rect]],
) -> list[tuple[tuple[SpotKey, str], tuple[SpotKey, str]]]:
    """The pairs of rectangles that overlap (touching edges do not count)."""
    found = []
    ordered = sorted(rects, key=lambda item: item[2].x)
    for i, (key_a, what_a, a) in enumerate(ordered):
        for key_b, what_b, b in ordered[i + 1:]:
            if b.x >= a.right:
                break
            if a.y < b.bottom and b.y < a.bottom:
                found.append(((key_a, what_a), (key_b, what_b)))
    return found


def focus(trace: SearchTrace, layout: TreeLayout, step: int) -> Rect:
    """The part of the tree that event ``step`` talks about: the current node, and with
    MCTS every candidate of a Select, the playout's dots and result, and the top of a
    Backpropagate's path: the root, its child whose values changed and the grandchild (a
    whole path may be taller than a screen; the status line lists every value added).
    Boxes and labels, in the layout's pixels."""
    event = trace.events[step]
    keys: list[int] = [event.node]
    if isinstance(event, Select):
        keys += list(event.scores)
    elif isinstance(event, Backup):
        keys += list(event.path[:3])
    rects = []
    for key in keys:
        spot = layout.spots[key]
        rects.append(Rect(spot.left, spot.row(-1).y, spot.slot,
                          spot.row(spot.below - 1).bottom - spot.row(-1).y))
    if isinstance(event, Playout):
        spot = layout.spots[event.node]
        rects.append(Rect(spot.left, spot.box.y, spot.slot,
                          spot.row(spot.below - 1).bottom - spot.box.y
                          + (len(event.moves) + 1) * PLAYOUT_STEP))
    left, top = min(r.x for r in rects), min(r.y for r in rects)
    right, bottom = max(r.right for r in rects), max(r.bottom for r in rects)
    return Rect(left, top, right - left, bottom - top)
