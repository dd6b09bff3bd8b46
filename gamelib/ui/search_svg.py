"""A search tree as it stands at one step of its trace: in words, on a canvas, as SVG.

Two layers over :func:`gamelib.ui.search_snapshot.snapshot` (the tree replayed up to a
step), each usable alone:

* :func:`draw_search` paints that picture on any
  :class:`~gamelib.ui.canvas.CanvasLike` (an ipycanvas canvas or a
  :class:`~gamelib.ui.canvas.RecordingCanvas`): small boards in the nodes, values on
  the edges, the current node highlighted, the window ``[α, β]`` under every open node,
  pruned moves greyed and dashed, cache entries with their flags; expectiminimax's chance
  nodes as circles, each outcome below one with its probability (``1/2 × +1`` once valued).
* :func:`search_svg` draws the same picture as SVG, which stays in a saved notebook.

>>> from gamelib.search.trace import Enter, Node, Return, SearchTrace
>>> from gamelib.games import TicTacToe
>>> game = TicTacToe()
>>> trace = SearchTrace(game, game.start, "minimax", {}, 0, 1,
...     (Node(0, None, None, game.start, 0, "X"),), (Enter(0, (-1, 1)), Return(0, 0)))
>>> search_svg(trace).text
'Search tree: minimax from a Tic-tac-toe position with 9 moves, 1 step.'
"""

from __future__ import annotations

from typing import Any, Final

from gamelib.game import CHANCE
from gamelib.games import ConnectFour, RandomTurnTicTacToe, TicTacToe, TicTacToeBitboard, TreeGame
from gamelib.search.trace import (
    Backup,
    Node,
    Playout,
    SearchTrace,
    Select,
)
from gamelib.session import format_value
from gamelib.ui.canvas import CanvasLike, RecordingCanvas, Rect, batch
from gamelib.ui.drawing import Palette, clear_canvas, css_font, snap, value_colour
from gamelib.ui.picture import BoardPicture
from gamelib.ui.search_snapshot import NodeState, Snapshot, snapshot
from gamelib.ui.search_words import (
    _window_text,
    _Words,
    _words_for,
    describe_search,
    probability_text,
)
from gamelib.ui.tree_layout import (
    CHAR_WIDTH,
    LEGEND_HEIGHT,
    LEGEND_PX,
    MARGIN,
    PLAYOUT_STEP,
    STATUS_HEIGHT,
    TEXT_WIDTH,
    Spot,
    TreeLayout,
    layout_tree,
    wrap,
)

__all__ = ["draw_search", "search_svg"]

LABEL_PX: Final = 18
"""Font size in pixels of a node's labels: its move, edge value, window and cache entry."""
STATUS_PX: Final = 20
"""Font size in pixels of the status line at the top."""
MIN_PX: Final = 16
"""The smallest font size of any text in the drawing (a label shrinks to it when its column is
narrow): 14 CSS px or more on the page at the viewer's floor, 16 x 0.875."""
SMALL_PX: Final = MIN_PX
"""Font size of the secondary words: the window, the cache entry, the pruned moves, the step
counter."""
READABLE: Final = {
    Palette.GOOD: "#1b7167", Palette.NEUTRAL: "#5f676f", Palette.BAD: "#c42222",
    Palette.MUTED: "#5a6472", Palette.CIRCLE: "#1a5f99",
}
"""The drawing's text colours where the boards' own would be too light for words: each has a
contrast of at least 4.5:1 (WCAG AA) on the background and on the status band."""


def _readable(colour: str) -> str:
    return READABLE.get(colour, colour)



# -- drawing -------------------------------------------------------------------------------


def _fit(text: str, width: float, px: float) -> float:
    """The largest font size up to ``px`` at which ``text`` fits ``width`` pixels."""
    return max(MIN_PX, min(px, width / (CHAR_WIDTH * max(1, len(text)))))


def _label(canvas: CanvasLike, text: str, rect: Rect, colour: str, *, px: float = LABEL_PX,
           bold: bool = True, plate: bool = False) -> None:
    size = _fit(text, rect.width, px)
    if plate:
        width = min(rect.width, CHAR_WIDTH * size * len(text) + 6)
        canvas.fill_style = Palette.BACKGROUND
        canvas.fill_rect(snap(rect.center[0] - width / 2), snap(rect.y + 1), snap(width),
                         snap(rect.height - 2))
    canvas.font = css_font(size, bold)
    canvas.fill_style = _readable(colour)
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_text(text, snap(rect.center[0]), snap(rect.center[1]))


def _draw_board(canvas: CanvasLike, words: _Words, node: Node, box: Rect) -> None:
    """A small picture of ``node.state`` filling ``box`` (the move's text for a game
    without a small board)."""
    game = words.game
    state: Any = node.state
    if isinstance(game, (TicTacToe, TicTacToeBitboard, RandomTurnTicTacToe)):
        marks = (TicTacToeBitboard.to_board(state) if isinstance(game, TicTacToeBitboard)
                 else state[0] if isinstance(game, RandomTurnTicTacToe) else state)
        cell = box.width / 3
        if isinstance(node.move, tuple):   # a cell (not a coin's outcome): highlighted
            move: Any = node.move
            row, col = move
            canvas.fill_style = Palette.HIGHLIGHT
            canvas.fill_rect(snap(box.x + col * cell), snap(box.y + row * cell),
                             snap(cell), snap(cell))
        canvas.stroke_style = Palette.MUTED
        canvas.line_width = 1
        for k in (1, 2):
            canvas.stroke_line(snap(box.x + k * cell), snap(box.y + 2), snap(box.x + k * cell),
                               snap(box.bottom - 2))
            canvas.stroke_line(snap(box.x + 2), snap(box.y + k * cell), snap(box.right - 2),
                               snap(box.y + k * cell))
        canvas.line_width = 2
        arm = cell * 0.28
        for row in range(3):
            for col in range(3):
                x, y = box.x + (col + 0.5) * cell, box.y + (row + 0.5) * cell
                if marks[row][col] == "X":
                    canvas.stroke_style = Palette.CROSS
                    canvas.stroke_line(snap(x - arm), snap(y - arm), snap(x + arm), snap(y + arm))
                    canvas.stroke_line(snap(x - arm), snap(y + arm), snap(x + arm), snap(y - arm))
                elif marks[row][col] == "O":
                    canvas.stroke_style = Palette.CIRCLE
                    canvas.stroke_circle(snap(x), snap(y), snap(arm * 1.1))
        return
    if isinstance(game, ConnectFour):
        cell = box.width / game.cols
        top = box.y + (box.height - cell * game.rows) / 2
        canvas.fill_style = Palette.FRAME
        canvas.fill_rect(snap(box.x), snap(top), snap(box.width), snap(cell * game.rows))
        colours = {game.players[0]: Palette.RED, game.players[1]: Palette.YELLOW,
                   None: Palette.HOLE}
        for col in range(game.cols):
            for row in range(game.rows):
                canvas.fill_style = colours[game.cell(state, row, col)]
                canvas.fill_circle(snap(box.x + (col + 0.5) * cell),
                                   snap(top + (game.rows - row - 0.5) * cell), snap(cell * 0.38))
        if node.move is not None:
            canvas.stroke_style = Palette.RING
            canvas.line_width = 1.5
            col = int(node.move)  # type: ignore[call-overload]
            canvas.stroke_rect(snap(box.x + col * cell), snap(top),
                               snap(cell), snap(cell * game.rows))
        return
    if isinstance(game, TreeGame):   # no board: the path, or a leaf's number for MAX
        text = game.label(state) if not game.finished(state) else f"{game.node(state):g}"
        _label(canvas, text, box, Palette.INK)
        return
    _label(canvas, "start" if node.move is None else words.move(node.move), box, Palette.INK)


def draw_search(canvas: CanvasLike, trace: SearchTrace, layout: TreeLayout,
                shot: Snapshot) -> None:
    """Paint ``trace``'s tree as ``shot`` describes it, placed by ``layout``, on ``canvas``.

    The canvas should be ``layout.width`` x ``layout.height`` pixels.
    """
    with batch(canvas):
        _paint(canvas, trace, layout, shot)


def _paint(canvas: CanvasLike, trace: SearchTrace, layout: TreeLayout, shot: Snapshot) -> None:
    clear_canvas(canvas, layout.width, layout.height)
    # The status band: the step's words, and where we are.
    canvas.fill_style = Palette.STATUS_BAND
    canvas.fill_rect(0, 0, layout.width, STATUS_HEIGHT)
    counter = f"step {shot.step} of {len(trace.events) - 1}"
    canvas.font = css_font(SMALL_PX, False)
    canvas.fill_style = _readable(Palette.MUTED)
    canvas.text_align = "right"
    canvas.text_baseline = "middle"
    text_width = min(layout.width, TEXT_WIDTH)  # in view without scrolling
    canvas.fill_text(counter, snap(text_width - MARGIN), 16)
    lines = wrap(shot.message, text_width - 2 * MARGIN - 130, STATUS_PX, lines=2)
    canvas.font = css_font(STATUS_PX, True)
    canvas.fill_style = Palette.INK
    canvas.text_align = "left"
    for k, line in enumerate(lines):
        canvas.fill_text(line, MARGIN, snap(STATUS_HEIGHT * (0.3 + 0.42 * k)))

    canvas.font = css_font(LEGEND_PX, False)
    canvas.fill_style = _readable(Palette.MUTED)
    top = layout.height - LEGEND_HEIGHT * len(layout.legend)
    for k, line in enumerate(layout.legend):
        canvas.fill_text(line, MARGIN, snap(top + (k + 0.5) * LEGEND_HEIGHT))
    visible = [layout.spots[k] for k in shot.nodes] + [layout.spots[k] for k in
                                                        sorted(shot.pruned)]
    # Edges first, under everything.
    for spot in visible:
        if spot.parent is None:
            continue
        parent, child = layout.spots[spot.parent].box, spot.box
        canvas.stroke_style = Palette.GHOST if spot.pruned else Palette.MUTED
        canvas.line_width = 1.5
        if spot.pruned:
            canvas.set_line_dash([4, 4])
        # From under the parent's labels (its window and cache entry), so no line
        # crosses a word.
        above = layout.spots[spot.parent]
        start = above.row(above.below - 1).bottom
        canvas.stroke_line(snap(parent.center[0]), snap(start),
                           snap(child.center[0]), snap(child.y))
        if spot.pruned:
            canvas.set_line_dash([])
    event = trace.events[shot.step]
    if isinstance(event, Playout):   # under everything but the nodes: its dashed line
        _draw_playout(canvas, trace, layout.spots[event.node], event)
    for spot in visible:
        if spot.pruned:
            _draw_pruned(canvas, trace, spot)
        elif trace.algorithm == "mcts":
            assert isinstance(spot.key, int)
            _draw_mcts_node(canvas, trace, spot, shot, spot.key == shot.current)
        else:
            assert isinstance(spot.key, int)
            _draw_node(canvas, trace, spot, shot.nodes[spot.key], spot.key == shot.current)


def _draw_pruned(canvas: CanvasLike, trace: SearchTrace, spot: Spot) -> None:
    """The moves skipped by one cutoff: a dashed grey box listing them, two to a line."""
    box = spot.box
    moves = [_words_for(trace).move(m) for m in spot.skipped]
    if len(moves) > 4:
        moves = [*moves[:3], f"+{len(moves) - 3}"]
    lines = [" ".join(moves[k:k + 2]) for k in range(0, len(moves), 2)]
    # A pale dashed box, but words as readable as any other (no transparency on text).
    canvas.global_alpha = 0.6
    canvas.fill_style = Palette.STATUS_BAND
    canvas.fill_rect(snap(box.x), snap(box.y), snap(box.width), snap(box.height))
    canvas.stroke_style = Palette.GHOST
    canvas.line_width = 1.5
    canvas.set_line_dash([4, 3])
    canvas.stroke_rect(snap(box.x), snap(box.y), snap(box.width), snap(box.height))
    canvas.set_line_dash([])
    canvas.global_alpha = 1.0
    height = box.height / len(lines)
    for k, line in enumerate(lines):
        _label(canvas, line, Rect(box.x, box.y + k * height, box.width, height), Palette.MUTED,
               px=SMALL_PX)
    _label(canvas, f"{len(spot.skipped)} pruned", spot.row(-1), Palette.MUTED, px=SMALL_PX,
           bold=False, plate=True)


def _draw_node(canvas: CanvasLike, trace: SearchTrace, spot: Spot, state: NodeState,
               current: bool) -> None:
    box = spot.box
    node = trace.nodes[spot.key]  # type: ignore[index]
    words = _words_for(trace)
    if node.player == CHANCE:
        _draw_chance_node(canvas, words, node, box, state, current)
    else:
        if current:
            canvas.fill_style = Palette.HIGHLIGHT
            canvas.fill_rect(snap(box.x - 7), snap(box.y - 7),
                             snap(box.width + 14), snap(box.height + 14))
        canvas.fill_style = "#ffffff"
        canvas.fill_rect(snap(box.x), snap(box.y), snap(box.width), snap(box.height))
        _draw_board(canvas, words, node, box)
        canvas.stroke_style = Palette.INK if state.open else Palette.MUTED
        canvas.line_width = 3 if current else 2 if state.open else 1
        canvas.stroke_rect(snap(box.x), snap(box.y), snap(box.width), snap(box.height))
    # The value on the edge above (for the root: under it, once known).
    value_text = None
    if state.value is not None:
        flag = words.bound(state.value, state.bound)
        mark = "" if flag == "=" else f"{flag} "
        value_text = f"{mark}{words.value(state.value)}"
    elif state.leaf is not None:
        value_text = words.value(state.leaf[0])
    if value_text is not None and state.leaf is not None and state.leaf[1]:
        value_text = f"h {value_text}"
    value = state.value if state.value is not None else state.leaf[0] if state.leaf else 0
    if node.probability is not None:   # an outcome of a chance node: its probability first
        p = probability_text(node.probability)
        value_text = p if value_text is None else f"{p} × {value_text}"
    if node.parent is not None and trace.nodes[node.parent].player == CHANCE:
        _label(canvas, f"{node.player} moves", spot.row(0), Palette.INK, px=SMALL_PX,
               bold=False)
    if value_text is not None:
        where = spot.row(-1) if node.parent is not None else spot.row(0)
        _label(canvas, value_text, where, value_colour(value), plate=True)
    if state.open and state.window is not None:
        _label(canvas, _window_text(state.window, words.value), spot.row(0), Palette.INK,
               px=SMALL_PX, bold=False)
    cache = None
    if words.chance and state.read is not None and state.read.entry is not None:
        cache = (f"memo {words.value(state.read.entry[1])}", Palette.GOOD)
    elif state.read is not None and state.read.used and state.read.entry is not None:
        flag, v = state.read.entry
        cache = (f"hit {flag}{words.value(v)}", Palette.GOOD)
    elif state.stored is not None:
        flag, v = state.stored
        cache = (f"cache {flag}{words.value(v)}", Palette.CIRCLE)
    elif state.read is not None and state.read.entry is not None:
        flag, v = state.read.entry
        cache = (f"read {flag}{words.value(v)}", Palette.NEUTRAL)
    if cache is not None:
        _label(canvas, cache[0], spot.row(spot.below - 1), cache[1], px=SMALL_PX)


CHANCE_BOARD: Final = 0.66
"""A chance node's board is this share of a box's side, inside a circle as wide as the box."""


def _draw_chance_node(canvas: CanvasLike, words: _Words, node: Node, box: Rect,
                      state: NodeState, current: bool) -> None:
    """A chance node: a circle (players' nodes are squares) around a smaller board."""
    x, y = box.center
    radius = box.width / 2
    if current:
        canvas.fill_style = Palette.HIGHLIGHT
        canvas.fill_circle(snap(x), snap(y), radius + 7)
    canvas.fill_style = "#ffffff"
    canvas.fill_circle(snap(x), snap(y), radius)
    side = box.width * CHANCE_BOARD
    _draw_board(canvas, words, node, Rect(x - side / 2, y - side / 2, side, side))
    canvas.stroke_style = Palette.INK if state.open else Palette.MUTED
    canvas.line_width = 3 if current else 2 if state.open else 1
    canvas.stroke_circle(snap(x), snap(y), radius)


def _draw_mcts_node(canvas: CanvasLike, trace: SearchTrace, spot: Spot, shot: Snapshot,
                    current: bool) -> None:
    """An MCTS node: board, mean value above, visits (and with a guide the prior of the
    move into it, "P .42") and (while chosen among) the UCT or PUCT score below."""
    box, node, state = spot.box, trace.nodes[spot.key], shot.nodes[spot.key]  # type: ignore[index]
    event = trace.events[shot.step]
    chosen = isinstance(event, Select) and event.child == spot.key
    added = None   # Backpropagate: what this node of the path got
    if isinstance(event, Backup) and spot.key in event.path:
        added = event.added[event.path.index(spot.key)]
        chosen = True
    if current or chosen:
        canvas.fill_style = Palette.HIGHLIGHT
        canvas.fill_rect(snap(box.x - 7), snap(box.y - 7),
                         snap(box.width + 14), snap(box.height + 14))
    canvas.fill_style = "#ffffff"
    canvas.fill_rect(snap(box.x), snap(box.y), snap(box.width), snap(box.height))
    _draw_board(canvas, _words_for(trace), node, box)
    canvas.stroke_style = Palette.INK if current or chosen else Palette.MUTED
    canvas.line_width = 3 if current or chosen else 1
    canvas.stroke_rect(snap(box.x), snap(box.y), snap(box.width), snap(box.height))
    if state.proven is not None:    # MCTS-Solver: the exact value, not a mean
        _label(canvas, f"proven {format_value(state.proven)}", spot.row(-1),
               value_colour(state.proven), plate=True)
    elif state.value is not None:
        _label(canvas, format_value(state.value), spot.row(-1), value_colour(state.value),
               plate=True)
    prior = "" if node.prior is None else f"  P {node.prior:.2f}".replace("0.", ".", 1)
    _label(canvas, f"n {state.visits}{prior}", spot.row(0), Palette.INK, px=SMALL_PX,
           bold=False)
    if state.uct is not None:
        rule = "uct" if node.prior is None else "puct"
        _label(canvas, f"{rule} {state.uct:.2f}", spot.row(1),
               _readable(Palette.GOOD if chosen else Palette.NEUTRAL), px=SMALL_PX, bold=chosen)
    elif added is not None:
        _label(canvas, f"got {format_value(added)}", spot.row(1), value_colour(added),
               px=SMALL_PX)


def _draw_playout(canvas: CanvasLike, trace: SearchTrace, spot: Spot, event: Playout) -> None:
    """The playout from ``spot``'s node: a dashed line of dots under it, one per move (in
    the mover's colour, the move beside it), then its result in words and colour."""
    words = _words_for(trace)
    game, state = trace.game, trace.nodes[event.node].state
    x = spot.x
    top = spot.row(spot.below - 1).bottom
    ys = [top + (k + 0.5) * PLAYOUT_STEP for k in range(len(event.moves))]
    end = top + len(event.moves) * PLAYOUT_STEP
    canvas.stroke_style = Palette.MUTED
    canvas.line_width = 2
    canvas.set_line_dash([4, 4])
    canvas.stroke_line(snap(x), snap(top), snap(x), snap(end))
    canvas.set_line_dash([])
    first = game.players[0]
    for y, move in zip(ys, event.moves, strict=True):
        mover = game.to_move(state)
        state = game.play(state, move)
        canvas.fill_style = Palette.CROSS if mover == first else Palette.CIRCLE
        canvas.fill_circle(snap(x), snap(y), 5)
        canvas.font = css_font(SMALL_PX, False)
        canvas.fill_style = Palette.INK
        canvas.text_align = "left"
        canvas.text_baseline = "middle"
        canvas.fill_text(f"{mover} {words.move(move)}", snap(x + 10), snap(y))
    player = trace.nodes[event.node].player
    result = (f"{player} wins" if event.result > 0 else "draw" if event.result == 0
              else f"{player} loses")
    _label(canvas, result, Rect(spot.left + 3, end, spot.slot - 6, PLAYOUT_STEP),
           value_colour(event.result), plate=True)


def search_svg(trace: SearchTrace, step: int | None = None) -> BoardPicture:
    """The tree of ``trace`` after event ``step`` (default: the end) as an SVG picture.

    It is the picture :func:`gamelib.ui.show_search` draws at that step, shown at its own
    size (``unconfined``: an output too narrow for it scrolls sideways). Raises
    GameError for a bad trace or step.
    """
    shot = snapshot(trace, step)
    layout = layout_tree(trace)
    # RecordingCanvas implements CanvasLike's properties through __setattr__, which mypy
    # cannot see: it takes the class for abstract.
    canvas = RecordingCanvas(layout.width, layout.height)  # type: ignore[abstract]
    draw_search(canvas, trace, layout, shot)
    return BoardPicture(canvas, describe_search(trace, shot.step), unconfined=True)
