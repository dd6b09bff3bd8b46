"""Exercises 4, 6, 7, 9 and 10: each checker passes the solution notebook's code, fails a
planted bug with the right message (one per typical mistake) and says "not done yet" for the
untouched student notebook.

The code under test is taken from the notebooks themselves (the cells with nbgrader ids
``exNN-imports`` and the solution cells), so the committed solutions are what is checked. A
planted bug is one textual change to the solution's source.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest

from gamelib.connect4.solver import Solver
from gamelib.exercises.ex04_alphabeta import check_alphabeta
from gamelib.exercises.ex06_read import check_read_entry
from gamelib.exercises.ex07_deepening import check_deepening
from gamelib.exercises.ex09_bitboard import check_connect_four_rules
from gamelib.exercises.ex10_null_windows import check_exact_score, score_range
from gamelib.exercises.guard import handed
from gamelib.exercises.report import CheckResult
from gamelib.game import GameError
from gamelib.games import ConnectFour, TicTacToe
from gamelib.search import Stats, alphabeta

EXERCISES = Path(__file__).resolve().parents[2] / "notebooks" / "exercises"

NOTEBOOKS = {
    "04": "04-Alpha-Beta",
    "06": "06-Seven-Cases",
    "07": "07-Iterative-Deepening",
    "09": "09-Connect-Four-Bitboard",
    "10": "10-Null-Windows",
}


def _cells(number: str, student: bool) -> list[Any]:
    name = NOTEBOOKS[number] + ("" if student else "-Solution") + ".ipynb"
    return list(nbformat.read(EXERCISES / name, as_version=4).cells)


def _code(number: str, *, student: bool = False, change: tuple[str, ...] = ()
          ) -> dict[str, Any]:
    """The namespace after running the imports and the solution cells of a notebook, with
    ``change`` (old, new, old, new, ...) applied to the solution source first."""
    namespace: dict[str, Any] = {}
    pairs = list(zip(change[::2], change[1::2], strict=True))
    used: set[str] = set()
    for cell in _cells(number, student):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code":
            continue
        source = cell.source
        if meta.get("solution"):
            for old, new in pairs:
                if old in source:
                    source = source.replace(old, new)
                    used.add(old)
        elif not meta.get("grade_id", "").endswith("-imports"):
            continue
        exec(compile(source, f"<{number} {meta.get('grade_id')}>", "exec"), namespace)
    missing = [old for old, _ in pairs if old not in used]
    assert not missing, f"the planted bug's text is not in the solution: {missing}"
    return namespace


def _report(result: CheckResult) -> str:
    return repr(result)


# ---------------------------------------------------------------------------------------------
# Notebooks and metadata
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_solution_cells_carry_nbgrader_metadata(number: str) -> None:
    cells = _cells(number, student=False)
    ids = [c.metadata["nbgrader"]["grade_id"] for c in cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids))
    solutions = [c for c in cells if c.metadata.get("nbgrader", {}).get("solution")]
    graded = [c for c in cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert all(c.metadata["nbgrader"]["schema_version"] == 3 for c in cells
               if "nbgrader" in c.metadata)
    code = [c for c in solutions if c.cell_type == "code"]
    assert code and all("# BEGIN SOLUTION" in c.source and "# END SOLUTION" in c.source
                        and "### BEGIN" not in c.source for c in code)
    tests = [c for c in graded if c.cell_type == "code"]
    assert len(tests) == 1 and tests[0].source.endswith(".require()")
    assert tests[0].metadata["nbgrader"]["points"] > 0 and tests[0].metadata["nbgrader"]["locked"]
    answers = [c for c in graded if c.cell_type == "markdown"]  # written, graded by hand
    assert answers and all(c.metadata["nbgrader"]["solution"] for c in answers)


@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_student_version_hides_the_solution(number: str) -> None:
    solution = "\n".join(c.source for c in _cells(number, student=False))
    student = "\n".join(c.source for c in _cells(number, student=True))
    assert "BEGIN SOLUTION" in solution and "BEGIN SOLUTION" not in student
    assert "raise NotImplementedError" in student and "This is the solution notebook" not in student


# ---------------------------------------------------------------------------------------------
# Exercise 4: alpha-beta
# ---------------------------------------------------------------------------------------------


def test_alphabeta_solution_passes_with_gamelibs_counts() -> None:
    result = check_alphabeta(_code("04")["alphabeta"])
    assert result.passed, _report(result)
    assert result.facts["cases"] == 240 and result.facts["wrong"] == 0
    assert result.facts["lines"] > 50
    calls = result.facts["calls"]
    assert all(mine == theirs for mine, theirs in calls.values())
    stats = Stats()
    game = TicTacToe()
    from gamelib.exercises.ex04_alphabeta import corners_first
    alphabeta(game, game.start, stats=stats, order=corners_first)
    assert calls["the empty tic-tac-toe board, corners first"] == (stats.calls, 9_664)


ALPHABETA_BUGS = [
    ("no cutoff", ("        if best >= beta:               # case 3 allows stopping: a cutoff\n"
                   "            return best, line\n", ""), "was stopped"),
    ("alpha never rises", ("alpha = max(alpha, best)", "pass"),
     "looks at more states than alpha-beta"),
    ("cutoff with >", ("if best >= beta:", "if best > beta:"), "(not > beta)"),
    ("window not swapped", ("-beta, -alpha, order", "-alpha, -beta, order"),
     "the three cases fail"),
    ("order ignored", ("moves = game.moves(state) if order is None else "
                       "order(game, state, game.moves(state))", "moves = game.moves(state)"),
     "the count is that of the game's own move order"),
    ("no return", ("    return best, line\n    # END SOLUTION", "    # END SOLUTION"),
     "is a `return` missing"),
    ("line never kept", ("best, line = -value, [m, *rest]", "best = -value"),
     "the principal variation"),
    ("line of a move that only ties", ("if -value > best:", "if -value >= best:"),
     "the principal variation"),
]


def test_alphabeta_wrong_sign_gets_the_sign_hint() -> None:
    def no_negation(game: Any, state: Any, player: Any, alpha: Any, beta: Any,
                    order: Any) -> Any:
        value = handed(alphabeta)(game, state, player, -1, 1)  # a right search, then wrong
        return (-value if value else value), []
    result = check_alphabeta(no_negation)
    assert not result.passed and "the sign is wrong" in _report(result)


# ---------------------------------------------------------------------------------------------
# Exercise 6: the seven cases
# ---------------------------------------------------------------------------------------------


def test_read_solution_passes_every_case() -> None:
    result = check_read_entry(_code("06")["read"])
    assert result.passed, _report(result)
    assert result.facts["by_kind"] == {"no entry": 21, "exact": 147, "at most alpha": 126,
                                       "at least beta": 126, "narrowed": 504}
    assert "4,316 calls, 2,474 entries, 57 of them exact" in _report(result)


READ_BUGS = [
    ("upper at alpha searched", ("if upper <= alpha:", "if upper < alpha:"),
     "upper == alpha counts too"),
    ("lower at beta searched", ("if lower >= beta:", "if lower > beta:"),
     "lower == beta counts too"),
    ("no narrowing", ("return None, max(alpha, lower), min(beta, upper)",
                      "return None, alpha, beta"), "narrowed on both sides"),
    ("narrowed below only", ("min(beta, upper)", "beta"), "narrowed on both sides"),
    ("exact pair searched", ("return lower, alpha, beta          # exact",
                             "return None, alpha, beta"), "the pair gives the value itself"),
    ("bound taken as the value", ("return None, max(alpha, lower), min(beta, upper)",
                                  "return lower, alpha, beta"),
     "some possible values lie inside the window"),
]


def test_lesson_5s_flagged_read_does_not_pass() -> None:
    def lesson_read(entry: Any, alpha: Any, beta: Any) -> Any:
        if entry is None:
            return None, alpha, beta
        flag, v = entry
        if flag == "=" or (flag == "≤" and v <= alpha) or (flag == "≥" and v >= beta):
            return v, alpha, beta
        if flag == "≤" and v < beta:
            return None, alpha, v
        if flag == "≥" and v > alpha:
            return None, v, beta
        return None, alpha, beta
    result = check_read_entry(lesson_read)
    assert not result.passed and result.facts["wrong"] == 644


def test_read_wrong_shape_and_none() -> None:
    assert "return a triple" in _report(check_read_entry(lambda e, a, b: 0))
    assert "is a `return` missing?" in _report(check_read_entry(lambda e, a, b: None))


# ---------------------------------------------------------------------------------------------
# Exercise 7: iterative deepening
# ---------------------------------------------------------------------------------------------


def test_deepening_solution_passes_with_gamelibs_counts() -> None:
    result = check_deepening(_code("07")["deepening"])
    assert result.passed, _report(result)
    plays = result.facts["plays"]
    assert plays[6] == 9_051 and list(plays.values()) == sorted(plays.values())


DEEPENING_BUGS = [
    ("no memory", ("sorted(game.moves(s), key=lambda m: m != memory.get(s))", "game.moves(s)"),
     "no fewer than one plain search"),
    ("clock never asked", ("        if out_of_time():\n            raise OutOfTime\n", ""),
     "never called out_of_time()"),
    ("clock between iterations only",
     ("        if out_of_time():\n            raise OutOfTime\n", "",
      "    for depth in range(1, max_depth + 1):\n",
      "    for depth in range(1, max_depth + 1):\n        if depth > 1 and out_of_time():\n"
      "            break\n"), "after the budget ran out"),
    ("abandoned depth reported",
     ("            break                                 # keep the last finished iteration",
      "            finished = depth\n            break"),
     "report the depth of the last iteration that finished"),
]


def test_deepening_without_play_is_told_to_use_it() -> None:
    def by_next_states(game: Any, state: Any, h: Any, max_depth: int, out_of_time: Any) -> Any:
        game.next_states(state, game.to_move(state))
        return 3, max_depth
    assert "never called game.play" in _report(check_deepening(by_next_states))


def test_deepening_returning_the_abandoned_iterations_move() -> None:
    source = _code("07")

    def partial(game: Any, state: Any, h: Any, max_depth: int, out_of_time: Any) -> Any:
        pv, depth = source["deepening"](game, state, h, max_depth, out_of_time)
        if depth == max_depth:
            return pv, depth
        return [2], depth  # column 3: the best move so far of the abandoned iteration 2
    result = check_deepening(partial)
    assert not result.passed
    assert "not of the abandoned one" in _report(result), _report(result)


@pytest.mark.parametrize(("line", "hint"), [
    (lambda pv: pv[:1], "it must go down to the horizon"),
    (lambda pv: pv[:-1] + [m for m in range(7) if m != pv[-1]][:1], "in every state of the line"),
    (lambda pv: pv[0], "as a list of moves"),
])
def test_deepening_must_return_the_principal_variation(line: Any, hint: str) -> None:
    source = _code("07")

    def wrong_line(game: Any, state: Any, h: Any, max_depth: int, out_of_time: Any) -> Any:
        pv, depth = source["deepening"](game, state, h, max_depth, out_of_time)
        return line(pv) if max_depth >= 3 else pv, depth
    result = check_deepening(wrong_line)
    assert not result.passed
    assert "deepening(game, state, h, 3, out_of_time)" in _report(result), _report(result)
    assert hint in _report(result), _report(result)


# ---------------------------------------------------------------------------------------------
# Exercise 9: Connect Four on a bitboard packed by rows
# ---------------------------------------------------------------------------------------------


def test_bitboard_solution_passes() -> None:
    code = _code("09")
    result = check_connect_four_rules(code["next_states"], code["finished"], code["utility"])
    assert result.passed, _report(result)
    assert result.facts["positions"] == 637
    assert "28 fours at the edge, 21 lines that wrap" in _report(result)


BITBOARD_BUGS = [
    ("no guard bit", ("    w = cols + 1\n    for d", "    w = cols\n    for d"),
     "finished: wrong"),
    ("no draw", ("\n            or (first | second).bit_count() == rows * cols)", ")"),
     "a full board ends the game too"),
    ("full column played", ("for row in range(rows):", "for row in range(rows + 1):"),
     "a full column is no move"),
    ("Lesson 7's carry", ("            cell = 1 << (row * (cols + 1) + col)\n",
                          "            cell = (mask + (1 << col)) & ~mask\n"),
     "one addition no longer carries the disc there"),
    ("wrong player", ("x_to_move = mask.bit_count() % 2 == 0",
                      "x_to_move = mask.bit_count() % 2 == 1"),
     "the disc belongs to the player to move"),
    ("utility sign", ("        return 1\n    if has_four(theirs",
                      "        return -1\n    if has_four(theirs"),
     "the utility is for `player`"),
    ("one diagonal missing", ("(1, w, w - 1, w + 1)", "(1, w, w + 1)"), "diagonally down-right"),
]


def test_bitboard_guard_bug_is_named_on_a_trap() -> None:
    from gamelib.exercises.ex09_bitboard import _finished_hint, _positions
    traps = [(g, s) for g, s, why in _positions() if "wrap" in why]
    assert traps and all(not g.finished(s) for g, s in traps)
    game, state = traps[0]
    assert "guard bit" in (_finished_hint(game, state, True) or "")


# ---------------------------------------------------------------------------------------------
# Exercise 10: null windows
# ---------------------------------------------------------------------------------------------


def test_exact_score_solution_passes() -> None:
    result = check_exact_score(_code("10")["exact_score"])
    assert result.passed, _report(result)
    assert result.facts["positions"] == 40
    assert result.facts["questions"] <= result.facts["limit"]


def test_score_range_holds_every_solver_score() -> None:
    from gamelib.exercises.ex10_null_windows import _positions
    for game, state, score in _positions():
        low, high = score_range(game, state)
        assert low <= score <= high
        assert Solver(game, table_bits=12).solve(state) == score


NULL_WINDOW_BUGS = [
    ("midpoint rounds down", ("k = (low + high + 1) // 2", "k = (low + high) // 2"),
     "was stopped"),
    ("steps of 1 from the guess", ("2 * step", "step"), "step away by 1, 2, 4"),
    ("yes taken as above k", ("            low = k\n", "            low = k + 1\n"), "one off"),
    ("no return", ("    return low\n    # END SOLUTION", "    # END SOLUTION"),
     "is a `return` missing?"),
]


def test_exact_score_without_a_question_does_not_pass() -> None:
    from gamelib.connect4 import Solver
    solve = handed(lambda game, state: Solver(game).solve(state))  # a right score, found
    result = check_exact_score(lambda game, state, at_least, guess: solve(game, state))
    assert not result.passed
    assert result.failures[0].text.endswith("is right but asked no question")


def test_exact_score_linear_scan_asks_too_many() -> None:
    def linear(game: ConnectFour, state: Any, at_least: Any, guess: Any) -> int:
        low, high = handed(score_range)(game, state)
        k = high
        while not at_least(k):
            k -= 1
        return k
    report = _report(check_exact_score(linear))
    assert "start from the guess" in report


def test_exact_score_bisection_of_the_range_asks_too_many() -> None:
    def bisection(game: ConnectFour, state: Any, at_least: Any, guess: Any) -> int:
        low, high = handed(score_range)(game, state)
        while low < high:
            k = (low + high + 1) // 2
            low, high = (k, high) if at_least(k) else (low, k - 1)
        return low
    report = _report(check_exact_score(bisection))
    assert "is right but asked" in report


# ---------------------------------------------------------------------------------------------
# Every checker: the student's version, bad arguments, exceptions
# ---------------------------------------------------------------------------------------------


def _check(number: str, code: dict[str, Any]) -> CheckResult:
    """Run exercise ``number``'s checker on the functions in ``code``."""
    if number == "04":
        return check_alphabeta(code["alphabeta"])
    if number == "06":
        return check_read_entry(code["read"])
    if number == "07":
        return check_deepening(code["deepening"])
    if number == "09":
        return check_connect_four_rules(code["next_states"], code["finished"], code["utility"])
    return check_exact_score(code["exact_score"])


PLANTED = [(number, *bug) for number, bugs in (("04", ALPHABETA_BUGS), ("06", READ_BUGS),
                                               ("07", DEEPENING_BUGS), ("09", BITBOARD_BUGS),
                                               ("10", NULL_WINDOW_BUGS))
           for bug in bugs]


@pytest.mark.parametrize(("number", "bug", "change", "message"), PLANTED,
                         ids=[f"{p[0]}-{p[1]}" for p in PLANTED])
def test_planted_bug_fails_with_its_message(number: str, bug: str, change: tuple[str, ...],
                                            message: str) -> None:
    result = _check(number, _code(number, change=change))
    assert not result.passed and result.done
    assert message in _report(result), _report(result)


@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_untouched_student_version_is_not_done_yet(number: str) -> None:
    result = _check(number, _code(number, student=True))
    assert not result.done and not result.passed
    assert result.headline().endswith("not done yet")
    with pytest.raises(AssertionError, match="not done yet"):
        result.require()


CHECKERS = [check_alphabeta, check_read_entry, check_deepening, check_exact_score]


@pytest.mark.parametrize("checker", CHECKERS, ids=lambda c: c.__name__)
def test_a_function_that_raises_is_reported_not_raised(checker: Any) -> None:
    def broken(*args: Any) -> Any:
        return 1 // 0
    result = checker(broken)
    assert not result.passed and result.done
    assert "ZeroDivisionError" in _report(result)


@pytest.mark.parametrize("checker", CHECKERS, ids=lambda c: c.__name__)
def test_not_a_function_is_a_game_error(checker: Any) -> None:
    with pytest.raises(GameError, match="itself"):
        checker(42)


def test_bitboard_checker_reports_each_function() -> None:
    def broken(*args: Any) -> Any:
        raise KeyError("x")
    code = _code("09")
    result = check_connect_four_rules(code["next_states"], broken, code["utility"])
    report = _report(result)
    assert "next_states: right" in report and "KeyError" in report and not result.passed
    with pytest.raises(GameError):
        check_connect_four_rules(code["next_states"], code["finished"], None)  # type: ignore[arg-type]


@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_a_function_that_never_returns_is_stopped(number: str) -> None:
    from gamelib.exercises import run
    if not hasattr(run, "set_time_limit"):  # until run.py has the time limit
        pytest.skip("gamelib.exercises.run has no time limit yet")

    def endless(*args: Any) -> Any:
        while True:
            pass
    code = {name: endless for name in ("alphabeta", "read", "deepening", "next_states",
                                       "finished", "utility", "exact_score")}
    run.set_time_limit(0.1)
    try:
        result = _check(number, code)
    finally:
        run.set_time_limit()
    assert not result.passed and "did not return within 0.1 s" in _report(result)


def test_numbers_compare_as_numbers() -> None:
    """One rule for every checker: 1, 1.0 and numpy.int64(1) are the same answer."""
    numpy = pytest.importorskip("numpy")
    code = _code("09")
    as_float = check_connect_four_rules(code["next_states"], code["finished"],
                                        lambda *a: float(code["utility"](*a)))
    assert as_float.passed, _report(as_float)
    solution = _code("04")["alphabeta"]

    def numpy_value(*args: Any) -> Any:
        value, line = solution(*args)
        return numpy.float64(value), line
    as_numpy = check_alphabeta(numpy_value)
    assert as_numpy.passed, _report(as_numpy)
    exact = _code("10")["exact_score"]
    assert check_exact_score(lambda *a: numpy.int64(exact(*a))).passed
    text = _report(check_exact_score(lambda *a: str(exact(*a))))
    assert "of type str is not a number" in text


def test_exact_score_questions_must_be_whole_numbers() -> None:
    def halves(game: ConnectFour, state: Any, at_least: Any, guess: Any) -> Any:
        return at_least(0.5)
    report = _report(check_exact_score(halves))
    assert "asked at_least(0.5)" in report and "whole numbers" in report
    exact = _code("10")["exact_score"]
    numpy = pytest.importorskip("numpy")
    assert check_exact_score(
        lambda g, s, ask, guess: exact(g, s, lambda k: ask(numpy.int64(k)), guess)).passed
