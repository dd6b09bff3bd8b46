"""The exercises: the checkers' feedback (the notebooks, their student versions and their
saved outputs are tests/exercises/test_nbgrader.py's, which loads the generator).

* gamelib.exercises: correct student functions pass with exact figures; deliberately wrong
  ones get a report that names the position, the expected and the returned value and gives a
  hint, with no trace of gamelib's internals; stubs are "not done yet" without raising.
"""

from __future__ import annotations

import doctest
import importlib
import math
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from gamelib.exercises import (
    FAIL,
    PASS,
    TODO,
    CheckResult,
    Line,
    centre_heuristic,
    check_finished,
    check_heuristic,
    check_memo_minimax,
    check_next_states,
    check_nim_values,
    check_store_bound,
    check_tree_counts,
    check_utility,
    state_count_by_enumeration,
    tree_size_by_enumeration,
    triples_heuristic,
)
from gamelib.exercises.ex08_heuristic import (
    BASELINES,
    _baseline,
    _decider,
    match_openings,
    points_needed,
)
from gamelib.exercises.guard import handed
from gamelib.exercises.positions import sample_positions
from gamelib.game import GameError, other
from gamelib.games import ConnectFour, TicTacToe
from gamelib.search.depth_limited import iterative_deepening
from gamelib.search.match_stats import match_score


def text_of(result: CheckResult) -> str:
    """The whole report, as text and as HTML, for assertions on what the student sees."""
    return repr(result) + "\n" + result._repr_html_()


def assert_no_internals(result: CheckResult) -> None:
    shown = text_of(result)
    for leak in ("Traceback", "gamelib/", "exercises.py", 'File "', "site-packages"):
        assert leak not in shown, f"the report shows {leak!r}:\n{shown}"


def details(line: Line) -> dict[str, str]:
    return dict(line.details)


# ---------------------------------------------------------------------------------------------
# Correct student code, written independently of gamelib
# ---------------------------------------------------------------------------------------------


def nim_next_states(state: Any, player: str) -> list[Any]:
    heaps, turn = state
    return [
        (heaps[:i] + (size - k,) + heaps[i + 1 :], 1 - turn)
        for i, size in enumerate(heaps)
        for k in range(1, size + 1)
    ]


def nim_finished(state: Any) -> bool:
    return sum(state[0]) == 0


def nim_utility(state: Any, player: str) -> int:
    return -1 if player == "AB"[state[1]] else 1


def memo_value(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
    if state in cache:
        return int(cache[state][0])
    if game.finished(state):
        cache[state] = (game.utility(state, player), None)
        return int(cache[state][0])
    o = other(game, player)
    best, move = max((-memo_value(game, game.play(state, m), o, cache), -i, m)
                     for i, m in enumerate(game.moves(state)))[::2]
    cache[state] = (best, move)
    return int(best)


def store_rule(cache: dict[Any, Any], state: Any, alpha: float, beta: float, v: float) -> None:
    """Exercise 5's rule: the result narrows the state's pair (lower, upper)."""
    lower, upper = cache.get(state, (-math.inf, math.inf))
    if v <= alpha:
        upper = min(upper, v)
    elif v < beta:
        lower = upper = v
    else:
        lower = max(lower, v)
    cache[state] = (lower, upper)


def tree_size(n: int, m: int = 1) -> int:
    total, nodes, left = 1, 1, n
    while left:
        nodes *= math.comb(left, min(m, left))
        left -= min(m, left)
        total += nodes
    return total


def state_count(n: int, m: int = 1) -> int:
    total, marks, turn = 1, [0, 0], 0
    while sum(marks) < n:
        marks[turn % 2] += min(m, n - sum(marks))
        total += math.comb(n, marks[0]) * math.comb(n - marks[0], marks[1])
        turn += 1
    return total


# ---------------------------------------------------------------------------------------------
# The report object
# ---------------------------------------------------------------------------------------------


def test_report_text_html_and_verdicts() -> None:
    result = CheckResult("demo", (
        Line(PASS, "fine"),
        Line(FAIL, "f(<x>) is `wrong`", (("expected", "a <b>"), ("hint", "use `y`"),
                                         ("board", "X|O\nO|X"))),
    ))
    assert not result.passed and result.failures == [result.lines[1]]
    assert repr(result).split("\n") == [
        "demo: 1 of 2 checks failed",
        "✔ fine",
        "✘ f(<x>) is `wrong`",
        "    expected: a <b>",
        "    hint:     use `y`",
        "    board:    X|O",
        "              O|X",
    ]
    html = result._repr_html_()
    assert "f(&lt;x&gt;) is <code>wrong</code>" in html
    assert "<code>a &lt;b&gt;</code>" in html and "use <code>y</code>" in html
    assert "<pre" in html and "X|O\nO|X</pre>" in html and "<b>" not in html
    assert CheckResult("demo", (Line(PASS, "ok"),)).passed
    assert repr(CheckResult("demo", (Line(PASS, "a"), Line(PASS, "b")))).startswith(
        "demo: all 2 checks passed")
    assert not CheckResult("demo", (Line(PASS, "a"), Line(TODO, "b")), done=False).passed
    assert not CheckResult("demo", ()).passed


# ---------------------------------------------------------------------------------------------
# Exercise 1: Nim
# ---------------------------------------------------------------------------------------------


def test_correct_nim_rules_pass_with_exact_counts() -> None:
    result = check_next_states(nim_next_states)
    assert result.passed and result.facts == {"positions": 266, "wrong": 0}
    assert check_finished(nim_finished).facts == {"positions": 266, "wrong": 0}
    utility = check_utility(nim_utility)
    assert utility.passed and utility.facts == {"cases": 14, "wrong": 0}
    values = check_nim_values(nim_next_states, nim_finished, nim_utility)
    assert values.passed
    assert values.facts["values"] == {
        (1,): 1, (2,): 1, (1, 1): -1, (1, 2): 1, (2, 2): -1, (1, 2, 3): -1, (1, 3, 5): 1,
        (2, 3, 4): 1, (3, 4, 5): 1, (1, 4, 5): -1,
    }


def test_next_states_that_never_take_a_whole_heap() -> None:
    def next_states(state: Any, player: str) -> list[Any]:
        heaps, turn = state
        return [(heaps[:i] + (h - k,) + heaps[i + 1 :], 1 - turn)
                for i, h in enumerate(heaps) for k in range(1, h)]

    result = check_next_states(next_states)
    assert not result.passed and result.done and result.facts["wrong"] == 259
    line = result.failures[0]
    assert line.text.endswith("next_states(((3, 4, 5), 0), 'A')")
    got = details(line)
    assert got["position"] == "((3, 4, 5), 0)"
    assert (got["expected"], got["returned"]) == ("12 states", "9 states")
    assert got["missing"] == "((0, 4, 5), 1), ((3, 0, 5), 1), ((3, 4, 0), 1)"
    assert "whole heap" in got["hint"]
    assert_no_internals(result)


@pytest.mark.parametrize(
    ("make", "hint"),
    [
        (lambda h, t, i, k: (h[:i] + (h[i] - k,) + h[i + 1 :], t), "1 - turn"),
        (lambda h, t, i, k: (list(h[:i] + (h[i] - k,) + h[i + 1 :]), 1 - t), "tuple"),
        (lambda h, t, i, k: (h[:i] + (h[i] - k,) + h[i + 1 :], 1 - t, "extra"), "(heaps, turn)"),
    ],
)
def test_next_states_of_the_wrong_shape_get_a_matching_hint(make: Any, hint: str) -> None:
    def next_states(state: Any, player: str) -> list[Any]:
        heaps, turn = state
        return [make(heaps, turn, i, k) for i, h in enumerate(heaps) for k in range(1, h + 1)]

    result = check_next_states(next_states)
    assert not result.passed and hint in details(result.failures[0])["hint"]
    assert_no_internals(result)


def test_next_states_listing_a_state_twice() -> None:
    def next_states(state: Any, player: str) -> list[Any]:
        children = nim_next_states(state, player)
        return children + children[:1]

    line = check_next_states(next_states).failures[0]
    assert details(line)["twice"] == "((2, 4, 5), 1)"
    assert details(line)["hint"] == "list each next state once"


def test_a_crash_names_the_students_line_and_no_gamelib_frame() -> None:
    def next_states(state: Any, player: str) -> list[Any]:
        heaps, turn = state
        return heaps[10]  # type: ignore[no-any-return]

    result = check_next_states(next_states)
    line = result.failures[0]
    assert line.text == "next_states(((3, 4, 5), 0), 'A') raised an exception"
    number = next_states.__code__.co_firstlineno + 2
    assert details(line) == {
        "error": "IndexError: tuple index out of range",
        "where": f"in next_states, line {number}: return heaps[10]  # type: ignore[no-any-return]",
    }
    assert_no_internals(result)


def test_wrong_finished_and_utility_say_why() -> None:
    finished = check_finished(lambda state: 0 in state[0])
    line = finished.failures[0]
    assert line.text.endswith("finished(((0, 4, 5), 1))")
    assert (details(line)["expected"], details(line)["returned"]) == ("False", "True")
    assert "still allows a move" in details(line)["hint"]
    assert "True or False" in details(check_finished(lambda s: 0).failures[0])["hint"]

    utility = check_utility(lambda state, player: 1 if player == "AB"[state[1]] else -1)
    line = utility.failures[0]
    assert utility.facts == {"cases": 14, "wrong": 14}
    assert details(line)["position"] == "((0, 0, 0), 1)" and details(line)["player"] == "'A'"
    assert (details(line)["expected"], details(line)["returned"]) == ("1", "-1")
    assert "'B' is to move here, so 'B' lost" in details(line)["hint"]
    assert "no draws" in details(check_utility(lambda s, p: 0).failures[0])["hint"]


def test_nim_values_with_broken_rules() -> None:
    result = check_nim_values(nim_next_states, nim_finished, lambda state, player: 0)
    assert not result.passed
    assert "(1,) the value 0" in result.failures[0].text and "gamelib says +1" in (
        result.failures[0].text)

    def standing_still(state: Any, player: str) -> list[Any]:
        return [state]

    looping = check_nim_values(standing_still, nim_finished, nim_utility)
    assert "comes back to a state" in looping.failures[0].text


def test_rules_of_another_game() -> None:
    # gamelib's own rules stand in for a student's: handed, so that the guard lets them run
    game = ConnectFour(rows=4, cols=4)
    next_states = handed(game.next_states)
    assert check_next_states(next_states, game).facts == {"positions": 400, "wrong": 0}
    assert check_finished(handed(game.finished), game).passed
    assert check_utility(handed(game.utility), game).passed
    result = check_next_states(lambda s, p: next_states(s, p)[1:], game)
    line = result.failures[0]
    assert details(line)["missing"] == "(1, 0)"
    assert details(line)["position"].split("\n")[1:] == [". . . ."] * 4 + ["1 2 3 4"]


# ---------------------------------------------------------------------------------------------
# Stubs and bad arguments, for every checker
# ---------------------------------------------------------------------------------------------


def raises_not_implemented(*args: Any) -> Any:
    raise NotImplementedError


def returns_nothing(*args: Any) -> None:
    return None


def returns_ellipsis(*args: Any) -> Any:
    return ...


CHECKS = {
    "next_states": lambda f: check_next_states(f),
    "finished": lambda f: check_finished(f),
    "utility": lambda f: check_utility(f),
    "nim_values": lambda f: check_nim_values(f, f, f),
    "memo_value": lambda f: check_memo_minimax(f),
    "store_bound": lambda f: check_store_bound(f),
    "heuristic": lambda f: check_heuristic(f),
    "tree_counts": lambda f: check_tree_counts(f, f),
}


@pytest.mark.parametrize("name", [n for n in CHECKS if n != "store_bound"])
def test_a_missing_return_is_named(name: str) -> None:
    result = CHECKS[name](returns_nothing)
    assert not result.passed and result.failures
    report = repr(result)
    assert "returned None" in report and "is a `return` missing in" in report, report
    assert_no_internals(result)


def test_a_store_rule_that_stores_nothing_is_told_so() -> None:
    result = check_store_bound(returns_nothing)
    assert not result.passed and "nothing under s" in repr(result)


@pytest.mark.parametrize("stub", [raises_not_implemented, returns_ellipsis])
@pytest.mark.parametrize("name", list(CHECKS))
def test_a_stub_is_not_done_yet(name: str, stub: Any) -> None:
    if name == "store_bound" and stub is returns_ellipsis:
        return  # store_bound's answer is what it stores, not what it returns
    result = CHECKS[name](stub)
    assert not result.done and not result.passed and not result.failures
    assert repr(result).split("\n")[0].endswith("not done yet")
    assert "not done yet" in result.lines[0].text and result.lines[0].status == TODO
    assert_no_internals(result)


@pytest.mark.parametrize("name", list(CHECKS))
def test_a_checker_wants_a_function(name: str) -> None:
    with pytest.raises(GameError, match="the name without parentheses"):
        CHECKS[name](42)


@pytest.mark.parametrize(("checker", "rule"), [
    (check_next_states, nim_next_states),
    (check_finished, nim_finished),
    (check_utility, nim_utility),
])
def test_a_rule_checker_wants_a_game_or_none(checker: Any, rule: Any) -> None:
    with pytest.raises(GameError, match=r"takes a game of gamelib.games .* got 'Nim'"):
        checker(rule, "Nim")


def test_not_implemented_in_a_helper_says_where() -> None:
    def helper(state: Any) -> Any:
        raise NotImplementedError

    def next_states(state: Any, player: str) -> Any:
        return helper(state)

    result = check_next_states(next_states)
    assert not result.done
    number = helper.__code__.co_firstlineno + 1
    assert details(result.lines[0]) == {
        "note": f"NotImplementedError was raised in helper, line {number}: "
                "raise NotImplementedError"
    }


# ---------------------------------------------------------------------------------------------
# Exercise 2: memoized minimax
# ---------------------------------------------------------------------------------------------


def test_correct_memo_value_passes_with_the_lessons_figures() -> None:
    result = check_memo_minimax(memo_value)
    assert result.passed and len(result.lines) == 5
    assert result.facts == {"value": 0, "cache_size": 5_478, "expansions": 4_520}


def test_memo_value_without_a_cache_lookup_is_stopped_early() -> None:
    def no_lookup(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        if game.finished(state):
            v = game.utility(state, player)
        else:
            o = other(game, player)
            v = max(-no_lookup(game, n, o, cache) for n in game.next_states(state, player))
        cache[state] = v
        return int(v)

    result = check_memo_minimax(no_lookup)
    assert len(result.lines) == 1
    line = result.failures[0]
    assert line.text == "memo_value(game, empty board, 'X', cache) expands far too many states"
    assert details(line)["note"] == (
        "memoized minimax expands 4,520 states here; the check stopped your function after "
        "45,200 expansions"
    )
    repeated = "(('X', 'O', 'X'), ('O', 'X', 'O'), ('O', 'X', ' '))"
    assert details(line)["repeated"].startswith(repeated)
    assert "look the state up in the cache first" in details(line)["hint"]
    assert_no_internals(result)


def test_memo_value_keyed_by_state_and_player() -> None:
    def keyed(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        if (state, player) in cache:
            return int(cache[state, player])
        if game.finished(state):
            v = game.utility(state, player)
        else:
            o = other(game, player)
            v = max(-keyed(game, n, o, cache) for n in game.next_states(state, player))
        cache[state, player] = v
        return int(v)

    result = check_memo_minimax(keyed)
    line = result.failures[0]
    assert line.text == "after that call the cache holds a key that is not a state of the search"
    assert details(line)["key"].endswith(", 'O')")
    assert "key the cache by the state alone" in details(line)["hint"]


def test_memo_value_storing_the_opponents_value() -> None:
    def negated(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        if state in cache:
            return int(cache[state][0])
        if game.finished(state):
            v = game.utility(state, player)
        else:
            o = other(game, player)
            v = max(-negated(game, n, o, cache) for n in game.next_states(state, player))
        cache[state] = (-v, None)
        return int(v)

    result = check_memo_minimax(negated)
    first, cache_line = result.lines[:2]
    assert first.status == FAIL and first.text.endswith("returns 1; expected 0")
    got = details(cache_line)
    assert got["state"].startswith("(('X', 'O', 'X'), ('O', 'X', 'O'), ('X', ' ', ' '))")
    assert (got["player"], got["expected"], got["stored"]) == ("'O' (to move)", "-1", "1")
    assert "wrong sign" in got["hint"]
    assert_no_internals(result)


def test_memo_value_that_keeps_a_private_cache() -> None:
    private: dict[Any, Any] = {}

    def ignores_argument(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        return memo_value(game, state, player, private)

    result = check_memo_minimax(ignores_argument)
    line = result.failures[0]
    assert line.text.endswith("the cache is empty; expected 5,478 entries")
    assert "cache[state] = (v, move)" in details(line)["hint"]


def test_memo_value_storing_the_value_alone_as_lesson_3_does() -> None:
    def value_only(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        if state not in cache:
            if game.finished(state):
                cache[state] = game.utility(state, player)
            else:
                o = other(game, player)
                cache[state] = max(-value_only(game, n, o, cache)
                                   for n in game.next_states(state, player))
        return int(cache[state])

    result = check_memo_minimax(value_only)
    line = result.failures[0]
    assert line.text.endswith("for a state, not a pair (value, move)")
    assert "cache[state] = (v, move)" in details(line)["hint"]


def test_memo_value_storing_the_last_move_not_the_best() -> None:
    def last(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        if state in cache:
            return int(cache[state][0])
        if game.finished(state):
            cache[state] = (game.utility(state, player), None)
            return int(cache[state][0])
        o = other(game, player)
        values = {m: -last(game, game.play(state, m), o, cache) for m in game.moves(state)}
        cache[state] = (max(values.values()), list(values)[-1])
        return int(cache[state][0])

    result = check_memo_minimax(last)
    line = result.failures[0]
    assert line.text == "after that call the cache holds a wrong move"
    assert "is not a best move" in details(line)["wrong"]


def test_memo_value_that_ignores_the_cache_it_is_given_on_reading() -> None:
    def copies(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        private: dict[Any, Any] = {}
        value = memo_value(game, state, player, private)
        cache.update(private)
        return value

    result = check_memo_minimax(copies)
    assert [line.status for line in result.lines] == [PASS, PASS, PASS, FAIL, PASS]
    assert result.lines[3].text == "a second call with the same cache did the work again"
    assert "read the cache that is passed in" in details(result.lines[3])["hint"]


def test_memo_value_returning_a_float() -> None:
    def as_float(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> float:
        return float(memo_value(game, state, player, cache))

    # One rule for every checker: values compare as numbers.
    assert check_memo_minimax(as_float).passed


def test_memo_value_returning_a_string_names_its_type() -> None:
    def as_text(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> str:
        return str(memo_value(game, state, player, cache))

    line = check_memo_minimax(as_text).lines[0]
    assert line.text == ("memo_value(game, empty board, 'X', cache) returned '0' of type str "
                         "is not a number; expected 0")


def test_memo_value_that_plays_an_illegal_move_points_at_the_students_line() -> None:
    def illegal(game: Any, state: Any, player: str, cache: dict[Any, Any]) -> int:
        return game.play(state, (5, 5))  # type: ignore[no-any-return]

    result = check_memo_minimax(illegal)
    got = details(result.failures[0])
    assert got["error"].startswith("IllegalMoveError: cell (5, 5) is off the board")
    number = illegal.__code__.co_firstlineno + 1
    assert got["where"].startswith(f"in illegal, line {number}: return game.play(state, (5, 5))")
    assert_no_internals(result)


def test_memo_value_with_the_wrong_signature() -> None:
    result = check_memo_minimax(lambda game, state, player: 0)
    got = details(result.failures[0])
    assert got["error"].startswith("TypeError:") and "where" not in got
    assert got["hint"] == "your function is called as memo_value(game, state, player, cache)"


# ---------------------------------------------------------------------------------------------
# Exercise 5: the store rule, for a cache of (lower, upper) pairs
# ---------------------------------------------------------------------------------------------


def test_correct_store_rule_builds_the_cache_of_pairs() -> None:
    result = check_store_bound(store_rule)
    assert result.passed and len(result.lines) == 3
    assert result.facts == {"cases": 822, "wrong_cases": 0, "value": 0, "calls": 4_316,
                            "entries": 2_474, "exact": 57}
    assert "4,076 entries are right" in result.lines[2].text


def test_lesson_5s_flagged_store_rule_does_not_pass() -> None:
    def lesson_store(cache: dict[Any, Any], state: Any, alpha: float, beta: float,
                     r: float) -> None:
        cache[state] = ("≤", r) if r <= alpha else ("=", r) if r < beta else ("≥", r)

    result = check_store_bound(lesson_store)
    cases, search = result.lines
    assert cases.text == ("wrong in 822 of 822 cases; the first: "
                          "store_interval(cache, s, alpha=-1, beta=-0.5, v=-1)")
    assert details(cases)["expected"] == "cache['s'] == (-inf, -1)"
    assert details(cases)["hint"].startswith("both ends of a pair are numbers")
    assert search.text == "the search stopped: it cannot read an entry your rule stored"
    assert_no_internals(result)


def test_a_store_rule_that_forgets_the_old_pair_is_lesson_5s_cache() -> None:
    def forgetful(cache: dict[Any, Any], state: Any, alpha: float, beta: float,
                  v: float) -> None:
        cache.pop(state, None)
        store_rule(cache, state, alpha, beta, v)

    result = check_store_bound(forgetful)
    assert result.facts["wrong_cases"] == 408
    assert details(result.lines[0])["hint"].startswith("keep what the old pair knew")
    # the flagged cache's numbers: what merging both bounds saves is 5 calls
    assert (result.facts["calls"], result.facts["exact"]) == (4_321, 32)
    assert "4,321 calls, 2,474 entries, 32 of them exact" in result.lines[1].text


def test_naive_store_rule_is_caught_by_case_and_by_false_entries() -> None:
    def naive(cache: dict[Any, Any], state: Any, alpha: float, beta: float, v: float) -> None:
        cache[state] = (v, v)

    result = check_store_bound(naive)
    cases, false = result.lines
    assert cases.text == ("wrong in 448 of 822 cases; the first: "
                          "store_interval(cache, s, alpha=-1, beta=-0.5, v=-1)")
    assert details(cases)["stored"] == "cache['s'] == (-1, -1)"
    assert details(cases)["hint"].startswith("v == alpha counts as failing low")
    assert false.text == "182 of the 2,480 entries are false; the first:"
    assert details(false)["truth"] == "the value for X is -1"


@pytest.mark.parametrize(
    ("rule", "hint"),
    [
        (lambda c, s, a, b, v: c.__setitem__(s, ("≤" if v <= a else "=" if v < b else "≥", v)),
         "both ends of a pair are numbers"),
        (lambda c, s, a, b, v: c.__setitem__(s, [v, v]), "an entry is a pair (lower, upper)"),
        (lambda c, s, a, b, v: c.__setitem__(s, (v, -math.inf) if v <= a else (v, v)),
         "lower <= upper"),
        (lambda c, s, a, b, v: c.update({s: (v, v), "u": 1}), "store under `state` only"),
        (lambda c, s, a, b, v: c.update({s: (v, v), "t": 1}), "store under `state` only"),
        (lambda c, s, a, b, v: (v, v), "cache[state] = (lower, upper)"),
        (lambda c, s, a, b, v: store_rule(c, s, a, b, v) if v < b else c.__setitem__(s, (v, v)),
         "v == beta counts as failing high"),
    ],
)
def test_broken_store_rules_get_a_matching_hint(rule: Any, hint: str) -> None:
    result = check_store_bound(rule)
    assert hint in details(result.lines[0])["hint"]
    assert_no_internals(result)


# ---------------------------------------------------------------------------------------------
# Exercise 8: the Connect Four heuristic
# ---------------------------------------------------------------------------------------------

GAME = ConnectFour()
WINDOWS = [
    sum(1 << ((c + k * dc) * GAME.height + r + k * dr) for k in range(4))
    for c in range(GAME.cols) for r in range(GAME.rows)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= c + 3 * dc < GAME.cols and 0 <= r + 3 * dr < GAME.rows
]


def threats_and_centre(state: Any, player: str) -> float:
    first, second = state
    mine, theirs = (first, second) if player == "X" else (second, first)
    centre = GAME.column_masks[3]
    x = 0.5 * ((mine & centre).bit_count() - (theirs & centre).bit_count())
    for w in WINDOWS:
        own, opp = (mine & w).bit_count(), (theirs & w).bit_count()
        if opp == 0:
            x += (0, 0, 0.25, 1, 0)[own]
        elif own == 0:
            x -= (0, 0, 0.25, 1, 0)[opp]
    return x / (4 + abs(x))


def made_for_6x7(rows: int, cols: int) -> Any:
    """A make_heuristic that gives the threat count of the standard board whatever the size."""
    return threats_and_centre


ODD_ROWS = sum(1 << (c * GAME.height + r) for c in range(7) for r in (0, 2, 4))


def parity_threats(state: Any, player: str) -> float:
    """Threat cells (each once), 1 point more on the owner's rows, none above the
    opponent's; twos 1/4; centre discs 1/2: what the exercise's hint asks for."""
    first, second = state
    mine, theirs = (first, second) if player == "X" else (second, first)
    rows = ODD_ROWS if player == "X" else GAME.full & ~ODD_ROWS

    def cells_and_twos(a: int, b: int) -> tuple[int, int]:
        cells, twos = 0, 0
        for w in WINDOWS:
            if not b & w:
                n = (a & w).bit_count()
                cells |= w & ~a if n == 3 else 0
                twos += n == 2
        return cells, twos

    (mc, mt), (tc, tt) = cells_and_twos(mine, theirs), cells_and_twos(theirs, mine)
    mine_live, theirs_live = mc & ~(tc << 1), tc & ~(mc << 1)
    centre = GAME.column_masks[3]
    x = (mine_live.bit_count() + (mine_live & rows).bit_count() - theirs_live.bit_count()
         - (theirs_live & ~rows & GAME.full).bit_count() + (mt - tt) / 4
         + 0.5 * ((mine & centre).bit_count() - (theirs & centre).bit_count()))
    return x / (4 + abs(x))


def test_the_match_openings_and_the_points_needed() -> None:
    assert match_openings(3) == [(1, 2), (3, 1), (1, 5)] == match_openings(3, 7)
    assert all(0 <= c < 6 for opening in match_openings(12, 6) for c in opening)
    assert len(set(match_openings(12, 4))) == 12
    # The fewest points whose 95% interval lies above 1/2: 40 of 64, as many wins as games
    # below 8, none at all below 4.
    assert (points_needed(64), points_needed(32), points_needed(8)) == (40, 22, 7)
    assert (points_needed(4), points_needed(3)) == (4, None)
    assert match_score(40, 0, 24).shown and not match_score(39, 1, 24).shown


def test_a_good_heuristic_in_a_small_match_shows_no_gain_with_exact_results() -> None:
    assert len(WINDOWS) == 69
    result = check_heuristic(lambda rows, cols: parity_threats, boards=((6, 7),), depths=(2,),
                             openings=2)
    facts = result.facts
    assert (facts["wins"], facts["draws"], facts["losses"], facts["points"]) == (3, 1, 0, 3.5)
    assert not result.passed and facts["needed"] == 4   # 4 games show a gain only at 4-0
    assert (round(facts["low"], 2), round(facts["high"], 2)) == (0.40, 0.99)
    assert result.lines[1].text.startswith(f"{facts['wins']} wins")
    assert "score 0.88 [0.40, 0.99], no gain shown (4 needed: " in result.lines[1].text
    assert "(6 x 7, depth 2)" in result.lines[1].text
    table = details(result.lines[1])["games"].split("\n")
    assert table[0] == "board  depth  opening  you  result"
    assert table[1].startswith("6x7    2      2 3      X")
    assert facts["games"][0][:4] == ((6, 7), 2, (1, 2), "X")


def centre_copy(rows: int, cols: int) -> Any:
    """The centre baseline's weights, written out as a student would (the baseline itself is
    out of reach while the check runs)."""
    columns = ConnectFour(rows, cols).column_masks
    weighted = [(columns[c], min(c, cols - 1 - c)) for c in range(cols)]

    def h(state: Any, player: str) -> float:
        x = sum(w * ((state[0] & m).bit_count() - (state[1] & m).bit_count())
                for m, w in weighted)
        x = x if player == "X" else -x
        return x / (10 + abs(x))

    return h


@pytest.mark.slow  # 64 games: about 3 s
def test_the_baseline_against_itself_does_not_pass() -> None:
    # The graded match must show a gain (the score's 95% interval above 1/2): a heuristic no
    # better than the baseline does not pass.
    result = check_heuristic(centre_copy)
    facts = result.facts
    assert not result.passed and result.lines[0].status == PASS
    assert (facts["wins"], facts["draws"], facts["losses"]) == (25, 16, 23)
    assert facts["points"] == 33 < facts["needed"] == 40 and facts["low"] < 0.5


def test_the_match_plays_the_moves_of_iterative_deepening() -> None:
    # check_heuristic's match runs its own copy of iterative_deepening on the bitboards
    # (ex08_heuristic._decider): the same move and the same draws of the random source as
    # gamelib's search, for each baseline and a student's heuristic, at every depth the
    # match allows, on the match's boards and the smallest and widest ones, in positions of
    # every stage of a game (sample_positions: from the empty board to nearly full ones,
    # won and forced lines among them).
    compared = 0
    for rows, cols in ((5, 6), (7, 8), (6, 7), (4, 10)):
        game = ConnectFour(rows, cols)
        decide = _decider(game)
        heuristics = [_baseline(name, game) for name in BASELINES]
        if (rows, cols) == (6, 7):
            heuristics.append(parity_threats)
        positions = [s for s in sample_positions(game, limit=26, seed=rows * cols)
                     if not game.finished(s)]
        for number, state in enumerate(positions):
            for h_number, h in enumerate(heuristics):
                if h_number in (2, 3) and number % 2:   # the costly ones: every other one
                    continue
                depth = 1 + (number + h_number) % 3
                if number % 8 == 0 and h_number < 2:   # deeper with the cheap heuristics
                    depth = 4 + number // 8 % 2
                ours, theirs = random.Random(number), random.Random(number)
                decision = iterative_deepening(game, state, h, max_depth=depth, rng=theirs)
                assert decide(state, h, depth, ours) == decision.move, (game, state, depth)
                assert ours.getstate() == theirs.getstate()
                compared += 1
    assert compared > 300


def test_the_centre_baseline_is_its_formula() -> None:
    for rows, cols in ((5, 6), (7, 8), (4, 4), (10, 9)):
        game = ConnectFour(rows, cols)
        h = centre_heuristic(game)
        weighted = [(game.column_masks[c], min(c, cols - 1 - c)) for c in range(cols)]
        for first, second in sample_positions(game, limit=60, seed=cols):
            x = sum(w * ((first & m).bit_count() - (second & m).bit_count()) for m, w in weighted)
            assert h((first, second), "X") == x / (10 + abs(x))
            assert h((first, second), "O") == -x / (10 + abs(x))


def test_the_triples_baseline_is_out_of_reach() -> None:
    triples = triples_heuristic(GAME)  # made before the check: refused all the same
    result = check_heuristic(lambda rows, cols: lambda s, p: triples(s, p), baseline="triples",
                             boards=((6, 7),), depths=(2,), openings=2)
    assert not result.passed and "triples_heuristic" in result.failures[0].text
    assert "write it yourself" in result.failures[0].text


def test_a_heuristic_that_knows_nothing_loses() -> None:
    result = check_heuristic(lambda rows, cols: lambda state, player: 0.0, boards=((6, 7),),
                             depths=(2,), openings=1)
    line = result.failures[0]
    assert (result.facts["wins"], result.facts["losses"]) == (1, 1)
    assert line.text == ("1 win, 0 draws, 1 loss in 2 games against the centre baseline "
                         "(6 x 7, depth 2): 1 point, score 0.50 [0.09, 0.91], no gain shown "
                         "(no result of 2 games shows a gain: play more openings)")
    assert "two on an even width" in details(line)["hint"]


def test_a_match_is_the_same_every_time() -> None:
    one = check_heuristic(made_for_6x7, boards=((6, 7),), depths=(1,), openings=1,
                          baseline="triples")
    two = check_heuristic(made_for_6x7, boards=((6, 7),), depths=(1,), openings=1,
                          baseline="triples")
    assert one.facts == two.facts and repr(one) == repr(two)


NOISE = random.Random(1)


@pytest.mark.parametrize(
    ("heuristic", "text", "hint"),
    [
        (lambda s, p: 1.0, "returned 1.0, which is not strictly between -1 and 1", "squash"),
        (lambda s, p: 0.5, "make_heuristic(5, 6)(state, 'X') is 0.5 but "
                           "make_heuristic(5, 6)(state, 'O') is 0.5", "zero-sum"),
        (lambda s, p: "good", "returned 'good' of type str is not a number", "float"),
        (lambda s, p: NOISE.uniform(-0.5, 0.5) * (1 if p == "X" else -1),
         "gave two different answers for the same position", "no randomness"),
    ],
)
def test_heuristics_that_break_the_contract(heuristic: Any, text: str, hint: str) -> None:
    result = check_heuristic(lambda rows, cols: heuristic)
    line = result.failures[0]
    assert len(result.lines) == 1 and text in line.text and hint in details(line)["hint"]
    assert line.text.startswith("make_heuristic(5, 6)(state, ")
    position = details(line)["position"].split("\n")
    assert position[0] == "(0, 0)" and position[-1] == "1 2 3 4 5 6"
    assert_no_internals(result)


@pytest.mark.parametrize(
    ("made", "text"),
    [(lambda rows, cols: 0.5, "make_heuristic(5, 6) returned 0.5, not a function"),
     (lambda rows, cols: (lambda state, player: 0.0)(0, "X"),
      "make_heuristic(5, 6) returned 0.0, not a function")],
)
def test_make_heuristic_must_return_a_function(made: Any, text: str) -> None:
    result = check_heuristic(made)
    line = result.failures[0]
    assert len(result.lines) == 1 and line.text == text
    assert "`return h`" in details(line)["hint"]


def test_a_heuristic_is_made_for_each_board() -> None:
    sizes: list[tuple[int, int]] = []

    def make_heuristic(rows: int, cols: int) -> Any:
        sizes.append((rows, cols))
        if rows == 7:
            raise NotImplementedError
        return lambda state, player: 0.0

    result = check_heuristic(make_heuristic)
    assert sizes == [(5, 6), (7, 8)] and result.done and not result.passed
    assert result.failures[0].text == "make_heuristic(7, 8) raised NotImplementedError"
    stub = check_heuristic(lambda rows, cols: exec("raise NotImplementedError"))
    assert not stub.done
    assert_no_internals(result)


def test_a_heuristic_that_crashes_during_the_match() -> None:
    calls = []

    def late_crash(state: Any, player: str) -> float:
        calls.append(state)
        if len(calls) > 650:  # after the 641 calls of the contract check
            raise ValueError("too many calls")
        return 0.0

    result = check_heuristic(lambda rows, cols: late_crash, boards=((6, 7),), depths=(1,),
                             openings=1)
    line = result.failures[0]
    assert result.lines[0].status == PASS
    number = late_crash.__code__.co_firstlineno + 3
    assert line.text == ("the game on the 6 x 7 board at depth 1 after the opening 2 3, you as "
                         "X, raised an exception")
    assert details(line) == {"error": "ValueError: too many calls",
                             "where": f"in late_crash, line {number}: "
                                      'raise ValueError("too many calls")'}
    assert_no_internals(result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"baseline": "strong"}, "baseline must be one of"), ({"depths": (0,)}, "depths must be"),
     ({"depths": (9,)}, "depths must be"), ({"depths": (2, 2)}, "depths must be"),
     ({"depths": 3}, "depths must be"), ({"openings": 0}, "openings must be"),
     ({"openings": 13}, "openings must be"), ({"boards": ((6, 7), (6, 7))}, "boards must be"),
     ({"boards": ((3, 7),)}, "boards must be"), ({"boards": ((6, 11),)}, "boards must be"),
     ({"boards": ()}, "boards must be"), ({"boards": (6, 7)}, "boards must be"),
     ({"boards": "6x7"}, "boards must be"), ({"boards": ((6, 7.0),)}, "boards must be")],
)
def test_check_heuristic_refuses_bad_options(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(GameError, match=message):
        check_heuristic(made_for_6x7, **kwargs)


def test_triples_baseline() -> None:
    h = triples_heuristic(GAME)
    assert h(ConnectFour.from_moves("44553"), "X") == 1.75 / 5.75
    assert h(GAME.start, "X") == 0
    with pytest.raises(GameError, match="needs a ConnectFour game"):
        triples_heuristic(TicTacToe())  # type: ignore[arg-type]


def test_centre_baseline() -> None:
    h = centre_heuristic(GAME)
    state = ConnectFour.from_moves("41")
    assert h(state, "X") == pytest.approx(3 / 13) and h(state, "O") == -h(state, "X")
    assert h(GAME.start, "X") == 0
    with pytest.raises(GameError, match="needs a ConnectFour game"):
        centre_heuristic(TicTacToe())  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Exercise 3: counting simplified tic-tac-toe
# ---------------------------------------------------------------------------------------------


def test_enumeration_counts() -> None:
    assert [tree_size_by_enumeration(n) for n in range(10)] == [
        1, 2, 5, 16, 65, 326, 1_957, 13_700, 109_601, 986_410]
    assert [state_count_by_enumeration(n) for n in range(10)] == [
        1, 2, 5, 13, 35, 96, 267, 750, 2_123, 6_046]
    assert [tree_size_by_enumeration(n, 2) for n in range(10)] == [
        1, 2, 2, 7, 13, 71, 196, 1_492, 5_489, 53_713]
    assert [state_count_by_enumeration(n, 2) for n in range(10)] == [
        1, 2, 2, 7, 13, 51, 121, 372, 939, 2_809]
    with pytest.raises(GameError, match="from 0 to 12"):
        tree_size_by_enumeration(13)
    with pytest.raises(GameError, match="m must be a whole number of squares per turn"):
        state_count_by_enumeration(4, 0)


def test_correct_formulas_pass() -> None:
    result = check_tree_counts(tree_size, state_count)
    assert result.passed and result.facts == {"tree_size_9": 986_410, "state_count_9": 6_046,
                                              "tree_size_9_2": 53_713,
                                              "state_count_9_2": 2_809}
    assert result.lines[0].text.endswith("tree_size(9) = 986,410, tree_size(9, 2) = 53,713")
    assert result.lines[1].text.endswith("state_count(9) = 6,046, state_count(9, 2) = 2,809")


@pytest.mark.parametrize(
    ("trees", "states", "first", "hint"),
    [
        (lambda n, m=1: tree_size(n), state_count, "tree_size(3, 2) is wrong",
         "one mark per turn"),
        (lambda n, m=1: tree_size(n, m) + (m > 1), state_count, "tree_size(3, 2) is wrong",
         "sequence of turns"),
        (tree_size, lambda n, m=1: state_count(n), "state_count(3, 2) is wrong",
         "one mark per turn"),
    ],
)
def test_counts_for_several_marks_per_turn(trees: Any, states: Any, first: str,
                                           hint: str) -> None:
    line = check_tree_counts(trees, states).failures[0]
    assert line.text == first and hint in details(line)["hint"]


def test_ordering_the_squares_of_a_turn_gets_its_hint() -> None:
    def ordered(n: int, m: int = 1) -> int:
        total, nodes, left = 1, 1, n
        while left:
            nodes *= math.perm(left, min(m, left))
            left -= min(m, left)
            total += nodes
        return total

    line = check_tree_counts(ordered, state_count).failures[0]
    assert line.text == "tree_size(3, 2) is wrong" and "math.comb" in details(line)["hint"]


@pytest.mark.parametrize(
    ("trees", "states", "first", "hint"),
    [
        (math.factorial, state_count, "tree_size(3) is wrong", "counts only the leaves"),
        (lambda n: tree_size(n) - 1, state_count, "tree_size(3) is wrong", "count the root"),
        (lambda n: tree_size(n) - math.factorial(n), state_count, "tree_size(3) is wrong",
         "the leaves"),
        (lambda n: float(tree_size(n)), state_count, "tree_size(25) is wrong", "whole numbers"),
        (tree_size, lambda n: 3**n, "state_count(3) is wrong", "3^n"),
        (tree_size, lambda n: state_count(n) - 1, "state_count(3) is wrong", "empty board"),
        (tree_size, tree_size, "state_count(3) is wrong", "tree nodes"),
        (lambda n: tree_size(n) if n != 1 else 1, state_count, "tree_size(1) is wrong",
         "count the root"),
        (tree_size, lambda n: 5_478 if n == 9 else state_count(n), "state_count(9) is wrong",
         "ordinary tic-tac-toe"),
        (tree_size, lambda n: 0 if n == 25 else state_count(n), "state_count(25) is wrong",
         "the squares of X"),
    ],
)
def test_wrong_counts_name_the_board_size_and_the_expected_count(
    trees: Any, states: Any, first: str, hint: str
) -> None:
    result = check_tree_counts(trees, states)
    line = result.failures[0]
    assert line.text == first and hint in details(line)["hint"]
    assert_no_internals(result)


def test_the_expected_count_says_how_it_was_found() -> None:
    result = check_tree_counts(tree_size, lambda n: 3**n)
    assert details(result.failures[0]) == {
        "expected": "13 (counted by enumerating the game)",
        "returned": "27",
        "hint": "3^n also counts boards no game reaches: count the marks of X and of O after "
                "k turns",
    }
    big = check_tree_counts(lambda n: 0 if n == 16 else tree_size(n), state_count)
    assert details(big.failures[0])["expected"] == "56,874,039,553,217 (counted by the formula)"


def test_one_function_done_and_one_not() -> None:
    result = check_tree_counts(tree_size, raises_not_implemented)
    assert not result.done and not result.passed
    assert [line.status for line in result.lines] == [PASS, TODO]
    assert repr(result).split("\n")[0] == "Counting simplified tic-tac-toe: not done yet"


# ---------------------------------------------------------------------------------------------
# Layering
# ---------------------------------------------------------------------------------------------


def test_docstring_examples() -> None:
    import pkgutil

    import gamelib.exercises

    attempted = 0
    for info in pkgutil.iter_modules(gamelib.exercises.__path__, "gamelib.exercises."):
        module = importlib.import_module(info.name)
        result = doctest.testmod(module, verbose=False, report=True)
        assert result.failed == 0, info.name
        attempted += result.attempted
    assert attempted >= 4


def test_importing_the_checkers_loads_no_user_interface_library() -> None:
    code = (
        "import sys, gamelib.exercises\n"
        "ui = {'ipycanvas', 'ipywidgets', 'matplotlib', 'IPython'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ui))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


REPORTS = """
from gamelib.exercises import check_next_states, check_store_bound

def next_states(state, player):
    heaps, turn = state
    return [(heaps[:i] + (h - k,) + heaps[i + 1:], 1 - turn)
            for i, h in enumerate(heaps) for k in range(1, h)]

def naive(cache, state, alpha, beta, v):
    cache[state] = (v, v)

print(repr(check_next_states(next_states)))
print(repr(check_store_bound(naive)))
"""


def test_reports_do_not_depend_on_string_hashing() -> None:
    outputs = {
        subprocess.run([sys.executable, "-c", REPORTS], capture_output=True, text=True,
                       check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1 and "182 of the 2,480 entries are false" in outputs.pop()
