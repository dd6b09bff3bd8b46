"""gamelib.learn.value: the data sets have the exact counts and labels, their splits keep
every symmetric twin on one side, they are deterministic, the learned heuristic is a
heuristic, and bad arguments get the project's message."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from gamelib.connect4.book import opening_book
from gamelib.connect4.heuristic import connect_four_counts
from gamelib.errors import GameError
from gamelib.games import ConnectFour, TicTacToe
from gamelib.learn.net import SoftmaxRegression, TwoLayerNet, train
from gamelib.learn.value import (
    CONNECT_FOUR_FEATURES,
    Dataset,
    connect_four_choices,
    connect_four_dataset,
    connect_four_features,
    learned_heuristic,
    mirror_image,
    tictactoe_dataset,
    tictactoe_features,
    tictactoe_symmetry_class,
)
from gamelib.search import depth_limited

C4 = ConnectFour()


@cache
def ttt() -> Dataset:
    return tictactoe_dataset()


@cache
def c4() -> Dataset:
    return connect_four_dataset()


def test_tictactoe_has_every_unfinished_state_with_its_exact_label() -> None:
    data = ttt()
    assert len(data.states) == len(set(data.states)) == 4520
    assert data.features.shape == (4520, 18)
    assert data.label_counts() == {-1: 632, 0: 1052, 1: 2836}
    assert data.label_counts(True) == {-1: 120, 0: 244, 1: 544}   # 908 held out
    assert int(data.test.sum()) == 908 and 908 >= 0.2 * 4520
    start = data.states.index(TicTacToe().start)
    assert data.labels[start] == 1 and data.features[start].sum() == 0   # a draw: class 1


def test_tictactoe_split_keeps_each_symmetry_class_on_one_side() -> None:
    data = ttt()
    side: dict[object, bool] = {}
    for state, held in zip(data.states, data.test, strict=True):
        assert side.setdefault(tictactoe_symmetry_class(state), bool(held)) == bool(held)
    assert len(side) == 765 - 138   # the classes of all states, minus the finished ones


def test_symmetry_class_is_shared_by_all_eight_twins_and_only_them() -> None:
    board = (("X", " ", " "), (" ", "O", " "), (" ", " ", " "))
    rotated = ((" ", " ", "X"), (" ", "O", " "), (" ", " ", " "))
    mirrored = ((" ", " ", " "), (" ", "O", " "), ("X", " ", " "))
    other = ((" ", "X", " "), (" ", "O", " "), (" ", " ", " "))
    classes = {tictactoe_symmetry_class(b) for b in (board, rotated, mirrored)}
    assert len(classes) == 1 and tictactoe_symmetry_class(other) not in classes


def test_features_see_the_board_from_the_player() -> None:
    board = (("X", "O", " "), (" ", " ", " "), (" ", " ", " "))
    assert tictactoe_features(board, "X")[:6] == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert tictactoe_features(board, "O")[:6] == [0.0, 1.0, 1.0, 0.0, 0.0, 0.0]


def test_splits_are_deterministic_and_depend_on_the_seed() -> None:
    again = tictactoe_dataset()
    assert np.array_equal(again.test, ttt().test) and again.states == ttt().states
    other = tictactoe_dataset(test_share=0.5, seed=1)
    assert int(other.test.sum()) >= 2260 and not np.array_equal(other.test, ttt().test)


def test_connect_four_data_have_their_counts_and_one_position_per_mirror_class() -> None:
    data = c4()
    assert data.features.shape == (4000, len(CONNECT_FOUR_FEATURES)) == (4000, 10)
    assert data.label_counts() == {-1: 1038, 0: 200, 1: 2762}
    assert int(data.test.sum()) == 800
    classes = {min(s, mirror_image(C4, s)) for s in data.states}
    assert len(classes) == 4000
    for state in data.states[:50]:
        first, second = state
        assert (first | second).bit_count() == 12 and not C4.finished(state)
    features = connect_four_features(C4)
    counts = connect_four_counts(C4)(data.states[0])
    assert features(data.states[0], "X") == [float(n) for n in counts]
    assert features(data.states[0], "O") == [float(n) for n in counts[5:] + counts[:5]]


def test_connect_four_choices_are_held_apart_and_each_choice_matters() -> None:
    choices = connect_four_choices()
    assert len(choices) == 300
    reached = set()
    for choice in choices:
        assert sorted(choice.values) == C4.moves(choice.state) and C4.to_move(choice.state) == "O"
        assert not all(choice.keeps(move) for move in choice.values)
        for move in choice.values:
            child = C4.play(choice.state, move)
            reached |= {child, mirror_image(C4, child)}
    assert not reached & set(c4().states)


def test_connect_four_labels_are_the_books() -> None:
    book = opening_book()  # loaded here, not when the module is collected
    if book is None:
        pytest.skip("the opening book is not installed")
    data = c4()
    for state, label in itertools.islice(zip(data.states, data.labels, strict=True), 0, 4000, 97):
        first, second = state
        score = book.score(first + (first | second))
        assert score is None or (score > 0) - (score < 0) == label - 1
        if score is None:   # left out by the book: X wins with its next disc
            assert label == 2 and any(C4.finished(C4.play(state, m)) for m in C4.moves(state))
    for choice in connect_four_choices()[:20]:
        for move, value in choice.values.items():
            child = C4.play(choice.state, move)
            if C4.finished(child):
                assert value == 1
                continue
            first, second = child
            score = book.score(first + (first | second))
            assert value == (-1 if score is None else (score < 0) - (score > 0))


def test_learned_heuristic_is_inside_the_open_interval_and_antisymmetric() -> None:
    features, labels = ttt().part(held_out=False)
    model = TwoLayerNet(18, hidden=8, seed=1)
    train(model, features, labels, 30)
    game = TicTacToe()
    h = learned_heuristic(model, tictactoe_features, game)
    rng = random.Random(5)
    for state in rng.sample(ttt().states, 40):
        p = model.probabilities(np.array([tictactoe_features(state, game.to_move(state))]))[0]
        value = h(state, game.to_move(state))
        assert -1 < value < 1 and value == pytest.approx(0.999 * (p[2] - p[0]))
        assert h(state, "X") == -h(state, "O")
    assert -1 < depth_limited(game, game.start, 2, h) < 1


def test_an_untrained_regression_values_every_position_at_zero() -> None:
    h = learned_heuristic(SoftmaxRegression(10), connect_four_features(C4), C4)
    assert h(C4.start, "X") == 0.0 == h(ConnectFour.from_moves("4455"), "O")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: tictactoe_dataset(test_share=1.0), "test_share is a float strictly between 0 and 1"),
    (lambda: tictactoe_dataset(test_share=1), "test_share is a float"),
    (lambda: connect_four_dataset(seed=-1), "seed is a whole number of at least 0"),
    (lambda: connect_four_dataset(seed=True), "seed is a whole number"),
    (lambda: learned_heuristic("net", tictactoe_features, TicTacToe()),  # type: ignore[arg-type]
     "model needs a probabilities method"),
    (lambda: learned_heuristic(SoftmaxRegression(18), None, TicTacToe()),  # type: ignore[arg-type]
     "features is a function"),
    (lambda: learned_heuristic(SoftmaxRegression(18), tictactoe_features, TicTacToe),
     "instead of a game"),
    (lambda: connect_four_features(TicTacToe()),  # type: ignore[arg-type]
     "needs a ConnectFour game"),
])
def test_bad_arguments_get_a_message(call: object, message: str) -> None:
    with pytest.raises(GameError, match=message):
        call()  # type: ignore[operator]
