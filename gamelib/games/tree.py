"""A game given as its tree: a nested list whose leaves are the values for the first player.

The textbooks' first example of minimax is not a real game but a small tree drawn on
the board, e.g. the two-ply tree

    [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

MAX moves first and picks one of three lists; MIN then picks a number in it, and that
number is what MAX gets (MIN gets its negative: the game is zero-sum). MIN holds MAX to
the smallest number of each list (3, 2 and 2), so the tree is worth 3 to MAX.

A state is the path from the root: the tuple of the child indices chosen so far (the
start is ``()``). It is immutable and hashable like every state, so every search, the
trace and the viewer take a :class:`TreeGame` like any other game. A move is a child
index; its notation counts from 1 (``"1"`` is the leftmost child).

Leaves may be any numbers, not only -1, 0 and +1: :attr:`TreeGame.value_range` says
which values occur, and the searches with a window (alpha-beta, the bound cache) start
from that range instead of ``[-1, 1]``. The depth-limited searches score a finished state
on their own scale (:func:`~gamelib.search.depth_limited.proven_value`: a leaf worth 3
two plies down counts 3 x 4/3 = 4), which keeps the order of leaves at the same depth.

>>> game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> game.moves(game.start), game.play(game.start, 1)
([0, 1, 2], (1,))
>>> game.utility((1, 0), "MAX"), game.utility((1, 0), "MIN")
(2, -2)
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from typing import Any, Final

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import Player, check_player, not_finished, state_checked

__all__ = ["TreeGame", "TreeState", "TreeMove", "CLASSIC_TREE"]

TreeState = tuple[int, ...]
"""The path from the root: the child index chosen at each ply so far."""

TreeMove = int
"""The index of a child, 0 for the leftmost."""

Tree = Any
"""A leaf (a number) or a tuple of subtrees."""

CLASSIC_TREE: Final = ((3, 12, 8), (2, 4, 6), (14, 5, 2))
"""The textbooks' two-ply tree (Russell and Norvig, figure 5.2): worth 3 to MAX."""

MAX_NODES: Final = 100_000
"""The most nodes (inner nodes and leaves) a tree may have."""

MAX_DEPTH: Final = 40
"""The most plies a tree may have."""

_MOVE_PATTERN: Final = re.compile(r"\s*([0-9]{1,6})\s*")
_ALLOWED: Final = (
    "a tree is a non-empty list of subtrees; a subtree is a number (a leaf: its value "
    "for the first player) or again a non-empty list of subtrees, e.g. [[3, 12, 8], [2, 4, 6]]"
)


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _freeze(tree: object, path: tuple[int, ...], count: list[int]) -> Tree:
    """``tree`` as nested tuples, after checking it (``path`` locates it for messages)."""
    where = "the tree" if not path else "the subtree at " + ".".join(str(i + 1) for i in path)
    count[0] += 1
    if count[0] > MAX_NODES:
        raise GameError(f"the tree has more than {MAX_NODES:,} nodes: draw a smaller one")
    if _is_number(tree):
        if not math.isfinite(float(tree)):  # type: ignore[arg-type]
            raise GameError(f"{where} is {tree!r}: a leaf must be a finite number")
        return tree
    if isinstance(tree, (str, bytes)) or not isinstance(tree, Sequence):
        raise GameError(f"{where} is {describe_text(tree)} ({type(tree).__name__}): {_ALLOWED}")
    if not tree:
        raise GameError(f"{where} is an empty list: {_ALLOWED}")
    if len(path) >= MAX_DEPTH:
        raise GameError(f"the tree is deeper than {MAX_DEPTH} plies: draw a smaller one")
    return tuple(_freeze(child, (*path, i), count) for i, child in enumerate(tree))


def _leaves(tree: Tree) -> list[float]:
    if not isinstance(tree, tuple):
        return [tree]
    return [leaf for child in tree for leaf in _leaves(child)]


def _to_list(tree: Tree) -> Any:
    return [_to_list(child) for child in tree] if isinstance(tree, tuple) else tree


class TreeGame:
    """The game whose tree is ``tree``; ``players[0]`` (``"MAX"``) moves first.

    >>> game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> game.value_range
    (-14, 14)
    >>> print(game.render((2,)))
    MIN to move at 3: [14, 5, 2]
    """

    name: Final = "Game tree"
    text_round_trips: Final = False
    turns_alternate: Final = True
    """The players take turns, level by level (see
    :func:`gamelib.search.movers.turns_alternate`)."""

    def __init__(self, tree: Sequence[Any] = CLASSIC_TREE,
                 players: tuple[Player, Player] = ("MAX", "MIN")) -> None:
        """The game of ``tree``, a non-empty nested list whose leaves are finite numbers.

        Leaves may sit at different depths (a ragged tree). ``players`` names the first
        and the second player. Raises :class:`GameError` for an empty list anywhere, a
        leaf that is not a finite number, a bare number as the whole tree, more than
        :data:`MAX_NODES` nodes or :data:`MAX_DEPTH` plies, or two equal player names.
        """
        if _is_number(tree):
            raise GameError(f"the tree is the single number {tree!r}, a game that is over "
                            f"before it starts: {_ALLOWED}")
        self.tree: Final[Tree] = _freeze(tree, (), [0])
        """The tree as nested tuples."""
        if (not isinstance(players, tuple) or len(players) != 2
                or not all(isinstance(p, str) and p for p in players)
                or players[0] == players[1]):
            raise GameError(f"players must be two different names such as ('MAX', 'MIN'); "
                            f"got {describe_text(players)}")
        self.players: Final[tuple[Player, Player]] = players
        self.start: Final[TreeState] = ()
        top = max(abs(leaf) for leaf in _leaves(self.tree))
        self.value_range: Final[tuple[float, float]] = (-top, top)
        """Every value of a state, for either player, lies in this range."""

    @state_checked
    def node(self, state: TreeState) -> Tree:
        """The subtree at ``state``: a number for a leaf, else a tuple of subtrees.

        Raises :class:`GameError` when ``state`` is not a state (a tuple of child indices
        leading to a node of the tree).
        """
        if not isinstance(state, tuple):
            raise TypeError(state)
        tree = self.tree
        for index in state:
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise ValueError(index)
            tree = tree[index]
        return tree

    @state_checked
    def next_states(self, state: TreeState, player: Player) -> list[TreeState]:
        """The paths to the children of ``state``, left to right.

        Precondition: ``player == to_move(state)``. Raises :class:`GameError` when
        ``player`` is unknown or ``state`` is not a state.
        """
        check_player(self, player)
        node = self.node(state)
        return [(*state, i) for i in range(len(node))] if isinstance(node, tuple) else []

    @state_checked
    def finished(self, state: TreeState) -> bool:
        """True iff ``state`` is a leaf.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        return not isinstance(self.node(state), tuple)

    @state_checked
    def utility(self, state: TreeState, player: Player) -> Any:
        """The leaf's number for the first player, its negative for the second.

        Raises :class:`GameError` when ``state`` is not a leaf or not a state, or
        ``player`` unknown.
        """
        check_player(self, player)
        node = self.node(state)
        if isinstance(node, tuple):
            raise not_finished()
        return node if player == self.players[0] else -node

    @state_checked
    def to_move(self, state: TreeState) -> Player:
        """The first player at even depths, the second at odd ones.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        self.node(state)
        return self.players[len(state) % 2]

    @state_checked
    def moves(self, state: TreeState) -> list[TreeMove]:
        """The child indices of ``state``, 0 to k - 1; empty at a leaf.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        node = self.node(state)
        return list(range(len(node))) if isinstance(node, tuple) else []

    @state_checked
    def play(self, state: TreeState, move: TreeMove) -> TreeState:
        """The path to child number ``move`` (from 0) of ``state``.

        Raises :class:`IllegalMoveError` at a leaf or when ``move`` is not the index of
        a child; :class:`GameError` when ``state`` is not a state.
        """
        node = self.node(state)
        if not isinstance(node, tuple):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < len(node):
            raise IllegalMoveError(
                f"{describe_text(move)} is not a move here: a move is the index of a child, "
                f"0 to {len(node) - 1} (written 1 to {len(node)})"
            )
        return (*state, move)

    def parse_move(self, text: str) -> TreeMove:
        """``'k'``: child number k counted from 1, e.g. ``'1'`` for the leftmost child.

        Raises :class:`MoveFormatError` unless ``text`` is a whole number at least 1;
        whether the child exists is for :meth:`play` to decide.
        """
        notation = "a move is the number of a child counted from 1, e.g. '1'"
        if not isinstance(text, str):
            raise MoveFormatError(f"expected text, got {type(text).__name__}: {notation}")
        match = _MOVE_PATTERN.fullmatch(text) if len(text) <= 20 else None
        if match is None or int(match.group(1)) < 1:
            raise MoveFormatError(f"{describe_text(text)} is not a move: {notation}")
        return int(match.group(1)) - 1

    def format_move(self, move: TreeMove) -> str:
        """The child's number counted from 1."""
        return str(move + 1)

    def label(self, state: TreeState) -> str:
        """The path as child numbers from 1 joined by dots, e.g. ``'2.1'``; ``'root'``."""
        return ".".join(str(i + 1) for i in state) if state else "root"

    @state_checked
    def render(self, state: TreeState) -> str:
        """One line: the path and the subtree there, or the leaf's value for the first
        player.

        Raises :class:`GameError` when ``state`` is not a state.
        """
        node = self.node(state)
        if isinstance(node, tuple):
            return f"{self.to_move(state)} to move at {self.label(state)}: {_to_list(node)}"
        return f"leaf {self.label(state)}: worth {node} to {self.players[0]}"

    def __repr__(self) -> str:
        players = "" if self.players == ("MAX", "MIN") else f", {self.players!r}"
        return f"TreeGame({_to_list(self.tree)}{players})"
