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
    in more lines of four.

The transposition table.
    Many move orders reach the same position, so results are remembered in a table of a
    fixed number of slots (``table_bits`` sets it): memory stays bounded however long the
    solver runs, and a new result simply replaces whatever was in its slot. The key of
    the position ``(cur, mask)`` is ``cur + mask``: it is unique, because in each column
    adding the column's discs to the player's discs moves one bit just above the stack
    (where the guard bit makes room for it) and leaves the player's discs below it.
    A search with the window ``(alpha, beta)`` does not always find the exact score: when
    every move fails low it only proves ``score <= alpha``, and a cut-off only proves
    ``score >= beta``. So the table stores *bounds*, an upper or a lower bound on the
    exact score; a later visit uses them to narrow its window, which often closes it.

Null windows.
    Instead of one search with the full window, :meth:`Solver.solve` asks a sequence of
    yes/no questions, "is the score above ``v``?", each a search with the empty window
    ``(v, v + 1)``. Such a search prunes far more than a wide one, and every answer halves
    the interval of possible scores. The questions start with values near 0 (``weak``
    asks only "win, draw or loss?") because those are cheap to answer and usually
    decisive; the table carries the bounds learnt by one question over to the next.

``Solver.nodes`` counts the positions searched: the calls of the recursive search,
including those answered at once by the rules above or by the table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

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
    three cells below count: the cells above an empty cell are empty).
    """
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


def _largest_prime_at_most(n: int) -> int:
    """The largest prime number that is not above ``n`` (for ``n >= 2``)."""
    candidate = n
    while True:
        if candidate % 2 or candidate == 2:
            divisor = 3
            while divisor * divisor <= candidate and candidate % divisor:
                divisor += 2
            if divisor * divisor > candidate:
                return candidate
        candidate -= 1


MIN_TABLE_BITS = 10
MAX_TABLE_BITS = 28


class Solver:
    """Exact scores of Connect Four positions on one board size.

    ``Solver(game, table_bits=20)`` makes a solver for the board of ``game`` (default
    the standard 6 x 7) with a transposition table of at most ``2**table_bits`` slots
    (``table_bits`` from 10 to 28). The table is kept from one call to the next, since
    positions recur; :meth:`reset` empties it. Scores follow the module docstring.

    After each call of :meth:`solve` or :meth:`analyze`, :attr:`nodes` holds the number
    of positions that call searched; :attr:`stats` adds up every call since the solver
    was made (``calls``: positions searched, ``cache_hits``: table entries that settled
    a position at once, ``cutoffs``: moves whose score reached beta). One solver may be
    shared by threads: calls take turns.
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
        self.game = game
        self.table_bits = table_bits
        self._slots = _largest_prime_at_most(1 << table_bits)
        self._table: list[int] = [-1] * self._slots
        self._lock = threading.Lock()
        self.nodes = 0
        """Positions searched by the last call of :meth:`solve` or :meth:`analyze`."""
        self.stats = Stats()
        """Counters summed over every call since the solver was made."""
        cols = game.cols
        self._order = sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))

    def reset(self) -> None:
        """Empty the transposition table (the counters are kept)."""
        with self._lock:
            self._table = [-1] * self._slots

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
        with self._lock:
            self.nodes = 0
            self._check_clock(deadline)
            score = self._solve(cur, mask, moves, weak, deadline)
        return score

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
        game = self.game
        cells = game.rows * game.cols
        height = game.height
        result: list[int | None] = []
        with self._lock:
            self.nodes = 0
            self._check_clock(deadline)
            nodes = 0
            for col in range(game.cols):
                if mask & game.top_masks[col]:
                    result.append(None)
                    continue
                disc = (mask + (1 << (col * height))) & game.column_masks[col]
                if _has_four(cur | disc, game.directions):
                    result.append(1 if weak else (cells + 1 - moves) // 2)
                    continue
                # The opponent moves next: its score, seen from our side.
                score = -self._solve(cur ^ mask, mask | disc, moves + 1, weak, deadline)
                nodes += self.nodes
                result.append(score)
            self.nodes = nodes
        return result

    # -- the search -------------------------------------------------------------

    def _position(self, state: C4State) -> tuple[int, int, int]:
        """``(cur, mask, moves)`` for a valid, unfinished ``state``; else GameError."""
        game = self.game
        game.validate(state)
        if game.finished(state):
            raise GameError("the game is already over: there is nothing left to solve")
        first, second = state
        mask = first | second
        moves = mask.bit_count()
        cur = second if moves & 1 else first
        return cur, mask, moves

    @staticmethod
    def _check_clock(deadline: float | None) -> None:
        if deadline is not None and time.perf_counter() >= deadline:
            raise SearchTimeout("the deadline had passed before the search began")

    def _solve(self, cur: int, mask: int, moves: int, weak: bool, deadline: float | None) -> int:
        """Score of the unfinished position ``(cur, mask)`` with ``moves`` discs.

        Handles the positions that need no search (a full board, an immediate win),
        then narrows ``[low, high]`` with null-window searches. Sets :attr:`nodes`.
        """
        game = self.game
        rows, cols = game.rows, game.cols
        cells = rows * cols
        full = game.full
        playable = (mask + game.bottom) & full
        self.nodes = 0
        if playable & winning_cells(cur, mask, rows, cols):
            return 1 if weak else (cells + 1 - moves) // 2
        opp_wins = winning_cells(cur ^ mask, mask, rows, cols)
        search = self._make_search(deadline)
        if weak:
            low, high = -1, 1
        else:
            low, high = -((cells - moves) // 2), (cells + 1 - moves) // 2
        try:
            while low < high:
                # Ask "is the score above mid?" with mid in the middle of [low, high],
                # but pulled towards 0, where the answers are cheaper and more useful.
                mid = low + (high - low) // 2
                if mid <= 0 and low // 2 < mid:
                    mid = low // 2
                elif mid >= 0 and high // 2 > mid:
                    mid = high // 2
                score = search(cur, mask, moves, opp_wins, mid, mid + 1)
                if score <= mid:
                    high = score
                else:
                    low = score
        finally:
            self._collect()
        if weak:
            return (low > 0) - (low < 0)
        return low

    def _collect(self) -> None:
        """Move the counters of the last search into :attr:`nodes` and :attr:`stats`."""
        counters = self._counters
        self.nodes = counters[0]
        self.stats.calls += counters[0]
        self.stats.cache_hits += counters[1]
        self.stats.cutoffs += counters[2]

    def _make_search(self, deadline: float | None) -> Callable[[int, int, int, int, int, int], int]:
        """The recursive null-window search, with the board's constants bound locally."""
        game = self.game
        rows, cols = game.rows, game.cols
        cells = rows * cols
        full = game.full
        bottom = game.bottom
        columns = [game.column_masks[c] for c in self._order]
        table = self._table
        slots = self._slots
        clock = time.perf_counter
        limit = float("inf") if deadline is None else deadline
        # counters: nodes, table hits, cut-offs
        counters = [0, 0, 0]
        self._counters = counters
        min_score = -(cells // 2) - 1
        lower_flag = cells + 4  # codes >= lower_flag are lower bounds

        def search(cur: int, mask: int, moves: int, opp_wins: int, alpha: int, beta: int) -> int:
            counters[0] += 1
            if not counters[0] & 4095 and clock() >= limit:
                raise SearchTimeout("the deadline passed during the search")
            playable = (mask + bottom) & full
            forced = playable & opp_wins
            if forced:
                if forced & (forced - 1):
                    return -((cells - moves) // 2)
                playable = forced
            candidates = playable & ~(opp_wins >> 1)
            if not candidates:
                return -((cells - moves) // 2)
            if moves >= cells - 2:
                return 0
            low = -((cells - 2 - moves) // 2)
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
            high = (cells - 1 - moves) // 2
            key = cur + mask
            entry = table[key % slots]
            if entry >> 8 == key:
                code = entry & 255
                if code >= lower_flag:
                    bound = code - lower_flag + min_score
                    if bound > alpha:
                        alpha = bound
                        if alpha >= beta:
                            counters[1] += 1
                            return alpha
                else:
                    bound = code + min_score
                    if bound < high:
                        high = bound
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
            children: list[tuple[int, int, int]] = []
            for column in columns:
                disc = candidates & column
                if disc:
                    child = cur | disc
                    threats = winning_cells(child, mask, rows, cols)
                    children.append(((threats.bit_count() << 4) - len(children), disc, threats))
            children.sort(reverse=True)
            opp = cur ^ mask
            for _, disc, threats in children:
                score = -search(opp, mask | disc, moves + 1, threats, -beta, -alpha)
                if score >= beta:
                    counters[2] += 1
                    table[key % slots] = (key << 8) | (score - min_score + lower_flag)
                    return score
                if score > alpha:
                    alpha = score
            table[key % slots] = (key << 8) | (alpha - min_score)
            return alpha

        return search


def _has_four(discs: int, directions: tuple[int, ...]) -> bool:
    """True iff ``discs`` holds four in a row along one of ``directions``."""
    for d in directions:
        pairs = discs & (discs >> d)
        if pairs & (pairs >> 2 * d):
            return True
    return False
