"""Game search: the reference versions of the algorithms the lessons derive.

Each module is one idea, in the order the lessons teach them:

=================  ======================================================================
module             what it adds
=================  ======================================================================
``common``         what every search shares: types, the seeded random source
                   (:func:`pick`), the argument checks of the public doors, and the one
                   limit of a search (:class:`Budget`: seconds up to ``MAX_SECONDS``,
                   depth, nodes, cancel; :class:`SearchTimeout`)
``door``           the door of every public search: the one rule a game must follow
                   (``finished`` says when it is over; a running state has moves), one
                   line of play checked, a broken game named in a GameError
``minimax``        the negamax recursion (:func:`minimax`)
``memo``           a cache of solved states (:func:`memo_minimax`)
``alphabeta``      pruning with a window (:func:`alphabeta`) and move ordering
``broken``         why alpha-beta results cannot be cached as if exact
``bounded``        a cache of bounds flagged ``'='``, ``'≤'``, ``'≥'`` (:func:`bounded_alphabeta`)
``depth_limited``  a depth limit and a heuristic, iterative deepening with a time budget
``heuristics``     estimates of a state's value: :func:`zero`, tic-tac-toe's open lines
``choice``         :func:`best_move`: a best move by exact values, chosen at random
``engine``         the computer player behind the boards (:func:`choose_move`,
                   :func:`move_values`), always within a time budget
``mcts``           Monte-Carlo tree search, UCT (:func:`mcts`): sampled playouts
                   instead of enumeration, seeded, with an iteration or time budget;
                   MCTS-Solver with ``solve=True``
``puct``           PUCT, MCTS guided by a prior and a value (``mcts(..., guide=...)``)
``playouts``       how a playout moves: :func:`random_policy`, :func:`tactical_policy`
``root_watch``     :class:`~gamelib.search.root_watch.RootWatch`: a search's root moves,
                   checkpoint by checkpoint
``trace``          a search step by step, for the viewer (:func:`trace_search`)
``cfr``            hidden cards: regret matching, counterfactual regret minimization
                   (:class:`CFR`), best responses and :func:`exploitability`
``stats``          :class:`Stats`, the exact counters of every search; :class:`Decision`
``match_stats``    what a match shows: a score with its 95% interval and Elo difference
                   (:func:`match_score`), a sequential test of a gain (:func:`sprt`)
=================  ======================================================================

Every search takes an optional :class:`Stats` and fills in what it did: calls, distinct
states, terminal states, cutoffs, cache hits and entries. Counts are exact and
reproducible, so the lessons compare algorithms by them rather than by time.

This package imports no user-interface library and nothing of Connect Four's own: the
solver, its player and its heuristic live in :mod:`gamelib.connect4`, a layer above.
"""

from gamelib.search.alphabeta import alphabeta, center_first
from gamelib.search.bounded import (
    EXACT,
    LOWER,
    UPPER,
    BoundCache,
    BoundRead,
    bounded_alphabeta,
    read_bound,
    store_bound,
)
from gamelib.search.broken import BrokenCacheExample, broken_alphabeta, find_broken_cache_example
from gamelib.search.cfr import CFR, exploitability, regret_matching
from gamelib.search.choice import best_move
from gamelib.search.common import MAX_SECONDS, Budget, Heuristic, MoveOrder
from gamelib.search.depth_limited import (
    depth_limited,
    iterative_deepening,
    only_safe_move,
    plies_to_end,
    proven_value,
)
from gamelib.search.engine import DEFAULT_SECONDS, choose_move, move_values
from gamelib.search.heuristics import tictactoe_open_lines, zero
from gamelib.search.match_stats import MatchScore, SprtResult, match_score, sprt
from gamelib.search.mcts import (
    MCTSResult,
    mcts,
)
from gamelib.search.memo import memo_minimax, memoize
from gamelib.search.minimax import minimax
from gamelib.search.playouts import PlayoutPolicy, random_policy, tactical_policy
from gamelib.search.stats import Decision, MCTSStats, Stats
from gamelib.search.trace import SearchTrace, trace_search

__all__ = [
    "Stats",
    "Decision",
    "Budget",
    "MAX_SECONDS",
    "DEFAULT_SECONDS",
    "minimax",
    "best_move",
    "memo_minimax",
    "memoize",
    "alphabeta",
    "center_first",
    "MoveOrder",
    "BoundCache",
    "BoundRead",
    "EXACT",
    "UPPER",
    "LOWER",
    "store_bound",
    "read_bound",
    "bounded_alphabeta",
    "broken_alphabeta",
    "find_broken_cache_example",
    "BrokenCacheExample",
    "Heuristic",
    "depth_limited",
    "iterative_deepening",
    "only_safe_move",
    "proven_value",
    "plies_to_end",
    "zero",
    "tictactoe_open_lines",
    "choose_move",
    "move_values",
    "SearchTrace",
    "trace_search",
    "mcts",
    "MCTSResult",
    "MCTSStats",
    "PlayoutPolicy",
    "random_policy",
    "tactical_policy",
    "CFR",
    "regret_matching",
    "exploitability",
    "match_score",
    "MatchScore",
    "sprt",
    "SprtResult",
]
