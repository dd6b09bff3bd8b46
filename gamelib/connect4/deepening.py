"""The Connect Four player's heuristic search: iterative deepening alpha-beta on bitboards.

This is Lesson 6's iterative deepening (:func:`gamelib.search.iterative_deepening`),
written out on bitboards for the player of :mod:`gamelib.connect4.player`, with the
tactics of Lesson 8 inside the tree: a node first looks for a win on the move and for the
opponent's playable threats (one must be blocked, two lose), and a forced block does not
use up depth. Values are integers, ``WIN - ply`` for a win found ``ply`` plies deep; the
player turns them into the course's value scale.

Why not the generic search? :func:`gamelib.search.iterative_deepening` works on any game
through ``next_states``; this one is the same algorithm specialised to bitboards and
Connect Four's tactics, so that the computer at a lecture's board looks as deep as the
generic search does in the same time and never misses a forced block inside its tree.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from gamelib.connect4.bitboard import geometry
from gamelib.games.connect_four import ConnectFour
from gamelib.search.common import Budget
from gamelib.search.stats import Stats

__all__ = ["PROVEN", "WIN", "HeuristicSearch", "evaluation"]

WIN: Final = 1_000_000
"""Internal score of a win on the move; a win ``p`` plies later scores ``WIN - p``."""
PROVEN: Final = WIN - 1000
"""Internal scores at or beyond +-``PROVEN`` are proven wins and losses."""

# Weights of the evaluation (internal integer units).
_THREAT: Final = 12
_GOOD_ROW: Final = 8
_CENTRE: Final = 2


class _Timeout(Exception):
    """The heuristic search's time is up (its deadline passed or its budget ran out)."""


_Negamax = Callable[[int, int, int, int, int, int], int]


class HeuristicSearch:
    """Iterative deepening negamax alpha-beta on bitboards with a threat heuristic.

    A position is ``(cur, mask)``: the discs of the player to move and all discs.
    Each node first looks for a win on the move (a proven win) and for the opponent's
    playable threats (one must be blocked, two lose); a forced block does not use up
    depth. Otherwise it never drops a disc right below an opponent's threat, and at
    depth 0 it returns the heuristic. A table of the best move found in each position
    (from earlier, shallower iterations) orders the moves, then centre first.
    """

    def __init__(
        self, game: ConnectFour, stats: Stats, deadline: float, budget: Budget | None
    ) -> None:
        self.game = game
        self.stats = stats
        self.deadline = deadline
        """A :func:`time.perf_counter` value (``math.inf``: none)."""
        self.budget = budget
        """Also stops the search when it runs out or is cancelled."""
        self.calls = 0
        self.cutoffs = 0
        self.timed = False
        self.interrupted = False
        """True when the time ran out before the last iteration asked for finished."""
        self.negamax = self._negamax_function()

    def root(
        self, cur: int, mask: int, columns: list[int], max_depth: int | None
    ) -> dict[int, int]:
        """The score of each of ``columns`` of ``(cur, mask)`` from the last finished depth.

        Depth 1 always finishes; deeper iterations stop at the deadline. The root
        searches every column with a full window so that each gets a true value (the
        hints need them), while the subtrees below prune with alpha-beta.
        """
        game = self.game
        stats = self.stats
        empty_cells = game.rows * game.cols - mask.bit_count()
        limit = empty_cells if max_depth is None else min(max_depth, empty_cells)
        order = list(columns)
        finished: dict[int, int] = {}
        opp = cur ^ mask
        for depth in range(1, limit + 1):
            self.timed = depth > 1
            calls_before = self.calls
            scores: dict[int, int] = {}
            try:
                for col in order:
                    disc = (mask + game.bottom_masks[col]) & game.column_masks[col]
                    scores[col] = -self.negamax(opp, mask | disc, depth - 1, -WIN, WIN, 1)
            except _Timeout:
                self.interrupted = True
                break
            finally:
                stats.calls += self.calls - calls_before
                stats.cutoffs = stats.cutoffs + self.cutoffs
                self.cutoffs = 0
            finished = scores
            stats.depth = depth
            stats.nodes_per_depth[depth] = self.calls - calls_before
            order.sort(key=lambda col: -scores[col])
            if all(abs(score) >= PROVEN for score in scores.values()):
                break  # every column proven: a deeper search cannot change a value
        return finished

    def _negamax_function(self) -> _Negamax:
        """Build the recursive search with the board's constants bound as locals."""
        game = self.game
        full = game.full
        bottom = game.bottom
        cells = game.rows * game.cols
        order = sorted(range(game.cols), key=lambda c: abs(2 * c - (game.cols - 1)))
        column_order = [game.column_masks[c] for c in order]
        wins_of = geometry(game).threats
        evaluate = evaluation(game)
        best_moves: dict[int, int] = {}
        max_entries = 1 << 18
        perf_counter = time.perf_counter
        deadline = self.deadline
        budget = self.budget
        cancelled: Callable[[], bool] = (lambda: False) if budget is None else budget.expired
        search = self

        def negamax(cur: int, mask: int, depth: int, alpha: int, beta: int, ply: int) -> int:
            """The value of ``(cur, mask)`` for its player to move, ``ply`` discs deep.

            Fail-hard alpha-beta in negamax form: exact inside (alpha, beta), an upper
            bound at or below alpha, a lower bound at or above beta. The parent never
            passes a won position (it returns as soon as it can win); a full board is
            a draw.
            """
            search.calls += 1
            if (
                search.timed
                and not search.calls & 1023
                and (perf_counter() > deadline or cancelled())
            ):
                raise _Timeout
            if mask == full:
                return 0
            opp = cur ^ mask
            empty = full & ~mask
            possible = (mask + bottom) & full
            my_wins = wins_of(cur) & empty
            if my_wins & possible:
                return WIN - ply - 1  # the next disc, number ply + 1, wins
            opp_wins = wins_of(opp) & empty
            forced = opp_wins & possible
            if forced:
                if forced & (forced - 1):
                    return ply + 2 - WIN  # two threats: the opponent's next disc wins
                candidates = forced
                next_depth = depth  # a forced block does not use up depth
            else:
                candidates = possible & ~(opp_wins >> 1)
                if not candidates:
                    return ply + 2 - WIN  # every disc opens a win for the opponent
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
            best = -WIN - 1
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



def evaluation(game: ConnectFour) -> Callable[[int, int, int, int, int], int]:
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

