"""Exercise 4: alpha-beta search with its principal variation, checked by its contract, by
the line it returns and by counting its calls.

Lesson 4 shows alpha-beta's value; the student writes the next step, which no lesson shows:
``alphabeta(game, state, player, alpha, beta, order)`` returns ``(value, line)``, the value
of ``state`` for ``player`` (the player to move) within the window ``[alpha, beta]`` and,
when the value lies strictly inside the window, a principal variation ``line``: the moves
from ``state`` to the end of the game along which both sides play perfectly. The moves are
searched in the order ``order(game, state, moves)`` gives (``None``: the game's order).
:func:`check_alphabeta` tests

1. the three cases (exact inside the window, at most ``alpha`` below it, at least ``beta``
   above it) on positions and windows the lessons never print: tic-tac-toe, Nim and
   4 x 4 Connect Four positions, windows with ends from -2 to 2 (not only -1, 0, 1); where
   the value lies strictly inside, the line: legal moves, each keeping the value (checked
   with gamelib's values, computed by the checker), ending in a finished state;
2. the number of calls with given move orders, against :func:`gamelib.search.alphabeta`:
   alpha-beta that keeps the contract but prunes less (or more) than the lecture's
   algorithm is found here. A call is counted when the search asks ``game.finished`` about
   a state, which the lessons' code does once per call.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any, Final

from gamelib.exercises.answers import as_float, is_legal_move, number_problem
from gamelib.exercises.failures import STUDENT_FAILURES, NotDone, raised_line
from gamelib.exercises.guard import SEARCH
from gamelib.exercises.positions import show_state
from gamelib.exercises.report import FAIL, INFO, PASS, CheckResult, Line, not_done, show
from gamelib.exercises.run import call_student, checker, expected
from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.search.alphabeta import alphabeta as reference_alphabeta
from gamelib.search.alphabeta import keeps_three_cases
from gamelib.search.common import AnyGame
from gamelib.search.memo import memo_minimax
from gamelib.search.stats import Stats

__all__ = ["check_alphabeta", "corners_first", "outside_in", "WINDOW_ENDS"]

WINDOW_ENDS: Final = (-2, -1, -0.5, 0, 0.5, 1, 2)
"""The ends of the windows the contract check draws from (every pair ``alpha < beta``)."""

_CALL_FACTOR: Final = 10
"""A search that asks about this many times as many states as gamelib's is stopped."""

_CORNER_RANK: Final = {(0, 0): 0, (0, 2): 0, (2, 0): 0, (2, 2): 0, (1, 1): 1}


def corners_first(game: AnyGame, state: Hashable, moves: list[Any]) -> list[Any]:
    """A tic-tac-toe move order: the corners, then the centre, then the edges."""
    return sorted(moves, key=lambda m: _CORNER_RANK.get(m, 2))


def outside_in(game: Any, state: Hashable, moves: list[Any]) -> list[Any]:
    """A Connect Four move order: the outer columns first, the middle ones last."""
    middle = (game.cols - 1) / 2
    return sorted(moves, key=lambda m: -abs(m - middle))


class TooMuchWork(BaseException):
    """Stops a student's search that does far more work than the reference needs.

    A BaseException, so that a student's ``except Exception`` cannot swallow it.
    """


class Counting:
    """``game`` seen through a counter of the calls of its method ``method`` (in ``calls``).

    Every other attribute is the game's own, and ``isinstance(counting, TicTacToe)`` holds
    as for the game itself; the game's own methods call their uncounted siblings. The call
    after ``limit`` raises :class:`TooMuchWork`.
    """

    def __init__(self, game: AnyGame, method: str, limit: int) -> None:
        self._game = game
        self._name = method
        self.calls = 0
        original = getattr(game, method)

        def counted(*args: Any) -> Any:
            self.calls += 1
            if self.calls > limit:  # in the closure: the student's code cannot read it
                raise TooMuchWork
            return original(*args)

        self._counted = counted

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return type(self._game)

    def __getattr__(self, name: str) -> Any:
        if name == self._name:
            return self._counted
        return getattr(self._game, name)

    def __repr__(self) -> str:
        return repr(self._game)


def _contract_cases() -> list[tuple[AnyGame, Hashable, float, float, int]]:
    """(game, state, alpha, beta, true value) for the contract check: 240 in all, with games
    made for this check (the student's code receives them)."""
    games: dict[str, AnyGame] = {"tictactoe": TicTacToe(), "nim": Nim((1, 2, 3)),
                                 "connect four": ConnectFour(4, 4)}
    return [(games[kind], state, alpha, beta, value)
            for kind, state, alpha, beta, value in _contract_positions()]


@expected
def _contract_positions() -> tuple[tuple[str, Hashable, float, float, int], ...]:
    """(game's name, state, alpha, beta, true value) of :func:`_contract_cases`: drawn (seeded)
    and solved once per process, since every check asks the same."""
    rng = random.Random(6)
    windows = [(a, b) for a in WINDOW_ENDS for b in WINDOW_ENDS if a < b]
    cases: list[tuple[str, Hashable, float, float, int]] = []
    tictactoe = TicTacToe()
    values: dict[Any, int] = {}
    memo_minimax(tictactoe, tictactoe.start, cache=values)
    late = sorted((s for s in values if sum(row.count(" ") for row in s) <= 5), key=repr)
    for state in rng.sample(late, 150):
        cases.append(("tictactoe", state, *rng.choice(windows), values[state]))
    nim = Nim((1, 2, 3))
    nim_values: dict[Hashable, int] = {}
    memo_minimax(nim, nim.start, cache=nim_values)
    for state in rng.sample(sorted(nim_values, key=repr), 40):
        cases.append(("nim", state, *rng.choice(windows), nim_values[state]))
    board = ConnectFour(4, 4)
    while len(cases) < 240:
        state = board.start
        for _ in range(8):
            if board.finished(state):
                break
            state = board.play(state, rng.choice(board.moves(state)))
        value = reference_alphabeta(board, state)
        cases.append(("connect four", state, *rng.choice(windows), value))
    return tuple(cases)


_COUNT_CASES: Final = (
    ("the empty tic-tac-toe board, corners first", TicTacToe(), None, corners_first, -1, 1),
    ("tic-tac-toe after 1,1, corners first, window [0, 1]", TicTacToe(), "1,1", corners_first,
     0, 1),
    ("Nim (2, 3, 4), the game's order", Nim((2, 3, 4)), None, None, -1, 1),
    ("4 x 4 Connect Four after 2 3 2 1 4, outer columns first", ConnectFour(4, 4), "23214",
     outside_in, -1, 1),
)
"""(description, game, moves to play from the start, order, alpha, beta) for the count check."""


def _start(game: Any, moves: str | None) -> Any:
    state = game.start
    if moves is None:
        return state
    if isinstance(game, ConnectFour):
        return ConnectFour.from_moves(moves, rows=game.rows, cols=game.cols)
    return game.play(state, game.parse_move(moves))


def _to_move(game: AnyGame, state: Hashable) -> Any:
    return game.to_move(state)


def _pair(answer: object) -> tuple[object, object] | None:
    """``(value, line)`` if ``answer`` is a pair (a tuple or list of two), else None."""
    if isinstance(answer, (tuple, list)) and len(answer) == 2:
        return answer[0], answer[1]
    return None


def _pair_line(call: str, game: AnyGame, state: Hashable, answer: object) -> Line:
    """The failed line for an answer that is not a pair ``(value, line)``."""
    details = [("position", show_state(game, state)), ("returned", show(answer))]
    if answer is None:
        hint = "your function returned None: is a `return` missing?"
    elif number_problem(answer) == "":
        hint = ("a number alone is Lesson 4's answer: return the pair (value, line), with the "
                "principal variation as a list of moves (the empty list at the end of a game)")
    else:
        hint = "return the pair (value, line): a number and a list of moves"
    details.append(("hint", hint))
    return Line(FAIL, f"{call} did not return a pair (value, line)", tuple(details))


def _true_value(game: AnyGame, state: Hashable, player: Any) -> int:
    """The minimax value of ``state`` for ``player``, computed by the checker."""
    if game.finished(state):
        return int(game.utility(state, player))
    value = int(reference_alphabeta(game, state))  # for the player to move
    return value if game.to_move(state) == player else -value


def _line_problem(game: AnyGame, state: Hashable, player: Any, value: int,
                  line: object) -> str:
    """"" if ``line`` is a principal variation of ``state`` (value ``value`` for
    ``player``), else what is wrong with it."""
    if not isinstance(line, (list, tuple)):
        return f"the line {show(line, 60)} is not a list of moves"
    at = state
    for index, move in enumerate(line):
        if game.finished(at):
            return f"the game is over after {index} moves, but the line goes on with {move!r}"
        if not is_legal_move(game, at, move):
            return f"move {index + 1} of the line, {show(move, 40)}, is not a legal move there"
        at = game.play(at, move)
        if _true_value(game, at, player) != value:
            return (f"move {index + 1} of the line, {move!r}, is not a best move: after it "
                    f"the value for {player!r} is no longer {value:+d}")
    if not game.finished(at):
        return f"the line ends after {len(line)} moves, before the game is over"
    return ""


_LINE_HINT: Final = ("keep the line of the move that raised `best` (that move's own line with "
                     "the move in front); start from the empty list, and return the empty list "
                     "at the end of a game")


def _expectation(value: float, alpha: float, beta: float) -> tuple[str, str]:
    """What the three cases demand, and which case applies."""
    if value < alpha:
        return f"a number <= {alpha:g} (the value is below the window)", "below"
    if value > beta:
        return f"a number >= {beta:g} (the value is above the window)", "above"
    return f"exactly {value:g} (the value lies in the window)", "inside"


_CONTRACT_HINTS: Final = {
    "inside": ("inside the window the answer must be exact: does each next state get the "
               "opponent's window [-beta, -alpha], and is the cutoff `best >= beta`?"),
    "below": ("a value below the window may be answered by any number <= alpha: start `best` "
              "at alpha, and give each next state the window [-beta, -alpha]"),
    "above": ("a value above the window must be answered by a number >= beta: when a move "
              "reaches beta, return best at once"),
}


def _contract_line(call: str, game: AnyGame, state: Hashable, player: Any, alpha: float,
                   beta: float, value: int, answer: object) -> Line | None:
    """None if ``answer`` keeps the three cases, else the line that says why not."""
    demand, case = _expectation(value, alpha, beta)
    details = [("position", show_state(game, state)), ("player", f"{player!r} (to move)"),
               ("window", f"[{alpha:g}, {beta:g}]"), ("value", f"{value:+d}"),
               ("expected", demand), ("returned", show(answer))]
    if answer is None:
        details.append(("hint", "your function returned None: is a `return` missing?"))
        return Line(FAIL, call, tuple(details))
    problem = number_problem(answer)
    if problem:
        details.append(("hint", f"return a number: {problem}"))
        return Line(FAIL, call, tuple(details))
    number = as_float(answer)  # a real number, numpy's included
    if keeps_three_cases(number, value, alpha, beta):
        return None
    if number == -value and value != 0:
        hint = ("the sign is wrong: the answer is for `player`, the player to move, so negate "
                "the opponent's result: -alphabeta(game, n, opponent, -beta, -alpha, order)")
    else:
        hint = _CONTRACT_HINTS[case]
    details.append(("hint", hint))
    return Line(FAIL, call, tuple(details))


def _count_line(alphabeta: Callable[..., Any], title: str) -> tuple[Line, dict[str, Any]] | \
        CheckResult:
    """The line of the call-count check, or a finished report if the student's code failed."""
    counts: dict[str, tuple[int, int]] = {}
    for text, game, moves, order, alpha, beta in _COUNT_CASES:
        state = _start(game, moves)
        player = _to_move(game, state)
        stats = Stats()
        expected_value = reference_alphabeta(game, state, alpha=alpha, beta=beta, stats=stats,
                                             order=order)
        limit = _CALL_FACTOR * stats.calls
        counted = Counting(game, "finished", limit)
        call = f"alphabeta(game, {text}, {alpha}, {beta}, order)"
        try:
            pair = call_student(alphabeta, counted, state, player, alpha, beta, order)
        except TooMuchWork:
            return CheckResult(title, (Line(FAIL, f"{call} asked about more than "
                                                  f"{limit:,} states and was stopped",
                                            (("expected", f"{stats.calls:,} calls"),
                                             ("hint", "alpha-beta must prune: return as soon "
                                                      "as best >= beta (not > beta)")),),))
        except STUDENT_FAILURES as error:
            return CheckResult(title, (raised_line(call, error),))
        unpacked = _pair(pair)
        if unpacked is None:
            return CheckResult(title, (_pair_line(call, game, state, pair),))
        answer = unpacked[0]
        line = _contract_line(call, game, state, player, alpha, beta, expected_value, answer)
        if line is not None:
            return CheckResult(title, (line,))
        counts[text] = (counted.calls, stats.calls)
        if counted.calls == 0:
            return CheckResult(title, (Line(FAIL, f"{call} never called game.finished", (
                ("hint", "begin every call with `if game.finished(state):`, as in the "
                         "lessons: the checker counts the calls by it"),)),))
        if counted.calls != stats.calls:
            unordered = Stats()
            reference_alphabeta(game, state, alpha=alpha, beta=beta, stats=unordered)
            if order is not None and counted.calls == unordered.calls:
                hint = ("the count is that of the game's own move order: search the moves in "
                        "the order `order(game, state, game.moves(state))` returns")
            elif counted.calls > stats.calls:
                hint = ("your search looks at more states than alpha-beta: does alpha rise to "
                        "best after each move, and does the loop stop as soon as best >= beta "
                        "(not > beta)?")
            else:
                hint = ("your search looks at fewer states than alpha-beta: are the moves "
                        "searched in the order `order` gives, each once?")
            details = (("position", show_state(game, state)),
                       ("expected", f"{stats.calls:,} calls (gamelib's alphabeta)"),
                       ("returned", f"the right value, after {counted.calls:,} calls"),
                       ("hint", hint))
            return CheckResult(title, (Line(FAIL, f"{call}: the number of calls", details),))
    rows = "\n".join(f"{text:<56} {mine:>6,} {theirs:>8,}"
                     for text, (mine, theirs) in counts.items())
    table = f"{'position and order':<56} {'yours':>6} {'gamelib':>8}\n{rows}"
    return Line(PASS, f"the same number of calls as gamelib's alphabeta on all "
                      f"{len(counts)} searches with a given move order", (("calls", table),)
                ), {"calls": counts}


@checker(forbid=SEARCH)
def check_alphabeta(alphabeta: Callable[..., Any]) -> CheckResult:
    """Check the student's ``alphabeta(game, state, player, alpha, beta, order)``, which
    returns ``(value, line)``.

    First the three cases on 240 (position, window) pairs: tic-tac-toe positions with at most
    five empty squares, every state of Nim (1, 2, 3) and 4 x 4 Connect Four after eight random
    moves (seeded), windows with ends in :data:`WINDOW_ENDS`; where the value lies strictly
    inside the window, the line must be a principal variation (legal moves, each keeping the
    value, to a finished state). Then the calls, counted by ``game.finished``, on four
    searches with a given order (:func:`corners_first`, the game's order,
    :func:`outside_in`), against :func:`gamelib.search.alphabeta`. A failure names the
    position, the window, the value, what the three cases demand, the answer and a hint.
    ``facts``: ``cases``, ``wrong``, ``lines`` (the lines checked) and ``calls``
    (``{search: (yours, gamelib's)}``). Raises :class:`GameError` if ``alphabeta`` is not
    callable.
    """
    title = "alphabeta"
    cases = _contract_cases()
    wrong: list[Line] = []
    lines_checked = 0
    for index, (game, state, alpha, beta, value) in enumerate(cases):
        player = game.to_move(state)
        call = f"alphabeta(game, state, {player!r}, {alpha:g}, {beta:g}, None)"
        try:
            pair = call_student(alphabeta, game, state, player, alpha, beta, None)
        except NotDone as stub:
            return not_done(title, "alphabeta", stub.where)
        except STUDENT_FAILURES as error:
            line = raised_line(call, error)
            details = (("position", show_state(game, state)), *line.details)
            if "'NoneType'" in str(error) or "NoneType object" in str(error):
                details += (("hint", "a call of your function returned None: is a `return` "
                                     "missing on some path?"),)
            if "positional argument" in str(error):
                details += (("hint", "the checker calls alphabeta(game, state, player, alpha, "
                                     "beta, order) with all six arguments"),)
            return CheckResult(title, (Line(line.status, line.text, details),))
        if index == 0 and pair is Ellipsis:
            return not_done(title, "alphabeta")
        unpacked = _pair(pair)
        if unpacked is None:
            wrong.append(_pair_line(call, game, state, pair))
            continue
        answer, moves = unpacked
        problem = _contract_line(call, game, state, player, alpha, beta, value, answer)
        if problem is None and alpha < value < beta:
            lines_checked += 1
            why = _line_problem(game, state, player, value, moves)
            if why:
                problem = Line(FAIL, f"{call}: the principal variation", (
                    ("position", show_state(game, state)), ("value", f"{value:+d}"),
                    ("returned", show((answer, moves), 200)), ("wrong", why),
                    ("hint", _LINE_HINT)))
        if problem is not None:
            wrong.append(problem)
    facts: dict[str, Any] = {"cases": len(cases), "wrong": len(wrong), "lines": lines_checked}
    if wrong:
        first = wrong[0]
        text = f"the three cases fail in {len(wrong)} of {len(cases)} searches; the first: "
        return CheckResult(title, (Line(FAIL, text + first.text, first.details),), facts=facts)
    contract = Line(PASS, f"the three cases hold in all {len(cases)} searches: tic-tac-toe, Nim "
                          "and 4 x 4 Connect Four, windows with ends from -2 to 2; the "
                          f"{lines_checked} lines of the values inside their window are "
                          "principal variations")
    counted = _count_line(alphabeta, title)
    if isinstance(counted, CheckResult):
        return CheckResult(title, (contract, *counted.lines), facts=facts)
    line, more = counted
    note = Line(INFO, "a call is counted when your search asks game.finished about a state")
    return CheckResult(title, (contract, line, note), facts=facts | more)
