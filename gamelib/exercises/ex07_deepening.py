"""Exercise 7: iterative deepening with move ordering and a time budget, checked without a clock.

The student writes ``deepening(game, state, h, max_depth, out_of_time)``: depth-limited
alpha-beta (Lesson 6) to depth 1, 2, ..., ``max_depth``, each iteration valuing every move of
``state`` with the full window and trying first, in every state, the move that was best there
in the previous iteration; ``out_of_time()`` says when the budget is spent, and the running
iteration is then abandoned. It returns ``(pv, depth)``: the principal variation of the last
iteration that finished (the line of best moves for both players down to the horizon, a best
move first), and that iteration's depth.

:func:`check_deepening` never looks at a real clock: a node is a call of ``game.play``, and
the checker's ``out_of_time()`` says True once the search has made more plays than a budget
it chooses. So every check is exact and the same on every machine:

1. with no budget and ``max_depth`` from 1 to 6, the depth is ``max_depth`` and the line is
   a principal variation: legal moves down to the horizon, the first one of the best of
   :func:`gamelib.search.iterative_deepening` at that depth, and the state it ends in worth
   the root's value;
2. all six iterations together make fewer plays than one plain depth-limited search of depth
   6 without move ordering (the claim of Lesson 6, on a position the lesson does not show);
3. with a budget that runs out during iteration ``d + 1`` (the plays of each iteration are
   known from 1), the answer is depth ``d`` with one of that depth's best moves, and the
   search stops within a few plays of the budget, and the line is that depth's principal
   variation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.exercises.answers import is_legal_move
from gamelib.exercises.ex04_alphabeta import Counting, TooMuchWork
from gamelib.exercises.failures import STUDENT_FAILURES, NotDone, raised_line
from gamelib.exercises.guard import Forbidden, handed
from gamelib.exercises.report import FAIL, INFO, PASS, CheckResult, Line, not_done, show
from gamelib.exercises.run import call_student, checker, expected
from gamelib.games import ConnectFour
from gamelib.games.connect_four import C4State
from gamelib.search.common import Heuristic
from gamelib.search.depth_limited import depth_limited, iterative_deepening, proven_value
from gamelib.search.stats import Stats

__all__ = ["check_deepening", "DEEPENING_MOVES", "DEEPENING_DEPTH"]

DEEPENING_MOVES: Final = "4432"
"""The opening (columns from 1) of the standard Connect Four position the checker searches."""
DEEPENING_DEPTH: Final = 6
"""The deepest ``max_depth`` the checker asks for."""
_WORK_FACTOR: Final = 20
"""A search making this many times as many plays as gamelib's is stopped."""
_SLACK: Final = 20
"""Plays allowed after ``out_of_time()`` first said True (one node's moves and the way up)."""
_BUDGETS: Final = ((1, 0.7), (3, 0.5), (5, 0.5))
"""(d, f): a budget that runs out after the fraction f of iteration d + 1's plays. After 70%
of iteration 2 the best move so far is not one of iteration 1's best moves: a search that
answers with the abandoned iteration's move is caught there."""


_FORBIDDEN: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4"),
                              allowed=(proven_value,))
"""Every search out of reach of the student's code; ``proven_value``, the scale of Lesson 6,
is allowed, and the heuristic ``h`` is handed (it counts threats with gamelib.connect4)."""


@expected
def _reference() -> tuple[ConnectFour, C4State, Heuristic, dict[int, tuple[Any, ...]],
                          dict[int, int], int]:
    """(game, state, h, best moves per depth, gamelib's plays per iteration, plain plays)."""
    return _reference_and_values()[:6]


@expected
def _reference_and_values() -> tuple[ConnectFour, C4State, Heuristic,
                                     dict[int, tuple[Any, ...]], dict[int, int], int,
                                     dict[int, float]]:
    """:func:`_reference` and the root's value per depth."""
    game = ConnectFour()
    state = ConnectFour.from_moves(DEEPENING_MOVES)
    h = connect_four_heuristic(game)
    best: dict[int, tuple[Any, ...]] = {}
    root: dict[int, float] = {}
    for depth in range(1, DEEPENING_DEPTH + 1):
        values = iterative_deepening(game, state, h, max_depth=depth).move_values
        top = max(values.values())
        best[depth] = tuple(m for m, v in values.items() if v == top)
        root[depth] = top
    stats = Stats()
    iterative_deepening(game, state, h, max_depth=DEEPENING_DEPTH, stats=stats)
    plain = 0
    for move in game.moves(state):
        child = Stats()
        depth_limited(game, game.play(state, move), DEEPENING_DEPTH - 1, h, stats=child)
        plain += child.calls
    return game, state, h, best, dict(stats.nodes_per_depth), plain, root


def _pv_problem(pv: Any, depth: int) -> str | None:
    """Why ``pv`` is not a principal variation of the depth-``depth`` search, or None.

    A principal variation is the line both players follow when each plays a best move of
    the search: ``depth`` legal moves from the root (fewer only if the game ends), the first
    a best move, and the value of the state it ends in (the heuristic, or the proven result
    if the game is over there), seen from the root's player, is the root's value.
    """
    game, state, h, best, _, _, root = _reference_and_values()
    if not isinstance(pv, (list, tuple)) or not pv:
        return "return the principal variation as a list of moves, the best move first"
    s, k = state, 0
    for move in pv:
        if not is_legal_move(game, s, move):
            return (f"move {k + 1} of the line, {show(move)}, is not a legal move there: the "
                    "line must be a sequence of moves from the root")
        s, k = game.play(s, move), k + 1
    if k > depth or (k < depth and not game.finished(s)):
        return (f"the line has {k} moves: it must go down to the horizon, {depth} plies, "
                "unless the game ends before")
    if pv[0] not in best[depth]:
        return "the line must start with a best move of the iteration"
    p = game.to_move(s)
    leaf = proven_value(game.utility(s, p), k) if game.finished(s) else h(s, p)
    if (leaf if k % 2 == 0 else -leaf) != root[depth]:
        return (f"the line ends in a state worth {(leaf if k % 2 == 0 else -leaf):.6g} for "
                f"the root's player, but the root is worth {root[depth]:.6g}: in every state "
                "of the line, the next move must be the best one found there (keep the line "
                "of the best move when a value improves; a cutoff's move is no line)")
    return None


class _Clock:
    """What the checker's ``out_of_time()`` saw: how often it was ``asked``, and the plays
    made when it first said True (``rang_at``)."""

    def __init__(self) -> None:
        self.asked = 0
        self.rang_at: int | None = None


def _out_of_time(game: Counting, budget: int | None, clock: _Clock) -> Callable[[], bool]:
    """``out_of_time()``: True once ``game`` has made more than ``budget`` plays (noted in
    ``clock``). The budget lives in the function's closure, out of the student's sight."""

    def out_of_time() -> bool:
        clock.asked += 1
        if budget is None or game.calls <= budget:
            return False
        if clock.rang_at is None:
            clock.rang_at = game.calls
        return True

    return out_of_time


def _columns(moves: tuple[Any, ...]) -> str:
    return " or ".join(f"column {m + 1} (move {m})" for m in moves)


class _Failed(Exception):
    def __init__(self, line: Line) -> None:
        super().__init__(line.text)
        self.line = line


def _run(deepening: Callable[..., Any], max_depth: int, budget: int | None,
         limit: int) -> tuple[Any, Any, Counting, _Clock]:
    """One call of the student's function: (pv, depth, the counting game, the clock)."""
    game, state, h, *_ = _reference()
    counting = Counting(game, "play", limit)
    clock = _Clock()
    budget_text = "never" if budget is None else f"after {budget:,} plays"
    call = f"deepening(game, state, h, {max_depth}, out_of_time)"
    position = (("position", f"Connect Four after {' '.join(DEEPENING_MOVES)}\n"
                             f"{game.render(state)}"),
                ("budget", f"out_of_time() says True {budget_text}"))
    try:
        answer = call_student(deepening, counting, state, handed(h), max_depth,
                              _out_of_time(counting, budget, clock))
    except TooMuchWork:
        raise _Failed(Line(FAIL, f"{call} made more than {limit:,} plays and was stopped", (
            *position, ("hint", "each iteration searches to its own depth only: does the "
                                "depth go down by one with every ply?")))) from None
    except NotDone:
        raise
    except STUDENT_FAILURES as error:
        raise _Failed(raised_line(call, error, context=position)) from None
    if answer is None:
        raise _Failed(Line(FAIL, call, (*position, ("returned", "None"), (
            "hint", "your function returned None: is a `return` missing?"))))
    if not isinstance(answer, tuple) or len(answer) != 2:
        raise _Failed(Line(FAIL, call, (*position, ("returned", show(answer)), (
            "hint", "return a pair (pv, depth): the principal variation of the last "
                    "finished iteration (a list of moves, its best move first) and its "
                    "depth"))))
    pv, depth = answer
    return pv, depth, counting, clock


def _full_runs(deepening: Callable[..., Any], limit: int) -> tuple[dict[int, int], Line]:
    """Check 1: every ``max_depth`` without a budget; the plays each run made."""
    game, state, _, best, _, _ = _reference()
    plays: dict[int, int] = {}
    for max_depth in range(1, DEEPENING_DEPTH + 1):
        pv, depth, counting, clock = _run(deepening, max_depth, None, limit)
        call = f"deepening(game, state, h, {max_depth}, out_of_time)"
        if counting.calls == 0:
            raise _Failed(Line(FAIL, f"{call} never called game.play", (
                ("hint", "make every next state with game.play(state, move): the checker "
                         "counts plays, and its budget is a number of plays"),)))
        problem = _pv_problem(pv, max_depth) if depth == max_depth else None
        if depth != max_depth or problem is not None:
            hint = ("with time to spare every iteration finishes: return the depth of the last "
                    "one, max_depth" if depth != max_depth else str(problem))
            raise _Failed(Line(FAIL, call, (
                ("position", f"Connect Four after {' '.join(DEEPENING_MOVES)}\n"
                             f"{game.render(state)}"),
                ("budget", "out_of_time() never says True"),
                ("expected", f"depth {max_depth} and a principal variation starting with "
                             f"{_columns(best[max_depth])}"),
                ("returned", f"depth {show(depth)} and line {show(pv)}"),
                ("hint", hint))))
        plays[max_depth] = counting.calls
    return plays, Line(PASS, f"without a budget: depth max_depth and a principal variation "
                             f"(a best move first, the line's end worth the root's value), "
                             f"for every max_depth from 1 to {DEEPENING_DEPTH}")


def _count_line(plays: dict[int, int]) -> Line:
    """Check 2: all the iterations cost less than one plain search of the deepest depth."""
    _, _, _, _, gamelib_nodes, plain = _reference()
    mine = {d: plays[d] - plays.get(d - 1, 0) for d in plays}
    rows = [f"{'depth':>5} {'yours':>7} {'gamelib':>8}"]
    rows += [f"{d:>5} {mine[d]:>7,} {gamelib_nodes.get(d, 0):>8,}" for d in sorted(mine)]
    rows.append(f"{'total':>5} {plays[DEEPENING_DEPTH]:>7,} "
                f"{sum(gamelib_nodes.values()):>8,}")
    table = "\n".join(rows)
    details = (("plays", table),
               ("plain", f"{plain:,} plays for one depth-{DEEPENING_DEPTH} search without "
                         "move ordering"))
    if plays[DEEPENING_DEPTH] >= plain:
        return Line(FAIL, f"all {DEEPENING_DEPTH} iterations together make "
                          f"{plays[DEEPENING_DEPTH]:,} plays, no fewer than one plain search",
                    (*details, ("hint", "remember in a dict the best move of every state "
                                        "(or the move that caused the cutoff) and try it "
                                        "first in the next iteration")))
    return Line(PASS, f"all {DEEPENING_DEPTH} iterations together make "
                      f"{plays[DEEPENING_DEPTH]:,} plays, fewer than the {plain:,} of one plain "
                      f"depth-{DEEPENING_DEPTH} search", details)


def _budget_line(deepening: Callable[..., Any], plays: dict[int, int], limit: int) -> Line:
    """Check 3: budgets that run out in the middle of an iteration."""
    game, state, _, best, _, _ = _reference()
    for finished, fraction in _BUDGETS:
        budget = plays[finished] + int(fraction * (plays[finished + 1] - plays[finished]))
        pv, depth, counting, clock = _run(deepening, DEEPENING_DEPTH, budget, limit)
        move = pv[0] if isinstance(pv, (list, tuple)) and pv else pv
        call = f"deepening(game, state, h, {DEEPENING_DEPTH}, out_of_time)"
        details = [("position", f"Connect Four after {' '.join(DEEPENING_MOVES)}\n"
                                f"{game.render(state)}"),
                   ("budget", f"out_of_time() says True after {budget:,} plays: your "
                              f"iteration {finished} ended after {plays[finished]:,}, "
                              f"iteration {finished + 1} needs {plays[finished + 1]:,}"),
                   ("expected", f"depth {finished} and {_columns(best[finished])}"),
                   ("returned", f"depth {show(depth)} and line {show(pv)}, after "
                                f"{counting.calls:,} plays")]
        if clock.asked == 0:
            return Line(FAIL, call, (*details, ("hint", "your search never called "
                                                        "out_of_time(): ask it in every node")))
        over = counting.calls - budget
        if (depth == finished and move in best[finished] and over <= _SLACK
                and _pv_problem(pv, finished) is None):
            continue
        if over > _SLACK or counting.calls >= plays[finished + 1]:
            hint = (f"the search went on for {over:,} plays after the budget ran out: ask "
                    "out_of_time() in every node (or at every node on the horizon) and abandon "
                    "the iteration at once, e.g. by raising an exception")
        elif depth != finished:
            hint = ("report the depth of the last iteration that finished; the abandoned one "
                    "does not count")
        elif move not in best[finished]:
            hint = ("return a best move of the last finished iteration, not of the abandoned "
                    "one: its values are incomplete")
        else:
            hint = ("return the principal variation of the last finished iteration: "
                    f"{_pv_problem(pv, finished)}")
        return Line(FAIL, call, (*details, ("hint", hint)))
    return Line(PASS, f"with budgets that run out during iterations "
                      f"{', '.join(str(d + 1) for d, _ in _BUDGETS)}: the depth and the "
                      f"principal variation of the iteration before, stopping within "
                      f"{_SLACK} plays")


@checker(forbid=_FORBIDDEN)
def check_deepening(deepening: Callable[..., Any]) -> CheckResult:
    """Check the student's ``deepening(game, state, h, max_depth, out_of_time)``.

    On standard Connect Four after :data:`DEEPENING_MOVES` with
    :func:`~gamelib.connect4.heuristic.connect_four_heuristic`: (1) with no budget,
    ``max_depth`` from 1 to :data:`DEEPENING_DEPTH` gives that depth and a principal
    variation (a list of moves down to the horizon, starting with one of the best moves of
    :func:`gamelib.search.iterative_deepening`, ending in a state worth the root's value);
    (2) the plays (calls of ``game.play``) of all
    iterations together are fewer than those of one plain depth-limited search of the
    deepest depth; (3) with ``out_of_time()`` saying True once the plays pass a budget in the
    middle of an iteration, the result is the previous iteration's depth and its principal
    variation, and
    the search stops within a few plays. No real clock is involved, so the report is the
    same on every machine. ``facts``: ``plays`` (plays per ``max_depth``). Raises
    :class:`GameError` if ``deepening`` is not callable.
    """
    title = "deepening"
    _, _, _, _, gamelib_nodes, _ = _reference()
    limit = _WORK_FACTOR * sum(gamelib_nodes.values())
    lines: list[Line] = []
    try:
        plays, line = _full_runs(deepening, limit)
        lines.append(line)
        lines.append(_count_line(plays))
        lines.append(_budget_line(deepening, plays, limit))
    except NotDone as stub:
        return not_done(title, "deepening", stub.where)
    except _Failed as failed:
        lines.append(failed.line)
        return CheckResult(title, tuple(lines))
    lines.append(Line(INFO, "a play is a call of game.play; the budget counts plays, not "
                            "seconds, so this report is the same on every machine"))
    return CheckResult(title, tuple(lines), facts={"plays": plays})
