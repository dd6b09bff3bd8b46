"""The computer's Connect Four player: exact where it can, a good guess where it cannot.

A game of Connect Four in a lecture needs a move within about a second. The exact
solver (:mod:`gamelib.search.solver`) settles most positions from the middle game on in
that time, but not the opening. So the player works in layers, cheapest first:

1. **Tactics.** If a column wins at once, play it. If the opponent threatens to win
   at once in one place, block it (two such threats cannot both be blocked: the game
   is lost). Never drop a disc directly below a cell where the opponent would complete
   four, unless every other column is worse. These rules cost a few bit operations and
   make the player safe even on the smallest budget.
2. **The exact solver**, with a deadline. It first solves the position itself: one
   search with null windows proves the score far faster than exact scores for every
   column would. Then it solves the columns, centre first, each within a fair slice
   of the time left; the optimal ones are quick, because the first search left the
   bounds they need in the solver's table. The player picks at random among the
   columns proven optimal (the fastest win, the draw, or the slowest loss). When the
   deadline cuts the work short, a proven win is still played.
3. **Iterative deepening alpha-beta with a heuristic** over the columns still open:
   depth 1, 2, 3, ... until the time is up, keeping the values of the last *finished*
   depth. The heuristic counts *threats* (empty cells that would complete four for a
   player), weights them by row parity, and adds how many discs sit in lines of four
   that the opponent has not blocked. Its estimates lie strictly inside (-1, 1), so an
   estimate never passes for a proven result.

Strength: ``seconds`` or ``depth``
----------------------------------
* ``seconds`` only (the default, 1 second): the full player above. About half the time
  goes to the exact solver; the rest, if needed, to the heuristic search.
* ``depth`` only: a weaker player for teaching, whose play depends on no clock. It
  skips the exact solver and searches the heuristic tree ``depth`` plies deep (plus
  forced replies), so its choice is the same on every machine for the same ``rng``.
  Each further ply costs roughly two to four times as much: depths up to about 8
  answer within a second or so on the standard board.
* both: the heuristic search to at most ``depth`` plies, stopped after ``seconds``.

Values
------
Every value is for the player to move, on the course's scale: ``+1`` a proven win,
``0`` a proven draw, ``-1`` a proven loss, and estimates strictly between -1 and +1.
A proven result does not say how fast it comes; the ``summary`` does ("X wins in at
most 5 moves", counting the winner's own moves). The solver's exact scores (see
:mod:`gamelib.search.solver`) map to values by their sign.

Threads
-------
The user interface calls the player from a background thread. The solvers, which
keep their transposition tables from one move to the next, live in a small pool per
board size: a call takes a solver out of the pool and puts it back when done, so two
calls at the same time never share one. The heuristic search keeps all its state in
the call. This module imports no user-interface library.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from gamelib.game import GameError
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.depth_limited import check_depth, check_seconds
from gamelib.search.minimax import check_rng
from gamelib.search.solver import SearchTimeout, Solver
from gamelib.search.stats import Decision, Stats

__all__ = [
    "DEFAULT_SECONDS",
    "EXACT_SHARE",
    "connect_four_move",
    "connect_four_move_values",
]

DEFAULT_SECONDS: Final = 1.0
"""The time budget when neither ``seconds`` nor ``depth`` is given."""

EXACT_SHARE: Final = 0.5
"""The part of the time budget given to the exact solver before the heuristic takes over."""

TABLE_BITS: Final = 20
"""Size of each pooled solver's transposition table: ``2 ** TABLE_BITS`` slots."""

_IDLE_SOLVERS_PER_SIZE: Final = 1
_BOARD_SIZES_KEPT: Final = 2

_WIN: Final = 1_000_000
"""Internal score of a win on the move; a win ``p`` plies later scores ``_WIN - p``."""
_PROVEN: Final = _WIN - 1000
"""Internal scores at or beyond +-``_PROVEN`` are proven wins and losses."""
_SQUASH: Final = 60.0
"""Heuristic score ``h`` becomes the value ``h / (|h| + _SQUASH)``, inside (-1, 1)."""

# Weights of the heuristic (internal integer units).
_THREAT: Final = 12
_GOOD_ROW: Final = 8
_CENTRE: Final = 2


# -- the public functions -----------------------------------------------------------


def connect_four_move(
    game: ConnectFour,
    state: C4State,
    *,
    seconds: float | None = None,
    depth: int | None = None,
    rng: random.Random | None = None,
) -> Decision:
    """The computer's choice of column in ``state``, found within the given budget.

    Arguments:
        game: the :class:`ConnectFour` board (any size).
        state: a valid position in which the game goes on.
        seconds: the time budget (> 0). Default 1 second when ``depth`` is None too.
            The call returns soon after this (the searches look at the clock every
            few thousand positions), and sooner when it proves the result.
        depth: a depth limit in plies (>= 1) for a weaker, clock-independent player:
            heuristic search only, no exact solver (see the module docstring).
        rng: breaks ties between equally good columns; pass ``random.Random(seed)``
            for reproducible play. None uses a module-level generator.

    Result: a :class:`Decision` with ``move`` the 0-based column; ``value`` the value of
    the position for the player to move (+1/0/-1 when ``exact``, else an estimate
    strictly inside (-1, 1)); ``move_values`` the value of each legal column that the
    search valued (every legal column, except when the player wins at once: then only
    the winning columns); ``summary`` one line such as ``"X wins in at most 5 moves"``,
    ``"draw with best play"`` or ``"estimate +0.12 for X (depth 7)"``; ``stats`` with
    ``calls`` (positions searched by the solver and the heuristic search together),
    ``depth`` and ``nodes_per_depth`` (the heuristic's finished iterations) and
    ``seconds``.

    Guarantees: it plays a winning column when there is one; it blocks an opponent's
    immediate win when that can be blocked; it never lets the opponent win at once if
    another column avoids that; and it plays a proven win whenever the solver proves
    one in time.

    Raises :class:`GameError` when ``game`` is not a ConnectFour, ``state`` is invalid
    or finished, ``seconds`` is not a positive number, ``depth`` is not a whole number
    >= 1, or ``rng`` is not a ``random.Random``.
    """
    seconds, rng = _check_arguments(game, state, seconds, depth, rng, "connect_four_move")
    stats = Stats()
    with stats.timer():
        board = _Position(game, state)
        wins = board.winning_columns()
        if wins:
            values: dict[Hashable, float] = {col: 1.0 for col in wins}
            move = rng.choice(wins)
            return Decision(
                move=move,
                value=1.0,
                exact=True,
                stats=stats,
                move_values=values,
                summary=f"{board.mover} wins with this move",
            )
        results, root_score = _evaluate(board, seconds, depth, stats, rng, complete=False)
    return _decide(board, results, root_score, stats, rng)


def connect_four_move_values(
    game: ConnectFour,
    state: C4State,
    *,
    seconds: float | None = None,
    depth: int | None = None,
) -> dict[int, float]:
    """The value of every legal column in ``state`` for the player to move, for hints.

    Maps each open 0-based column to the value of playing it: +1 a proven win, 0 a
    proven draw, -1 a proven loss, or an estimate strictly inside (-1, 1). Budget and
    strength as for :func:`connect_four_move` (default 1 second; ``depth`` means
    heuristic search only). Raises :class:`GameError` for the same bad arguments.
    """
    seconds, _ = _check_arguments(game, state, seconds, depth, None, "connect_four_move_values")
    board = _Position(game, state)
    results, _ = _evaluate(board, seconds, depth, Stats(), _module_rng, complete=True)
    return {col: results[col].value for col in sorted(results)}


# -- argument checks ----------------------------------------------------------------


_module_rng = random.Random(20240917)
"""The generator used when the caller passes no ``rng``: seeded, so that a program making
the same calls in the same order gets the same choices (as with
:func:`~gamelib.search.minimax.pick`)."""


def _check_arguments(
    game: object,
    state: object,
    seconds: object,
    depth: object,
    rng: object,
    caller: str,
) -> tuple[float | None, random.Random]:
    """Raise GameError for a bad argument; return the budget and the generator to use."""
    if not isinstance(game, ConnectFour):
        raise GameError(f"{caller} plays Connect Four only: expected a ConnectFour, got {game!r}")
    game.validate(state)
    assert isinstance(state, tuple)
    if game.finished(state):
        raise GameError(f"the game is already over ({_result_text(game, state)}): no move to make")
    check_seconds(seconds)
    check_depth(depth, least=1, optional=True)
    check_rng(rng)
    assert seconds is None or isinstance(seconds, (int, float))
    assert rng is None or isinstance(rng, random.Random)
    budget = float(seconds) if seconds is not None else None
    if budget is None and depth is None:
        budget = DEFAULT_SECONDS
    return budget, rng if rng is not None else _module_rng


def _result_text(game: ConnectFour, state: C4State) -> str:
    first, second = state
    if game.has_four(first):
        return f"{game.players[0]} has four in a row"
    if game.has_four(second):
        return f"{game.players[1]} has four in a row"
    return "the board is full"


# -- one column's result --------------------------------------------------------------


@dataclass(frozen=True)
class _Result:
    """What the player knows about one column.

    ``outcome`` is +1, 0 or -1 when proven (for the player to move), else None and
    ``estimate`` holds the heuristic's guess. ``moves`` counts, for a proven win or loss,
    the winner's own moves from the current position up to the win (with best play).
    ``score`` is the solver's exact score of the column when the solver found it.
    """

    outcome: int | None
    moves: int = 0
    estimate: float = 0.0
    score: int | None = None

    @property
    def value(self) -> float:
        return float(self.outcome) if self.outcome is not None else self.estimate

    def rank(self) -> tuple[float, int]:
        """Sort key, larger is better: value first, then a faster win or a slower loss."""
        if self.outcome == 1:
            return (1.0, -self.moves)
        if self.outcome == -1:
            return (-1.0, self.moves)
        return (self.value, 0)


# -- the position as bitboards ------------------------------------------------------------


class _Position:
    """``state`` seen from the player to move: ``cur`` their discs, ``mask`` all discs."""

    def __init__(self, game: ConnectFour, state: C4State) -> None:
        self.game = game
        self.state = state
        self.mask = state[0] | state[1]
        self.discs = self.mask.bit_count()
        self.cur = state[self.discs & 1]
        self.mover = game.players[self.discs & 1]
        self.opponent = game.players[1 - (self.discs & 1)]
        self.wins_of = _winning_cells_function(game)

    def playable(self) -> int:
        """The cells where a disc can go now (the lowest free cell of each open column)."""
        game = self.game
        return (self.mask + game.bottom) & game.full

    def column_of(self, cell: int) -> int:
        return (cell.bit_length() - 1) // self.game.height

    def columns(self, cells: int) -> list[int]:
        return sorted(self.column_of(cell) for cell in _single_bits(cells))

    def winning_columns(self) -> list[int]:
        """The columns where the player to move completes four at once."""
        return self.columns(self.wins_of(self.cur) & self.playable())

    def threats(self) -> int:
        """The empty cells where the opponent would complete four."""
        return self.wins_of(self.cur ^ self.mask) & ~self.mask & self.game.full

    def child(self, col: int) -> C4State:
        return self.game.play(self.state, col)

    def winner_moves(self, score: int) -> int:
        """For a column's exact solver score != 0: the winner's discs still to drop.

        The solver scores a game that ends with ``M`` discs on a board of ``N`` cells
        as ``(N + 2 - M) // 2`` for the winner (negative for the loser), so ``M`` is
        ``N + 2 - 2|score|`` or one less, whichever has the parity of the winner's
        discs: the player to move drops discs number ``discs + 1, discs + 3, ...``.
        A score depends only on ``M``, so a column's score (after the move, for the
        player to move) reads with the disc count of the current position.
        """
        game = self.game
        end = game.rows * game.cols + 2 - 2 * abs(score)
        winner_parity = (self.discs + 1) % 2 if score > 0 else self.discs % 2
        if end % 2 != winner_parity:
            end -= 1
        return (end - self.discs + 1) // 2


def _single_bits(value: int) -> Iterator[int]:
    while value:
        low = value & -value
        yield low
        value ^= low


# -- the layers: tactics, solver, heuristic ------------------------------------------------


def _evaluate(
    board: _Position,
    seconds: float | None,
    depth: int | None,
    stats: Stats,
    rng: random.Random,
    *,
    complete: bool,
) -> tuple[dict[int, _Result], int | None]:
    """A result for every legal column, and the exact score of the position if known.

    Tactics first, then (when ``depth`` is None) the solver, then the heuristic for
    the columns left. With ``complete`` False (choosing a move) the work stops early
    once an optimal column is proven, and the columns left get only a depth-1
    estimate; with ``complete`` True (hints) every column gets the best value that
    the whole budget allows.
    """
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    game = board.game
    legal = game.moves(board.state)
    results: dict[int, _Result] = {col: _Result(1, moves=1) for col in board.winning_columns()}
    threats = board.threats()
    playable = board.playable()
    forced = threats & playable
    for col in legal:
        cell = playable & game.column_masks[col]
        if col not in results and ((forced & ~cell) or ((cell << 1) & threats)):
            # The opponent wins with their next disc: a threat is left open, or this
            # disc makes the cell just above it playable for them.
            results[col] = _Result(-1, moves=1)
    open_columns = [col for col in legal if col not in results]
    open_columns.sort(key=lambda col: (abs(2 * col - (game.cols - 1)), rng.random()))

    root_score = None
    if depth is None and open_columns:
        assert seconds is not None
        # The position gets EXACT_SHARE of the budget; once it is solved, hints may
        # spend all of it on exact column scores, which beat any estimate.
        root_deadline = started + EXACT_SHARE * seconds
        columns_deadline = started + seconds if complete else root_deadline
        root_score = _solve_columns(
            board, open_columns, root_deadline, columns_deadline, stats, results, complete
        )
        open_columns = [col for col in open_columns if col not in results]

    if open_columns:
        if not complete and any(_optimal(result, root_score) for result in results.values()):
            depth = 1  # the choice is made: cheap estimates for the remaining columns
        searcher = _HeuristicSearch(game, stats, deadline)
        results.update(searcher.root(board, open_columns, depth))
    return results, root_score


def _solve_columns(
    board: _Position,
    columns: list[int],
    root_deadline: float,
    deadline: float,
    stats: Stats,
    results: dict[int, _Result],
    complete: bool,
) -> int | None:
    """Solve the position, then as many of ``columns`` as time allows, into ``results``.

    The position itself comes first: one search with null windows proves its score
    far faster than an exact score for every column, and it leaves in the solver's
    table the bounds that make the optimal columns quick to solve next. A column that
    is not optimal can take much longer (an exact score needs more proof than "worse
    than the best"), so each column gets a fair slice of the time left and is put off
    when its slice runs out; later rounds retry the columns put off, with larger slices.
    Unless ``complete``, the rounds stop once an optimal column is known, and from then
    on a column only gets about as long as the position took (enough for the other
    optimal columns, which the table makes quick, to join the random choice).

    Returns the position's exact score, or None when ``root_deadline`` came first.
    The columns may take until ``deadline``.
    """
    game = board.game
    with _pooled_solver(game) as solver:
        started = time.perf_counter()
        try:
            root_score = solver.solve(board.state, deadline=root_deadline)
        except SearchTimeout:
            return None
        finally:
            stats.calls += solver.nodes
        # Once an optimal column is known, a move needs the others only to break ties
        # among the optimal ones, which solve about as fast as the position did.
        tie_break_time = max(2 * (time.perf_counter() - started), 0.01)
        pending = list(columns)
        while pending:
            put_off = []
            for index, col in enumerate(pending):
                child = board.child(col)
                if game.finished(child):  # the last empty cell, and no four: a draw
                    results[col] = _Result(0, score=0)
                    continue
                now = time.perf_counter()
                share = (deadline - now) / (len(pending) - index)
                if not complete and any(_optimal(results[c], root_score) for c in results):
                    share = min(share, tie_break_time)
                try:
                    score = -solver.solve(child, deadline=now + share)
                except SearchTimeout:
                    put_off.append(col)
                    continue
                finally:
                    stats.calls += solver.nodes
                if score == 0:
                    results[col] = _Result(0, score=0)
                else:
                    outcome = 1 if score > 0 else -1
                    results[col] = _Result(outcome, moves=board.winner_moves(score), score=score)
            pending = put_off
            if time.perf_counter() >= deadline:
                break
            if not complete and any(_optimal(results[col], root_score) for col in results):
                break
    return root_score


def _optimal(result: _Result, root_score: int | None) -> bool:
    """True iff ``result`` is a proven win, or its exact score is the position's score."""
    return result.outcome == 1 or (root_score is not None and result.score == root_score)


def _decide(
    board: _Position,
    results: dict[int, _Result],
    root_score: int | None,
    stats: Stats,
    rng: random.Random,
) -> Decision:
    """Pick the best column of ``results`` (ties at random) and describe the position."""
    best_rank = max(result.rank() for result in results.values())
    best = sorted(col for col, result in results.items() if result.rank() == best_rank)
    move = rng.choice(best)
    chosen = results[move]
    all_proven = all(result.outcome is not None for result in results.values())
    value = chosen.value
    exact = all_proven or _optimal(chosen, root_score)
    if exact:
        summary = _describe(board, chosen)
    elif root_score is not None:
        # The position is solved but no optimal column was found in time. If it is
        # lost, every column loses: the value is still exact.
        position = _Result(_sign(root_score), moves=_moves_or_zero(board, root_score))
        summary = f"{_describe(board, position)} (column chosen by estimate)"
        if root_score < 0:
            value, exact = -1.0, True
    elif chosen.outcome == 0:
        summary = f"{board.mover} can force at least a draw"
    else:
        summary = f"estimate {chosen.value:+.2f} for {board.mover} (depth {stats.depth})"
    move_values: dict[Hashable, float] = {col: results[col].value for col in sorted(results)}
    return Decision(
        move=move,
        value=value,
        exact=exact,
        stats=stats,
        move_values=move_values,
        summary=summary,
    )


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _moves_or_zero(board: _Position, score: int) -> int:
    return board.winner_moves(score) if score else 0


def _describe(board: _Position, result: _Result) -> str:
    """One line for a proven result, e.g. ``"O wins in at most 3 moves"``."""
    if result.outcome == 0:
        return "draw with best play"
    winner = board.mover if result.outcome == 1 else board.opponent
    plural = "" if result.moves == 1 else "s"
    return f"{winner} wins in at most {result.moves} move{plural}"


# -- the solver pool ---------------------------------------------------------------------


_pool_lock = threading.Lock()
_pool: OrderedDict[tuple[int, int], list[Solver]] = OrderedDict()


@contextmanager
def _pooled_solver(game: ConnectFour) -> Iterator[Solver]:
    """A solver for ``game``'s board size that no other thread uses until it is returned.

    Idle solvers keep their transposition tables, so the next move of the same game
    starts with what this one learnt. The pool holds at most a few idle solvers in
    all, so its memory stays bounded.
    """
    size = (game.rows, game.cols)
    with _pool_lock:
        idle = _pool.get(size)
        solver = idle.pop() if idle else None
    if solver is None:
        solver = Solver(game, table_bits=TABLE_BITS)
    try:
        yield solver
    finally:
        with _pool_lock:
            idle = _pool.setdefault(size, [])
            _pool.move_to_end(size)
            if len(idle) < _IDLE_SOLVERS_PER_SIZE:
                idle.append(solver)
            while len(_pool) > _BOARD_SIZES_KEPT:
                _pool.popitem(last=False)


# -- bitboard helpers ------------------------------------------------------------------


def _winning_cells_function(game: ConnectFour) -> Callable[[int], int]:
    """A function from a player's discs to the cells (empty or not) that complete four.

    For each line direction ``d`` a cell completes four when three of the player's
    discs lie next to it along ``d``: all three on one side, or two on one side and
    one on the other. Shifting the bitboard by ``d`` moves every disc one step along
    the line, so ``(p << d) & (p << 2*d) & (p << 3*d)`` marks the cells with three
    discs right below them (for ``d == 1``) or behind them. The result may include
    guard bits and occupied cells; callers mask it with the empty cells of the board.
    """
    h = game.height
    # Shift amounts, bound once: a is horizontal, b and c the two diagonals.
    a1, a2, a3 = h, 2 * h, 3 * h
    b1, b2, b3 = h - 1, 2 * (h - 1), 3 * (h - 1)
    c1, c2, c3 = h + 1, 2 * (h + 1), 3 * (h + 1)

    def wins_of(p: int) -> int:
        # pair marks x when x and x + d are both the player's. Then (pair >> d) marks
        # x when x + d and x + 2d are; with x + 3d or x - d that is three. And
        # (pair << 2d) marks x when x - 2d and x - d are; with x + d or x - 3d, three.
        pair = p & (p >> a1)
        cells = (p << 1) & (p << 2) & (p << 3)  # vertical: only three below counts
        cells |= ((pair >> a1) & ((p >> a3) | (p << a1))) | (
            (pair << a2) & ((p >> a1) | (p << a3))
        )
        pair = p & (p >> b1)
        cells |= ((pair >> b1) & ((p >> b3) | (p << b1))) | (
            (pair << b2) & ((p >> b1) | (p << b3))
        )
        pair = p & (p >> c1)
        cells |= ((pair >> c1) & ((p >> c3) | (p << c1))) | (
            (pair << c2) & ((p >> c1) | (p << c3))
        )
        return cells

    return wins_of


class _Timeout(Exception):
    """The heuristic search's deadline passed."""


_Negamax = Callable[[int, int, int, int, int, int], int]


class _HeuristicSearch:
    """Iterative deepening negamax alpha-beta on bitboards with a threat heuristic.

    A position is ``(cur, mask)``: the discs of the player to move and all discs.
    Each node first looks for a win on the move (a proven win) and for the opponent's
    playable threats (one must be blocked, two lose); a forced block does not use up
    depth. Otherwise it never drops a disc right below an opponent's threat, and at
    depth 0 it returns the heuristic. A table of the best move found in each position
    (from earlier, shallower iterations) orders the moves, then centre first.
    """

    def __init__(self, game: ConnectFour, stats: Stats, deadline: float | None) -> None:
        self.game = game
        self.stats = stats
        self.deadline = deadline
        self.calls = 0
        self.cutoffs = 0
        self.timed = False
        self.negamax = self._negamax_function()

    def root(
        self, board: _Position, columns: list[int], max_depth: int | None
    ) -> dict[int, _Result]:
        """The value of each of ``columns`` from the last finished depth.

        Depth 1 always finishes; deeper iterations stop at the deadline. The root
        searches every column with a full window so that each gets a true value (the
        hints need them), while the subtrees below prune with alpha-beta.
        """
        game = self.game
        stats = self.stats
        empty_cells = game.rows * game.cols - board.discs
        limit = empty_cells if max_depth is None else min(max_depth, empty_cells)
        order = list(columns)
        finished: dict[int, int] = {}
        for depth in range(1, limit + 1):
            self.timed = depth > 1 and self.deadline is not None
            calls_before = self.calls
            scores: dict[int, int] = {}
            try:
                for col in order:
                    child = board.child(col)
                    cur = child[(board.discs + 1) & 1]
                    mask = child[0] | child[1]
                    scores[col] = -self.negamax(cur, mask, depth - 1, -_WIN, _WIN, 1)
            except _Timeout:
                break
            finally:
                stats.calls += self.calls - calls_before
                stats.cutoffs = stats.cutoffs + self.cutoffs
                self.cutoffs = 0
            finished = scores
            stats.depth = depth
            stats.nodes_per_depth[depth] = self.calls - calls_before
            order.sort(key=lambda col: -scores[col])
            if all(abs(score) >= _PROVEN for score in scores.values()):
                break  # every column proven: a deeper search cannot change a value
        return {col: _to_result(score) for col, score in finished.items()}

    def _negamax_function(self) -> _Negamax:
        """Build the recursive search with the board's constants bound as locals."""
        game = self.game
        full = game.full
        bottom = game.bottom
        cells = game.rows * game.cols
        order = sorted(range(game.cols), key=lambda c: abs(2 * c - (game.cols - 1)))
        column_order = [game.column_masks[c] for c in order]
        wins_of = _winning_cells_function(game)
        evaluate = _heuristic_function(game)
        best_moves: dict[int, int] = {}
        max_entries = 1 << 18
        perf_counter = time.perf_counter
        deadline = math.inf if self.deadline is None else self.deadline
        search = self

        def negamax(cur: int, mask: int, depth: int, alpha: int, beta: int, ply: int) -> int:
            """The value of ``(cur, mask)`` for its player to move, ``ply`` discs deep.

            Fail-hard alpha-beta in negamax form: exact inside (alpha, beta), an upper
            bound at or below alpha, a lower bound at or above beta. The parent never
            passes a won position (it returns as soon as it can win); a full board is
            a draw.
            """
            search.calls += 1
            if search.timed and not search.calls & 1023 and perf_counter() > deadline:
                raise _Timeout
            if mask == full:
                return 0
            opp = cur ^ mask
            empty = full & ~mask
            possible = (mask + bottom) & full
            my_wins = wins_of(cur) & empty
            if my_wins & possible:
                return _WIN - ply - 1  # the next disc, number ply + 1, wins
            opp_wins = wins_of(opp) & empty
            forced = opp_wins & possible
            if forced:
                if forced & (forced - 1):
                    return ply + 2 - _WIN  # two threats: the opponent's next disc wins
                candidates = forced
                next_depth = depth  # a forced block does not use up depth
            else:
                candidates = possible & ~(opp_wins >> 1)
                if not candidates:
                    return ply + 2 - _WIN  # every disc opens a win for the opponent
                if depth <= 0:
                    return evaluate(cur, opp, mask, my_wins, opp_wins)
                next_depth = depth - 1
            if mask.bit_count() + 1 == cells:
                return 0  # the last empty cell: filling it leaves a full board, no four
            # cur + mask tells positions apart: a column with n discs adds 2**n - 1
            # plus the subset of those bits that cur owns, a number below 2**(n + 1)
            # that fits in the column's rows + 1 bits and gives back n and the subset.
            key = cur + mask
            first = best_moves.get(key, 0) & candidates
            moves = [first] if first else []
            for column in column_order:
                move = candidates & column
                if move and move != first:
                    moves.append(move)
            best = -_WIN - 1
            best_move = 0
            for move in moves:
                score = -negamax(opp, mask | move, next_depth, -beta, -alpha, ply + 1)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            search.cutoffs += 1
                            break
            if len(best_moves) < max_entries or key in best_moves:
                best_moves[key] = best_move
            return best

        return negamax


def _to_result(score: int) -> _Result:
    """A column's internal score (for the player to move at the root) as a result."""
    if score >= _PROVEN:
        return _Result(1, moves=(_WIN - score + 1) // 2)
    if score <= -_PROVEN:
        return _Result(-1, moves=(_WIN + score + 1) // 2)
    return _Result(None, estimate=score / (abs(score) + _SQUASH))


def _heuristic_function(game: ConnectFour) -> Callable[[int, int, int, int, int], int]:
    """The static evaluation: an integer, positive when the player to move stands better.

    ``evaluate(cur, opp, mask, my_wins, opp_wins)`` gets the discs of the player to
    move and of the opponent, all discs, and each player's empty winning cells. Terms:

    * threats: each empty cell that would complete four, ``_THREAT`` points;
    * parity: a threat on a row that suits its owner, ``_GOOD_ROW`` more. Rows count
      from 1 at the bottom; when the board fills up column by column, the first player
      tends to get the odd rows and the second player the even rows, so those are the
      threats that usually come true;
    * potential: for every line of four cells without an opponent disc, one point per
      own disc in it (a disc in several open lines counts several times);
    * centre: ``_CENTRE`` points per disc in the middle column(s), which lie in the most
      lines.
    """
    h = game.height
    full = game.full
    row_one = game.bottom  # 1-based row 1 in every column
    odd_rows = 0
    for row in range(0, game.rows, 2):
        odd_rows |= row_one << row
    even_rows = full & ~odd_rows
    middle = game.cols // 2
    centre = game.column_masks[middle]
    if game.cols % 2 == 0:
        centre |= game.column_masks[middle - 1]
    directions = (1, h, h - 1, h + 1)

    def potential(p: int, free: int) -> int:
        total = 0
        for d in directions:
            starts = free & (free >> d) & (free >> 2 * d) & (free >> 3 * d)
            if starts:
                total += (
                    (p & starts).bit_count()
                    + ((p >> d) & starts).bit_count()
                    + ((p >> 2 * d) & starts).bit_count()
                    + ((p >> 3 * d) & starts).bit_count()
                )
        return total

    def evaluate(cur: int, opp: int, mask: int, my_wins: int, opp_wins: int) -> int:
        if mask.bit_count() & 1:  # the second player is to move
            my_rows, their_rows = even_rows, odd_rows
        else:
            my_rows, their_rows = odd_rows, even_rows
        score = _THREAT * (my_wins.bit_count() - opp_wins.bit_count())
        score += _GOOD_ROW * ((my_wins & my_rows).bit_count() - (opp_wins & their_rows).bit_count())
        score += potential(cur, full & ~opp) - potential(opp, full & ~cur)
        score += _CENTRE * ((cur & centre).bit_count() - (opp & centre).bit_count())
        return score

    return evaluate
