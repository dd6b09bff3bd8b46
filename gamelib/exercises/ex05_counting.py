"""Exercise 5: counting."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from gamelib.exercises.report import (
    FAIL,
    PASS,
    TODO,
    CheckResult,
    Line,
    show,
)
from gamelib.exercises.run import (
    NotDone,
    StudentError,
    TimedOut,
    call_student,
    checker,
    is_stub,
    number_problem,
    raised_line,
    require_function,
    returned_none_line,
)
from gamelib.game import GameError

# ---------------------------------------------------------------------------------------------
# Exercise 5: counting the game tree and the states of simplified tic-tac-toe
# ---------------------------------------------------------------------------------------------

BRUTE_FORCE_SIZES: Final = (3, 1, 2, 4, 5, 6, 7, 8, 9)
"""The board sizes (numbers of squares) for which the checker enumerates the game: 3 first,
the size the notebook works by hand, then 1 to 9."""

FORMULA_SIZES: Final = (16, 25)
"""Boards too large to enumerate (4 x 4 and 5 x 5), checked against the formulas."""


@cache
def _levels(n: int) -> tuple[dict[tuple[int, int], int], ...]:
    """Simplified tic-tac-toe on ``n`` squares, enumerated level by level.

    Level ``k`` maps each board after ``k`` moves, as the bit masks ``(xs, os)`` of the two
    players' squares, to the number of move sequences that reach it. The game ends only when
    the board is full, so which lines exist does not matter for counting.
    """
    levels = [{(0, 0): 1}]
    for k in range(n):
        below: dict[tuple[int, int], int] = {}
        for (xs, os), paths in levels[-1].items():
            taken = xs | os
            for square in range(n):
                bit = 1 << square
                if taken & bit:
                    continue
                child = (xs | bit, os) if k % 2 == 0 else (xs, os | bit)
                below[child] = below.get(child, 0) + paths
        levels.append(below)
    return tuple(levels)


def tree_size_by_enumeration(n: int) -> int:
    """The number of nodes of the game tree of simplified tic-tac-toe on ``n`` squares.

    Counted by enumerating the game level by level (no formula): 986,410 for ``n = 9``.
    ``n`` is a whole number from 0 to 12; raises :class:`GameError` otherwise.
    """
    _check_squares(n)
    return sum(sum(level.values()) for level in _levels(n))


def state_count_by_enumeration(n: int) -> int:
    """The number of states of simplified tic-tac-toe on ``n`` squares.

    Counted by enumerating the game level by level (no formula): 6,046 for ``n = 9``.
    ``n`` is a whole number from 0 to 12; raises :class:`GameError` otherwise.
    """
    _check_squares(n)
    return sum(len(level) for level in _levels(n))


def _check_squares(n: object) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 12:
        raise GameError(f"n must be a whole number of squares from 0 to 12, got {show(n, 40)}")


def _tree_formula(n: int) -> int:
    return sum(math.perm(n, k) for k in range(n + 1))


def _states_formula(n: int) -> int:
    return sum(math.comb(n, (k + 1) // 2) * math.comb(n - (k + 1) // 2, k // 2)
               for k in range(n + 1))


def _tree_hint(n: int, got: int, expected: int) -> str:
    if got == expected - 1:
        return "count the root, the empty board, too"
    if got == math.factorial(n):
        return ("n! counts only the leaves, the full boards: the tree has nodes at every "
                "depth, the root included")
    if got == expected - math.factorial(n):
        return "the leaves, the full boards, are nodes of the tree too"
    return ("a node of the tree is a sequence of moves from the start: how many sequences of "
            "k moves are there, for k = 0, 1, ..., n?")


def _states_hint(n: int, got: int, expected: int) -> str:
    if got == 3**n:
        return ("3^n also counts boards no game reaches: after k moves X has made "
                "ceil(k/2) marks and O floor(k/2)")
    if got == expected - 1:
        return "the empty board is a state too"
    if got == _tree_formula(n):
        return ("that is the number of tree nodes: a board reached by several move orders "
                "is one state")
    if n == 9 and got == 5478:
        return ("5,478 is ordinary tic-tac-toe, where a game stops at the first line; "
                "here every game goes on until the board is full")
    return ("count the boards with k marks for each k: choose the squares of X, then those "
            "of O among the squares left")


def _count_lines(name: str, function: Callable[[int], Any], truth: Callable[[int], int],
                 hint: Callable[[int, int, int], str]) -> Line:
    """The line on one counting function: right on every size, or the first size it fails."""
    sizes = [*BRUTE_FORCE_SIZES, *FORMULA_SIZES]
    for index, n in enumerate(sizes):
        call = f"{name}({n})"
        answer = call_student(function, n)
        if index == 0 and is_stub(answer):
            raise NotDone()
        forgot = returned_none_line(call, answer, name)
        if forgot is not None:
            return forgot
        expected = truth(n)
        how = "by enumerating the game" if n in BRUTE_FORCE_SIZES else "by the formula"
        if not number_problem(answer) and answer == expected:
            continue
        details = [("expected", f"{expected:,} (counted {how})"), ("returned", show(answer))]
        if isinstance(answer, float):
            details.append(("hint", "compute with whole numbers (math.factorial, math.comb, "
                                    "//): a float keeps only about 16 digits"))
        elif number_problem(answer):
            details.append(("hint", f"return a whole number: {number_problem(answer)}"))
        else:
            details.append(("hint", hint(n, answer, expected)))
        return Line(FAIL, f"{call} is wrong", tuple(details))
    last = max(BRUTE_FORCE_SIZES)
    return Line(PASS, f"{name}(n) is right for n = {min(BRUTE_FORCE_SIZES)} to {last} (checked "
                      f"by enumerating the game) and n = {', '.join(map(str, FORMULA_SIZES))}: "
                      f"{name}({last}) = {truth(last):,}")


@checker
def check_tree_counts(tree_size: Callable[[int], Any],
                      state_count: Callable[[int], Any]) -> CheckResult:
    """Check the student's counts for simplified tic-tac-toe on a board of ``n`` squares.

    In simplified tic-tac-toe a game ends only when the board is full. ``tree_size(n)`` must
    return the number of nodes of the game tree (the start included) and ``state_count(n)``
    the number of distinct states, as ints. Both are compared, for ``n`` = 1 to 9, with
    counts the checker gets by enumerating the game, and for the 4 x 4 and 5 x 5 boards
    (``n`` = 16 and 25), too large to enumerate, with the formulas. For ``n`` = 9:
    986,410 nodes and 6,046 states.

    Result: a :class:`CheckResult` with one line per function; a function that is still a
    stub gives a "not done yet" line. Raises :class:`GameError` if an argument is not
    callable.
    """
    require_function("check_tree_counts", "tree_size", tree_size)
    require_function("check_tree_counts", "state_count", state_count)
    title = "Counting simplified tic-tac-toe"

    def tree_truth(n: int) -> int:
        return tree_size_by_enumeration(n) if n in BRUTE_FORCE_SIZES else _tree_formula(n)

    def states_truth(n: int) -> int:
        return state_count_by_enumeration(n) if n in BRUTE_FORCE_SIZES else _states_formula(n)

    lines: list[Line] = []
    done = True
    for name, function, truth, hint in (("tree_size", tree_size, tree_truth, _tree_hint),
                                        ("state_count", state_count, states_truth,
                                         _states_hint)):
        try:
            lines.append(_count_lines(name, function, truth, hint))
        except NotDone:
            done = False
            lines.append(Line(TODO, f"{name} is not done yet: write it in place of "
                                    "`raise NotImplementedError`"))
        except (StudentError, TimedOut) as error:
            lines.append(raised_line(f"{name}(n)", error))
    return CheckResult(title, tuple(lines), done=done,
                       facts={"tree_size_9": tree_truth(9), "state_count_9": states_truth(9)})
