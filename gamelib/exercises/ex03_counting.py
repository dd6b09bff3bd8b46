"""Exercise 3: counting."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from gamelib.exercises.answers import number_problem
from gamelib.exercises.failures import (
    NotDone,
    StudentError,
    TimedOut,
    raised_line,
    returned_none_line,
)
from gamelib.exercises.guard import Forbidden
from gamelib.exercises.report import (
    FAIL,
    PASS,
    TODO,
    CheckResult,
    Line,
    show,
)
from gamelib.exercises.run import ask, call_student, checker
from gamelib.game import GameError

# ---------------------------------------------------------------------------------------------
# Exercise 3: counting the game tree and the states of simplified tic-tac-toe
# ---------------------------------------------------------------------------------------------

_FORBIDDEN: Final = Forbidden(modules=("gamelib.exercises.ex03_counting", "gamelib.search",
                                       "gamelib.connect4"))
"""The checker's own counts (``tree_size_by_enumeration`` and its kin) and every search."""

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
        answer = call_student(function, n, first=index == 0)
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


@checker(forbid=_FORBIDDEN)
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


# ---------------------------------------------------------------------------------------------
# Counting up to symmetry
# ---------------------------------------------------------------------------------------------

SYMMETRY_ENUMERATED: Final = (3, 1, 2)
"""The board sides for which :func:`check_symmetry_count` enumerates the states."""

SYMMETRY_BY_FORMULA: Final = (4, 5)
"""The board sides checked against Burnside's lemma (too many states to enumerate)."""


def _symmetries(side: int) -> list[list[int]]:
    """The 8 symmetries of the side x side square as permutations of the cells ``r*side+c``."""
    def cell(r: int, c: int) -> int:
        return r * side + c

    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c), lambda r, c: (c, side - 1 - r),
            lambda r, c: (side - 1 - r, side - 1 - c), lambda r, c: (side - 1 - c, r)]
    perms = []
    for turn in maps:
        for mirror in (False, True):
            perm = [0] * side * side
            for r in range(side):
                for c in range(side):
                    rr, cc = turn(r, side - 1 - c if mirror else c)
                    perm[cell(r, c)] = cell(rr, cc)
            perms.append(perm)
    return perms


def symmetric_state_count_by_enumeration(side: int) -> int:
    """The number of states of simplified tic-tac-toe on a ``side`` x ``side`` board, boards
    that a rotation or reflection maps onto each other counted once; found by enumerating the
    states and keeping one canonical image of each. ``side`` from 1 to 3 (GameError else).

    >>> symmetric_state_count_by_enumeration(3)
    850
    """
    if not isinstance(side, int) or isinstance(side, bool) or not 1 <= side <= 3:
        raise GameError(f"side must be a whole number from 1 to 3, got {show(side, 40)}")
    perms = _symmetries(side)

    def image(mask: int, perm: list[int]) -> int:
        return sum(1 << perm[i] for i in range(side * side) if mask >> i & 1)

    canonical = {min((image(xs, p), image(os, p)) for p in perms)
                 for level in _levels(side * side) for xs, os in level}
    return len(canonical)


def _symmetric_formula(side: int) -> int:
    """Burnside's lemma: the average, over the 8 symmetries, of the states each one fixes."""
    n = side * side
    total = 0
    for perm in _symmetries(side):
        seen: set[int] = set()
        cycles = []
        for start in range(n):
            length, cell = 0, start
            while cell not in seen:
                seen.add(cell)
                cell, length = perm[cell], length + 1
            if length:
                cycles.append(length)
        fixed: dict[tuple[int, int], int] = {(0, 0): 1}  # (X marks, O marks) -> boards
        for length in cycles:
            grown: dict[tuple[int, int], int] = {}
            for (x, o), ways in fixed.items():
                for key in ((x, o), (x + length, o), (x, o + length)):
                    grown[key] = grown.get(key, 0) + ways
            fixed = grown
        total += sum(fixed.get(((k + 1) // 2, k // 2), 0) for k in range(n + 1))
    return total // 8


@checker(forbid=_FORBIDDEN)
def check_symmetry_count(symmetric_state_count: Callable[[int], Any]) -> CheckResult:
    """Check the student's ``symmetric_state_count(side)``: the number of states of simplified
    tic-tac-toe on a ``side`` x ``side`` board, where boards that one of the square's 8
    symmetries (4 rotations, 4 reflections) maps onto each other count once.

    Compared for ``side`` = 3, 1 and 2 with an enumeration of the states (850 for 3) and for
    4 and 5 with Burnside's lemma. Result: a :class:`CheckResult`; GameError if the
    argument is not callable.
    """
    title = "Counting up to symmetry"
    sizes = [*SYMMETRY_ENUMERATED, *SYMMETRY_BY_FORMULA]
    for index, side in enumerate(sizes):
        call = f"symmetric_state_count({side})"
        answer = ask(title, "symmetric_state_count", call, symmetric_state_count, side,
                     first=index == 0)
        forgot = returned_none_line(call, answer, "symmetric_state_count")
        if forgot is not None:
            return CheckResult(title, (forgot,))
        enumerated = side in SYMMETRY_ENUMERATED
        expected = (symmetric_state_count_by_enumeration(side) if enumerated
                    else _symmetric_formula(side))
        if not number_problem(answer) and answer == expected:
            continue
        plain = state_count_by_enumeration(side * side) if enumerated else _states_formula(
            side * side)
        if number_problem(answer):
            hint = f"return a whole number: {number_problem(answer)}"
        elif answer == plain:
            hint = "that counts every board: a board and its rotations and mirror images count once"
        elif answer * 8 in range(plain - 8, plain + 9):
            hint = ("dividing by 8 undercounts: a board that a symmetry leaves unchanged has "
                    "fewer than 8 different images; count, for each symmetry, the boards it "
                    "leaves unchanged")
        else:
            hint = ("for each of the 8 symmetries, which boards does it leave unchanged? Such "
                    "a board has the same mark on every cell of each cycle of the symmetry")
        how = "by enumerating the boards" if enumerated else "by Burnside's lemma"
        return CheckResult(title, (Line(FAIL, f"{call} is wrong", (
            ("expected", f"{expected:,} (counted {how})"), ("returned", show(answer)),
            ("hint", hint))),))
    return CheckResult(title, (Line(PASS, f"right for sides {', '.join(map(str, sorted(sizes)))}"
                                          f": {symmetric_state_count_by_enumeration(3):,} "
                                          "states of the 3 x 3 board up to symmetry"),),
                       facts={"side_3": symmetric_state_count_by_enumeration(3)})
