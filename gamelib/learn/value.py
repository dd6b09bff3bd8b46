"""Positions with exact values as data, and a learned value as a heuristic (Lesson 12).

A depth-limited search (Lesson 6) needs an estimate at its horizon; Lesson 7 wrote one by
hand. Here the estimate is *learned* from positions whose exact values are known, and every
claim about it is checked against values it never saw:

* a position becomes a row of numbers, its **features**, always seen by the player to move:
  :func:`tictactoe_features` (for each square: mine, the opponent's) and
  :func:`connect_four_features` (Lesson 7's counts, :func:`~gamelib.connect4.heuristic.
  connect_four_counts`, mine first);
* its **label** is its exact value for the player to move, as an index of :data:`CLASSES`
  (0 a loss, 1 a draw, 2 a win);
* a :class:`Dataset` holds the rows, the labels and a **split**: the held-out rows are never
  used in training, and the rule that chose them is stated by the function that made it;
* :func:`learned_heuristic` turns a model of :mod:`gamelib.learn.net` into a heuristic:
  P(win) - P(loss), a number strictly inside (-1, 1).

The Connect Four data come from the package file ``data/connect4_values.txt``, made by
``tools/make_connect4_values.py`` (seeded random play, labelled by the opening book of
:mod:`gamelib.connect4.book`), so that the lessons need neither the book nor a solver.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Final, cast

import numpy as np

from gamelib.connect4.heuristic import COUNTS, connect_four_counts
from gamelib.errors import GameError, describe_text
from gamelib.game import Player
from gamelib.games import ConnectFour, TicTacToe
from gamelib.games.connect_four import C4State
from gamelib.games.tictactoe import Board
from gamelib.learn.net import Array, Model
from gamelib.search.common import AnyGame, Heuristic, check_game
from gamelib.search.memo import memo_minimax

__all__ = [
    "CLASSES",
    "CONNECT_FOUR_FEATURES",
    "Choice",
    "Dataset",
    "connect_four_choices",
    "connect_four_dataset",
    "connect_four_features",
    "learned_heuristic",
    "mirror_image",
    "tictactoe_dataset",
    "tictactoe_features",
    "tictactoe_symmetry_class",
]

CLASSES: Final = (-1, 0, 1)
"""The exact values the models predict, in the order of their outputs: loss, draw, win."""

CONNECT_FOUR_FEATURES: Final = tuple(
    f"{whose} {name}" for whose in ("my", "their") for name in COUNTS)
"""The names of :func:`connect_four_features`' ten numbers, in their order."""

DATA_FILE: Final = "connect4_values.txt"
"""The Connect Four data of this module, in ``gamelib/learn/data``."""


@dataclass(frozen=True)
class Dataset:
    """Positions with exact labels, split in two by a stated rule.

    ``features[i]``, ``labels[i]`` and ``states[i]`` describe the same position;
    ``test[i]`` is True when it is held out (never used in training).
    """

    features: Array
    """One row of features per position (a float array)."""
    labels: Array
    """The index in :data:`CLASSES` of each position's exact value for the player to move."""
    states: tuple[Hashable, ...]
    """The positions, in the rows' order."""
    test: Array
    """A boolean per row: True for the held-out positions."""

    def part(self, held_out: bool) -> tuple[Array, Array]:
        """``(features, labels)`` of the held-out rows (True) or of the training rows."""
        rows = self.test if held_out else ~self.test
        return self.features[rows], self.labels[rows]

    def label_counts(self, held_out: bool | None = None) -> dict[int, int]:
        """How many rows have each exact value (-1, 0, 1): of all rows (None), of the
        held-out rows (True) or of the training rows (False)."""
        labels = self.labels if held_out is None else self.part(held_out)[1]
        return {value: int((labels == index).sum()) for index, value in enumerate(CLASSES)}


# -- tic-tac-toe ---------------------------------------------------------------------------

def tictactoe_features(state: Hashable, player: Player) -> list[float]:
    """18 numbers for a tic-tac-toe board seen by ``player``: for each square in reading
    order, ``1.0, 0.0`` if it holds ``player``'s mark, ``0.0, 1.0`` if it holds the
    opponent's, ``0.0, 0.0`` if it is empty. (Trusts its input: a board of
    :class:`~gamelib.games.TicTacToe` and "X" or "O".)"""
    opponent = "O" if player == "X" else "X"
    out: list[float] = []
    for row in state:  # type: ignore[attr-defined]
        for mark in row:
            out += [float(mark == player), float(mark == opponent)]
    return out


def tictactoe_symmetry_class(state: Hashable) -> Hashable:
    """The smallest of the eight boards that a rotation or reflection makes of ``state``:
    two boards have the same class exactly when one is a symmetric twin of the other."""
    board = tuple(tuple(row) for row in state)  # type: ignore[attr-defined]
    twins = []
    for _ in range(4):
        board = tuple(zip(*board[::-1], strict=True))          # a quarter turn
        twins += [board, tuple(row[::-1] for row in board)]   # and its mirror image
    return min(twins)


def tictactoe_dataset(test_share: float = 0.2, seed: int = 0) -> Dataset:
    """Every tic-tac-toe position that is not finished (4,520 of the 5,478), labelled by
    its exact value for the player to move (memoized minimax, Lesson 3).

    The split rule: the positions are grouped by symmetry class
    (:func:`tictactoe_symmetry_class`: a board and its rotations and reflections), the
    classes sorted and shuffled with ``numpy.random.default_rng(seed)``, and whole classes
    held out, in that order, until at least ``test_share`` of the positions are. So no
    held-out position has a rotation or reflection of itself in the training rows.
    ``test_share`` is a float strictly between 0 and 1; ``seed`` a whole number >= 0.
    """
    _check_split(test_share, seed)
    game = TicTacToe()
    values: dict[Hashable, int] = {}
    memo_minimax(game, game.start, cache=values)  # every state's value, for its mover
    boards = [cast(Board, s) for s in values]
    playing = sorted((s for s in boards if not game.finished(s)), key=repr)
    features = [tictactoe_features(s, game.to_move(s)) for s in playing]
    labels = [CLASSES.index(values[s]) for s in playing]
    return Dataset(np.array(features), np.array(labels), tuple(playing),
                   _split([tictactoe_symmetry_class(s) for s in playing], test_share, seed))


# -- Connect Four --------------------------------------------------------------------------

def connect_four_features(game: ConnectFour) -> Callable[[Hashable, Player], list[float]]:
    """``features(state, player)``: the ten counts of Lesson 7's heuristic
    (:data:`CONNECT_FOUR_FEATURES`), ``player``'s five first, then the opponent's.
    ``game`` is a :class:`~gamelib.games.ConnectFour` of any size."""
    counts = connect_four_counts(game)   # checks the game
    first = game.players[0]

    def features(state: Hashable, player: Player) -> list[float]:
        c = counts(state)
        mine, theirs = (c[:5], c[5:]) if player == first else (c[5:], c[:5])
        return [float(n) for n in (*mine, *theirs)]

    return features


@dataclass(frozen=True)
class Choice:
    """A position and the exact value of each legal move for the player to move."""

    state: C4State
    values: dict[int, int]
    """Column (0-based) -> the exact value (-1, 0, 1) of playing it, for the player to move."""

    def keeps(self, move: int) -> bool:
        """Whether ``move`` keeps the position's exact value (is one of the best moves)."""
        return self.values[move] == max(self.values.values())


def connect_four_dataset(test_share: float = 0.2, seed: int = 0) -> Dataset:
    """The Connect Four positions with 12 discs of the package data (X to move), labelled
    by their exact value for X, with :func:`connect_four_features` for X.

    How the data were made (``tools/make_connect4_values.py``): random games, columns
    drawn uniformly with ``random.Random(12)``, stopped at 12 discs; a game that ends
    before is dropped, and so is a position whose mirror image (columns in reverse
    order) is already there; the label is the opening book's, or a win when X can win
    with its next disc (the book leaves those out). No position is the result of a move
    in a position of :func:`connect_four_choices`, nor a mirror image of one.

    The split rule: the positions are grouped by mirror class (a position and its mirror
    image, though only one of them is in the data), shuffled with
    ``numpy.random.default_rng(seed)`` after sorting, and held out in that order until at
    least ``test_share`` of them are. Arguments as :func:`tictactoe_dataset`.
    """
    _check_split(test_share, seed)
    game = ConnectFour()
    features = connect_four_features(game)
    states, labels = [], []
    for fields in _data_lines("12"):
        states.append(ConnectFour.from_moves(fields[0]))
        labels.append(CLASSES.index(int(fields[1])))
    rows = [features(state, "X") for state in states]
    classes = [min(mirror_image(game, s), s) for s in states]
    return Dataset(np.array(rows), np.array(labels), tuple(states),
                   _split(classes, test_share, seed))


def connect_four_choices() -> list[Choice]:
    """The held-apart Connect Four positions of the package data, for measuring moves:
    positions with 11 discs (O to move) where the choice matters (some legal move loses
    the exact value), with the exact value of every legal move for O (from the opening
    book of the position it leads to; a move that wins at once is a win, one after
    which X can win at once a loss). Made by ``tools/make_connect4_values.py`` from
    random games with ``random.Random(11)``; see :func:`connect_four_dataset`."""
    choices = []
    for fields in _data_lines("11"):
        values = {col: int(v) for col, v in enumerate(fields[1:]) if v != "."}
        choices.append(Choice(ConnectFour.from_moves(fields[0]), values))
    return choices


def mirror_image(game: ConnectFour, state: C4State) -> C4State:
    """The mirror image of the Connect Four position ``state`` of ``game``: its columns in
    reverse order (the same exact value, for the same player)."""
    first, second = state
    h = game.height
    mirrored = [0, 0]
    for col in range(game.cols):
        mask = game.column_masks[col]
        shift = (game.cols - 1 - 2 * col) * h
        for i, discs in enumerate((first, second)):
            part = discs & mask
            mirrored[i] |= part << shift if shift >= 0 else part >> -shift
    return mirrored[0], mirrored[1]


def _data_lines(kind: str) -> list[list[str]]:
    """The fields after ``kind`` of the data file's lines that start with ``kind``."""
    text = files("gamelib.learn").joinpath("data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return [line.split()[1:] for line in text.splitlines() if line.split()[:1] == [kind]]


# -- shared by both games ------------------------------------------------------------------

def _check_split(test_share: object, seed: object) -> None:
    if not isinstance(test_share, float) or not 0 < test_share < 1:
        raise GameError("test_share is a float strictly between 0 and 1, such as 0.2; got "
                        f"{describe_text(test_share)}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise GameError(f"seed is a whole number of at least 0; got {describe_text(seed)}")


def _split(classes: Sequence[Hashable], test_share: float, seed: int) -> Array:
    """The held-out mask: whole classes, sorted then shuffled by ``seed``, held out until
    at least ``test_share`` of the rows are."""
    members: dict[Hashable, list[int]] = {}
    for row, c in enumerate(classes):
        members.setdefault(c, []).append(row)
    order = sorted(members, key=repr)
    test = np.zeros(len(classes), dtype=bool)
    wanted = test_share * len(classes)
    for index in np.random.default_rng(seed).permutation(len(order)):
        if test.sum() >= wanted:
            break
        test[members[order[index]]] = True
    return test


def learned_heuristic(model: Model, features: Callable[[Hashable, Player], Sequence[float]],
                      game: AnyGame) -> Heuristic:
    """``h(state, player)``: the model's P(win) - P(loss) for the player to move in
    ``state`` (its features by ``features(state, mover)``), negated when ``player`` is the
    other one, times 0.999: strictly inside (-1, 1), as a heuristic of
    :func:`~gamelib.search.depth_limited` must be. ``model`` predicts the three
    :data:`CLASSES` (a model of :mod:`gamelib.learn.net` with ``classes=3``). Raises
    :class:`GameError` for a model without ``probabilities``, ``features`` that is not a
    function or ``game`` that is not a game."""
    check_game(game)
    if not callable(getattr(model, "probabilities", None)):
        raise GameError(f"model needs a probabilities method (a model of gamelib.learn.net); "
                        f"got {describe_text(model)}")
    if not callable(features):
        raise GameError(f"features is a function (state, player) -> numbers; got "
                        f"{describe_text(features)}")
    to_move = game.to_move

    def h(state: Hashable, player: Player) -> float:
        mover = to_move(state)
        p = model.probabilities(np.array([features(state, mover)]))[0]
        value = float(p[2] - p[0]) * 0.999
        return value if player == mover else -value

    return h

