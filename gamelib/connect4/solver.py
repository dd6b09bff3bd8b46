"""A perfect Connect Four solver: the exact score of a position, in pure Python.

The score
---------
The score of a position is for the player to move, assuming both sides play perfectly:
``0`` for a draw, positive when the player to move wins, negative when it loses; a win
is worth one point more than the number of discs the winner still holds when it wins
(on the 6 x 7 board, ``22 - k`` for a win with the winner's k-th disc). See
:mod:`gamelib.connect4.score` for why, and its :func:`~gamelib.connect4.score.score_to_moves`
to read it back.

How the solver works
--------------------
It is the negamax form of alpha-beta with a bounded transposition table, run as a
sequence of *null-window* searches. Each idea, and why it pays off:

Bitboards.
    A position is Lesson 8's ``(cur, mask, moves)`` (:mod:`gamelib.connect4.bitboard`):
    ``mask`` holds every disc, ``cur`` the discs of the player to move. Adding the
    ``bottom`` mask to ``mask`` carries through the filled part of each column and lands
    on its lowest free cell, so ``(mask + bottom) & full`` is every legal move at once.

Threats.
    A *threat* of a player is an empty cell that would complete four in a row for it.
    :meth:`Geometry.threats <gamelib.connect4.bitboard.Geometry.threats>` finds them all
    with a handful of shifts: a cell is a threat if, along one of the four directions,
    the three cells on one side, or two on one side and one on the other, are the
    player's. It needs not be playable yet; a threat still floating in the air shapes
    the rest of the game.

Pruning moves that lose at once.
    Before searching, the solver looks at the opponent's threats. If the opponent
    can win on one of the playable cells, the player to move must drop its disc exactly
    there (if there are two such cells, it has lost). A disc placed directly below an
    opponent's threat hands that cell to the opponent, so such moves are never
    searched. If no move survives, the position is lost at the opponent's next move and
    the score is known without any search. As a consequence a searched position never
    lets the player to move win at once: the parent has already dealt with that.

Bounds without search.
    Since the player to move cannot win with its next disc, and the opponent cannot win
    with its next one either, the score lies between the score of "lose with the
    opponent's second move from now" and "win with my second move from now". When the
    window ``(alpha, beta)`` lies outside these bounds the answer is known at once. The
    solver asks its root only questions inside them, and then every position searched
    passes its children questions inside theirs (the child's window is the parent's
    negated, one disc later), so the search itself never needs to check them.

Move ordering by threats.
    Alpha-beta prunes the most when the best move is searched first. The solver sorts
    the moves by how many threats the move gives the player (moves that create
    threats first), breaking ties by preferring columns near the centre, which take part
    in more lines of four. In the first half of the game a threat right above the move
    counts twice: the opponent must block it at once, and such forcing lines are quick
    to search (a third fewer nodes on the easy opening benchmark positions). A threat
    right above one of the opponent's counts for nothing (Allis 1988): the cell under
    it must be filled first, by the opponent, who wins, or by the player, after which
    the opponent blocks the threat (4-6% fewer nodes on the benchmark sets L1_R1, L2_R1
    and L2_R2). A move that was best the last time the position was searched (the
    table remembers it) goes before all others, searched before the threats of the
    others are computed: it alone settles two positions in three that have one. When
    every move failed low, the table remembers none: the best of the failing moves is a
    worse first guess than the threat ordering (1% fewer nodes on L2_R2 without it).

All children at once.
    Ordering needs the threats of the player after each of its moves, and each
    such computation is some forty operations on Python ints, the most expensive part of
    a node. Python's cost per operation depends little on the size of the int, so the
    solver lays the boards after every move side by side in one wide int, one *lane* per
    column, and runs the forty operations once for all of them (a trick known as SWAR,
    "SIMD within a register"). A lane is the board and one empty column, so the lanes
    side by side are one wide board, and a four that spans two lanes crosses an empty
    column: it cannot make a threat on a board cell, and each lane's threats are those of
    its board alone.

The transposition table (Lessons 5 and 8).
    Many move orders reach the same position, so results are remembered in a
    :class:`~gamelib.connect4.table.Table` of bounded size (``table_bits`` sets it):
    Lesson 5's cache of ``(flag, value)`` entries, ``'≤'`` (:data:`UPPER`) or ``'≥'``
    (:data:`LOWER`), plus the best move found.
    A search with the window ``(alpha, beta)`` does not always find the exact score: when
    every move fails low it only proves ``score <= alpha``, and a cut-off only proves
    ``score >= beta``. So the table stores *bounds*, an upper or a lower bound on the
    exact score; a later visit uses them to narrow its window, which often closes it.
    The search returns the tightest bound it has found (it is *fail-soft*), so the
    bounds it stores are as useful as they can be.

Enhanced transposition cut-offs.
    Before it searches the first move (the only one, or last time's best), and before it
    orders the others, the solver looks up (in the table's current generation: the older
    one finds almost nothing more) the position after each move: one bad enough for the
    opponent (an upper bound below the child's window) answers the question without a
    search, and one known to be good enough for it (a lower bound at or above the
    child's window) fails low without a search, so it is left out. Together they save
    a tenth (end game) to a quarter (harder middle game) of the nodes.

Null windows.
    Instead of one search with the full window, :meth:`Solver.solve` asks a sequence of
    yes/no questions, "is the score above ``v``?", each a search with the empty window
    ``(v, v + 1)``. Such a search prunes far more than a wide one, and each answer
    shrinks the interval ``[low, high]`` of possible scores until one score is left. The
    question is the middle of the interval, except that it moves out to half of ``low``
    (or of ``high``) when that is farther from 0: the first questions ask "does it lose
    (win) quickly?", which a shallow search answers, and the bounds and best moves they
    leave in the table make the harder questions near 0 cheaper, much as iterative
    deepening does in other games. In the end game (:data:`END_GAME` empty cells or
    fewer) every search is shallow, so those questions save little: the solver first
    settles win, draw or loss ("above 0?", then "above -1?"), since four end games in ten
    are draws, and then asks the middle. On the end-game benchmark positions that takes
    a seventh fewer nodes and a seventh less time. ``weak=True`` asks only about the sign.

Looking for a double threat.
    The best score a searched position can still have is "win with my second disc from
    now", and the only way to get it is a move after which the opponent is lost at once:
    it has two threats of ours to block, or none of its moves keeps it alive. So
    when the question is whether the score reaches that best value, the solver looks for
    such a move among the threats of all its moves and searches no deeper. Many
    questions asked along the way are of this kind, and this rule answers them at the
    cost of one node instead of one node per move.

A chunk of Python's frame stack of its own.
    CPython 3.11 keeps the frames of calls in chunks of 16 KB and frees a chunk when
    the frame at its start returns, so a search deep enough to cross from one chunk to
    the next would map and unmap a chunk at every call at that depth (a tenth of the
    time on L2_R2). A big search runs below a frame bigger than a chunk
    (:func:`_in_own_chunk`): in a chunk of its own, with room for every ply.

``Solver.nodes`` counts the positions searched: the calls of :func:`negamax
<gamelib.connect4.negamax.make_negamax>`, including those answered at once by the rules
above or by the table.

Where to read
-------------
:func:`~gamelib.connect4.negamax.make_negamax` (in :mod:`gamelib.connect4.negamax`) holds
Lesson 8's ``negamax`` with the null window ``(alpha, alpha + 1)``, in four numbered
steps: moves that do not lose at once, the table (Lesson 5's ``read_bound``), bounds
without search (the look for a double threat), then the moves in order (and
``store_bound`` on the way out). :meth:`Solver._score` is Lesson 8's ``null_windows``
driver.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from gamelib.connect4.bitboard import Position, geometry, position_of
from gamelib.connect4.book import BOOK_COLS, BOOK_DISCS, BOOK_ROWS, Book, opening_book
from gamelib.connect4.negamax import make_negamax
from gamelib.connect4.table import Table
from gamelib.game import GameError
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import Budget, SearchTimeout, check_budget
from gamelib.search.stats import Stats

__all__ = ["MAX_TABLE_BITS", "MIN_TABLE_BITS", "Solver"]

MIN_TABLE_BITS = 10
MAX_TABLE_BITS = 24

END_GAME = 13
"""With this many empty cells or fewer, the null-window questions settle win, draw or loss
first, then ask the middle of the interval (measured on the 6 x 7 benchmark sets: the rule
pays from 13 empty cells on)."""


OWN_CHUNK_AFTER = 1000
"""Once a call has searched this many positions, its next null-window searches run in a
chunk of Python's frame stack of their own (see :func:`_in_own_chunk`)."""

SEARCH_STACK = 3200
"""The words (8 bytes each) of stack that :func:`_in_own_chunk`'s frame reserves and
never uses: more than a 16 KB chunk holds."""


class Solver:
    """Exact scores of Connect Four positions on one board size.

    ``Solver(game, table_bits=20)`` makes a solver for the board of ``game`` (default
    the standard 6 x 7) with a transposition table of at most about ``2**table_bits``
    entries (``table_bits`` from 10 to 24; the table may overshoot by a few thousand
    entries between two checks; an entry takes about 110 bytes, so the default table
    stays near 110 MB). The table is kept from one call to the next, since positions
    recur; :meth:`reset` empties it. Scores follow the module docstring.

    After each call of :meth:`solve` or :meth:`analyze`, :attr:`nodes` holds the number
    of positions that call searched; :attr:`stats` adds up every call since the solver
    was made (``calls``: positions searched, ``cache_hits``: table entries that settled
    a position at once, ``cutoffs``: searches whose score reached beta). One solver may
    be shared by threads: calls take turns.

    ``book`` (default True): on the standard 7 x 6 board, read the opening book
    (:mod:`gamelib.connect4.book`) at its depth, 12 discs, instead of searching on: every
    position with at most 12 discs is then solved in about a second or less, and
    :attr:`lookups` counts the book's answers. It is loaded on the first search of such
    a position. Without the package, or with ``book=False`` (to show or time the search
    alone), the solver searches as it does on other boards; the scores are the same.
    """

    def __init__(
        self, game: ConnectFour | None = None, *, table_bits: int = 20, book: bool = True
    ) -> None:
        if game is None:
            game = ConnectFour()
        if not isinstance(game, ConnectFour):
            raise GameError(f"Solver needs a ConnectFour game, got {type(game).__name__}")
        if (
            not isinstance(table_bits, int)
            or isinstance(table_bits, bool)
            or not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS
        ):
            raise GameError(
                f"table_bits must be a whole number from {MIN_TABLE_BITS} to "
                f"{MAX_TABLE_BITS}, got {table_bits!r}"
            )
        if not isinstance(book, bool):
            raise GameError(f"book must be True or False, got {book!r}")
        self.game: ConnectFour = game
        """The board this solver is for."""
        self.table_bits = table_bits
        """The table holds at most about ``2**table_bits`` positions."""
        self.nodes = 0
        """Positions searched by the last call of :meth:`solve` or :meth:`analyze`."""
        self.lookups = 0
        """Of :attr:`nodes`, the positions the opening book answered (see ``book``)."""
        self.wants_book = book and (game.rows, game.cols) == (BOOK_ROWS, BOOK_COLS)
        """Whether this solver reads the opening book: asked for, and the 7 x 6 board."""
        self.stats = Stats()
        """Counters summed over every call since the solver was made."""
        self.table = Table(1 << table_bits)
        """The transposition table (:mod:`gamelib.connect4.table`)."""
        self._lock = threading.Lock()
        self._grid = geometry(game)
        self._kernel = make_negamax(self._grid, self.table)
        self._book_read = False  # whether the kernel was rebuilt with the book

    @property
    def book(self) -> Book | None:
        """The opening book this solver reads (loaded on first use), or None: not asked
        for, another board size, or the package not installed (see
        :mod:`gamelib.connect4.book`)."""
        return opening_book() if self.wants_book else None

    def reset(self) -> None:
        """Empty the transposition table (the counters are kept)."""
        with self._lock:
            self.table.clear()

    @property
    def table_size(self) -> int:
        """How many positions the transposition table holds now."""
        return len(self.table)

    # -- the public doors: arguments are checked here, and trusted below ----------------

    def solve(
        self,
        state: C4State,
        *,
        weak: bool = False,
        deadline: float | None = None,
        budget: Budget | None = None,
    ) -> int:
        """The exact score of ``state`` for the player to move (see the module docstring).

        With ``weak=True`` only the sign: ``1`` win, ``0`` draw, ``-1`` loss, which is
        usually faster to find. ``deadline`` (a :func:`time.perf_counter` value) and
        ``budget`` (a :class:`~gamelib.search.common.Budget`, which another thread may
        cancel) bound the time: the search raises :class:`SearchTimeout` soon after
        either runs out (it looks every few thousand positions, and once at the start).
        Without them it runs until it is done. Raises :class:`GameError` when ``state``
        is not a valid position of this board or the game is over.
        """
        position = self._position(state)
        _check_options(weak, deadline, budget)
        return self.solve_position(position, weak=weak, deadline=deadline, budget=budget)

    def solve_position(
        self,
        position: Position,
        *,
        weak: bool = False,
        deadline: float | None = None,
        budget: Budget | None = None,
    ) -> int:
        """:meth:`solve` for a caller that has checked its arguments at its own door.

        ``position`` must be a valid, unfinished :class:`Position` of this board (the
        player, :mod:`gamelib.connect4.player`, validates the state once and passes it
        on); nothing is checked again.
        """
        with self._lock:
            self.nodes = 0
            _check_clock(deadline, budget)
            return self._score(position, weak, deadline, budget)

    def analyze(
        self,
        state: C4State,
        *,
        weak: bool = False,
        deadline: float | None = None,
        budget: Budget | None = None,
    ) -> list[int | None]:
        """The score of every column for the player to move; None for a full column.

        Entry ``c`` is the score of the position after the player to move drops a disc
        in column ``c`` (0-based), from that player's point of view, so the best moves
        are those with the largest entry and ``max`` of the entries equals
        :meth:`solve`. A move that wins at once gets the winning score. ``weak``,
        ``deadline`` and ``budget`` work as in :meth:`solve`; :attr:`nodes` and
        :attr:`lookups` count all columns.
        """
        position = self._position(state)
        _check_options(weak, deadline, budget)
        game = self.game
        cells = game.rows * game.cols
        cur, mask, moves = position
        result: list[int | None] = []
        with self._lock:
            self.nodes = nodes = lookups = 0
            _check_clock(deadline, budget)
            for col in range(game.cols):
                if mask & game.top_masks[col]:
                    result.append(None)
                    continue
                disc = (mask + game.bottom_masks[col]) & game.column_masks[col]
                if game.has_four(cur | disc):
                    result.append(1 if weak else (cells + 1 - moves) // 2)
                elif moves + 1 == cells:
                    result.append(0)  # the last cell: a draw
                else:
                    # The opponent moves next: its score, seen from our side.
                    score = -self._score(position.play(disc), weak, deadline, budget)
                    nodes += self.nodes
                    lookups += self.lookups
                    result.append(score)
            self.nodes, self.lookups = nodes, lookups
        return result

    def _position(self, state: C4State) -> Position:
        """The :class:`Position` of a valid, unfinished ``state`` (through the one door,
        :func:`~gamelib.connect4.bitboard.position_of`); else GameError."""
        position = position_of(self.game, state)
        if position.mask == self.game.full or self._grid.either_has_four(
            position.cur, position.opponent()
        ):
            raise GameError("the game is already over: there is nothing left to solve")
        return position

    # -- Lesson 8's null_windows: narrow [low, high] with yes/no questions --------------

    def _score(
        self, position: Position, weak: bool, deadline: float | None, budget: Budget | None
    ) -> int:
        """Score of the valid, unfinished ``position``; the caller holds the lock.

        Handles the positions that need no search (a win or a loss at once, the last two
        discs), then narrows ``[low, high]`` with null-window searches, each an open
        question as :func:`~gamelib.connect4.negamax.make_negamax` requires. Sets
        :attr:`nodes`.
        """
        cur, mask, moves = position
        grid = self._grid
        cells = grid.cells
        self.nodes = self.lookups = 0
        empty = grid.full ^ mask
        # Both players' threats at once, the opponent's board in a second lane.
        both = grid.threats(cur | ((cur ^ mask) << grid.lane))
        my_wins = both & empty
        if (mask + grid.bottom) & my_wins:
            return 1 if weak else (cells + 1 - moves) // 2
        opp_wins = (both >> grid.lane) & empty
        # Step 1 of negamax, here for the root: lost at once (two cells to block, or no
        # move that does not hand the opponent a win)?
        playable = (mask + grid.bottom) & grid.full
        forced = playable & opp_wins
        if forced & (forced - 1) or not (forced or playable) & ~(opp_wins >> 1):
            return -1 if weak else -((cells - moves) // 2)
        if moves >= cells - 2:
            return 0  # nobody can win with the last two discs
        # Not lost at once: the opponent's second disc from now at best ("Bounds without
        # search"); negamax is asked only questions above it.
        low_at = -((cells - 2 - moves) // 2)
        if weak:
            low, high = -1, 1
        else:
            # Lose to the opponent's next disc .. win with my second disc from now.
            low, high = -((cells - moves) // 2), (cells - 1 - moves) // 2
        if moves <= BOOK_DISCS and self.wants_book and not self._book_read:
            # The first search that can reach the book's depth: the kernel reads it now.
            self._book_read = True
            book = opening_book()
            if book is not None:
                self._kernel = make_negamax(grid, self.table, book)
        kernel = self._kernel
        limit = float("inf") if deadline is None else deadline
        if budget is not None:
            limit = min(limit, budget.deadline)
        kernel.start(limit, budget)
        try:
            while low < high:
                # Ask "is the score above mid?" with mid in the middle of [low, high],
                # or, before the end game, out at half of low (high) when that is farther
                # from 0: "does it lose (win) quickly?" is cheap (see "Null windows").
                mid = low + (high - low) // 2
                if cells - moves > END_GAME:
                    if mid <= 0 and low // 2 < mid:
                        mid = low // 2
                    elif mid >= 0 and high // 2 > mid:
                        mid = high // 2
                elif low <= 0 < high:
                    mid = 0  # the end game: does it win?
                elif high == 0:
                    mid = -1  # is it a draw?
                if mid < low_at:
                    low = low_at  # "above losing at once?": yes, without a search
                    continue
                if kernel.counters()[0] < OWN_CHUNK_AFTER:
                    score = kernel.negamax(cur, mask, moves, opp_wins, mid)
                else:  # a big search: in a chunk of the frame stack of its own
                    score = _in_own_chunk(kernel.negamax, cur, mask, moves, opp_wins, mid)
                if score <= mid:
                    high = score
                else:
                    low = score
        finally:
            kernel.stop()
            nodes, hits, cutoffs, self.lookups = kernel.counters()
            self.nodes = nodes
            self.stats.calls += nodes
            self.stats.cache_hits += hits
            self.stats.cutoffs += cutoffs
        if weak:
            return (low > 0) - (low < 0)
        return low


def _in_own_chunk(
    negamax: Callable[[int, int, int, int, int], int],
    cur: int,
    mask: int,
    moves: int,
    opp_wins: int,
    alpha: int,
) -> int:
    """``negamax(cur, mask, moves, opp_wins, alpha)``, run in a chunk of Python's frame
    stack of its own.

    CPython 3.11 keeps the frames of Python calls on a stack of 16 KB chunks, and frees
    a chunk as soon as the frame at its start returns. A frame of negamax takes 670
    bytes, so a search some 20 plies deep reaches the end of a chunk, and from then on
    every call at that depth maps a new chunk and unmaps it when it returns (two system
    calls, and fresh memory to fault in): on L2_R2 one call in 14, a tenth of the time.
    This function's frame is made bigger than a chunk (SEARCH_STACK words of stack that
    it never uses, set just below), so each call of it starts a new chunk of 64 KB (a
    new chunk is at least 8,000 bytes bigger than the frame that needs it); the rest of
    the chunk holds some 59 frames of negamax, more than the deepest search needs (42
    plies), and it is freed once, when this function returns. It costs a few
    microseconds, so :meth:`Solver._score` uses it only for a big search.
    """
    return negamax(cur, mask, moves, opp_wins, alpha)


_in_own_chunk.__code__ = _in_own_chunk.__code__.replace(
    co_stacksize=_in_own_chunk.__code__.co_stacksize + SEARCH_STACK
)


def _check_options(weak: object, deadline: object, budget: object) -> None:
    """Raise :class:`GameError` unless the options of a call are usable."""
    if not isinstance(weak, bool):
        raise GameError(f"weak must be True or False, got {weak!r}")
    if deadline is not None and (
        not isinstance(deadline, (int, float))
        or isinstance(deadline, bool)
        or deadline != deadline  # NaN
    ):
        raise GameError(f"deadline must be a time.perf_counter() value or None, got {deadline!r}")
    check_budget(budget)


def _check_clock(deadline: float | None, budget: Budget | None) -> None:
    """Raise :class:`SearchTimeout` if the time is up before the search begins."""
    if (deadline is not None and time.perf_counter() >= deadline) or (
        budget is not None and budget.expired()
    ):
        raise SearchTimeout("the time budget had run out before the search began")
