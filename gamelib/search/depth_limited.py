"""Depth-limited search: alpha-beta that looks only so far ahead, then estimates.

Most games are far too large to search to the end. A depth-limited search follows
every line of play for ``depth`` plies (moves of either player) and then asks a
*heuristic* (see :mod:`gamelib.search.heuristics`) how good the state at the horizon
looks::

    value(s, p, d) = the proven value of s           if finished(s)
    value(s, p, 0) = heuristic(s, p)                 otherwise, at the horizon
    value(s, p, d) = max { -value(n, o, d - 1) : n in next_states(s, p) }

with alpha-beta pruning on top, exactly as in :mod:`gamelib.search.alphabeta`.

The value scale
---------------
Heuristic estimates lie strictly inside (-1, 1). A finished state found ``k`` plies
below the root of the search is scored beyond them::

    win  after k plies:  +(1 + 1 / (k + 1))     e.g. k = 1: 1.5, k = 3: 1.25
    loss after k plies:  -(1 + 1 / (k + 1))
    draw:                 0

So every proven win is worth more than every estimate, a quicker win more than a slower
one, and a slower loss more than a quicker one (the player fights on). The sign and the
magnitude above 1 of a value tell whether it is proven: :func:`proven_value` makes such
values and :func:`plies_to_end` reads ``k`` back. With a depth at least the number of
plies left in the game, the search never meets the horizon and its value has the sign of
the exact minimax value.

Iterative deepening
-------------------
:func:`iterative_deepening` searches to depth 1, then 2, then 3, ... Each iteration
tries first, in every state, the move that was best there in the previous iteration,
and at the root the moves in the order of their previous values. The shallow
iterations cost little next to the deepest one and make its pruning much better. The
search can stop at any moment: with a time budget (a :class:`~gamelib.search.common.Budget`)
it returns the best move of the last iteration that finished, abandons the running one
when the time is up or the budget is cancelled, and says so (``Decision.cut_short``).

Forced moves cost no depth
--------------------------
A line that ends at the horizon just after a player was forced to block an immediate
win is judged too early: the block, and what it allows, is the whole story. With the
option ``forced`` (a function ``forced(state)`` that returns the move the player to move
must play: a move that wins at once if there is one, else the one move that does not
lose at once; None when there are several such moves or none), a state with such a move
searches only that move and passes the same depth on::

    value(s, p, d) = -value(play(s, m), o, d)        if forced(s) = m

so a forced block never uses up a ply, also at the horizon: the search *extends* forced
lines (and sees a win on the move even at the horizon). Only the forced move is searched,
and the value is the same as if all were: a win at once is the best value there is, and
when the forced move is the only one that does not lose at once, every other move loses
at once, which is worth less than anything the forced move can lead to.
:func:`only_safe_move` builds ``forced`` from a game's rules alone; a game may offer a
faster one (Connect Four's, from its threats, in :mod:`gamelib.connect4.player`). A line
can be extended at most once per ply left in the game, so the search still ends.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence

from gamelib.game import GameError, Player, other
from gamelib.search.common import (
    AnyGame,
    Budget,
    Heuristic,
    MoveOrder,
    Observer,
    SearchTimeout,
    check_budget,
    check_depth,
    check_game,
    check_heuristic_callable,
    check_moves,
    check_number,
    check_observer,
    check_order,
    check_rng,
    check_running,
    check_seconds,
    check_window,
    nodes_to_look,
    pick_best,
    player_to_move,
)
from gamelib.search.door import NO_MOVE, NoNextState, search_door
from gamelib.search.movers import mover_rule, opponents
from gamelib.search.stats import Decision, Stats

__all__ = [
    "ForcedMove",
    "checked_estimate",
    "depth_limited",
    "iterative_deepening",
    "only_safe_move",
    "proven_value",
    "plies_to_end",
    "describe_value",
]

ForcedMove = Callable[[Hashable], Hashable | None]
"""``forced(state) -> move or None``: in ``state`` (a state that is not finished), a move
of the player to move that wins at once, if there is one; else the one move that does not
lose at once; None when there is no such move or more than one."""


def proven_value(utility: int, plies: int) -> float:
    """The value of a finished state reached ``plies`` plies below the root of a search.

    ``utility`` is the state's utility (-1, 0 or +1) for the player of the search:
    0 for a draw, ``+-(1 + 1 / (plies + 1))`` for a win or a loss.

    >>> proven_value(1, 1), proven_value(1, 3), proven_value(-1, 2), proven_value(0, 5)
    (1.5, 1.25, -1.3333333333333333, 0.0)
    """
    return utility * (1.0 + 1.0 / (plies + 1))


def plies_to_end(value: float) -> int | None:
    """``k`` for a proven win or loss ``+-(1 + 1 / (k + 1))``; None for other values.

    >>> plies_to_end(1.25), plies_to_end(-1.5), plies_to_end(0.3)
    (3, 1, None)
    """
    if not 1 < abs(value) <= 2:   # beyond 2: no proven value (a TreeGame's leaf, say)
        return None
    return round(1 / (abs(value) - 1)) - 1


class _DepthLimitedSearch:
    """One depth-limited alpha-beta search: its game, heuristic, counters and options.

    ``best_moves`` maps a state to the move that was best (or caused a cutoff) there;
    the search fills it and tries that move first next time. Once ``budget`` has expired
    (or was cancelled), :meth:`value` raises :class:`SearchTimeout` at its next look at
    the clock.
    ``reached_horizon`` tells whether the heuristic was called at all: if not, every
    value the search returned is proven.
    """

    def __init__(self, game: AnyGame, heuristic: Heuristic, stats: Stats, *,
                 order: MoveOrder | None = None, budget: Budget | None = None,
                 best_moves: dict[Hashable, Hashable] | None = None,
                 forced: ForcedMove | None = None) -> None:
        self.game, self.heuristic, self.stats = game, heuristic, stats
        self.order, self.budget, self.best_moves = order, budget, best_moves
        self.forced = forced
        self.opponent, self.who_moves = opponents(game), mover_rule(game)
        self.reached_horizon = False
        # Nodes to search before the next look at the budget, and since the last one.
        self.left = self.step = nodes_to_look(budget, 0)

    def moves(self, state: Hashable) -> list[Hashable]:
        """The legal moves in search order: ``order``, then the remembered best move first."""
        moves = self.game.moves(state)
        if self.order is not None:
            moves = list(self.order(self.game, state, moves))
        if self.best_moves is not None:
            best = self.best_moves.get(state)
            if best is not None and best in moves:
                moves.remove(best)
                moves.insert(0, best)
        return moves

    def value(self, s: Hashable, p: Player, depth: int, alpha: float, beta: float,
              ply: int) -> float:
        """The value of ``s`` for ``p`` with ``depth`` plies left, in ``[alpha, beta]``.

        ``ply`` is the distance from the root, for :func:`proven_value`.
        """
        game, stats = self.game, self.stats
        if not self.left:   # never, without a budget
            self.left = self.step = nodes_to_look(self.budget, self.step)
        self.left -= 1
        stats.enter(s)
        if game.finished(s):
            stats.terminal += 1
            return proven_value(game.utility(s, p), ply)
        m = self.who_moves(s, p)   # p, unless the last mover moves again
        if m != p:   # search for m, in m's window; the sign flips once at the end
            alpha, beta = -beta, -alpha
        o = self.opponent[m]
        if self.forced is not None:
            move = self.forced(s)
            if move is not None:   # a win at once, or the only move that does not lose at once
                v = -self.value(game.play(s, move), o, depth, -beta, -alpha, ply + 1)
                return v if m == p else -v
        if depth == 0:
            self.reached_horizon = True
            v = checked_estimate(self.heuristic(s, m), s)
            return v if m == p else -v
        best, best_move, move = alpha, None, NO_MOVE
        for move in self.moves(s):
            v = -self.value(game.play(s, move), o, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best, best_move = v, move
            if best >= beta:
                stats.cutoffs += 1
                break
            alpha = max(alpha, best)
        if move is NO_MOVE:   # the loop ran zero times: a running state without moves
            raise NoNextState(s)
        if self.best_moves is not None and best_move is not None:
            self.best_moves[s] = best_move
        return best if m == p else -best


def checked_estimate(estimate: object, state: Hashable) -> float:
    """``estimate``, after checking that it is a number strictly inside (-1, 1) (a
    heuristic's value of ``state``); raises GameError, naming ``state``, if it is not."""
    if type(estimate) is float and -1.0 < estimate < 1.0:
        return estimate   # the common case, at every leaf: a float in range
    value = check_number(estimate, "the heuristic's value")
    if not -1 < value < 1:
        raise GameError(
            f"the heuristic returned {estimate!r} for the state {state!r}: estimates must lie "
            "strictly between -1 and 1 (proven wins and losses are the search's business)"
        )
    return value


@search_door
def depth_limited(game: AnyGame, state: Hashable, depth: int, heuristic: Heuristic,
                  player: Player | None = None, alpha: float = -math.inf,
                  beta: float = math.inf, *, stats: Stats | None = None,
                  order: MoveOrder | None = None, budget: Budget | None = None,
                  observer: Observer | None = None,
                  forced: ForcedMove | None = None) -> float:
    """The value of ``state`` for ``player``, searching ``depth`` plies with alpha-beta.

    Arguments: ``game`` and ``state``; ``depth >= 0`` plies to look ahead (0 asks the
    heuristic about ``state`` itself); ``heuristic(state, player)`` for the states at the
    horizon, strictly inside (-1, 1); ``player`` defaults to the player to move; the
    window ``alpha < beta`` (default: everything); ``order`` rearranges the legal moves
    of every state before they are searched.

    Result: on the scale of the module docstring (estimates inside (-1, 1), proven
    results at or beyond +-1), with alpha-beta's three cases for ``[alpha, beta]``.

    ``stats``, if given, is filled: ``calls``, ``terminal``, ``cutoffs``, ``visited``
    and ``seconds``. ``budget``, if given, bounds the time: when it runs out (or is
    cancelled) the search raises :class:`~gamelib.search.common.SearchTimeout`, having
    no answer to give (:func:`iterative_deepening` turns that into the best move found
    so far). ``observer`` is for :func:`~gamelib.search.trace.trace_search`.
    ``forced`` (see "Forced moves cost no depth" in the module docstring), if given,
    extends forced lines: a state where ``forced`` names a move searches only that move,
    with the same depth left; None (the default) searches as described above. Raises
    :class:`GameError` for a negative depth, a heuristic or ``forced`` that is not a
    function, a bad window, player, order or budget, or a heuristic value that is not a
    number strictly inside (-1, 1).
    """
    check_depth(depth)
    check_heuristic_callable(heuristic)
    player = player_to_move(game, state, player)
    check_window(alpha, beta)
    check_order(order)
    check_budget(budget)
    check_observer(observer)
    _check_forced(forced)
    stats = Stats() if stats is None else stats
    search = _DepthLimitedSearch(game, heuristic, stats, order=order, budget=budget,
                                 forced=forced)
    if observer is not None:   # the recursion calls self.value: now the observer's
        search.value = observer(search.value)  # type: ignore[method-assign]
    with stats.timer():
        return search.value(state, player, depth, alpha, beta, 0)


@search_door
def iterative_deepening(game: AnyGame, state: Hashable, heuristic: Heuristic, *,
                        max_depth: int | None = None, seconds: float | None = None,
                        rng: random.Random | None = None, stats: Stats | None = None,
                        budget: Budget | None = None,
                        root_moves: Sequence[Hashable] | None = None,
                        forced: ForcedMove | None = None,
                        order: MoveOrder | None = None) -> Decision:
    """A move for the player to move in ``state``, by depth-limited search to depth 1, 2, ...

    Each iteration searches every legal move with the full window, so the value of each
    move is known, and tries first the moves that were best in the previous iteration.
    It stops after ``max_depth`` (if given), when the time budget is spent, or as soon
    as deeper search cannot change the result: the best move is a proven win or every
    move is a proven loss, or the whole game tree was searched.

    The time budget is ``seconds`` from now (more than 0, at most
    :data:`~gamelib.search.common.MAX_SECONDS`; None: that cap), within ``budget`` if
    given (a :class:`~gamelib.search.common.Budget`, which another thread may cancel;
    its ``depth``, if it has one, stands for ``max_depth`` when that is None). When it
    runs out the running iteration is abandoned and the result of the last finished one
    is used; depth 1 always finishes, so a legal move is always returned. A node limit
    (the budget's ``nodes``) counts every node searched, depth 1's included. An iteration
    deeper than Python's stack allows (a game with lines of thousands of plies) ends the
    deepening the same way.

    Result: a :class:`~gamelib.search.stats.Decision` with ``move`` drawn with ``rng``
    (see :func:`~gamelib.search.common.pick`) among the moves of the best value,
    ``value`` and ``move_values`` on this module's scale, ``exact`` True if the value is
    proven, ``cut_short`` True if the budget ran out before the search was done,
    ``summary`` one line such as ``"estimate +0.12 (depth 4)"``. ``stats`` (a new one if
    None) counts all calls, including those of an abandoned iteration; ``stats.depth``
    is the last finished depth and ``stats.nodes_per_depth[d]`` the calls of the
    iteration with depth ``d``, one entry per finished iteration.

    ``root_moves``, if given, restricts the choice at the root to these legal moves (a
    caller's own rules may have ruled the others out): only they are searched, valued
    and chosen from, and the first iteration tries them in the order given. Below the
    root every legal move is searched as usual.

    ``forced``, if given, extends forced lines below the root, as in :func:`depth_limited`.
    ``order``, if given, rearranges the legal moves of every state below the root before
    they are searched, as in :func:`depth_limited` (the move that was best there in the
    previous iteration still comes first); it changes the work, not the values.

    Raises :class:`GameError` if ``state`` is finished or not valid, ``heuristic`` is
    not a function, ``max_depth < 1``, ``seconds`` is not in (0, 30], ``budget`` is not a
    Budget or ``root_moves`` is empty, repeats a move or holds one that is not legal in
    ``state``, or ``forced`` or ``order`` is not a function.
    """
    check_game(game)
    check_heuristic_callable(heuristic)
    check_depth(max_depth, "max_depth", least=1, optional=True)
    check_seconds(seconds)
    check_rng(rng)
    check_budget(budget)
    check_running(game, state)
    if root_moves is not None:
        root_moves = check_moves(game, state, root_moves, "root_moves")
    _check_forced(forced)
    check_order(order)
    if budget is None:
        limit = Budget(seconds, depth=max_depth)
    else:
        limit = budget.part(None if seconds is None else float(seconds),
                            depth=max_depth)
    return deepen(game, state, heuristic, budget=limit, rng=rng, stats=stats,
                  root_moves=root_moves, forced=forced, order=order)


def deepen(game: AnyGame, state: Hashable, heuristic: Heuristic, *, budget: Budget,
           rng: random.Random | None = None, stats: Stats | None = None,
           root_moves: Sequence[Hashable] | None = None,
           forced: ForcedMove | None = None, order: MoveOrder | None = None) -> Decision:
    """:func:`iterative_deepening` on checked arguments: the engine's way in, which has
    checked them at its own door already (``root_moves``: distinct legal moves, at least
    one). ``budget`` is the whole limit: its time, its ``depth`` (the deepest iteration,
    None: no limit) and its cancel flag. ``order``, if given, rearranges the legal moves
    of every state below the root before they are searched (as in :func:`depth_limited`;
    the remembered best move still comes first)."""
    max_depth = budget.depth
    stats = Stats() if stats is None else stats
    player = game.to_move(state)
    opponent = other(game, player)
    best_moves: dict[Hashable, Hashable] = {}
    values: dict[Hashable, float] = {}
    exact = cut_short = False
    depth = 0
    with stats.timer():
        while not exact and (max_depth is None or depth < max_depth):
            if depth >= 1 and budget.expired():
                cut_short = True
                break
            calls_before = stats.calls
            try:  # the search's first look at the budget may find it spent: inside the try
                search = _DepthLimitedSearch(
                    game, heuristic, stats, best_moves=best_moves,
                    budget=budget if depth >= 1 else None,   # depth 1 always finishes
                    forced=forced, order=order,
                )
                values = _root_values(search, state, depth + 1, previous=values,
                                      root_moves=root_moves)
                budget.settle(search.step, search.left)   # depth 1's nodes too
            except SearchTimeout:
                cut_short = True
                break
            except RecursionError:
                if depth == 0:   # not even depth 1: the door says "no end in sight"
                    raise
                cut_short = True   # deeper than Python's stack allows: the last one stands
                break
            depth += 1
            stats.depth = depth
            stats.nodes_per_depth[depth] = stats.calls - calls_before
            exact = not search.reached_horizon or abs(max(values.values())) > 1
    move = pick_best(values, rng)
    best = values[move]
    return Decision(
        move=move,
        value=best,
        exact=exact,
        stats=stats,
        move_values=values,
        summary=describe_value(best, exact, player, opponent, depth),
        cut_short=cut_short,
    )


def _root_values(search: _DepthLimitedSearch, state: Hashable, depth: int,
                 previous: dict[Hashable, float],
                 root_moves: Sequence[Hashable] | None = None) -> dict[Hashable, float]:
    """The value of every legal move in ``state`` (or of ``root_moves``), ``depth`` plies deep.

    The move itself is the first ply. Each move is searched with the full window, so its
    value is exact on the scale, and the moves are tried in the order of their
    ``previous`` values, best first (ties in the order given). The result is in the
    game's move order.
    """
    game = search.game
    legal = game.moves(state)
    moves = legal if root_moves is None else list(root_moves)
    opponent = other(game, game.to_move(state))
    values = {
        m: -search.value(game.play(state, m), opponent, depth - 1, -math.inf, math.inf, 1)
        for m in sorted(moves, key=lambda m: -previous.get(m, 0.0))
    }
    # "+ 0.0" turns the -0.0 that negating a draw gives into 0.0.
    return {m: values[m] + 0.0 for m in legal if m in values}


def only_safe_move(game: AnyGame) -> ForcedMove:
    """``forced`` for :func:`depth_limited`, from ``game``'s rules alone (any game).

    ``forced(state)`` returns the first move (in the game's order) of the player to move
    that wins at once, if there is one; else the one move after which no reply of the
    opponent finishes the game with a loss for the player, or None when there are several
    such moves or none. It plays every move and every reply to it, so it costs about the
    square of the number of moves per state: a game with a faster test (Connect Four's
    threats) should pass its own.

    >>> from gamelib.games import ConnectFour
    >>> forced = only_safe_move(ConnectFour())
    >>> [forced(ConnectFour.from_moves(moves)) for moves in ("11223", "112233", "44")]
    [3, 3, None]
    """
    check_game(game)

    def forced(state: Hashable) -> Hashable | None:
        player = game.to_move(state)
        moves: list[Hashable] = game.moves(state)
        after = [game.play(state, move) for move in moves]
        for move, next_state in zip(moves, after, strict=True):
            if game.finished(next_state) and game.utility(next_state, player) > 0:
                return move       # a win at once: the best move there is
        safe: list[Hashable] = []
        for move, next_state in zip(moves, after, strict=True):
            if not game.finished(next_state) and any(
                game.finished(reply) and game.utility(reply, player) < 0
                for reply in (game.play(next_state, m) for m in game.moves(next_state))
            ):
                continue          # this move loses at once
            safe.append(move)
            if len(safe) > 1:
                return None       # two moves that do not lose at once: a free choice
        return safe[0] if safe else None

    return forced


def _check_forced(forced: object) -> None:
    """Raise :class:`GameError` unless ``forced`` is a function or None."""
    if forced is not None and not callable(forced):
        raise GameError(
            f"forced must be a function forced(state) -> move or None, or None, "
            f"got {type(forced).__name__}"
        )


def describe_value(value: float, exact: bool, player: Player, opponent: Player,
                   depth: int | None = None) -> str:
    """One line for a status bar about ``value``, the value of a state for ``player``.

    Proven results name the winner, e.g. ``"X wins in 2 moves"`` (the winner's own
    moves, from :func:`plies_to_end`), or say ``"draw with best play"``; estimates read
    ``"estimate +0.12 (depth 4)"``.

    >>> describe_value(1.25, True, "X", "O"), describe_value(-1.5, True, "X", "O")
    ('X wins in 2 moves', 'O wins in 1 move')
    >>> describe_value(0.123, False, "X", "O", 4)
    'estimate +0.12 (depth 4)'
    """
    plies = plies_to_end(value)
    if plies is not None:
        winner = player if value > 0 else opponent
        moves = (plies + 1) // 2
        return f"{winner} wins in {moves} move{'s' if moves != 1 else ''}"
    if exact:
        if value == 0:
            return "draw with best play"
        if abs(value) != 1:   # a game valued beyond -1 to +1 (a TreeGame)
            return f"worth {value:g} to {player} with best play"
        return f"{player if value > 0 else opponent} wins with best play"
    at = "" if depth is None else f" (depth {depth})"
    return f"estimate {value:+.2f}{at}"
