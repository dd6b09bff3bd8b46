"""A perfect Connect Four solver: the exact score of a position, in pure Python.

The score
---------
The score of a position is for the player to move, assuming both sides play perfectly:
``0`` for a draw, positive when the player to move wins, negative when it loses. Its
size says how fast the game ends: a win is worth one point more than the number of
discs the winner still holds when it wins, counting its own winning disc as played.

On a board with ``N = rows * cols`` cells the game ends with ``M`` discs on the board,
and then the winner still holds ``(N - M) // 2`` discs: the first player owns
``ceil(N / 2)`` of the discs, the second ``floor(N / 2)``, and the parity of ``M`` says
which of the two made the last move. Hence

    score = (N + 2 - M) // 2            for the winner, and minus that for the loser.

On the standard 6 x 7 board both players own 21 discs, so a winner that has placed ``k``
discs scores ``21 - k + 1 = 22 - k``, the convention of the benchmark files in
``tests/data/connect4``. On every board with an even number of cells the rule is
``N // 2 + 1 - k``. On boards with an odd number of cells (5 x 5, 5 x 7, ...) that
simpler formula would be wrong: it would give the first player's win with its very last
disc the score 0 of a draw, because the first player owns one disc more than the second.
The rule "one more than the discs left in hand" is positive for every win on every board.

:func:`score_to_moves` turns a score back into "wins with its n-th move from here".

How the solver works
--------------------
It is the negamax form of alpha-beta with a bounded transposition table, run as a
sequence of *null-window* searches. Each idea, and why it pays off:

Bitboards.
    A position is two ints, laid out as in :mod:`gamelib.games.connect_four`: ``mask``
    holds every disc, ``cur`` the discs of the player to move (the opponent's discs are
    ``cur ^ mask``). Column ``c`` uses bits ``c*H .. c*H + rows - 1`` with ``H = rows + 1``,
    and the bit above them is an always-empty *guard*. Adding the ``bottom`` mask (the
    lowest bit of every column) to ``mask`` carries through the filled part of each
    column and lands on its lowest free cell, so ``(mask + bottom) & full`` is the set of
    cells where a disc can be dropped now: every legal move at once, in three operations.

Winning cells.
    :func:`winning_cells` returns every empty cell that would complete four in a row for
    a player, found with a handful of shifts for all cells at once: a cell is winning
    if, along one of the four directions, the three cells on one side, or two on one side
    and one on the other, are the player's. It needs not be playable yet; a winning cell
    that is still floating in the air is a *threat* that shapes the rest of the game.

Pruning moves that lose at once.
    Before searching, the solver looks at the opponent's winning cells. If the opponent
    can win on one of the playable cells, the player to move must drop its disc exactly
    there (if there are two such cells, it has lost). A disc placed directly below an
    opponent's winning cell hands that cell to the opponent, so such moves are never
    searched. If no move survives, the position is lost at the opponent's next move and
    the score is known without any search. As a consequence a searched position never
    lets the player to move win at once: the parent has already dealt with that.

Bounds without search.
    Since the player to move cannot win with its next disc, and the opponent cannot win
    with its next one either, the score lies between the score of "lose with the
    opponent's second move from now" and "win with my second move from now". When the
    window ``(alpha, beta)`` lies outside these bounds the answer is known at once.

Move ordering by threats.
    Alpha-beta prunes the most when the best move is searched first. The solver sorts
    the moves by how many winning cells the move gives the player (moves that create
    threats first), breaking ties by preferring columns near the centre, which take part
    in more lines of four. A move that was the best one the last time the position was
    searched (the table remembers it) goes before all others.

All children at once.
    Ordering needs the winning cells of the player after each of its moves, and each
    such computation is some forty operations on Python ints, the most expensive part of
    a node. Python's cost per operation hardly depends on the size of the int, so the
    solver lays the boards after every move side by side in one wide int, one *lane* per
    column, and runs the forty operations once for all of them (a trick known as SWAR,
    "SIMD within a register"). A lane is wider than the board by the longest shift, so
    bits shifted out of one lane never land on the board cells of another.

The transposition table.
    Many move orders reach the same position, so results are remembered in a table: a
    dict from the key of a position to what was learnt about it. Its size is bounded
    (``table_bits`` sets it), so memory stays bounded however long the solver runs: the
    table is two generations of entries, and when the newer one is full the older one is
    dropped and a new generation begins. Recent results, the most likely to be needed
    again, are always kept, and dropping a generation costs nothing. The key of the position
    ``(cur, mask)`` is ``cur + mask``: it is unique, because in each column adding the
    column's discs to the player's discs moves one bit just above the stack (where the
    guard bit makes room for it) and leaves the player's discs below it.
    A search with the window ``(alpha, beta)`` does not always find the exact score: when
    every move fails low it only proves ``score <= alpha``, and a cut-off only proves
    ``score >= beta``. So the table stores *bounds*, an upper or a lower bound on the
    exact score; a later visit uses them to narrow its window, which often closes it.
    The search returns the tightest bound it has found (it is *fail-soft*), so the
    bounds it stores are as useful as they can be.

Null windows.
    Instead of one search with the full window, :meth:`Solver.solve` asks a sequence of
    yes/no questions, "is the score above ``v``?", each a search with the empty window
    ``(v, v + 1)``. Such a search prunes far more than a wide one, and each answer
    shrinks the interval ``[low, high]`` of possible scores until one score is left. The
    question is the middle of the interval, except that it moves out to half of ``low``
    (or of ``high``) when that is farther from 0: the first questions ask "does it lose
    (win) quickly?", which a shallow search answers, and the bounds and best moves they
    leave in the table make the harder questions near 0 cheaper, much as iterative
    deepening does in other games. ``weak=True`` asks only about the sign.

Looking for a double threat.
    The best score a searched position can still have is "win with my second disc from
    now", and the only way to get it is a move after which the opponent is lost at once:
    it has two winning cells of ours to block, or none of its moves keeps it alive. So
    when the question is whether the score reaches that best value, the solver looks for
    such a move among the winning cells of all its moves and searches no deeper. Many
    questions asked along the way are of this kind, and this rule answers them at the
    cost of one node instead of one node per move.

``Solver.nodes`` counts the positions searched: the calls of the recursive search,
including those answered at once by the rules above or by the table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import NamedTuple

from gamelib.game import GameError
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.stats import Stats

__all__ = ["Solver", "SearchTimeout", "score_to_moves", "winning_cells"]


class SearchTimeout(Exception):
    """The deadline given to a search passed before the search finished.

    The solver stays usable: everything it stored in its table is still correct.
    """


def winning_cells(player: int, mask: int, rows: int, cols: int) -> int:
    """The empty cells where a disc of ``player`` would complete four in a row.

    ``player`` is the bitboard of one player's discs and ``mask`` the bitboard of all
    discs, in the layout of :class:`ConnectFour` with ``rows`` x ``cols`` cells. The
    result is a bitboard of empty cells of the board (playable now or not). For each
    direction ``d`` a cell ``x`` is winning when ``player`` holds ``x-3d, x-2d, x-d``,
    ``x-2d, x-d, x+d``, ``x-d, x+d, x+2d`` or ``x+d, x+2d, x+3d`` (vertically only the
    three cells below count: the cells above an empty cell are empty). Raises
    :class:`GameError` for a board size that :class:`ConnectFour` does not support.
    """
    ConnectFour(rows, cols)  # checks the size
    h = rows + 1
    full = ((1 << (h * cols)) - 1) // ((1 << h) - 1) * ((1 << rows) - 1)
    p = player
    # Vertical: three discs right below the cell.
    won = (p << 1) & (p << 2) & (p << 3)
    for d in (h, h - 1, h + 1):
        # pair has a bit at x when x and x + d are both the player's
        pair = p & (p >> d)
        left = p << d  # the player holds x - d
        right = p >> d  # the player holds x + d
        # x+d, x+2d and x+3d; or x-d, x+d and x+2d
        won |= (pair >> d) & ((p >> 3 * d) | left)
        # x-2d, x-d and x+d; or x-3d, x-2d and x-d
        two_left = pair << 2 * d
        won |= (two_left & right) | ((two_left << d) & left)
    return won & (full ^ mask)


def score_to_moves(score: int, stones: int, game: ConnectFour | None = None) -> int:
    """How many more discs the winner drops, its winning disc included, with perfect play.

    ``score`` is the non-zero score of a position with ``stones`` discs on the board of
    ``game`` (default 6 x 7), for the player to move. For a positive score that player
    wins with its n-th disc from now; for a negative score the opponent wins with its
    n-th disc from now; the result is that n (at least 1). For example a score of 18 on
    the empty 6 x 7 board means the first player wins with its 4th disc.

    Raises :class:`GameError` for a score of 0 (a draw), for a score that no game from
    such a position can reach, or for a stone count off the board.
    """
    game = ConnectFour() if game is None else game
    if not isinstance(game, ConnectFour):
        raise GameError(f"game must be a ConnectFour board, got {type(game).__name__}")
    cells = game.rows * game.cols
    if not isinstance(stones, int) or not 0 <= stones < cells:
        raise GameError(f"stones must be a count from 0 to {cells - 1}, got {stones!r}")
    if not isinstance(score, int) or score == 0:
        raise GameError(f"score must be a non-zero int (0 is a draw), got {score!r}")
    # The game ends after M discs, the winner's last one included; the mover drops
    # discs number stones + 1, stones + 3, ..., so M has the parity of stones + 1 when
    # the mover wins, and that of stones when the opponent does.
    parity = (stones + 1) % 2 if score > 0 else stones % 2
    end = cells + 2 - 2 * abs(score)  # score = (cells + 2 - M) // 2: M is end or end - 1
    if end % 2 != parity:
        end -= 1
    if end <= stones or end > cells:
        raise GameError(
            f"score {score} is impossible with {stones} discs on a {game.rows}x{game.cols} board"
        )
    return (end - stones + 1) // 2


MIN_TABLE_BITS = 10
MAX_TABLE_BITS = 24


class _Kernel(NamedTuple):
    """The functions :func:`_make_search` builds for one board size."""

    search: Callable[[int, int, int, int, int], int]
    start: Callable[[float], None]
    finish: Callable[[], tuple[int, int, int]]
    clear: Callable[[], None]
    size: Callable[[], int]
    winning: Callable[[int, int], tuple[int, int]]
    has_four: Callable[[int], bool]
    width: int


class Solver:
    """Exact scores of Connect Four positions on one board size.

    ``Solver(game, table_bits=20)`` makes a solver for the board of ``game`` (default
    the standard 6 x 7) with a transposition table of at most about ``2**table_bits``
    entries (``table_bits`` from 10 to 24; the table may overshoot by a few thousand
    entries between two checks; an entry takes about 100 bytes, so the default table
    stays near 100 MB). The table is kept from one call to the next, since positions
    recur; :meth:`reset` empties it. Scores follow the module docstring.

    After each call of :meth:`solve` or :meth:`analyze`, :attr:`nodes` holds the number
    of positions that call searched; :attr:`stats` adds up every call since the solver
    was made (``calls``: positions searched, ``cache_hits``: table entries that settled
    a position at once, ``cutoffs``: searches whose score reached beta). One solver may
    be shared by threads: calls take turns.
    """

    def __init__(self, game: ConnectFour | None = None, *, table_bits: int = 20) -> None:
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
        self.game: ConnectFour = game
        """The board this solver is for."""
        self.table_bits = table_bits
        """The table holds at most about ``2**table_bits`` positions."""
        self.nodes = 0
        """Positions searched by the last call of :meth:`solve` or :meth:`analyze`."""
        self.stats = Stats()
        """Counters summed over every call since the solver was made."""
        self._lock = threading.Lock()
        self._kernel = _make_search(game, 1 << table_bits)

    def reset(self) -> None:
        """Empty the transposition table (the counters are kept)."""
        with self._lock:
            self._kernel.clear()

    @property
    def table_size(self) -> int:
        """How many positions the transposition table holds now."""
        return self._kernel.size()

    # -- public calls -----------------------------------------------------------

    def solve(self, state: C4State, *, weak: bool = False, deadline: float | None = None) -> int:
        """The exact score of ``state`` for the player to move (see the module docstring).

        With ``weak=True`` only the sign: ``1`` win, ``0`` draw, ``-1`` loss, which is
        usually faster to find. ``deadline`` is a :func:`time.perf_counter` value; the
        search raises :class:`SearchTimeout` soon after it passes (it looks at the clock
        every few thousand positions, and once at the start). Raises :class:`GameError`
        when ``state`` is not a valid position of this board or the game is over.
        """
        cur, mask, moves = self._position(state)
        _check_options(weak, deadline)
        with self._lock:
            self.nodes = 0
            _check_clock(deadline)
            return self._solve(cur, mask, moves, weak, deadline)

    def analyze(
        self, state: C4State, *, weak: bool = False, deadline: float | None = None
    ) -> list[int | None]:
        """The score of every column for the player to move; None for a full column.

        Entry ``c`` is the score of the position after the player to move drops a disc
        in column ``c`` (0-based), from that player's point of view, so the best moves
        are those with the largest entry and ``max`` of the entries equals
        :meth:`solve`. A move that wins at once gets the winning score. ``weak`` and
        ``deadline`` work as in :meth:`solve`; :attr:`nodes` counts all columns.
        """
        cur, mask, moves = self._position(state)
        _check_options(weak, deadline)
        game = self.game
        cells = game.rows * game.cols
        height = game.height
        result: list[int | None] = []
        with self._lock:
            self.nodes = 0
            _check_clock(deadline)
            nodes = 0
            for col in range(game.cols):
                if mask & game.top_masks[col]:
                    result.append(None)
                    continue
                disc = (mask + (1 << (col * height))) & game.column_masks[col]
                if self._kernel.has_four(cur | disc):
                    result.append(1 if weak else (cells + 1 - moves) // 2)
                elif moves + 1 == cells:
                    result.append(0)  # the last cell: a draw
                else:
                    # The opponent moves next: its score, seen from our side.
                    score = -self._solve(cur ^ mask, mask | disc, moves + 1, weak, deadline)
                    nodes += self.nodes
                    result.append(score)
            self.nodes = nodes
        return result

    # -- the search -------------------------------------------------------------

    def _position(self, state: C4State) -> tuple[int, int, int]:
        """``(cur, mask, moves)`` for a valid, unfinished ``state``; else GameError.

        The common case, a well-formed position, is checked with a few bit operations;
        anything odd goes to :meth:`ConnectFour.validate` for a precise message.
        """
        game = self.game
        try:
            first, second = state
            mask = first | second
            moves = mask.bit_count()
            sane = (
                type(first) is int
                and type(second) is int
                and first >= 0
                and second >= 0
                and not first & second
                and not mask & ~game.full
                # In every column the discs fill the cells from the bottom up, so
                # adding the bottom bit clears them all.
                and not (mask + game.bottom) & mask
                and 0 <= first.bit_count() - second.bit_count() <= 1
            )
        except (TypeError, ValueError):
            sane = False
        if not sane:
            game.validate(state)
            raise GameError(f"not a valid Connect Four position: {state!r}")
        # Lanes again (see _make_search): one test for four in a row of either player.
        if mask == game.full or self._kernel.has_four(first | (second << self._kernel.width)):
            raise GameError("the game is already over: there is nothing left to solve")
        cur = second if moves & 1 else first
        return cur, mask, moves

    def _solve(self, cur: int, mask: int, moves: int, weak: bool, deadline: float | None) -> int:
        """Score of the unfinished position ``(cur, mask)`` with ``moves`` discs.

        Handles the positions that need no search (an immediate win), then narrows
        ``[low, high]`` with null-window searches. Sets :attr:`nodes`.
        """
        game = self.game
        kernel = self._kernel
        cells = game.rows * game.cols
        self.nodes = 0
        my_wins, opp_wins = kernel.winning(cur, mask)
        if (mask + game.bottom) & game.full & my_wins:
            return 1 if weak else (cells + 1 - moves) // 2
        search = kernel.search
        if weak:
            low, high = -1, 1
        else:
            # Lose to the opponent's next disc .. win with my second disc from now.
            low, high = -((cells - moves) // 2), (cells - 1 - moves) // 2
        kernel.start(float("inf") if deadline is None else deadline)
        try:
            while low < high:
                # Ask "is the score above mid?" with mid in the middle of [low, high],
                # or out at half of low (high) when that is farther from 0: "does it
                # lose (win) quickly?" is cheap to answer (see "Null windows").
                mid = low + (high - low) // 2
                if mid <= 0 and low // 2 < mid:
                    mid = low // 2
                elif mid >= 0 and high // 2 > mid:
                    mid = high // 2
                score = search(cur, mask, moves, opp_wins, mid)
                if score <= mid:
                    high = score
                else:
                    low = score
        finally:
            nodes, hits, cutoffs = kernel.finish()
            self.nodes = nodes
            self.stats.calls += nodes
            self.stats.cache_hits += hits
            self.stats.cutoffs += cutoffs
        if weak:
            return (low > 0) - (low < 0)
        return low


def _check_options(weak: object, deadline: object) -> None:
    """Raise :class:`GameError` unless ``weak`` is a bool and ``deadline`` a time or None."""
    if not isinstance(weak, bool):
        raise GameError(f"weak must be True or False, got {weak!r}")
    if deadline is not None and (
        not isinstance(deadline, (int, float))
        or isinstance(deadline, bool)
        or deadline != deadline  # NaN
    ):
        raise GameError(f"deadline must be a time.perf_counter() value or None, got {deadline!r}")


def _check_clock(deadline: float | None) -> None:
    """Raise :class:`SearchTimeout` if ``deadline`` has passed."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise SearchTimeout("the deadline had passed before the search began")


def _make_search(game: ConnectFour, capacity: int) -> _Kernel:
    """The recursive null-window search for ``game``'s board, and its helpers.

    ``search(cur, mask, moves, opp_wins, alpha)`` answers "is the score of the
    position above ``alpha``?" for the position with the discs ``mask``, of which
    ``cur`` are those of the player to move, ``moves`` discs in all, where the
    opponent would win on the cells ``opp_wins``. The result ``v`` is an upper bound
    on the score when ``v <= alpha`` and a lower bound when ``v > alpha``.
    Precondition: the player to move cannot win with its next disc.

    The transposition table is two dicts, ``recent`` and ``older``, that map the key of
    a position to ``hint * 256 + code``: ``code`` is an upper bound ``score + offset``
    or, from ``lower_flag`` up, a lower bound ``score + lower_offset``; ``hint`` is 1 +
    the index (in centre-first order) of the move that was best last time, or 0. New
    entries go to ``recent``; a look-up tries ``recent``, then ``older``. When
    ``recent`` holds ``capacity // 2`` entries it becomes ``older`` and the previous
    ``older`` is dropped, so the table never holds much more than ``capacity`` entries
    and always keeps the most recent ones, at a cost of one ``dict`` swap.

    ``start(limit)`` zeroes the counters and sets the deadline (a
    :func:`time.perf_counter` value); ``finish()`` returns the counters
    ``(nodes, hits, cutoffs)`` of the searches since; ``clear()`` empties the table and
    ``size()`` counts its entries. ``winning(cur, mask)`` is the pair
    of :func:`winning_cells` of the player to move and of the opponent, and
    ``has_four(discs)`` tells whether ``discs`` hold four in a row, both for this board.

    The code is written for speed, since it runs once per node: everything it needs is
    a local name, the winning-cell computation of :func:`winning_cells` is written out
    in full, and the bounds that depend only on the number of discs are looked up in
    lists.
    """
    rows, cols = game.rows, game.cols
    cells = rows * cols
    full = game.full
    bottom = game.bottom
    order = sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))
    columns = [game.column_masks[c] for c in order]
    # Lanes: to find the winning cells after each possible move at once, the board
    # after a disc in column c is copied to bits c * width .. c * width + width - 1 of one
    # wide int. A lane is wider than the board by the longest shift used, so that bits
    # shifted out of one lane only ever land outside the board cells of the next.
    width = cols * (rows + 1) + 3 * (rows + 2)
    spread = sum(1 << (c * width) for c in range(cols))
    diagonal = sum(game.column_masks[c] << (c * width) for c in range(cols))
    numbered = [
        (column, index, order[index - 1] * width) for index, column in enumerate(columns, start=1)
    ]
    clock = time.perf_counter
    recent: dict[int, int] = {}
    older: dict[int, int] = {}
    recent_get = recent.get
    older_get = older.get
    half = max(1, capacity // 2)
    # Shift distances of one, two and three steps: across (h), and along the diagonals
    # that go down (d) and up (u) to the right. One step up is a shift by 1.
    h1, h2, h3 = rows + 1, 2 * (rows + 1), 3 * (rows + 1)
    d1, d2, d3 = rows, 2 * rows, 3 * rows
    u1, u2, u3 = rows + 2, 2 * (rows + 2), 3 * (rows + 2)
    # Scores that depend only on the number of discs m, for the player to move:
    # lose[m]  the opponent wins with its next disc;
    # low[m]   neither side wins with its next disc: the opponent's second disc at best;
    # high[m]  I cannot win with my next disc: my second disc from now at best.
    lose = [-((cells - m) // 2) for m in range(cells + 1)]
    low_at = [-((cells - 2 - m) // 2) for m in range(cells + 1)]
    high_at = [(cells - 1 - m) // 2 for m in range(cells + 1)]
    last_but_two = cells - 2
    last_but_three = cells - 3
    offset = cells // 2 + 1  # code = score + offset for an upper bound
    lower_flag = cells + 4
    lower_offset = offset + lower_flag  # code = score + lower_offset for a lower bound
    nodes = hits = cutoffs = 0
    limit = float("inf")

    def start(deadline: float) -> None:
        nonlocal nodes, hits, cutoffs, limit
        nodes = hits = cutoffs = 0
        limit = deadline
        age()

    def finish() -> tuple[int, int, int]:
        return nodes, hits, cutoffs

    def clear() -> None:
        recent.clear()
        older.clear()

    def size() -> int:
        return len(recent) + len(older)

    def age() -> None:
        """Start a new generation of table entries when the current one is full."""
        nonlocal recent, older, recent_get, older_get
        if len(recent) >= half:
            older, older_get = recent, recent_get
            recent = {}
            recent_get = recent.get

    def housekeeping() -> None:
        """Every 4096 nodes: look at the clock, and keep the table within its bounds."""
        if clock() >= limit:
            raise SearchTimeout("the deadline passed during the search")
        age()

    def winning(cur: int, mask: int) -> tuple[int, int]:
        """Winning cells of the player to move and of the opponent, in two lanes."""
        q = cur | ((cur ^ mask) << width)
        t = q << h1
        b = q >> h1
        wins = (
            ((q << 1) & (q << 2) & (q << 3))
            | (t & (q << h2) & ((q << h3) | b))
            | (b & (q >> h2) & ((q >> h3) | t))
        )
        t = q << d1
        b = q >> d1
        wins |= (t & (q << d2) & ((q << d3) | b)) | (b & (q >> d2) & ((q >> d3) | t))
        t = q << u1
        b = q >> u1
        wins |= (t & (q << u2) & ((q << u3) | b)) | (b & (q >> u2) & ((q >> u3) | t))
        empty = full ^ mask
        return wins & empty, (wins >> width) & empty

    def has_four(p: int) -> bool:
        """True iff ``p`` holds four in a row; ``p`` may hold several lanes."""
        pairs = p & (p >> 1)
        if pairs & (pairs >> 2):
            return True
        pairs = p & (p >> h1)
        if pairs & (pairs >> h2):
            return True
        pairs = p & (p >> d1)
        if pairs & (pairs >> d2):
            return True
        pairs = p & (p >> u1)
        return bool(pairs & (pairs >> u2))

    def search(cur: int, mask: int, moves: int, opp_wins: int, alpha: int) -> int:
        nonlocal nodes, hits, cutoffs
        nodes += 1
        if not nodes & 4095:
            housekeeping()
        # Moves that do not lose at once (see "Pruning moves that lose at once").
        playable = (mask + bottom) & full
        forced = playable & opp_wins
        if forced:
            if forced & (forced - 1):
                return lose[moves]  # two cells to block: lost
            playable = forced
        candidates = playable & ~(opp_wins >> 1)
        if not candidates:
            return lose[moves]
        if moves >= last_but_two:
            return 0  # nobody can win with the last two discs
        # Bounds without search, then the table.
        low = low_at[moves]
        if low > alpha:
            return low
        high = high_at[moves]
        if high <= alpha:
            return high
        key = cur + mask
        entry = recent_get(key)
        if entry is None:
            entry = older_get(key)
        hint = 0
        if entry is not None:
            code = entry & 255
            if code >= lower_flag:
                if code - lower_offset > alpha:
                    hits += 1
                    return code - lower_offset
            elif code - offset <= alpha:
                hits += 1
                return code - offset
            hint = entry >> 8
        empty = full ^ mask
        opp = cur ^ mask
        quick = alpha == high - 1 and moves < last_but_three
        if not quick and not candidates & (candidates - 1):
            # A single move: no ordering, so the winning cells of just one board.
            p = cur | candidates
            t = p << h1
            b = p >> h1
            wins = (
                ((p << 1) & (p << 2) & (p << 3))
                | (t & (p << h2) & ((p << h3) | b))
                | (b & (p >> h2) & ((p >> h3) | t))
            )
            t = p << d1
            b = p >> d1
            wins |= (t & (p << d2) & ((p << d3) | b)) | (b & (p >> d2) & ((p >> d3) | t))
            t = p << u1
            b = p >> u1
            wins |= (t & (p << u2) & ((p << u3) | b)) | (b & (p >> u2) & ((p >> u3) | t))
            score = -search(opp, mask | candidates, moves + 1, wins & empty, -alpha - 1)
            if score > alpha:
                cutoffs += 1
                recent[key] = score + lower_offset
            else:
                recent[key] = score + offset
            return score
        # The winning cells after every move at once: lane c of the wide int ``lanes``
        # holds them for the board after a disc in column c (see "All children at once").
        q = cur * spread | ((candidates * spread) & diagonal)
        t = q << h1
        b = q >> h1
        lanes = (
            ((q << 1) & (q << 2) & (q << 3))
            | (t & (q << h2) & ((q << h3) | b))
            | (b & (q >> h2) & ((q >> h3) | t))
        )
        t = q << d1
        b = q >> d1
        lanes |= (t & (q << d2) & ((q << d3) | b)) | (b & (q >> d2) & ((q >> d3) | t))
        t = q << u1
        b = q >> u1
        lanes |= (t & (q << u2) & ((q << u3) | b)) | (b & (q >> u2) & ((q >> u3) | t))
        if quick:
            # Only a move after which the opponent is lost at once (two cells to block,
            # or no move that keeps it alive) scores high; any other move scores at most
            # high - 1 = alpha. So look for such a move, and no deeper.
            for column, index, lane in numbered:
                disc = candidates & column
                if disc:
                    wins = (lanes >> lane) & empty
                    after = ((mask | disc) + bottom) & full
                    forced = after & wins
                    if forced & (forced - 1) or not (forced or after) & ~(wins >> 1):
                        cutoffs += 1
                        recent[key] = (index << 8) | (high + lower_offset)
                        return high
            recent[key] = (hint << 8) | (alpha + offset)
            return alpha
        children: list[tuple[int, int, int, int]] = []
        for column, index, lane in numbered:
            disc = candidates & column
            if disc:
                wins = (lanes >> lane) & empty
                # The move that was best last time first; then more threats first;
                # among equals, the more central column.
                order_key = (wins.bit_count() << 4) - index
                if index == hint:
                    order_key += 4096
                children.append((order_key, disc, wins, index))
        children.sort(reverse=True)
        moves += 1
        beta = -alpha - 1  # the child's alpha: the window (alpha, alpha + 1) negated
        best = lose[moves - 1]
        best_hint = 0
        for _, disc, wins, index in children:
            score = -search(opp, mask | disc, moves, wins, beta)
            if score > alpha:
                cutoffs += 1
                recent[key] = (index << 8) | (score + lower_offset)
                return score
            if score > best:
                best = score
                best_hint = index
        recent[key] = (best_hint << 8) | (best + offset)
        return best

    return _Kernel(search, start, finish, clear, size, winning, has_four, width)
