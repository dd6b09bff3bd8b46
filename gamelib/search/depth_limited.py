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
search can stop at any moment: with a time budget it returns the best move of the last
iteration that finished, and it abandons the running one when the time is up.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable

from gamelib.game import GameError, Player, describe_text, other
from gamelib.search.alphabeta import MoveOrder, check_window
from gamelib.search.heuristics import Heuristic
from gamelib.search.minimax import AnyGame, check_rng, pick, player_to_move
from gamelib.search.stats import Decision, Stats

__all__ = [
    "Heuristic",
    "depth_limited",
    "iterative_deepening",
    "proven_value",
    "plies_to_end",
    "describe_value",
    "check_depth",
    "check_seconds",
]


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
    if abs(value) <= 1:
        return None
    return round(1 / (abs(value) - 1)) - 1


class _Timeout(Exception):
    """Raised inside a search when its deadline has passed."""


class _DepthLimitedSearch:
    """One depth-limited alpha-beta search: its game, heuristic, counters and options.

    ``best_moves`` maps a state to the move that was best (or caused a cutoff) there;
    the search fills it and tries that move first next time. ``deadline`` is a
    ``time.perf_counter()`` value after which :meth:`value` raises :class:`_Timeout`.
    ``reached_horizon`` tells whether the heuristic was called at all: if not, every
    value the search returned is proven.
    """

    def __init__(self, game: AnyGame, heuristic: Heuristic, stats: Stats, *,
                 order: MoveOrder | None = None, deadline: float | None = None,
                 best_moves: dict[Hashable, Hashable] | None = None) -> None:
        self.game, self.heuristic, self.stats = game, heuristic, stats
        self.order, self.deadline, self.best_moves = order, deadline, best_moves
        self.reached_horizon = False

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
        stats.calls += 1
        stats.visited.add(s)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Timeout
        if game.finished(s):
            stats.terminal += 1
            return proven_value(game.utility(s, p), ply)
        if depth == 0:
            self.reached_horizon = True
            return _checked(self.heuristic(s, p))
        o = other(game, p)
        best, best_move = alpha, None
        for m in self.moves(s):
            v = -self.value(game.play(s, m), o, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best, best_move = v, m
            if best >= beta:
                stats.cutoffs += 1
                break
            alpha = max(alpha, best)
        if self.best_moves is not None and best_move is not None:
            self.best_moves[s] = best_move
        return best


def _checked(estimate: float) -> float:
    """``estimate``, after checking that it lies strictly inside (-1, 1)."""
    if not -1 < estimate < 1:
        raise GameError(
            f"the heuristic returned {estimate!r}: estimates must lie strictly between -1 and 1"
        )
    return estimate


def check_depth(depth: object, name: str = "depth", least: int = 0, *,
                optional: bool = False) -> None:
    """Raise :class:`GameError` unless ``depth`` is a whole number of plies, at least
    ``least`` (or None, if ``optional``); the message calls it ``name``."""
    if optional and depth is None:
        return
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < least:
        allowed = f"a whole number of plies, at least {least}" + (", or None" if optional else "")
        raise GameError(f"{name} must be {allowed}; got {depth!r}")


def check_seconds(seconds: object) -> None:
    """Raise :class:`GameError` unless ``seconds``, a time budget, is None or a positive,
    finite number."""
    if seconds is not None and (
        not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
        or not 0 < seconds < math.inf
    ):
        raise GameError(f"seconds must be a positive number of seconds or None, got {seconds!r}")


def _check_heuristic(heuristic: object) -> None:
    if not callable(heuristic):
        raise GameError(
            f"heuristic must be a function heuristic(state, player) -> float, "
            f"got {describe_text(heuristic)}"
        )


def depth_limited(game: AnyGame, state: Hashable, depth: int, heuristic: Heuristic,
                  player: Player | None = None, alpha: float = -math.inf,
                  beta: float = math.inf, *, stats: Stats | None = None,
                  order: MoveOrder | None = None) -> float:
    """The value of ``state`` for ``player``, searching ``depth`` plies with alpha-beta.

    Arguments: ``game`` and ``state``; ``depth >= 0`` plies to look ahead (0 asks the
    heuristic about ``state`` itself); ``heuristic(state, player)`` for the states at the
    horizon, strictly inside (-1, 1); ``player`` defaults to the player to move; the
    window ``alpha < beta`` (default: everything); ``order`` rearranges the legal moves
    of every state before they are searched.

    Result: on the scale of the module docstring (estimates inside (-1, 1), proven
    results at or beyond +-1), with alpha-beta's three cases for ``[alpha, beta]``.

    ``stats``, if given, is filled: ``calls``, ``terminal``, ``cutoffs``, ``visited``
    and ``seconds``. Raises :class:`GameError` for a negative depth, a heuristic that is
    not a function, a bad window or player, or a heuristic value outside (-1, 1).
    """
    check_depth(depth)
    _check_heuristic(heuristic)
    player = player_to_move(game, state, player)
    check_window(alpha, beta)
    stats = Stats() if stats is None else stats
    search = _DepthLimitedSearch(game, heuristic, stats, order=order)
    with stats.timer():
        return search.value(state, player, depth, alpha, beta, 0)


def iterative_deepening(game: AnyGame, state: Hashable, heuristic: Heuristic, *,
                        max_depth: int | None = None, seconds: float | None = None,
                        rng: random.Random | None = None,
                        stats: Stats | None = None) -> Decision:
    """A move for the player to move in ``state``, by depth-limited search to depth 1, 2, ...

    Each iteration searches every legal move with the full window, so the value of each
    move is known, and tries first the moves that were best in the previous iteration.
    It stops after ``max_depth`` (if given), when the time budget of ``seconds`` is spent
    (if given), or as soon as deeper search cannot change the result: the best move is
    a proven win or every move is a proven loss, or the whole game tree was searched.
    With neither limit it searches until then, which for a large game takes forever.

    When time runs out the running iteration is abandoned and the result of the last
    finished one is used; depth 1 always finishes, so a legal move is always returned.

    Result: a :class:`~gamelib.search.stats.Decision` with ``move`` drawn with ``rng``
    (see :func:`~gamelib.search.minimax.pick`) among the moves of the best value,
    ``value`` and ``move_values`` on this module's scale, ``exact`` True if the value is
    proven, ``summary`` one line such as ``"estimate +0.12 (depth 4)"``. ``stats`` (a
    new one if None) counts all calls, including those of an abandoned iteration;
    ``stats.depth`` is the last finished depth and ``stats.nodes_per_depth[d]`` the calls
    of the iteration with depth ``d``, one entry per finished iteration.

    Raises :class:`GameError` if ``state`` is finished, ``heuristic`` is not a function,
    ``max_depth < 1`` or ``seconds <= 0``.
    """
    if game.finished(state):
        raise GameError("the game is over in this state: there is no move to choose")
    _check_heuristic(heuristic)
    check_depth(max_depth, "max_depth", least=1, optional=True)
    check_seconds(seconds)
    check_rng(rng)
    stats = Stats() if stats is None else stats
    deadline = None if seconds is None else time.perf_counter() + seconds
    player = game.to_move(state)
    opponent = other(game, player)
    best_moves: dict[Hashable, Hashable] = {}
    values: dict[Hashable, float] = {}
    exact = False
    depth = 0
    with stats.timer():
        while not exact and (max_depth is None or depth < max_depth):
            search = _DepthLimitedSearch(
                game, heuristic, stats, best_moves=best_moves,
                deadline=deadline if depth >= 1 else None,   # depth 1 always finishes
            )
            calls_before = stats.calls
            try:
                values = _root_values(search, state, depth + 1, previous=values)
            except _Timeout:
                break
            depth += 1
            stats.depth = depth
            stats.nodes_per_depth[depth] = stats.calls - calls_before
            exact = not search.reached_horizon or abs(max(values.values())) > 1
            if deadline is not None and time.perf_counter() > deadline:
                break
    best = max(values.values())
    move = pick([m for m, v in values.items() if v == best], rng)
    return Decision(
        move=move,
        value=best,
        exact=exact,
        stats=stats,
        move_values=values,
        summary=describe_value(best, exact, player, opponent, depth),
    )


def _root_values(search: _DepthLimitedSearch, state: Hashable, depth: int,
                 previous: dict[Hashable, float]) -> dict[Hashable, float]:
    """The value of every legal move in ``state``, searched ``depth`` plies deep.

    The move itself is the first ply. Each move is searched with the full window, so its
    value is exact on the scale, and the moves are tried in the order of their
    ``previous`` values, best first. The result is in the game's move order.
    """
    game = search.game
    moves = game.moves(state)
    opponent = other(game, game.to_move(state))
    values = {
        m: -search.value(game.play(state, m), opponent, depth - 1, -math.inf, math.inf, 1)
        for m in sorted(moves, key=lambda m: -previous.get(m, 0.0))
    }
    # "+ 0.0" turns the -0.0 that negating a draw gives into 0.0.
    return {m: values[m] + 0.0 for m in moves}


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
        return f"{player if value > 0 else opponent} wins with best play"
    at = "" if depth is None else f" (depth {depth})"
    return f"estimate {value:+.2f}{at}"
