"""Issue 20 item 1: a checker refuses a student's function that only calls gamelib's reference,
however the reference is reached: a direct import, a module attribute, importlib, a reference
saved before the check, a bound method; a bare ``except`` that swallows the refusal does not
help either. The report is one line that names the call. Handed helpers keep working (the
solution notebooks are that test; ``test_a_handed_helper_runs_forbidden_code`` is the unit).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

import gamelib.search as search_package
from gamelib.connect4 import connect_four_heuristic
from gamelib.exercises import (
    check_alphabeta,
    check_connect_four_rules,
    check_deepening,
    check_exact_score,
    check_finished,
    check_heuristic,
    check_memo_minimax,
    check_merge_entries,
    check_next_states,
    check_nim_values,
    check_read_entry,
    check_store_bound,
    check_symmetry_count,
    check_tree_counts,
    check_utility,
)
from gamelib.exercises.ex11_backprop import check_backpropagate
from gamelib.exercises.ex13_regret import check_regret_matching
from gamelib.exercises.ex14_training import check_gradients
from gamelib.exercises.guard import DelegationRefused, Forbidden, checking, handed, refusing
from gamelib.exercises.report import CheckResult
from gamelib.games import ConnectFour, Nim
from gamelib.search import alphabeta, memo_minimax

SAVED_ALPHABETA = search_package.alphabeta  # a reference taken before any check
SAVED_NIM_NEXT = Nim().next_states  # a bound method taken before any check

Way = Callable[[str, str], Any]


def direct(module: str, name: str) -> Any:
    """``from module import name`` written in the student's function."""
    namespace: dict[str, Any] = {}
    exec(f"from {module} import {name} as found", namespace)  # noqa: S102 - the student's import
    return namespace["found"]


def attribute(module: str, name: str) -> Any:
    """``import module; module.name``."""
    return getattr(__import__(module, fromlist=[name]), name)


def through_importlib(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


WAYS: dict[str, Way] = {"import": direct, "attribute": attribute, "importlib": through_importlib}


def nim(way: Way) -> Any:
    return way("gamelib.games", "Nim")()


def c4(way: Way, rows: int, cols: int) -> Any:
    return way("gamelib.games", "ConnectFour")(rows, cols)


def delegators(way: Way) -> dict[str, tuple[Callable[[], CheckResult], str]]:
    """Per checker: a check of a delegating function, and the name its report must give."""
    return {
        "next_states": (lambda: check_next_states(
            lambda s, p: nim(way).next_states(s, p)), "Nim"),
        "finished": (lambda: check_finished(lambda s: nim(way).finished(s)), "Nim"),
        "utility": (lambda: check_utility(lambda s, p: nim(way).utility(s, p)), "Nim"),
        "nim_values": (lambda: check_nim_values(
            lambda s, p: nim(way).next_states(s, p), lambda s: nim(way).finished(s),
            lambda s, p: nim(way).utility(s, p)), "Nim"),
        "memo": (lambda: check_memo_minimax(
            lambda g, s, p, cache: way("gamelib.search", "memo_minimax")(g, s, p)),
                 "memo_minimax"),
        "store": (lambda: check_store_bound(
            lambda cache, s, a, b, v: way("gamelib.exercises.intervals", "store_interval")(
                cache, s, a, b, v)), "store_interval"),
        "merge": (lambda: check_merge_entries(
            lambda old, new: way("gamelib.exercises.ex05_store", "_merged")(old, new)[0]),
                  "_merged"),
        "heuristic": (lambda: check_heuristic(
            lambda r, c: way("gamelib.connect4", "connect_four_heuristic")(ConnectFour(r, c))),
                      "connect_four_heuristic"),
        "heuristic_baseline": (lambda: check_heuristic(
            lambda r, c: way("gamelib.exercises", "triples_heuristic")(ConnectFour(r, c))),
                               "triples_heuristic"),
        "tree_counts": (lambda: check_tree_counts(
            lambda n: way("gamelib.exercises", "tree_size_by_enumeration")(n),
            lambda n: way("gamelib.exercises", "state_count_by_enumeration")(n)),
                        "tree_size_by_enumeration"),
        "symmetry": (lambda: check_symmetry_count(
            lambda side: way("gamelib.exercises", "symmetric_state_count_by_enumeration")(side)),
                     "symmetric_state_count_by_enumeration"),
        "alphabeta": (lambda: check_alphabeta(
            lambda g, s, p, a, b, order: way("gamelib.search", "alphabeta")(g, s, p, a, b)),
                      "alphabeta"),
        "read": (lambda: check_read_entry(
            lambda entry, a, b: way("gamelib.exercises.intervals", "read_interval")(entry, a, b)),
                 "read_interval"),
        "deepening": (lambda: check_deepening(
            lambda g, s, h, depth, out: (way("gamelib.search", "iterative_deepening")(
                g, s, h, max_depth=depth).move, depth)), "iterative_deepening"),
        "bitboard": (lambda: check_connect_four_rules(
            lambda r, c, s: c4(way, r, c).next_states(s, c4(way, r, c).to_move(s)),
            lambda r, c, s: c4(way, r, c).finished(s),
            lambda r, c, s, p: c4(way, r, c).utility(s, p)), "ConnectFour"),
        "backprop": (lambda: check_backpropagate(
            lambda path, result: way("gamelib.search.mcts", "backpropagate")(path, result)),
                     "backpropagate"),
        "regret": (lambda: check_regret_matching(
            lambda regrets: way("gamelib.search.cfr", "regret_matching")(regrets)),
                   "regret_matching"),
        "gradients": (lambda: check_gradients(
            lambda w, b, x, y: _learned_gradients(way, w, b, x, y)), "SoftmaxRegression"),
        "exact_score": (lambda: check_exact_score(
            lambda g, s, at_least, guess: way("gamelib.connect4", "Solver")(g).solve(s)),
                        "Solver"),
    }


def _learned_gradients(way: Way, w: Any, b: Any, x: Any, y: Any) -> Any:
    """Exercise 14 by gamelib's SoftmaxRegression: its gradients for the weights given."""
    model = way("gamelib.learn", "SoftmaxRegression")(w.shape[0], w.shape[1])
    model.weights[...], model.bias[...] = w, b
    return model.gradients(x, y)[1]


CASES = [(way, checker) for way in WAYS for checker in delegators(direct)]


@pytest.mark.parametrize("way, checker", CASES)
def test_a_delegating_function_does_not_pass(way: str, checker: str) -> None:
    check, name = delegators(WAYS[way])[checker]
    result = check()
    assert not result.passed
    assert len(result.lines) == 1 and result.failures, repr(result)
    text = result.failures[0].text
    assert f"`{name}" in text or f".{name}" in text, text
    assert "write it yourself" in text


def test_a_saved_reference_and_a_saved_bound_method_are_refused_too() -> None:
    result = check_alphabeta(lambda g, s, p, a, b, order: SAVED_ALPHABETA(g, s, p, a, b))
    assert not result.passed and "alphabeta.alphabeta" in result.failures[0].text
    result = check_next_states(SAVED_NIM_NEXT)
    assert not result.passed and "Nim.next_states" in result.failures[0].text
    result = check_memo_minimax(lambda g, s, p, cache: memo_minimax(g, s, p))
    assert not result.passed and "memo_minimax" in result.failures[0].text


def test_swallowing_the_refusal_does_not_help() -> None:
    def sly(game: Any, state: Any, player: Any, a: Any, b: Any, order: Any) -> Any:
        try:
            return alphabeta(game, state, player, a, b)
        except BaseException:  # noqa: BLE001 - the student's bare except
            return 0

    result = check_alphabeta(sly)
    assert not result.passed and result.facts["refused"][0].endswith("alphabeta.alphabeta")
    assert "write it yourself" in result.failures[0].text


def test_reload_is_refused() -> None:
    def reloading(game: Any, state: Any, player: Any, a: Any, b: Any, order: Any) -> Any:
        module = importlib.reload(importlib.import_module("gamelib.search.alphabeta"))
        return module.alphabeta(game, state, player, a, b)

    result = check_alphabeta(reloading)
    assert not result.passed and "reload" in result.failures[0].text


def test_a_closure_made_before_the_check_is_refused() -> None:
    h = connect_four_heuristic(ConnectFour(5, 6))  # made in an earlier cell
    result = check_heuristic(lambda rows, cols: h)
    assert not result.passed and "connect_four_heuristic" in result.failures[0].text


def test_the_references_work_again_after_a_check() -> None:
    check_alphabeta(lambda g, s, p, a, b, order: alphabeta(g, s, p, a, b))
    game = Nim((1, 2))
    assert alphabeta(game, game.start, "A", -1, 1) == 1
    assert len(game.next_states(game.start, "A")) == 3


def test_a_handed_helper_runs_forbidden_code() -> None:
    forbidden = Forbidden(objects=(alphabeta,))
    game = Nim((1, 2))
    with checking(forbidden), refusing():
        with pytest.raises(DelegationRefused):
            alphabeta(game, game.start, "A", -1, 1)
        assert handed(alphabeta)(game, game.start, "A", -1, 1) == 1
    assert alphabeta(game, game.start, "A", -1, 1) == 1
