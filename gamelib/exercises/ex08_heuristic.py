"""Exercise 8: a Connect Four heuristic for boards of any size."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final, cast

from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.exercises.answers import number_problem, same
from gamelib.exercises.failures import (
    STUDENT_FAILURES,
    NotDone,
    StudentError,
    raised_line,
    returned_none_line,
)
from gamelib.exercises.guard import Forbidden
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
from gamelib.search.common import (
    AnyGame,
    Budget,
    Heuristic,
    SearchTimeout,
    nodes_to_look,
    pick_best,
)
from gamelib.search.depth_limited import checked_estimate
from gamelib.search.heuristics import zero
from gamelib.search.match_stats import match_score

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
    # The weighted sum, one mask per weight k >= 1: the columns of weight k or more.
    layers = [sum(game.column_masks[c] for c in range(game.cols) if min(c, game.cols - 1 - c) >= k)
              for k in range(1, (game.cols + 1) // 2)]
    first_player = game.players[0]

    def heuristic(state: Hashable, player: Player) -> float:
        first, second = cast(tuple[int, int], state)
        x = 0
        for m in layers:
            x += (first & m).bit_count() - (second & m).bit_count()
        if player != first_player:
            x = -x
        return x / (10.0 + abs(x))   # squash(x, 10.0), written out: a call less a leaf

    return heuristic


def triples_heuristic(game: ConnectFour) -> Heuristic:
    """Lesson 7's first heuristic (its Section 4): lines of four held by one player only,
    three discs 1 point, two discs 1/4.

    With ``x`` the player's points minus the opponent's, the estimate is ``x / (4 + |x|)``.
    It knows nothing of rows, stacking or the centre: the terms that Lesson 7's Section 6
    adds to make :func:`~gamelib.connect4.heuristic.connect_four_heuristic`. Raises
    :class:`GameError` if ``game`` is not a :class:`~gamelib.games.ConnectFour`.

    >>> h = triples_heuristic(ConnectFour())
    >>> round(h(ConnectFour.from_moves("44553"), "X"), 3)   # two threes and two twos for X
    0.304
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"triples_heuristic needs a ConnectFour game, got {show(game, 60)}")
    windows = [
        sum(1 << ((c + k * dc) * game.height + r + k * dr) for k in range(4))
        for c in range(game.cols) for r in range(game.rows)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
        if 0 <= c + 3 * dc < game.cols and 0 <= r + 3 * dr < game.rows
    ]
    weight = (0.0, 0.0, 0.25, 1.0, 0.0)
    first_player = game.players[0]

    def heuristic(state: Hashable, player: Player) -> float:
        first, second = cast(tuple[int, int], state)
        x = 0.0
        for w in windows:
            if not second & w:
                x += weight[(first & w).bit_count()]
            elif not first & w:
                x -= weight[(second & w).bit_count()]
        if player != first_player:
            x = -x
        return x / (4.0 + abs(x))   # squash(x, 4.0), written out: a call less a leaf

    return heuristic


BASELINES: Final = ("zero", "centre", "triples", "lessons")
"""The baselines of :func:`check_heuristic`: :func:`~gamelib.search.heuristics.zero` (knows
nothing), :func:`centre_heuristic`, :func:`triples_heuristic` (Lesson 7's first heuristic),
and the lessons' final one, :func:`~gamelib.connect4.heuristic.connect_four_heuristic`."""


def _baseline(baseline: str, game: ConnectFour) -> Heuristic:
    if baseline == "zero":
        return zero
    if baseline == "centre":
        return centre_heuristic(game)
    if baseline == "triples":
        return triples_heuristic(game)
    if baseline == "lessons":
        return connect_four_heuristic(game)
    raise GameError(f"baseline must be one of {', '.join(map(repr, BASELINES))}, "
                    f"got {show(baseline, 40)}")


_MATCH_HINT: Final = (
    "build what Lesson 7 fixes for 6 x 7 from rows and cols: rows + 1 bits a column, the "
    "windows that fit this board, the middle column (two on an even width); then count "
    "threats (empty cells that would complete four), each cell once, none directly above an "
    "opponent's threat; twos; discs in the middle; look at a game you lost before you change "
    "a weight")

BOARDS: Final = ((5, 6), (7, 8))
"""``(rows, cols)`` of the boards of :func:`check_heuristic`'s match: neither is Lesson 7's
6 x 7. Both have an odd number of rows and an even number of columns, so a column has 6 or
8 bits, the middle is two columns, and when every other column is full the last column's
first disc is O's, not X's (does Lesson 7's row parity still hold? Exercise 8's second
question)."""
MAX_OPENINGS: Final = 12
"""The most openings :func:`check_heuristic` plays per board (each twice per depth)."""
OPENINGS_SEED: Final = 8
"""The seed of the match's openings: two random discs each."""


def match_openings(count: int, cols: int = 7) -> list[tuple[int, int]]:
    """The first ``count`` openings of the match on a board of ``cols`` columns, all
    different: two columns (0-based), X's disc and O's, drawn with a ``random.Random``
    seeded with :data:`OPENINGS_SEED`."""
    rng = random.Random(OPENINGS_SEED)
    openings: list[tuple[int, int]] = []
    while len(openings) < count:
        opening = (rng.randrange(cols), rng.randrange(cols))
        if opening not in openings:
            openings.append(opening)
    return openings


def points_needed(games: int) -> float | None:
    """The fewest points (a win 1, a draw 1/2) with which a match of ``games`` games shows a
    gain: the 95% interval of the score (:func:`~gamelib.search.match_stats.match_score`, the
    one the lessons use) lies wholly above 1/2, so that a heuristic no better than its
    opponent does not pass by luck. None when no result of so few games shows one (fewer
    than 4 games).

    >>> points_needed(64), points_needed(4), points_needed(2)
    (40.0, 4.0, None)
    """
    for half_points in range(2 * games + 1):
        wins, draws = divmod(half_points, 2)
        if match_score(wins, draws, games - wins - draws).shown:
            return half_points / 2
    return None


def _heuristic_problem(heuristic: Callable[..., Any], name: str, game: AnyGame,
                       positions: list[Hashable]) -> Line | None:
    """None if ``heuristic`` (``name`` in the report) gives valid estimates on
    ``positions``, else what is wrong."""
    for index, state in enumerate(positions):
        picture = ("position", show_state(game, state))
        estimates = []
        for player in game.players:
            call = f"{name}(state, {player!r})"
            try:
                estimate = call_student(heuristic, state, player)
                again = call_student(heuristic, state, player) if index < 20 else estimate
            except STUDENT_FAILURES as error:
                return raised_line(call, error, context=(picture,))
            forgot = returned_none_line(call, estimate, "your heuristic")
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
            return Line(FAIL, f"{name}(state, 'X') is {show(x_value, 60)} but "
                              f"{name}(state, 'O') is {show(o_value, 60)}",
                        (picture, ("expected", f"{name}(state, 'O') == -{name}(state, 'X')"),
                         ("hint", "the game is zero-sum: what is good for one player is "
                                  "equally bad for the other; compute the score for X and "
                                  "negate it for O")))
    return None


Decide = Callable[[tuple[int, int], Heuristic, int, random.Random], int]
"""``decide(state, heuristic, depth, rng)``: the move of :func:`_decider`."""


def _four_test(game: ConnectFour) -> Callable[[int], bool]:
    """``four(discs)``: whether one player's bitboard ``discs`` on ``game``'s board holds four
    in a row; ConnectFour's own test, its four directions unrolled (made inside the check,
    as :func:`_decider`'s closures are)."""
    across, down, up = game.rows + 1, game.rows, game.rows + 2

    def four(p: int) -> bool:
        pairs = p & (p >> 1)
        if pairs & (pairs >> 2):
            return True
        pairs = p & (p >> across)
        if pairs & (pairs >> 2 * across):
            return True
        pairs = p & (p >> down)
        if pairs & (pairs >> 2 * down):
            return True
        pairs = p & (p >> up)
        return bool(pairs & (pairs >> 2 * up))

    return four


def _decider(game: ConnectFour) -> Decide:
    """``decide(state, heuristic, depth, rng)``: the move that
    ``iterative_deepening(game, state, heuristic, max_depth=depth, rng=rng).move`` returns,
    by the very same search on ``game``'s bitboards: the same iterations, move order (the
    remembered best move first, the root's moves by their previous values), cutoffs,
    heuristic calls in the same order, budget (:data:`~gamelib.search.common.MAX_SECONDS`)
    and tie-break with ``rng`` (:func:`~gamelib.search.common.pick_best`). It leaves out
    what costs the match most of its time: the door's walk of a line of play per move, the
    checks of every state and the search's statistics (tests/exercises/test_checkers.py
    compares the moves over many positions). Made inside the check, its closures run their
    own code: the guard swaps the code of the functions that live when a check starts."""
    cols, full = game.cols, game.full
    tops, bottoms, columns = game.top_masks, game.bottom_masks, game.column_masks
    lane = 2 * full.bit_length()
    four = _four_test(game)
    x_player, o_player = game.players
    opponent = {x_player: o_player, o_player: x_player}
    inf = math.inf

    def decide(state: tuple[int, int], heuristic: Heuristic, max_depth: int,
               rng: random.Random) -> int:
        best_moves: dict[tuple[int, int], int] = {}
        budget = Budget(None, depth=max_depth)
        look: Budget | None = None
        left = step = 0
        reached = False

        def value(s: tuple[int, int], p: Player, depth: int, alpha: float, beta: float,
                  ply: int) -> float:
            nonlocal left, step, reached
            if not left:
                left = step = nodes_to_look(look, step)
            left -= 1
            first, second = s
            mask = first | second
            if four(first | (second << lane)) or mask == full:   # finished: utility for p
                utility = ((1 if p == x_player else -1) if four(first) else
                           (1 if p == o_player else -1) if four(second) else 0)
                return utility * (1.0 + 1.0 / (ply + 1))
            if depth == 0:
                reached = True
                estimate = heuristic(s, p)
                if type(estimate) is not float or not -1.0 < estimate < 1.0:
                    estimate = checked_estimate(estimate, s)
                return estimate
            o = opponent[p]
            moves = [c for c in range(cols) if not mask & tops[c]]
            remembered = best_moves.get(s)
            if remembered is not None:
                moves.remove(remembered)
                moves.insert(0, remembered)
            odd = mask.bit_count() & 1
            best, best_move = alpha, None
            for move in moves:
                disc = (mask + bottoms[move]) & columns[move]
                child = (first, second | disc) if odd else (first | disc, second)
                v = -value(child, o, depth - 1, -beta, -alpha, ply + 1)
                if v > best:
                    best, best_move = v, move
                if best >= beta:
                    break
                alpha = max(alpha, best)
            if best_move is not None:
                best_moves[s] = best_move
            return best

        first, second = state
        mask = first | second
        odd = mask.bit_count() & 1
        player = game.players[odd]
        legal = [c for c in range(cols) if not mask & tops[c]]
        values: dict[int, float] = {}
        exact, depth = False, 0
        while not exact and depth < max_depth:
            if depth >= 1 and budget.expired():
                break
            previous = values
            try:
                look = budget if depth >= 1 else None   # depth 1 always finishes
                left = step = 0
                left = step = nodes_to_look(look, 0)
                reached = False
                found: dict[int, float] = {}
                for m in sorted(legal, key=lambda m: -previous.get(m, 0.0)):
                    disc = (mask + bottoms[m]) & columns[m]
                    child = (first, second | disc) if odd else (first | disc, second)
                    found[m] = -value(child, opponent[player], depth, -inf, inf, 1)
            except SearchTimeout:
                break
            except RecursionError:
                if depth == 0:
                    raise
                break
            values = {m: found[m] + 0.0 for m in legal if m in found}
            depth += 1
            exact = not reached or abs(max(values.values())) > 1
        return pick_best(values, rng)

    return decide


def _match_game(game: ConnectFour, opening: tuple[int, int], players: dict[Player, Heuristic],
                depth: int, seed: int, decide: Decide) -> tuple[Hashable, int]:
    """Play one game after the two discs of ``opening``; the final state and its length.
    Each move is ``decide``'s (:func:`_decider`): iterative deepening to ``depth``."""
    rng = random.Random(seed)
    state = game.play(game.play(game.start, opening[0]), opening[1])
    plies = 2
    while not game.finished(state):
        move = decide(state, players[game.to_move(state)], depth, rng)
        state = game.play(state, move)
        plies += 1
    return state, plies


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_options(baseline: str, boards: object, depths: object, openings: object
                   ) -> list[tuple[int, int]]:
    """The boards as ``(rows, cols)`` pairs; GameError for a bad option."""
    if baseline not in BASELINES:
        raise GameError(f"baseline must be one of {', '.join(map(repr, BASELINES))}, "
                        f"got {show(baseline, 40)}")
    if (isinstance(boards, (str, bytes)) or not isinstance(boards, Sequence)
            or not 1 <= len(boards) <= 3
            or not all(isinstance(b, tuple) and len(b) == 2 and _whole(b[0], 4, 10)
                       and _whole(b[1], 4, 10) for b in boards)
            or len(set(boards)) != len(boards)):
        raise GameError("boards must be a list of one to three different (rows, cols) pairs, "
                        f"each a whole number from 4 to 10, got {show(boards, 40)}")
    if (isinstance(depths, (str, bytes)) or not isinstance(depths, Sequence)
            or not 1 <= len(depths) <= 3 or len(set(map(repr, depths))) != len(depths)
            or not all(_whole(d, 1, 5) for d in depths)):
        raise GameError("depths must be a list of one to three different whole numbers from "
                        f"1 to 5, got {show(depths, 40)}")
    if not _whole(openings, 1, MAX_OPENINGS):
        raise GameError(f"openings must be a whole number from 1 to {MAX_OPENINGS}, "
                        f"got {show(openings, 40)}")
    return [cast(tuple[int, int], b) for b in boards]


MatchGame = tuple[tuple[int, int], int, tuple[int, int], Player, int, int]
"""One game of the match: ``(board, depth, opening, colour, outcome, plies)``, the outcome
+1, 0 or -1 for the student."""


def _made_heuristics(
    make_heuristic: Callable[[int, int], Any], sizes: Sequence[tuple[int, int]], title: str,
) -> list[tuple[ConnectFour, str, Callable[..., Any]]] | CheckResult:
    """For each board size, the board, the call shown and ``make_heuristic(rows, cols)``, a
    function; or the :class:`CheckResult` that says why one is not (:func:`check_heuristic`)."""
    made: list[tuple[ConnectFour, str, Callable[..., Any]]] = []
    for number, (rows, cols) in enumerate(sizes):
        call = f"make_heuristic({rows}, {cols})"
        try:
            heuristic = call_student(make_heuristic, rows, cols, first=number == 0)
        except NotDone as stub:
            if number == 0:
                return not_done(title, "make_heuristic", stub.where)
            return CheckResult(title, (raised_line(call, stub),))
        except STUDENT_FAILURES as error:
            return CheckResult(title, (raised_line(call, error),))
        if not callable(heuristic):
            forgot = returned_none_line(call, heuristic, "make_heuristic")
            if forgot is not None:
                return CheckResult(title, (forgot,))
            return CheckResult(title, (Line(FAIL, f"{call} returned {show(heuristic, 60)}, "
                                                  "not a function", (
                ("hint", "make_heuristic(rows, cols) returns the heuristic itself: define "
                         "h(state, player) inside it and `return h` (the name, without "
                         "parentheses), as Lesson 7's weighed() does"),)),))
        made.append((ConnectFour(rows, cols), call, heuristic))
    return made


def _match_result(title: str, lines: list[Line], games: list[MatchGame],
                  rows_of_table: list[str], against: str) -> CheckResult:
    """:func:`check_heuristic`'s result: ``lines`` and the match's line (its score and 95%
    interval, passed when a gain is shown), with the games' table and the facts."""
    wins = sum(g[4] == 1 for g in games)
    draws = sum(g[4] == 0 for g in games)
    losses = sum(g[4] == -1 for g in games)
    points = wins + draws / 2
    measured = match_score(wins, draws, losses)
    needed = points_needed(len(games))
    rule = (f"{needed:g} needed: the 95% interval of the score above 1/2" if needed is not None
            else f"no result of {len(games)} games shows a gain: play more openings")
    score = (f"{counted(wins, 'win')}, {counted(draws, 'draw')}, "
             f"{counted(losses, 'loss', 'losses')} in {len(games)} games against the "
             f"{against}: {points:g} "
             f"point{'' if points == 1 else 's'}, score {measured.score:.2f} "
             f"[{measured.low:.2f}, {measured.high:.2f}], "
             f"{'a gain shown' if measured.shown else 'no gain shown'} ({rule})")
    table = ("games", "\n".join(rows_of_table))
    if measured.shown:
        lines.append(Line(PASS, score, (table,)))
    else:
        lines.append(Line(FAIL, score, (table, ("hint", _MATCH_HINT))))
    facts = {"wins": wins, "draws": draws, "losses": losses, "points": points,
             "needed": needed, "score": measured.score, "low": measured.low, "high": measured.high,
             "games": games}
    return CheckResult(title, tuple(lines), facts=facts)


_FORBIDDEN: Final = Forbidden(modules=("gamelib.exercises.ex08_heuristic", "gamelib.search",
                                       "gamelib.connect4"))
"""Every heuristic of gamelib (the lessons' one, the baselines of this module) and every
search; gamelib's ConnectFour, the game the student reads, stays usable."""


@checker(forbid=_FORBIDDEN)
def check_heuristic(make_heuristic: Callable[[int, int], Any], *, baseline: str = "centre",
                    boards: Sequence[tuple[int, int]] = BOARDS,
                    depths: Sequence[int] = (2, 3), openings: int = 8) -> CheckResult:
    """Check the student's ``make_heuristic(rows, cols)``: a heuristic ``h(state, player)``
    for Connect Four on a board of ``rows`` x ``cols`` cells; then let it play.

    For each board of ``boards`` (one to three different ``(rows, cols)`` pairs, each from 4
    to 10; by default :data:`BOARDS`, 5 x 6 and 7 x 8), ``make_heuristic(rows, cols)`` is
    called once and must return a function. On 300 positions in all (seeded, shared among
    the boards): every estimate is a number strictly between -1 and 1, the same on a second
    call, and ``h(s, "O") == -h(s, "X")`` (within 1e-9).

    Then a match against ``baseline`` (one of :data:`BASELINES`, made for the same board):
    for each board, each search depth in ``depths`` (1 to 5, at most 3 of them, no
    repeats) and each of ``openings`` seeded openings of two discs (:func:`match_openings`,
    1 to :data:`MAX_OPENINGS`), two games: one with the student's heuristic playing X and
    one with it playing O. Both sides choose their moves by
    :func:`~gamelib.search.iterative_deepening` to that depth, ties broken by a
    ``random.Random`` seeded per game. A win is worth 1 point, a draw 1/2; the check passes
    when the match shows a gain: the 95% interval of the score
    (:func:`~gamelib.search.match_stats.match_score`) lies above 1/2, which takes
    :func:`points_needed` points (40 of the default 64 games).

    Result: a :class:`CheckResult` with ``facts`` ``wins``, ``draws``, ``losses``,
    ``points``, ``needed``, ``score``, ``low`` and ``high`` (the interval) and ``games``
    (one ``(board, depth, opening, colour, outcome, plies)`` tuple per game, outcome +1, 0
    or -1 for the student). Raises :class:`GameError` for a bad argument.
    """
    sizes = _check_options(baseline, boards, depths, openings)
    title = "heuristic (Connect Four on other boards)"
    made = _made_heuristics(make_heuristic, sizes, title)
    if isinstance(made, CheckResult):
        return made
    lines: list[Line] = []
    per_board = 300 // len(made)
    for board, call, heuristic in made:
        game: AnyGame = board
        positions = [s for s in sample_positions(game, limit=per_board + 30, seed=7)
                     if not game.finished(s)][:per_board]
        problem = _heuristic_problem(heuristic, call, game, positions)
        if problem is not None:
            return CheckResult(title, (problem,))
    shown_boards = " and ".join(f"{g.rows} x {g.cols}" for g, _, _ in made)
    lines.append(Line(PASS, f"valid on {per_board * len(made)} positions of the "
                            f"{shown_boards} board{'s' if len(made) > 1 else ''}: numbers "
                            "strictly between -1 and 1, the same when asked twice, and "
                            "h(s, 'O') == -h(s, 'X')"))
    games: list[MatchGame] = []
    rows_of_table = [f"{'board':<7}{'depth':<7}{'opening':<9}{'you':<5}result"]
    for board_number, (board, call, heuristic) in enumerate(made):
        opponent = _baseline(baseline, board)
        decide = _decider(board)
        game = cast(AnyGame, board)

        def timed(state: Hashable, player: Player, heuristic: Callable[..., Any] = heuristic,
                  call: str = call) -> float:
            value = call_student(heuristic, state, player)
            problem = number_problem(value)
            if not problem and not -1 < value < 1:
                problem = "an estimate lies strictly between -1 and 1"
            if problem:  # a value that the validation positions did not show
                raise StudentError(f"during the match {call}({show(state, 60)}, "
                                   f"{player!r}) returned {show(value, 60)}: {problem}", "")
            return float(value)

        size = f"{board.rows}x{board.cols}"
        for depth in depths:
            for number, opening in enumerate(match_openings(openings, board.cols)):
                for colour in game.players:
                    other_colour = game.players[1 - game.players.index(colour)]
                    players = {colour: timed, other_colour: opponent}
                    seed = 10_000 * board_number + 1000 * depth + 2 * number + (
                        game.players.index(colour))
                    shown = f"{opening[0] + 1} {opening[1] + 1}"
                    try:
                        final, plies = _match_game(board, opening, players, depth, seed, decide)
                    except STUDENT_FAILURES as error:
                        raised = raised_line(f"the game on the {board.rows} x {board.cols} board "
                                             f"at depth {depth} after the opening {shown}, "
                                             f"you as {colour},", error)
                        return CheckResult(title, (*lines, raised))
                    outcome = game.utility(final, colour)
                    games.append(((board.rows, board.cols), depth, opening, colour, outcome,
                                  plies))
                    verdict = {1: "won", 0: "drawn", -1: "lost"}[outcome]
                    rows_of_table.append(f"{size:<7}{depth:<7}{shown:<9}{colour:<5}{verdict} "
                                         f"after {plies} plies")
    at = " and ".join(map(str, depths))
    return _match_result(title, lines, games, rows_of_table,
                         f"{baseline} baseline ({shown_boards}, depth {at})")
