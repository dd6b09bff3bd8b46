"""The computer's Connect Four player: exact where it can, a good guess where it cannot.

A game of Connect Four in a lecture needs a move within about a second. The exact
solver (:mod:`gamelib.connect4.solver`) settles most positions from the middle game on in
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
   deadline cuts the work short, a proven win is still played. On the 7 x 6 board the
   solver reads the opening book (:mod:`gamelib.connect4.book`) at 12 discs: up to 11
   discs it proves the move, and the summary ends "(perfect: opening book)"; without
   the book (JupyterLite) an opening move's summary says so.
3. **The iterative deepening of Lesson 6 with the heuristic of Lesson 7** over the
   columns that the tactics allow: :func:`gamelib.search.depth_limited.deepen` with
   :func:`~gamelib.connect4.heuristic.connect_four_heuristic` (built once per board
   size), depth 1, 2, 3, ... until the time is up, keeping the values of the last
   *finished* depth. Forced lines cost no depth (the search's ``forced`` option, with the
   test read off the threats in :mod:`gamelib.connect4.forced`: a win at once, or the
   only column that does not lose at once). Below the root it tries the centre columns
   first (the search's ``order`` option), on the rules without the per-call checks of
   the door (:class:`_SearchRules`), and it remembers the heuristic's estimate and the
   forced test of each position it meets, since many lines of play reach the same
   position (a transposition). The heuristic weighs threats by their row,
   stacking and the centre. Its estimates lie strictly inside (-1, 1), so an estimate never
   passes for a proven result.

Strength: ``seconds`` or ``depth``
----------------------------------
* ``seconds`` only (the default, 1 second): the full player above. About half the time
  goes to the exact solver; the rest, if needed, to the heuristic search. In the
  opening (more than :data:`OPENING_EMPTY` empty cells), where the solver cannot finish in
  time, it gets only a short probe (:data:`PROBE_SHARE`) and the heuristic search the rest;
  with the opening book it gets :data:`BOOK_SHARE` there instead, and proves the move.
* ``depth`` only: a weaker player for teaching, whose play depends on no clock. It
  skips the exact solver and searches the heuristic tree ``depth`` plies deep, so its
  choice is the same on every machine for the same ``rng``. Each further ply costs
  roughly two to four times as much: depths up to about 8 answer within a second
  or so on the standard board.
* both: the heuristic search to at most ``depth`` plies, stopped after ``seconds``.

The time budget
---------------
One :class:`~gamelib.search.common.Budget` is built at the door from ``seconds`` (at most
30 s; default 1 s, or 30 s for ``depth`` alone) and ``depth``, within the ``budget`` given
(which another thread may cancel), and goes down whole: the solver gets a share
(:data:`EXACT_SHARE`; in the opening :data:`PROBE_SHARE`), each column a slice, the
heuristic search the rest. When it runs out, the player returns the best move of the
last finished iteration; if that cut short what was asked for (a ``depth`` not reached,
a caller's budget shorter than ``seconds``, a cancel, the budget's ``nodes`` spent), the
decision says so with ``cut_short=True``. The solver meets a node limit exactly; the
heuristic's first iteration (depth 1, a few nodes) always runs, so that there is a move.

Values
------
Every value is for the player to move, on the scale of Lesson 6
(:mod:`gamelib.search.depth_limited`), the one scale of every search in gamelib: estimates
strictly between -1 and +1; a draw 0; a proven win or loss whose game ends ``k`` plies from
the current position is worth ``+-(1 + 1 / (k + 1))``
(:func:`~gamelib.search.depth_limited.proven_value`), so a faster win is worth more and a
slower loss less. The ``summary`` says it in words ("X wins in at most 5 moves", counting
the winner's own moves). The exact scores of :mod:`gamelib.connect4.solver` give ``k``.

Threads
-------
The play session calls the player from a background thread. The solvers keep their tables
between moves in a small pool per board size; a call takes one out and puts it back when
done, so two calls never share one. This module imports no user-interface library.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from gamelib.connect4.bitboard import Position, geometry, position_of
from gamelib.connect4.book import NOT_LOADED, book_available, covers, opening_book
from gamelib.connect4.forced import forced_move
from gamelib.connect4.lookahead import (
    board_heuristic,
    remembered,
    remembered_forced,
    search_rules,
)
from gamelib.connect4.pool import pooled_solver
from gamelib.connect4.score import end_of_game
from gamelib.game import GameError
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import (
    MAX_SECONDS,
    Budget,
    SearchTimeout,
    best_options,
    check_budget,
    check_depth,
    check_rng,
    check_seconds,
    pick,
    rng_or_shared,
)
from gamelib.search.depth_limited import deepen, plies_to_end, proven_value
from gamelib.search.stats import Decision, Stats

__all__ = [
    "DEFAULT_SECONDS",
    "EXACT_SHARE",
    "OPENING_EMPTY",
    "PROBE_SHARE",
    "connect_four_move",
    "connect_four_move_values",
]

DEFAULT_SECONDS: Final = 1.0
"""The time budget when neither ``seconds`` nor ``depth`` is given."""

EXACT_SHARE: Final = 0.5
"""The part of the time budget given to the exact solver before the heuristic takes over."""

OPENING_EMPTY: Final = 30
"""With more empty cells than this (the opening: fewer than 12 discs on the standard
board) the solver gets only :data:`PROBE_SHARE` of the budget: there it almost never
proves a result within a move's time (about 100 000 positions: none of 30 positions of 6
to 10 discs from games), and the heuristic search makes better use of the time."""

PROBE_SHARE: Final = 0.05
"""The solver's part of the budget in the opening: enough to catch a quick forced win."""

BOOK_SHARE: Final = 0.9
"""The solver's part of the budget where it reads the opening book (7 x 6, at most
:data:`~gamelib.connect4.book.BOOK_DISCS` discs): there it proves the best move in well
under a second, so the heuristic search only gets what is left if it does not."""


# -- the public functions -----------------------------------------------------------


def connect_four_move(
    game: ConnectFour,
    state: C4State,
    *,
    seconds: float | None = None,
    depth: int | None = None,
    rng: random.Random | None = None,
    budget: Budget | None = None,
) -> Decision:
    """The computer's choice of column in ``state``, found within the given budget.

    Arguments:
        game: the :class:`ConnectFour` board (any size).
        state: a valid position in which the game goes on.
        seconds: the time budget, more than 0 and at most 30 s (more is refused).
            Default 1 second when ``depth`` is None too.
            The call returns soon after this (the searches look at the clock every
            few thousand positions), and sooner when it proves the result.
        depth: a depth limit in plies (>= 1) for a weaker, clock-independent player:
            heuristic search only, no exact solver (see the module docstring).
        rng: breaks ties between equally good columns; pass ``random.Random(seed)``
            for reproducible play. None uses a module-level generator.
        budget: a :class:`~gamelib.search.common.Budget` that bounds the whole call and
            that another thread may cancel (see "The time budget" in the module
            docstring). None: one of ``seconds``, or of ``MAX_SECONDS`` (30 s).

    Result: a :class:`Decision` with ``move`` the 0-based column; ``value`` the value of
    the position for the player to move (on the scale of the module docstring: beyond
    +-1 for a proven win or loss, 0 for a proven draw, else an estimate strictly inside
    (-1, 1)); ``move_values`` the value of each legal column that the
    search valued (every legal column, except when the player wins at once: then only
    the winning columns); ``summary`` one line such as ``"X wins in at most 5 moves"``,
    ``"draw with best play"`` or ``"estimate +0.12 for X (depth 7)"``; ``stats`` with
    ``calls`` (positions searched by the solver and the heuristic search together),
    ``depth`` and ``nodes_per_depth`` (the heuristic's finished iterations) and
    ``seconds``; ``cut_short`` when the budget ran out (or was cancelled) before the
    search finished.

    Guarantees: it plays a winning column when there is one; it blocks an opponent's
    immediate win when that can be blocked; it never lets the opponent win at once if
    another column avoids that; and it plays a proven win whenever the solver proves
    one in time.

    Raises :class:`GameError` when ``game`` is not a ConnectFour, ``state`` is invalid
    or finished, ``seconds`` is not a number in (0, 30], ``depth`` is not a whole number
    >= 1, ``rng`` is not a ``random.Random`` or ``budget`` not a Budget.
    """
    board, limit, rng = _check_arguments(
        game, state, seconds, depth, rng, budget, "connect_four_move"
    )
    stats = Stats()
    with stats.timer():
        wins = board.winning_columns()
        if wins:
            won = _Result(1, moves=1).value
            move = pick(wins, rng)
            return Decision(
                move=move,
                value=won,
                exact=True,
                stats=stats,
                move_values={col: won for col in wins},
                summary=f"{board.mover} wins with this move",
            )
        evaluation = _evaluate(board, limit, stats, rng, complete=False)
    return _decide(board, evaluation, stats, rng)


def connect_four_move_values(
    game: ConnectFour,
    state: C4State,
    *,
    seconds: float | None = None,
    depth: int | None = None,
    budget: Budget | None = None,
) -> dict[int, float]:
    """The value of every legal column in ``state`` for the player to move, for hints.

    Maps each open 0-based column to the value of playing it, on the scale of the module
    docstring (beyond +-1 a proven win or loss, 0 a proven draw, or an estimate strictly
    inside (-1, 1)). Budget and strength as for :func:`connect_four_move` (default 1
    second; ``depth`` means heuristic search only). Raises :class:`GameError` for the
    same bad arguments.
    """
    board, limit, _ = _check_arguments(
        game, state, seconds, depth, None, budget, "connect_four_move_values"
    )
    results = _evaluate(board, limit, Stats(), rng_or_shared(None), complete=True)[0]
    return {col: results[col].value for col in sorted(results)}


# -- argument checks ----------------------------------------------------------------


def _check_arguments(
    game: object, state: object, seconds: object, depth: object, rng: object, budget: object,
    caller: str,
) -> tuple[_Position, Budget, random.Random]:
    """The door: raise GameError for a bad argument, else return what the layers trust.

    Returns the position (validated once, here), the one limit of the call (its seconds
    and depth, within the caller's ``budget``) and the rng.
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"{caller} plays Connect Four only: expected a ConnectFour, got {game!r}")
    board = _Position(game, position_of(game, state))
    if game.finished(board.state):
        raise GameError(f"the game is already over ({_result_text(game, board.state)}): "
                        "no move to make")
    check_seconds(seconds)
    check_depth(depth, least=1, optional=True)
    check_rng(rng)
    check_budget(budget)
    assert rng is None or isinstance(rng, random.Random)
    assert budget is None or isinstance(budget, Budget)
    plies = int(depth) if depth is not None else getattr(budget, "depth", None)  # type: ignore[call-overload]
    if plies is None and covers(game.rows, game.cols, board.discs):
        opening_book()  # the solver reads it: loaded (once) before this call's clock starts
    if seconds is not None:
        time_limit = float(seconds)  # type: ignore[arg-type]  # a checked number
    else:
        time_limit = DEFAULT_SECONDS if plies is None else MAX_SECONDS
    if budget is None:
        limit = Budget(time_limit, depth=plies)
    else:
        limit = budget.part(time_limit, depth=plies)
    return board, limit, rng_or_shared(rng)


def _result_text(game: ConnectFour, state: C4State) -> str:
    winners = [p for p, discs in zip(game.players, state, strict=True) if game.has_four(discs)]
    return f"{winners[0]} has four in a row" if winners else "the board is full"


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
        """On the scale of the module docstring: a win in ``moves`` of the mover's own
        moves ends ``2 * moves - 1`` plies from now, a loss ``2 * moves`` plies."""
        if self.outcome is None:
            return self.estimate
        if self.outcome == 0:
            return 0.0
        plies = 2 * self.moves - 1 if self.outcome == 1 else 2 * self.moves
        return proven_value(self.outcome, plies)

    def rank(self) -> tuple[float, int]:
        """Sort key, larger is better: value first, then a faster win or a slower loss."""
        if self.outcome is not None and self.outcome != 0:
            return (float(self.outcome), self.outcome * -self.moves)
        return (self.value, 0)


# -- the position as bitboards ------------------------------------------------------------


class _Position:
    """A valid ``state`` seen from the player to move: ``cur`` their discs, ``mask`` all.

    Made once, at the door (:func:`_check_arguments`), from the position that
    :func:`~gamelib.connect4.bitboard.position_of` let in; the layers trust it.
    """

    def __init__(self, game: ConnectFour, position: Position) -> None:
        self.game = game
        self.cur, self.mask, self.discs = position
        self.state = position.state()
        self.mover = game.players[self.discs & 1]
        self.opponent = game.players[1 - (self.discs & 1)]
        self.wins_of = geometry(game).threats

    def position(self) -> Position:
        """The solver's view of this position."""
        return Position(self.cur, self.mask, self.discs)

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

    def child(self, col: int) -> Position:
        """The position after the player to move drops a disc in column ``col``."""
        game = self.game
        return self.position().play((self.mask + game.bottom_masks[col]) & game.column_masks[col])

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
        return (end_of_game(game.rows * game.cols, score, self.discs) - self.discs + 1) // 2


def _single_bits(value: int) -> Iterator[int]:
    while value:
        yield value & -value
        value &= value - 1


# -- the layers: tactics, solver, heuristic ------------------------------------------------


class _Evaluation(NamedTuple):
    """What :func:`_evaluate` found: a result per legal column, the position's exact
    score if known, and why the budget cut the search short (None: it did not)."""

    results: dict[int, _Result]
    root_score: int | None
    cut_short: str | None


def _evaluate(
    board: _Position, limit: Budget, stats: Stats, rng: random.Random, *, complete: bool
) -> _Evaluation:
    """A result for every legal column, and the exact score of the position if known.

    Tactics first, then (when ``limit.depth`` is None) the solver, then the heuristic
    for the columns left. With ``complete`` False (choosing a move) the work stops early
    once an optimal column is proven, and the columns left get only a depth-1
    estimate; with ``complete`` True (hints) every column gets the best value that
    the whole budget allows. Nothing runs past ``limit``.
    """
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
    if limit.depth is None and open_columns:
        # EXACT_SHARE of the budget (in the opening, a probe); once the position is solved,
        # hints may spend all of it on exact column scores, which beat any estimate.
        if covers(game.rows, game.cols, board.discs) and book_available():
            share = BOOK_SHARE
        elif game.rows * game.cols - board.discs > OPENING_EMPTY:
            share = PROBE_SHARE  # the opening, without the book
        else:
            share = EXACT_SHARE
        root = limit.share(share)
        root_score = _solve_columns(board, open_columns, root, limit if complete else root,
                                    stats=stats, results=results, complete=complete)
        open_columns = [col for col in open_columns if col not in results]

    interrupted = False
    if open_columns:
        rest = limit
        if not complete and any(_optimal(result, root_score) for result in results.values()):
            rest = limit.part(depth=1)  # the choice is made: cheap estimates for the others
        interrupted = _deepen(board, open_columns, rest, stats, results)
    # Cut short: cancelled, out of nodes, or stopped before what was asked for (a depth,
    # or seconds beyond the caller's budget).
    asked_more = limit.depth is not None or limit.clipped
    cut_short = None
    if limit.out_of_nodes():
        cut_short = "the nodes ran out"
    elif limit.cancelled or (interrupted and asked_more):
        cut_short = "the time ran out"
    return _Evaluation(results, root_score, cut_short)


def _solve_columns(
    board: _Position, columns: list[int], root: Budget, limit: Budget, *,
    stats: Stats, results: dict[int, _Result], complete: bool,
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

    Returns the position's exact score, or None when the ``root`` budget ran out first.
    The columns share ``limit``.
    """
    game = board.game
    with pooled_solver(game) as solver:
        started = time.perf_counter()
        try:
            root_score = solver.solve_position(board.position(), budget=root)
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
                if child.mask == game.full:  # the last empty cell, and no four: a draw
                    results[col] = _Result(0, score=0)
                    continue
                share = limit.remaining() / (len(pending) - index)
                if not complete and any(_optimal(results[c], root_score) for c in results):
                    share = min(share, tie_break_time)
                try:
                    score = -solver.solve_position(child, budget=limit.part(share))
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
            if limit.expired():
                break
            if not complete and any(_optimal(results[col], root_score) for col in results):
                break
    return root_score


def _optimal(result: _Result, root_score: int | None) -> bool:
    """True iff ``result`` is a proven win, or its exact score is the position's score."""
    return result.outcome == 1 or (root_score is not None and result.score == root_score)


def _decide(
    board: _Position,
    evaluation: _Evaluation,
    stats: Stats,
    rng: random.Random,
) -> Decision:
    """Pick the best column of ``results`` (ties at random) and describe the position."""
    results, root_score, cut_short = evaluation
    move = pick(sorted(best_options(results, key=_Result.rank)), rng)
    chosen = results[move]
    all_proven = all(result.outcome is not None for result in results.values())
    value = chosen.value
    exact = all_proven or _optimal(chosen, root_score)
    if exact:
        summary = _describe(board, chosen)
    elif root_score is not None:
        # The position is solved but no optimal column was found in time. If it is
        # lost, every column loses: the value is still exact.
        sign = (root_score > 0) - (root_score < 0)
        position = _Result(sign, moves=board.winner_moves(root_score) if sign else 0)
        summary = f"{_describe(board, position)} (column chosen by estimate)"
        if root_score < 0:
            value, exact = position.value, True
    elif chosen.outcome == 0:
        summary = f"{board.mover} can force at least a draw"
    else:
        summary = f"estimate {chosen.value:+.2f} for {board.mover} (depth {stats.depth})"
    game = board.game
    if covers(game.rows, game.cols, board.discs):  # the opening: what the book did
        if not book_available():
            summary += "" if exact else f" ({NOT_LOADED})"
        elif root_score is not None and (all_proven or _optimal(chosen, root_score)):
            summary += " (perfect: opening book)"  # the solver, reading the book, proved it
    move_values: dict[Hashable, float] = {col: results[col].value for col in sorted(results)}
    return Decision(
        move=move,
        value=value,
        exact=exact,
        stats=stats,
        move_values=move_values,
        summary=summary + (f" (cut short: {cut_short})" if cut_short else ""),
        cut_short=cut_short is not None,
    )


def _deepen(
    board: _Position, columns: list[int], limit: Budget, stats: Stats,
    results: dict[int, _Result],
) -> bool:
    """Lesson 6's iterative deepening with Lesson 7's heuristic, choosing among ``columns``.

    Puts a result for each of ``columns`` into ``results`` and adds the search's counts
    to ``stats``. Returns True when ``limit`` (its time, its depth or a cancel) stopped it
    before it was done (its first iteration, depth 1, always finishes).
    """
    own = Stats()  # timed by deepen itself: ``stats`` is timed by the caller already
    game = board.game
    rules = search_rules(game.rows, game.cols)
    heuristic = remembered(board_heuristic(game.rows, game.cols))
    decision = deepen(rules, board.state, heuristic, budget=limit, stats=own,
                      root_moves=columns,
                      forced=remembered_forced(forced_move(game.rows, game.cols)),
                      order=rules.centre_first)
    stats.calls, stats.cutoffs = stats.calls + own.calls, stats.cutoffs + own.cutoffs
    stats.depth, stats.nodes_per_depth = own.depth, own.nodes_per_depth
    for col, value in decision.move_values.items():
        assert isinstance(col, int)
        plies = plies_to_end(value)  # None for an estimate, else a proven win or loss
        sign = None if plies is None else (1 if value > 0 else -1)
        results[col] = _Result(sign, moves=((plies or 0) + 1) // 2, estimate=value)
    return decision.cut_short


def _describe(board: _Position, result: _Result) -> str:
    """One line for a proven result, e.g. ``"O wins in at most 3 moves"``."""
    if result.outcome == 0:
        return "draw with best play"
    winner = board.mover if result.outcome == 1 else board.opponent
    plural = "" if result.moves == 1 else "s"
    return f"{winner} wins in at most {result.moves} move{plural}"
