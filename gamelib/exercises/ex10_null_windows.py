"""Exercise 10: the exact score from yes/no questions (null-window searches), starting
from a guess.

A null-window search with the window ``[k - 1, k]`` answers one yes/no question: *is the
score of this position at least k?* (``k = 1``: is it a win?). Lesson 8 finds the exact
Connect Four score by bisecting the range of possible scores with such questions; the student
writes the next step, which the lesson does not show: ``exact_score(game, state, at_least,
guess)`` starts from a first ``guess`` of the score (as a previous iteration or a heuristic
gives one) and pays for how far the guess is off, not for the size of the range (galloping
from the guess, then bisection: the idea behind MTD(f) and aspiration windows). The score is
Lesson 8's (for the player to move, one more than the discs the winner still holds when it
wins); ``at_least(k)`` is True iff the score is at least ``k``.

:func:`check_exact_score` answers the questions from :class:`gamelib.connect4.solver.Solver`'s
score on positions of small boards (4 x 4 to 5 x 5, so each check takes a fraction of a
second), hands guesses from exact to 6 off, and checks the answer and the number of
questions: at least one (the answer comes from the questions) and at most
``2 * (d + 1).bit_length()`` for a guess ``d`` off the score (2 for an exact guess, where
bisection of Lesson 8's ``score_range`` needs 4).
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable
from functools import partial
from typing import Any, Final

from gamelib.connect4.solver import Solver
from gamelib.exercises.answers import number_problem
from gamelib.exercises.guard import Forbidden
from gamelib.exercises.report import FAIL, INFO, PASS, CheckResult, Line, show
from gamelib.exercises.run import ask, checker, expected
from gamelib.games import ConnectFour
from gamelib.games.connect_four import C4State

__all__ = ["check_exact_score", "score_range", "NULL_WINDOW_BOARDS"]

NULL_WINDOW_BOARDS: Final = ((4, 4), (4, 5), (5, 4), (4, 6), (5, 5))
"""(rows, cols) of the boards the checker takes positions from."""
_PER_BOARD: Final = 8
"""Positions per board, chosen for scores as varied as the board allows."""
_QUESTION_LIMIT: Final = 64
"""A search for the score that asks more questions than this is stopped."""
_OFFSETS: Final = (0, 1, -1, 0, 2, -3, 0, 6, -5)
"""How far the guess handed for the i-th position is off the score (the other way if that
leaves the range; clamped to the range if both do)."""


def score_range(game: ConnectFour, state: C4State) -> tuple[int, int]:
    """``(low, high)``: the lowest and highest score possible for the player to move.

    With ``N`` cells and ``m`` discs on the board, a win by the player to move comes at the
    earliest with its next disc and scores ``(N + 1 - m) // 2``; a loss comes at the earliest
    with the opponent's next disc and scores ``-((N - m) // 2)`` (Lesson 8's ``score_range``).
    """
    cells = game.rows * game.cols
    m = (state[0] | state[1]).bit_count()
    return -((cells - m) // 2), (cells + 1 - m) // 2


@expected
def _positions() -> tuple[tuple[ConnectFour, C4State, int], ...]:
    """(game, state, score) on each board of :data:`NULL_WINDOW_BOARDS`: random positions
    (seeded) with a third to two thirds of the board filled, at most two per score, up to
    :data:`_PER_BOARD`."""
    rng = random.Random(10)
    chosen: list[tuple[ConnectFour, C4State, int]] = []
    for rows, cols in NULL_WINDOW_BOARDS:
        game = ConnectFour(rows, cols)
        solver = Solver(game, table_bits=16)
        per_score: dict[int, int] = {}
        found = 0
        for _ in range(200):
            state = game.start
            for _ in range(rng.randint(rows * cols // 3, rows * cols * 2 // 3)):
                state = game.play(state, rng.choice(game.moves(state)))
                if game.finished(state):
                    break
            if game.finished(state):
                continue
            score = solver.solve(state)
            if per_score.get(score, 0) >= 2:
                continue
            per_score[score] = per_score.get(score, 0) + 1
            chosen.append((game, state, score))
            found += 1
            if found == _PER_BOARD:
                break
    return tuple(chosen)


class _TooManyQuestions(BaseException):
    """Stops a search for the score that keeps asking (a BaseException, so that a student's
    ``except Exception`` cannot swallow it)."""


class _BadQuestion(BaseException):
    """The student asked about something that is not a whole score; ``k`` shows it (written
    while the student's call runs, under its limit)."""

    def __init__(self, k: str) -> None:
        super().__init__(k)
        self.k = k


def _oracle(score: int) -> tuple[Callable[[object], bool], list[int]]:
    """``at_least(k)``: is the score at least ``k``? And the list of the questions it was
    asked, in order. The score lives in the function's closure only: the object handed to
    the student has no attribute that holds it."""
    asked: list[int] = []

    def at_least(k: object) -> bool:
        """True if the position's score is at least the whole number ``k``."""
        if isinstance(k, bool) or not isinstance(k, numbers.Real):
            raise _BadQuestion(show(k))
        if isinstance(k, numbers.Integral):  # int, numpy's ints
            whole = int(k)
        else:
            number = float(k)
            if not number.is_integer():  # 1.0 is a whole number; 0.5, nan and inf are not
                raise _BadQuestion(show(k))
            whole = int(number)
        asked.append(whole)
        if len(asked) > _QUESTION_LIMIT:
            raise _TooManyQuestions
        return bool(score >= whole)

    return at_least, asked


def _gallop_limit(off: int) -> int:
    """The questions allowed for a guess ``off`` away from the score: ``2 * (off + 1)
    .bit_length()``, what galloping from the guess (steps 1, 2, 4, ...) and then bisection
    need at most: 2 for an exact guess, 4 for one off by 1 or 2, 6 up to 6 off."""
    return 2 * (abs(off) + 1).bit_length()


def _bisection_limit(low: int, high: int) -> int:
    """Bisection's ``ceil(log2(high - low + 1))`` questions for the range ``[low, high]``
    (what Lesson 8's loop asks), shown beside the limit."""
    return max(1, math.ceil(math.log2(high - low + 1)))


def _guess(index: int, game: ConnectFour, state: C4State, score: int) -> int:
    """The guess handed with the ``index``-th position: off by :data:`_OFFSETS`, in range."""
    low, high = score_range(game, state)
    off = _OFFSETS[index % len(_OFFSETS)]
    guess = score + off if low <= score + off <= high else score - off
    return min(high, max(low, guess))


def _details(game: ConnectFour, state: C4State, score: int, guess: int,
             asked: list[int]) -> list[tuple[str, str]]:
    low, high = score_range(game, state)
    shown = ", ".join(f"{k} {'yes' if score >= k else 'no'}" for k in asked[:12])
    more = f" ... ({len(asked)} in all)" if len(asked) > 12 else ""
    return [("board", f"{game.rows} rows x {game.cols} columns, "
                      f"{(state[0] | state[1]).bit_count()} discs, {game.to_move(state)} to move"),
            ("position", f"{show(state)}\n{game.render(state)}"),
            ("range", f"scores from {low} to {high} are possible"),
            ("guess", f"{guess} ({abs(score - guess)} off the score)"),
            ("questions", (shown + more) if asked else "none")]


def _judge(game: ConnectFour, state: C4State, score: int, guess: int, asked: list[int],
           answer: object) -> Line | None:
    """None if the answer and the questions are right, else the line on the first problem."""
    low, high = score_range(game, state)
    limit = _gallop_limit(score - guess)
    call = f"exact_score(game, state, at_least, {guess})"
    details = _details(game, state, score, guess, asked)
    if answer is None:
        return Line(FAIL, call, (*details, ("expected", str(score)), ("returned", "None"),
                                 ("hint", "your function returned None: is a `return` "
                                          "missing?")))
    problem = number_problem(answer)
    if problem or answer != score:
        if problem:
            hint = f"return the score, a whole number: {problem}"
        elif answer == score - 1 or answer == score + 1:
            hint = ("one off: at_least(k) True means score >= k, so k is a possible score; "
                    "False means score <= k - 1")
        else:
            hint = ("keep [low, high] as the scores still possible: a yes to at_least(k) "
                    "raises low to k, a no lowers high to k - 1; stop when low == high")
        return Line(FAIL, call, (*details, ("expected", str(score)), ("returned", show(answer)),
                                 ("hint", hint)))
    if not asked:
        return Line(FAIL, f"{call} is right but asked no question", (
            *details, ("expected", f"between 1 and {limit} questions to at_least"),
            ("hint", "the exercise is to find the score from the yes/no answers of "
                     "at_least(k), null-window searches: ask at least one, however the "
                     "score was found")))
    wasted = [k for k in asked if k <= low or k > high]
    if len(asked) > limit:
        if wasted:
            hint = (f"at_least({wasted[0]}) cannot be answered no (or yes) in this range: work "
                    "the range out from the board's size and the discs on it, as in Lesson 8")
        elif asked[0] != guess:
            hint = ("start from the guess: ask at_least(guess) first; a good guess must make "
                    "the search cheap, whatever the size of the range")
        else:
            hint = ("from the guess, step away by 1, 2, 4, ... until an answer turns, then "
                    "bisect the scores still possible between the last two questions")
        return Line(FAIL, f"{call} is right but asked {len(asked)} questions",
                    (*details, ("expected", f"at most {limit} questions for a guess "
                                            f"{abs(score - guess)} off (bisection of all "
                                            f"{high - low + 1} possible scores would ask "
                                            f"{_bisection_limit(low, high)})"),
                     ("hint", hint)))
    return None


_FORBIDDEN: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4"),
                              objects=(score_range,))
"""The solver and every search, and this module's ``score_range``: the answer comes from
the questions. The game object handed to the student (gamelib.games) stays usable."""


@checker(forbid=_FORBIDDEN)
def check_exact_score(exact_score: Callable[[Any, Any, Callable[[int], bool], int], Any]
                      ) -> CheckResult:
    """Check the student's ``exact_score(game, state, at_least, guess)`` on small boards.

    For each position (seeded random positions on :data:`NULL_WINDOW_BOARDS`, with scores
    from :class:`~gamelib.connect4.solver.Solver`) the checker passes ``at_least(k)``, True iff
    the score is at least ``k``, and a guess off the score by :data:`_OFFSETS` (kept in the
    range), and demands the exact score after at least one and at most
    ``2 * (d + 1).bit_length()`` questions for a guess ``d`` off. A failure names the board,
    the position, the range, the guess, the questions asked with their answers, the expected
    and the returned score and a hint. ``facts``: ``positions``, ``questions`` (asked in all),
    ``limit`` (the sum of the limits) and ``bisection`` (the sum of bisection's counts).
    Raises :class:`GameError` if ``exact_score`` is not callable.
    """
    title = "exact_score from yes/no questions"
    positions = _positions()
    asked_total = limit_total = bisection_total = 0
    for index, (game, state, score) in enumerate(positions):
        oracle, asked = _oracle(score)
        guess = _guess(index, game, state, score)
        call = f"exact_score(game, state, at_least, {guess})"
        try:
            answer = ask(title, "exact_score", call, exact_score, game, state, oracle, guess,
                         first=index == 0,
                         context=partial(_details, game, state, score, guess, asked))
        except _TooManyQuestions:
            low, high = score_range(game, state)
            return CheckResult(title, (Line(FAIL, f"{call} asked more than {_QUESTION_LIMIT} "
                                                  "questions and was stopped",
                                            (*_details(game, state, score, guess,
                                                       asked),
                                             ("expected", str(score)),
                                             ("hint", "does the loop end? each answer must "
                                                      "shrink [low, high]: after a yes low "
                                                      "becomes k, after a no high becomes "
                                                      "k - 1, so ask with low < k <= high")),),))
        except _BadQuestion as bad:
            return CheckResult(title, (Line(FAIL, f"{call} asked at_least({bad.k})",
                                            (*_details(game, state, score, guess,
                                                       asked),
                                             ("hint", "scores are whole numbers: ask about "
                                                      "an int, e.g. (low + high + 1) // 2")),
                                            ),))
        wrong = _judge(game, state, score, guess, asked, answer)
        if wrong is not None:
            return CheckResult(title, (wrong,), facts={"positions": index + 1})
        low, high = score_range(game, state)
        asked_total += len(asked)
        limit_total += _gallop_limit(score - guess)
        bisection_total += _bisection_limit(low, high)
    boards = ", ".join(f"{r}x{c}" for r, c in NULL_WINDOW_BOARDS)
    scores = sorted({score for _, _, score in positions})
    facts = {"positions": len(positions), "questions": asked_total, "limit": limit_total,
             "bisection": bisection_total}
    return CheckResult(title, (
        Line(PASS, f"the exact score on all {len(positions)} positions of the boards {boards}, "
                   f"within the questions a guess that far off allows"),
        Line(INFO, f"{asked_total} questions in all (the limit: {limit_total}; bisection of "
                   f"the whole range would ask {bisection_total}); scores met: "
                   f"{', '.join(f'{s:+d}' if s else '0' for s in scores)}"),
    ), facts=facts)
