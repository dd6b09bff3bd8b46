"""Exercise 8: a Connect Four heuristic."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Final, cast

from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.exercises.answers import number_problem, same
from gamelib.exercises.failures import (
    STUDENT_FAILURES,
    NotDone,
    StudentError,
    TimedOut,
    raised_line,
    returned_none_line,
)
from gamelib.exercises.guard import SEARCH
from gamelib.exercises.positions import sample_positions, show_state
from gamelib.exercises.report import (
    FAIL,
    PASS,
    CheckResult,
    Line,
    counted,
    not_done,
    show,
)
from gamelib.exercises.run import call_student, checker
from gamelib.game import GameError, Player
from gamelib.games import ConnectFour
from gamelib.search.common import AnyGame, Heuristic
from gamelib.search.depth_limited import iterative_deepening
from gamelib.search.heuristics import squash, zero

# ---------------------------------------------------------------------------------------------
# Exercise 8: a Connect Four heuristic
# ---------------------------------------------------------------------------------------------


def centre_heuristic(game: ConnectFour) -> Heuristic:
    """A simple baseline for Connect Four: discs count more the nearer the centre they are.

    Column ``c`` (0-based) has the weight ``min(c, cols - 1 - c)``: 0, 1, 2, 3, 2, 1, 0 on
    the standard board. With ``x`` the weighted sum of the player's discs minus that of the
    opponent's, the estimate is ``x / (10 + |x|)``, strictly inside (-1, 1) and
    antisymmetric: ``h(s, "O") == -h(s, "X")``. Raises :class:`GameError` if ``game`` is not
    a :class:`~gamelib.games.ConnectFour`.

    >>> game = ConnectFour()
    >>> h = centre_heuristic(game)
    >>> state = ConnectFour.from_moves("41")   # X in the centre, O at the edge
    >>> h(state, "X"), h(state, "O")
    (0.23076923076923078, -0.23076923076923078)
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"centre_heuristic needs a ConnectFour game, got {show(game, 60)}")
    weighted = [(game.column_masks[c], min(c, game.cols - 1 - c)) for c in range(game.cols)]
    first_player = game.players[0]

    def heuristic(state: Hashable, player: Player) -> float:
        first, second = cast(tuple[int, int], state)
        x = sum(w * ((first & m).bit_count() - (second & m).bit_count()) for m, w in weighted)
        return squash(x if player == first_player else -x, 10.0)

    return heuristic


BASELINES: Final = ("zero", "centre", "threats")
"""The baselines of :func:`check_heuristic`: :func:`~gamelib.search.heuristics.zero` (knows
nothing), :func:`centre_heuristic`, and gamelib's own threat counter
:func:`~gamelib.connect4.heuristic.connect_four_heuristic`."""


def _baseline(baseline: str, game: ConnectFour) -> Heuristic:
    if baseline == "zero":
        return zero
    if baseline == "centre":
        return centre_heuristic(game)
    if baseline == "threats":
        return connect_four_heuristic(game)
    raise GameError(f"baseline must be one of {', '.join(map(repr, BASELINES))}, "
                    f"got {show(baseline, 40)}")


_MATCH_HINTS: Final = {
    "centre": "to pass, win more games than you lose; ideas: count lines of four that are "
              "still open, weigh three discs far more than two, prefer the centre columns",
    "threats": "to pass, win more games than you lose against the lessons' threat counter; "
               "look at a game you lost: which of the threats on the board decided it, and "
               "does your heuristic see on which row a threat lies and who must play below it?",
}

MAX_FIRST_MOVES: Final = 7
"""The most columns :func:`check_heuristic` accepts as ``first_moves`` (two games each)."""


def _heuristic_problem(heuristic: Callable[..., Any], game: AnyGame,
                       positions: list[Hashable]) -> Line | None:
    """None if ``heuristic`` gives valid estimates on ``positions``, else what is wrong."""
    for index, state in enumerate(positions):
        picture = ("position", show_state(game, state))
        estimates = []
        for player in game.players:
            call = f"heuristic(state, {player!r})"
            try:
                estimate = call_student(heuristic, state, player)
                again = call_student(heuristic, state, player) if index < 20 else estimate
            except STUDENT_FAILURES as error:
                return raised_line(call, error, context=(picture,))
            forgot = returned_none_line(call, estimate, "heuristic")
            if forgot is not None:
                return Line(FAIL, forgot.text, (picture, *forgot.details))
            problem = number_problem(estimate)
            if problem:
                return Line(FAIL, f"{call} returned {problem}",
                            (picture, ("hint", "return a float strictly between -1 and 1"),))
            if not -1 < estimate < 1:
                return Line(FAIL, f"{call} returned {show(estimate, 60)}, which is not strictly "
                                  "between -1 and 1",
                            (picture, ("hint", "squash your score x into (-1, 1), e.g. "
                                               "x / (k + abs(x)) for some k > 0: -1 and +1 "
                                               "are kept for proven losses and wins"),))
            if not same(again, estimate):
                return Line(FAIL, f"{call} gave two different answers for the same position",
                            (picture, ("hint", "a heuristic must be a function of the state and "
                                               "the player only: no randomness, no memory"),))
            estimates.append(float(estimate))
        x_value, o_value = estimates
        if abs(x_value + o_value) > 1e-9:
            return Line(FAIL, f"heuristic(state, 'X') is {show(x_value, 60)} but "
                              f"heuristic(state, 'O') is {show(o_value, 60)}",
                        (picture, ("expected", "heuristic(state, 'O') == -heuristic(state, 'X')"),
                         ("hint", "the game is zero-sum: what is good for one player is "
                                  "equally bad for the other; compute the score for X and "
                                  "negate it for O")))
    return None


def _match_game(game: AnyGame, first_move: int, players: dict[Player, Heuristic],
                depth: int, seed: int) -> tuple[Hashable, int]:
    """Play one game from the first move ``first_move``; the final state and its length."""
    rng = random.Random(seed)
    state = game.play(game.start, first_move)
    plies = 1
    while not game.finished(state):
        decision = iterative_deepening(game, state, players[game.to_move(state)],
                                       max_depth=depth, rng=rng)
        state = game.play(state, decision.move)
        plies += 1
    return state, plies


@checker(forbid=SEARCH)
def check_heuristic(heuristic: Callable[[Any, Player], Any], *, baseline: str = "centre",
                    depth: int = 3, first_moves: Sequence[int] = tuple(range(7))
                    ) -> CheckResult:
    """Check the student's Connect Four ``heuristic(state, player)``, then let it play.

    First, on 300 positions of the standard 6 x 7 board (seeded): every estimate is a
    number strictly between -1 and 1, the same on a second call, and
    ``heuristic(s, "O") == -heuristic(s, "X")`` (within 1e-9).

    Then a match against ``baseline`` (one of :data:`BASELINES`): for each column in
    ``first_moves`` (0-based) two games start with X's disc in that column, one with the
    student's heuristic playing X and one with it playing O. Both sides choose their moves by
    :func:`~gamelib.search.iterative_deepening` to ``depth`` plies (1 to 5), ties broken by
    a ``random.Random`` seeded per game. The check passes if the student's heuristic wins
    more games than it loses.

    Result: a :class:`CheckResult` with ``facts`` ``wins``, ``draws``, ``losses`` and
    ``games`` (one ``(first_move, colour, outcome, plies)`` tuple per game, outcome +1, 0
    or -1 for the student). Raises :class:`GameError` for a bad argument.
    """
    board = ConnectFour()
    opponent = _baseline(baseline, board)
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 5:
        raise GameError(f"depth must be a whole number from 1 to 5, got {show(depth, 40)}")
    columns = (list(itertools.islice(first_moves, MAX_FIRST_MOVES + 1))
               if isinstance(first_moves, Iterable) and not isinstance(first_moves, str) else None)
    if columns is not None and len(columns) > MAX_FIRST_MOVES:
        raise GameError(f"first_moves may hold at most {MAX_FIRST_MOVES} columns (two games "
                        f"each), got {show(first_moves, 40)}")
    if not columns or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < board.cols
            for c in columns):
        raise GameError("first_moves must be a non-empty sequence of column indices 0 to 6, "
                        f"got {show(first_moves, 40)}")
    title = "heuristic (Connect Four)"
    game: AnyGame = board
    positions = [s for s in sample_positions(game, limit=330, seed=7) if not game.finished(s)]
    positions = positions[:300]
    try:
        call_student(heuristic, positions[1], "O", first=True)
    except NotDone as stub:
        return not_done(title, "heuristic", stub.where)
    except (StudentError, TimedOut):
        pass  # reported below with the position
    problem = _heuristic_problem(heuristic, game, positions)
    if problem is not None:
        return CheckResult(title, (problem,))
    lines = [Line(PASS, f"valid on {len(positions)} positions: numbers strictly between -1 "
                        "and 1, the same when asked twice, and h(s, 'O') == -h(s, 'X')")]
    games: list[tuple[int, Player, int, int]] = []

    def timed(state: Hashable, player: Player) -> float:
        value = call_student(heuristic, state, player)
        problem = number_problem(value)
        if not problem and not -1 < value < 1:
            problem = "an estimate lies strictly between -1 and 1"
        if problem:  # a value that the validation positions did not show
            raise StudentError(f"during the match heuristic({show(state, 60)}, "
                               f"{player!r}) returned {show(value, 60)}: {problem}", "")
        return float(value)

    rows = [f"{'first move':<11}{'you':<5}result"]
    for column in columns:
        for colour in game.players:
            other_colour = game.players[1 - game.players.index(colour)]
            players = {colour: timed, other_colour: opponent}
            seed = 1000 + 2 * column + game.players.index(colour)
            try:
                final, plies = _match_game(game, column, players, depth, seed)
            except STUDENT_FAILURES as error:
                raised = raised_line(f"the game with first move {column + 1}, you as {colour},",
                                      error)
                return CheckResult(title, (*lines, raised))
            outcome = game.utility(final, colour)
            games.append((column, colour, outcome, plies))
            verdict = {1: "won", 0: "drawn", -1: "lost"}[outcome]
            rows.append(f"{column + 1:<11}{colour:<5}{verdict} after {plies} plies")
    wins = sum(g[2] == 1 for g in games)
    draws = sum(g[2] == 0 for g in games)
    losses = sum(g[2] == -1 for g in games)
    score = (f"{counted(wins, 'win')}, {counted(draws, 'draw')}, "
             f"{counted(losses, 'loss', 'losses')} "
             f"in {len(games)} games against the {baseline} baseline (depth {depth})")
    table = ("games", "\n".join(rows))
    if wins > losses:
        lines.append(Line(PASS, score, (table,)))
    else:
        lines.append(Line(FAIL, score, (
            table, ("hint", _MATCH_HINTS.get(baseline, _MATCH_HINTS["centre"])))))
    facts = {"wins": wins, "draws": draws, "losses": losses, "games": games}
    return CheckResult(title, tuple(lines), facts=facts)

