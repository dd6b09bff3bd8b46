"""Exercise 3: counting."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
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
from gamelib.exercises.run import ask, call_student, checker, expected
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


MARKS_PER_TURN: Final = (1, 2, 3)
"""The numbers ``m`` of squares a turn marks that the checker tries: 1 first (the simplified
tic-tac-toe of the lessons), then 2 (as in Connect6) and 3."""


@expected
def _levels(n: int, m: int = 1) -> tuple[dict[tuple[int, int], int], ...]:
    """Simplified tic-tac-toe on ``n`` squares where a turn marks ``m`` squares (the last turn
    the squares left, if fewer), enumerated turn by turn.

    Level ``k`` maps each board after ``k`` turns, as the bit masks ``(xs, os)`` of the two
    players' squares, to the number of turn sequences that reach it. The game ends only when
    the board is full, so which lines exist does not matter for counting.
    """
    levels = [{(0, 0): 1}]
    for k, take in enumerate(_turns(n, m)):
        below: dict[tuple[int, int], int] = {}
        for (xs, os), paths in levels[-1].items():
            free = [1 << square for square in range(n) if not (xs | os) >> square & 1]
            for chosen in itertools.combinations(free, take):
                bits = sum(chosen)
                child = (xs | bits, os) if k % 2 == 0 else (xs, os | bits)
                below[child] = below.get(child, 0) + paths
        levels.append(below)
    return tuple(levels)


def tree_size_by_enumeration(n: int, m: int = 1) -> int:
    """The number of nodes of the game tree of simplified tic-tac-toe on ``n`` squares, where
    a turn marks ``m`` squares (the last turn those left, if fewer).

    Counted by enumerating the game turn by turn (no formula): 986,410 for ``n = 9, m = 1``.
    ``n`` is a whole number from 0 to 12 and ``m`` from 1 to 3; raises :class:`GameError`
    otherwise.
    """
    _check_squares(n, m)
    return sum(sum(level.values()) for level in _levels(n, m))


def state_count_by_enumeration(n: int, m: int = 1) -> int:
    """The number of states of simplified tic-tac-toe on ``n`` squares, where a turn marks
    ``m`` squares (the last turn those left, if fewer).

    Counted by enumerating the game turn by turn (no formula): 6,046 for ``n = 9, m = 1``.
    ``n`` is a whole number from 0 to 12 and ``m`` from 1 to 3; raises :class:`GameError`
    otherwise.
    """
    _check_squares(n, m)
    return sum(len(level) for level in _levels(n, m))


def _check_squares(n: object, m: object = 1) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 12:
        raise GameError(f"n must be a whole number of squares from 0 to 12, got {show(n, 40)}")
    if not isinstance(m, int) or isinstance(m, bool) or not 1 <= m <= 3:
        raise GameError(f"m must be a whole number of squares per turn from 1 to 3, "
                        f"got {show(m, 40)}")


def _turns(n: int, m: int) -> list[int]:
    """The number of squares each turn marks, in order, until the board is full."""
    return [min(m, n - done) for done in range(0, n, m)]


def _tree_count(n: int, m: int, ways: Callable[[int, int], int]) -> int:
    """The nodes of the tree whose turn from ``left`` empty squares, marking ``take``,
    has ``ways(left, take)`` children."""
    total, nodes, left = 1, 1, n
    for take in _turns(n, m):
        nodes *= ways(left, take)
        left -= take
        total += nodes
    return total


def _tree_formula(n: int, m: int = 1) -> int:
    """The right tree count: a turn chooses a set of squares."""
    return _tree_count(n, m, math.comb)


def _ordered_tree(n: int, m: int) -> int:
    """The wrong tree count that orders the squares of one turn."""
    return _tree_count(n, m, math.perm)


def _states_formula(n: int, m: int = 1) -> int:
    total, marks = 1, [0, 0]
    for turn, take in enumerate(_turns(n, m)):
        marks[turn % 2] += take
        total += math.comb(n, marks[0]) * math.comb(n - marks[0], marks[1])
    return total


def _tree_hint(n: int, m: int, got: int, expected: int) -> str:
    if got == expected - 1:
        return "count the root, the empty board, too"
    if m > 1 and got == _tree_formula(n):
        return (f"that is the count for one mark per turn: here a turn marks {m} squares "
                "(the last turn those left), so the tree has fewer levels")
    if m > 1 and got == _ordered_tree(n, m):
        return (f"the {m} squares of one turn are marked at once: their order does not "
                "matter, so a turn is a set of squares (math.comb, not math.perm)")
    if m == 1 and got == math.factorial(n):
        return ("n! counts only the leaves, the full boards: the tree has nodes at every "
                "depth, the root included")
    if m == 1 and got == expected - math.factorial(n):
        return "the leaves, the full boards, are nodes of the tree too"
    return (f"a node of the tree is a sequence of turns from the start, each turn marking "
            f"{m} of the squares left (the last turn all that are left, if fewer): how many "
            f"sequences of k turns are there, for each k?")


def _states_hint(n: int, m: int, got: int, expected: int) -> str:
    if got == 3**n:
        return ("3^n also counts boards no game reaches: count the marks of X and of O "
                "after k turns")
    if got == expected - 1:
        return "the empty board is a state too"
    if got == _tree_formula(n, m):
        return ("that is the number of tree nodes: a board reached by several move orders "
                "is one state")
    if m > 1 and got == _states_formula(n):
        return (f"that is the count for one mark per turn: with {m} marks per turn only the "
                f"boards after whole turns occur, e.g. X has {m} marks and O none")
    if n == 9 and m == 1 and got == 5478:
        return ("5,478 is ordinary tic-tac-toe, where a game stops at the first line; "
                "here every game goes on until the board is full")
    return ("count the boards after k turns for each k: how many marks have X and O then? "
            "Choose the squares of X, then those of O among the squares left")


def _call(name: str, n: int, m: int) -> str:
    return f"{name}({n})" if m == 1 else f"{name}({n}, {m})"


def _count_lines(name: str, function: Callable[..., Any], truth: Callable[[int, int], int],
                 hint: Callable[[int, int, int, int], str]) -> Line:
    """The line on one counting function: right on every size and every number of marks per
    turn (all sizes with one mark first, called with ``n`` alone), or the first call it
    fails."""
    sizes = [*BRUTE_FORCE_SIZES, *FORMULA_SIZES]
    for index, (m, n) in enumerate(itertools.product(MARKS_PER_TURN, sizes)):
        call = _call(name, n, m)
        args = (n,) if m == 1 else (n, m)
        answer = call_student(function, *args, first=index == 0)
        forgot = returned_none_line(call, answer, name)
        if forgot is not None:
            return forgot
        expected = truth(n, m)
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
            details.append(("hint", hint(n, m, answer, expected)))
        return Line(FAIL, f"{call} is wrong", tuple(details))
    last = max(BRUTE_FORCE_SIZES)
    return Line(PASS, f"{name}(n, m) is right for m = "
                      f"{', '.join(map(str, MARKS_PER_TURN))} and n = {min(BRUTE_FORCE_SIZES)} "
                      f"to {last} (checked by enumerating the game) and n = "
                      f"{', '.join(map(str, FORMULA_SIZES))}: {name}({last}) = "
                      f"{truth(last, 1):,}, {name}({last}, 2) = {truth(last, 2):,}")


@checker(forbid=_FORBIDDEN)
def check_tree_counts(tree_size: Callable[..., Any],
                      state_count: Callable[..., Any]) -> CheckResult:
    """Check the student's counts for simplified tic-tac-toe on a board of ``n`` squares
    where each turn marks ``m`` squares (the last turn the squares left, if fewer).

    In simplified tic-tac-toe a game ends only when the board is full. ``tree_size(n, m)``
    must return the number of nodes of the game tree (the start included) and
    ``state_count(n, m)`` the number of distinct states, as ints; with ``m = 1`` (the game of
    the lessons) they are called as ``tree_size(n)`` and ``state_count(n)``, first. Both are
    compared, for :data:`MARKS_PER_TURN` and ``n`` = 1 to 9, with counts the checker gets by
    enumerating the game, and for the 4 x 4 and 5 x 5 boards (``n`` = 16 and 25), too large
    to enumerate, with the formulas. For ``n = 9``: 986,410 nodes and 6,046 states with
    ``m = 1``, 53,713 nodes and 2,809 states with ``m = 2``.

    Result: a :class:`CheckResult` with one line per function; a function that is still a
    stub gives a "not done yet" line. ``facts``: ``tree_size_9``, ``state_count_9`` (m = 1)
    and ``tree_size_9_2``, ``state_count_9_2`` (m = 2). Raises :class:`GameError` if an
    argument is not callable.
    """
    title = "Counting simplified tic-tac-toe"

    def tree_truth(n: int, m: int) -> int:
        return (tree_size_by_enumeration(n, m) if n in BRUTE_FORCE_SIZES
                else _tree_formula(n, m))

    def states_truth(n: int, m: int) -> int:
        return (state_count_by_enumeration(n, m) if n in BRUTE_FORCE_SIZES
                else _states_formula(n, m))

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
            lines.append(raised_line(f"{name}(n, m)", error))
    return CheckResult(title, tuple(lines), done=done,
                       facts={"tree_size_9": tree_truth(9, 1), "state_count_9": states_truth(9, 1),
                              "tree_size_9_2": tree_truth(9, 2),
                              "state_count_9_2": states_truth(9, 2)})


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
                 for level in _levels(side * side, 1) for xs, os in level}
    return len(canonical)


@expected
def _enumerated_symmetric(side: int) -> int:
    """:func:`symmetric_state_count_by_enumeration` of ``side``, enumerated once per process
    (a tenth of a second each; every check asks the same)."""
    return symmetric_state_count_by_enumeration(side)


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
        expected = _enumerated_symmetric(side) if enumerated else _symmetric_formula(side)
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
                                          f": {_enumerated_symmetric(3):,} "
                                          "states of the 3 x 3 board up to symmetry"),),
                       facts={"side_3": _enumerated_symmetric(3)})
