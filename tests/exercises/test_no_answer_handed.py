"""Issue 35, item 6: what an exercise hands the student does not carry the answer. Nothing
reachable with ``dir()`` from the arguments of the student's function holds an expected
value, and a checker's cached expected values cannot be read from its module while the
student's code runs."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest

import gamelib.exercises as ex
from exercises.entry_points import CHECKERS
from gamelib.exercises import ex02_memo, ex03_counting, ex04_alphabeta, ex07_deepening, intervals
from gamelib.exercises import ex09_bitboard as ex09
from gamelib.exercises import ex10_null_windows as ex10
from gamelib.exercises import ex12_expectiminimax as ex12
from gamelib.exercises.report import CheckResult

ENTRY_POINTS = CHECKERS

REVEALING = {"score", "limit", "budget", "expected", "reference", "answer", "solution",
             "solved", "best", "rang_at", "asked"}
"""Attribute names that would hold what a checker expects, or when it stops the student."""


def reachable(roots: tuple[Any, ...], depth: int = 4) -> dict[str, Any]:
    """Every attribute a student reaches from ``roots`` with ``dir()`` and ``getattr`` (names
    without double underscores: those lead anywhere, through ``__globals__``), and the
    items of containers, ``depth`` steps deep: path -> value."""
    found: dict[str, Any] = {}
    seen: set[int] = set()
    todo = [(f"arg{i}", root, 0) for i, root in enumerate(roots)]
    while todo and len(seen) < 5000:
        path, value, level = todo.pop()
        if id(value) in seen or level > depth:
            continue
        seen.add(id(value))
        if isinstance(value, (list, tuple, set, frozenset)):
            todo += [(f"{path}[{k}]", item, level + 1) for k, item in enumerate(list(value)[:20])]
        elif isinstance(value, dict):
            todo += [(f"{path}[{key!r}]", item, level + 1)
                     for key, item in list(value.items())[:20]]
        if isinstance(value, (int, float, str, bytes, type(None))):
            continue
        for name in dir(value):
            if name.startswith("__"):
                continue
            try:
                attribute = getattr(value, name)
            except Exception:  # noqa: BLE001, S112 - a property that refuses: nothing there
                continue
            found[f"{path}.{name}"] = attribute
            todo.append((f"{path}.{name}", attribute, level + 1))
    return found


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_nothing_handed_to_the_student_holds_an_expected_value(entry: str) -> None:
    walks: list[dict[str, Any]] = []

    def student(*args: Any) -> Any:
        walks.append(reachable(args))
        raise NotImplementedError

    result = ENTRY_POINTS[entry](student)
    assert not result.done and walks
    names = {path.rsplit(".", 1)[-1].lstrip("_") for walk in walks for path in walk}
    assert not names & REVEALING, sorted(names & REVEALING)


def test_the_counting_game_and_the_clock_of_exercise_7_hide_their_limits() -> None:
    """The deepest hand-over: a counting game (Exercises 4 and 7) and ``out_of_time``."""
    walks: list[dict[str, Any]] = []

    def deepening(game: Any, state: Any, h: Any, max_depth: int, out_of_time: Any) -> Any:
        walks.append(reachable((game, out_of_time)))
        raise NotImplementedError

    ex.check_deepening(deepening)
    paths = set(walks[0])
    assert "arg0.calls" in paths and not any(p.startswith("arg1.") for p in paths)


def test_exercise_10s_at_least_has_no_attribute_at_all() -> None:
    handed: list[Any] = []

    def exact_score(game: Any, state: Any, at_least: Any, guess: int) -> int:
        handed.append(at_least)
        return guess

    ex.check_exact_score(exact_score)
    assert handed and reachable((handed[0],)) == {}
    with pytest.raises(AttributeError):
        handed[0].score  # noqa: B018 - what the leak was


READS: dict[str, tuple[Callable[[Callable[..., Any]], CheckResult], Callable[[], Any], str]] = {
    "memo": (ex.check_memo_minimax, lambda: ex02_memo._solved(None)[0], "ex02_memo._solved"),
    "tree_counts": (lambda f: ex.check_tree_counts(f, f),
                    lambda: len(ex03_counting._levels(3, 1)), "ex03_counting._levels"),
    "symmetry": (ex.check_symmetry_count, lambda: ex03_counting._enumerated_symmetric(3),
                 "ex03_counting._enumerated_symmetric"),
    "alphabeta": (ex.check_alphabeta, lambda: ex04_alphabeta._contract_positions()[0][-1],
                  "ex04_alphabeta._contract_positions"),
    "deepening": (ex.check_deepening, lambda: ex07_deepening._reference()[3],
                  "ex07_deepening._reference"),
    "exact_score": (ex.check_exact_score, lambda: ex10._positions()[0][-1],
                    "ex10_null_windows._positions"),
    "store": (ex.check_store_bound, lambda: intervals.tictactoe_values(),
              "intervals.tictactoe_values"),
    "bitboard": (lambda f: ex.check_connect_four_rules(f, f, f),
                 lambda: ex09._positions()[0][1], "ex09_bitboard._positions"),
    "expected_value": (ex.check_expected_value, lambda: ex12._reference(0)[0],
                       "ex12_expectiminimax._reference"),
}


@pytest.mark.parametrize("entry", READS)
def test_a_checkers_cached_expected_values_are_refused_during_its_check(entry: str) -> None:
    check, read, name = READS[entry]
    read()  # computed and cached before the check, as after an earlier check

    def peeking(*args: Any) -> Any:
        return read()

    result = check(peeking)
    assert not result.passed
    assert result.failures[0].text == (f"your function read the checker's expected values "
                                       f"(`{name}`) while it was being checked")


CODE_FACTS = {"_is_library", "_one_line_loop", "_opaque_class", "_guard_template"}
"""The functools caches the checkers keep: facts about code, not expected values."""


def test_no_checker_module_keeps_expected_values_in_a_functools_cache() -> None:
    cached = set()
    for info in pkgutil.iter_modules(ex.__path__, "gamelib.exercises."):
        module = importlib.import_module(info.name)
        cached |= {name for name, value in vars(module).items()
                   if isinstance(value, functools._lru_cache_wrapper)}
    assert cached == CODE_FACTS
