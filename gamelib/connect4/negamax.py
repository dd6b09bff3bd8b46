"""The solver's speed kernel: Lesson 8's negamax with a null window, written for speed.

This file is where :class:`~gamelib.connect4.solver.Solver` spends nearly all its time, so
it trades the house style for speed on purpose: one long function with every name local,
helpers written out instead of called, tables built in advance. What a reader must
understand is short: the four numbered steps of ``negamax`` below (moves that do not lose
at once, the table and the opening book, bounds without search, the moves in order), which
are Lesson 8's negamax with Lesson 5's ``read_bound`` and ``store_bound``. Why each step
pays off is told in :mod:`gamelib.connect4.solver`'s docstring ("How the solver works");
the step numbers here are those of "Where to read" there. The rest is bookkeeping: the
budget's looks (``housekeeping``) and prebuilt table entries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

from gamelib.connect4.bitboard import Geometry
from gamelib.connect4.book import BOOK_DISCS, Book
from gamelib.connect4.table import NO_MOVE, Entry, Table
from gamelib.search.bounded import LOWER, UPPER
from gamelib.search.common import Budget, SearchTimeout

__all__ = ["CHECK_EVERY", "Kernel", "make_negamax"]

CHECK_EVERY = 4096
"""Without a budget, the search looks at its clock and its table's size once every this
many nodes; with one, as often as :meth:`Budget.look
<gamelib.search.common.Budget.look>` asks (so a node limit is met exactly)."""

UNREAD: Entry = ("unread", 0, 0)
"""negamax's ``entry`` when the caller has not read the table: negamax reads it."""


class Kernel(NamedTuple):
    """The search :func:`make_negamax` builds for one board, and its controls."""

    negamax: Callable[[int, int, int, int, int], int]
    """``negamax(cur, mask, moves, opp_wins, alpha)``: see :func:`make_negamax` (the
    search passes its children one more argument, ``entry``)."""
    start: Callable[[float, Budget | None], None]
    """``start(limit, budget)``: zero the counters, set the deadline; before a search."""
    stop: Callable[[], None]
    """``stop()``: after a search, count its nodes since the last look against the budget."""
    counters: Callable[[], tuple[int, int, int, int]]
    """``counters()``: ``(nodes, hits, cutoffs, lookups)`` since :attr:`start` (lookups:
    positions the opening book answered); read during a search too."""


def make_negamax(grid: Geometry, table: Table, book: Book | None = None) -> Kernel:
    """Lesson 8's negamax for ``grid``'s board, with the null window ``(alpha, alpha + 1)``.

    ``negamax(cur, mask, moves, opp_wins, alpha)`` answers "is the score of the position
    above ``alpha``?" for the position ``(cur, mask)`` with ``moves`` discs, where the
    opponent would win on the cells ``opp_wins``. The result ``v`` is an upper bound on
    the score when ``v <= alpha`` and a lower bound when ``v > alpha`` (fail-soft).
    Preconditions: the player to move cannot win with its next disc, and the question
    is open: ``low <= alpha < high``, where ``low`` is the score of losing to the
    opponent's second disc from now and ``high`` that of winning with my second disc
    from now (see "Bounds without search" in :mod:`gamelib.connect4.solver`).
    :meth:`Solver._score <gamelib.connect4.solver.Solver._score>` asks only such
    questions, and a position that holds them passes them on to every child it
    searches, so this search never checks them (1-2% of its time).

    With ``book`` (only for the 7 x 6 board) a position with
    :data:`~gamelib.connect4.book.BOOK_DISCS` discs that the table does not settle is
    looked up instead of searched: its exact score, stored in the table as a bound.

    ``entry``, when given, is what the table's current generation holds for the position
    (an :data:`~gamelib.connect4.table.Entry`, or None for nothing), as the parent read
    it for its enhanced transposition cut-off, and the search does not read it again
    (1-2% of its time). It is still true when the search begins, even for the parent's
    last child: only positions with more discs, and the children themselves, are written
    between the reading and the search, and a new generation keeps the older one.

    The code is written for speed, since it runs once per node: everything it needs is
    a local name, the bounds that depend only on the number of discs are looked up in
    lists, and :meth:`Geometry.threats <gamelib.connect4.bitboard.Geometry.threats>` is
    written out in step 4 instead of called (a call costs a few percent here; a test,
    ``test_solver_threats_are_bitboard_threats``, checks that the copy and the original
    agree). Its steps are numbered as in :mod:`gamelib.connect4.solver`'s docstring.
    """
    cells, full, bottom = grid.cells, grid.full, grid.bottom
    cols, rows = grid.cols, grid.rows
    # The shifts of Geometry.threats: one, two and three steps across (h), down-right
    # (d) and up-right (u); one step up is a shift by 1.
    h1, h2, h3 = rows + 1, 2 * (rows + 1), 3 * (rows + 1)
    d1, d2, d3 = rows, 2 * rows, 3 * rows
    u1, u2, u3 = rows + 2, 2 * (rows + 2), 3 * (rows + 2)
    order = sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))
    # Lanes (see "All children at once"): the board after a disc in column c goes to
    # bits c * width .. c * width + width - 1 of one wide int. A lane is the board and
    # one empty column: side by side, the lanes are one wide board in which every four
    # that spans two lanes crosses an empty column, so it cannot complete a threat on a
    # board cell (a threat needs three discs of its four, and the fourth cell is the
    # threat). Each lane's threats are those of its board alone. It is the narrowest
    # lane that works, and narrower ints are a little faster (56 bits instead of 73 on
    # 6 x 7, with margins the length of the longest shift: 2-3% less time).
    width = (cols + 1) * (rows + 1)
    spread = sum(1 << (c * width) for c in range(cols))
    diagonal = sum(grid.column_masks[c] << (c * width) for c in range(cols))
    # (column mask, move number in centre-first order from 1, shift of its lane)
    numbered = [
        (grid.column_masks[col], index, col * width) for index, col in enumerate(order, start=1)
    ]
    column_at = [0] + [grid.column_masks[col] for col in order]  # by move number; 0: none
    threats = grid.threats
    half_full = cells // 2
    # Scores that depend only on the number of discs m, for the player to move:
    # lose[m]        the opponent wins with its next disc;
    # below_high[m]  one less than high, the best score left when I cannot win with my
    #                next disc (my second disc from now): the alpha of "can I reach it?"
    lose = [-((cells - m) // 2) for m in range(cells + 1)]
    below_high = [(cells - 1 - m) // 2 - 1 for m in range(cells + 1)]
    clock = time.perf_counter
    # The opening book's depth and lookup; -1 (never reached) without a book.
    book_discs = BOOK_DISCS if book is not None else -1
    book_score = book.score if book is not None else None
    # Lesson 5's flags '≥' (LOWER) and '≤' (UPPER), as local names: read once per node.
    lower, upper, no_move = LOWER, UPPER, NO_MOVE
    # Every entry negamax can write, made once: lower_entry[v][move] is the tuple
    # (LOWER, v, move), upper_entry[v][move] is (UPPER, v, move). Storing one allocates
    # nothing, so a table of a million entries holds no million tuples (their memory and
    # the garbage collector's visits cost several percent). A negative v indexes the
    # list from its end, as Python does.
    values = range(-(cells // 2) - 1, cells // 2 + 2)
    lower_entry: list[list[Entry]] = [[] for _ in values]
    upper_entry: list[list[Entry]] = [[] for _ in values]
    for v in values:
        lower_entry[v] = [(lower, v, move) for move in range(cols + 1)]
        upper_entry[v] = [(upper, v, move) for move in range(cols + 1)]
    recent: dict[int, tuple[str, int, int]] = table.recent
    recent_get, older_get = recent.get, table.older.get
    nodes = hits = cutoffs = lookups = 0
    next_look = counted = 0  # housekeeping after next_look nodes; nodes the budget counted
    limit = float("inf")
    budget: Budget | None = None

    def start(deadline: float, new_budget: Budget | None) -> None:
        nonlocal nodes, hits, cutoffs, lookups, limit, budget, next_look, counted
        nodes = hits = cutoffs = lookups = counted = 0
        limit, budget = deadline, new_budget
        next_look = CHECK_EVERY if budget is None else budget.look(0)
        housekeeping_table()

    def stop() -> None:
        nonlocal counted
        if budget is not None:
            budget.count(nodes - counted)
            counted = nodes

    def counters() -> tuple[int, int, int, int]:
        return nodes, hits, cutoffs, lookups

    def housekeeping_table() -> None:
        """Start a new table generation when the current one is full; bind it locally."""
        nonlocal recent, recent_get, older_get
        table.age()
        recent = table.recent
        recent_get, older_get = recent.get, table.older.get

    def housekeeping() -> None:
        """After next_look nodes: the clock, the budget (its cancel flag, its node count;
        it says when to look next), the table's size."""
        nonlocal next_look, counted
        step = CHECK_EVERY
        if budget is not None:
            step = budget.look(nodes - counted)  # raises SearchTimeout when spent
            counted = nodes
        if clock() >= limit:
            raise SearchTimeout("the time budget ran out during the search")
        next_look = nodes + step
        housekeeping_table()

    def negamax(
        cur: int, mask: int, moves: int, opp_wins: int, alpha: int, entry: Entry | None = UNREAD
    ) -> int:
        nonlocal nodes, hits, cutoffs, lookups
        if nodes >= next_look:
            housekeeping()
        nodes += 1
        # 1. Moves that do not lose at once (see "Pruning moves that lose at once").
        playable = (mask + bottom) & full
        forced = playable & opp_wins
        if forced:
            if forced & (forced - 1):
                return lose[moves]  # two cells to block: lost
            playable = forced
        candidates = playable & ~(opp_wins >> 1)
        if not candidates:
            return lose[moves]
        # 2. The table: Lesson 5's read_bound with the window (alpha, alpha + 1). The
        # parent passes what the current generation holds (see entry in the docstring).
        key = cur + mask
        if entry is UNREAD:
            entry = recent_get(key)
        entry = entry or older_get(key)
        hint = no_move
        if entry is not None:
            flag, value, hint = entry
            if flag == lower:
                if value > alpha:  # ('≥', value) and value >= beta: a cut-off
                    hits += 1
                    return value
            elif value <= alpha:  # ('≤', value) and value <= alpha: fails low
                hits += 1
                return value
        if moves == book_discs:  # The opening book (7 x 6): the exact score, looked up.
            score = book_score(key)  # type: ignore[misc]  # not None with book_discs set
            if score is not None:
                lookups += 1
                recent[key] = (lower_entry if score > alpha else upper_entry)[score][hint]
                return score
        empty = full ^ mask
        # 3. Bounds without search: the question is always open here (the precondition),
        # so neither bound answers it, but when it is "can I reach the best score that
        # is left, a win with my second disc from now?" only a move after which the
        # opponent is lost at once (two of our threats to block, or no move that keeps
        # it alive) can; any other move scores at most alpha. So look for one, among the
        # threats after every move, and search no deeper (see "Looking for a double
        # threat"); its lanes are as in step 4.
        if alpha == below_high[moves]:
            lanes = threats(cur * spread | ((candidates * spread) & diagonal))
            for column, index, lane in numbered:
                disc = candidates & column
                if disc:
                    wins = (lanes >> lane) & empty
                    after = ((mask | disc) + bottom) & full
                    forced = after & wins
                    if forced & (forced - 1) or not (forced or after) & ~(wins >> 1):
                        cutoffs += 1
                        recent[key] = lower_entry[alpha + 1][index]
                        return alpha + 1
            recent[key] = upper_entry[alpha][hint]
            return alpha
        # 4. The moves, and each child's threats (the opponent's wins of its position).
        # A move searched before any ordering, on the board after it alone: the only
        # move, or last time's best (it settles two positions in three). Else lane c of p
        # holds the board after a disc in column c (see "All children at once").
        first = candidates & column_at[hint] if candidates & (candidates - 1) else candidates
        opp = cur ^ mask
        child_key = opp + mask  # + disc: the table key of the position after disc
        if first:
            # Its enhanced transposition cut-off (as for the other moves, below).
            entry = recent_get(child_key + first)
            if entry is not None:
                flag, value, _ = entry
                if flag == upper:
                    if value < -alpha:
                        hits += 1
                        cutoffs += 1
                        recent[key] = lower_entry[-value][hint]
                        return -value
                elif value >= -alpha:
                    hits += 1
                    if first == candidates:
                        recent[key] = upper_entry[-value][hint]
                        return -value
                    best = -value
                    candidates ^= first
                    first = 0
        else:
            best = lose[moves]  # the best score of a move yet: none
        p = cur | first if first else cur * spread | ((candidates * spread) & diagonal)
        # lanes = threats(p), written out: Geometry.threats in gamelib/connect4/bitboard.py
        # is its definition, and a test checks that the two agree.
        t = p << h1
        b = p >> h1
        pair = p & t
        lanes = (
            ((p << 1) & (p << 2) & (p << 3))
            | ((pair << h1) & ((p << h3) | b))
            | ((pair >> h2) & ((p >> h3) | t))
        )
        t = p << d1
        b = p >> d1
        pair = p & t
        lanes |= ((pair << d1) & ((p << d3) | b)) | ((pair >> d2) & ((p >> d3) | t))
        t = p << u1
        b = p >> u1
        pair = p & t
        lanes |= ((pair << u1) & ((p << u3) | b)) | ((pair >> u2) & ((p >> u3) | t))
        # (end of threats)
        if first:
            score = -negamax(opp, mask | first, moves + 1, lanes & empty, -alpha - 1, entry)
            if score > alpha:
                cutoffs += 1
                recent[key] = lower_entry[score][hint]
                return score
            if first == candidates:
                recent[key] = upper_entry[score][hint]
                return score
            # Last time's best fails now: order the other moves, all at once.
            best = score
            candidates ^= first
            lanes = threats(cur * spread | ((candidates * spread) & diagonal))
        # Children by key, smallest first: more threats (one right above the move counts
        # twice in the first half of the game, one right above an opponent's threat not
        # at all), then the centre. A threat right above the opponent's is worth nothing:
        # the cell under it must be filled first, by the opponent (who wins) or by me,
        # and then the opponent blocks mine.
        children: list[tuple[int, int, int, int, Entry | None]] = []
        useful = ~(opp_wins << 1)  # the cells not right above an opponent's threat
        for column, index, lane in numbered:
            disc = candidates & column
            if disc:
                # Enhanced transposition cut-offs: the child's entry, if the table's current
                # generation has one. A child worth at most -alpha - 1 to the opponent ('≤')
                # is worth more than alpha to us: a cut-off. A child worth at least -alpha
                # to the opponent ('≥') fails low: it needs no search.
                entry = recent_get(child_key + disc)
                if entry is not None:
                    flag, value, _ = entry
                    if flag == upper:
                        if value < -alpha:
                            hits += 1
                            cutoffs += 1
                            recent[key] = lower_entry[-value][index]
                            return -value
                    elif value >= -alpha:
                        hits += 1
                        if -value > best:
                            best = -value
                        continue
                wins = (lanes >> lane) & empty
                order_key = index - ((wins & useful).bit_count() << 4)
                if moves < half_full and wins & (disc << 1):
                    order_key -= 16
                children.append((order_key, disc, wins, index, entry))
        children.sort()  # the keys differ (by index), so the order is fully defined
        moves += 1
        beta = -alpha - 1  # the child's alpha: the window (alpha, alpha + 1) negated
        for _, disc, wins, index, entry in children:
            score = -negamax(opp, mask | disc, moves, wins, beta, entry)
            if score > alpha:  # Lesson 5's store_bound: a lower bound
                cutoffs += 1
                recent[key] = lower_entry[score][index]
                return score
            if score > best:
                best = score
        # Every move failed low: an upper bound. It remembers no move: the best of the
        # failing moves is a worse first guess next time than the threat ordering.
        recent[key] = upper_entry[best][no_move]
        return best

    return Kernel(negamax, start, stop, counters)
