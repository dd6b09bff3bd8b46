"""Alpha-beta pruning: minimax that stops looking at moves that cannot matter.

``alphabeta(s, p, alpha, beta)`` is not required to compute ``value(s, p)`` exactly.
It only promises what the lecture notes call the three cases::

    alpha <= value(s, p) <= beta   ->   alphabeta(s, p, alpha, beta) == value(s, p)
    value(s, p) <  alpha           ->   alphabeta(s, p, alpha, beta) <= alpha
    beta  <  value(s, p)           ->   alphabeta(s, p, alpha, beta) >= beta

Outside the window ``[alpha, beta]`` a bound is enough, and that freedom is what
allows pruning: as soon as one move reaches ``beta`` the state is worth at least
``beta`` to the player, so the remaining moves need not be searched (a *cutoff*). With
the window ``[-1, 1]``, which contains every value, the first case always applies and
the result is the exact value.

Which bound it returns (Lesson 4): the best value found starts at ``alpha``, so when no
move beats ``alpha`` the answer is ``alpha`` itself, as a *fail-hard* search answers; at
a cutoff it is the value that reached ``beta``, which is ``beta`` itself unless the move
ended the game and its utility lies above ``beta``. A fail-hard search would answer
``beta`` there; clamping this answer to the window gives the fail-hard one.

The opponent's window is ``[-beta, -alpha]``: negating a value swaps the roles of the
two bounds, just as negamax swaps the roles of the two players.

How much is pruned depends on the order in which moves are tried: the earlier the best
move comes, the earlier the window narrows. ``order`` lets the caller choose the order;
:func:`center_first` is a classic choice for tic-tac-toe and Connect Four.

>>> from gamelib.games import TicTacToe
>>> from gamelib.search import Stats
>>> game, stats = TicTacToe(), Stats()
>>> alphabeta(game, game.start, stats=stats), stats.calls
(0, 16811)
"""

from __future__ import annotations

from collections.abc import Hashable

from gamelib.game import GameError, Player
from gamelib.games import ConnectFour, TicTacToe, TicTacToeBitboard
from gamelib.search.common import (
    AnyGame,
    MoveOrder,
    Observer,
    check_observer,
    check_order,
    check_window,
    default_window,
    player_to_move,
)
from gamelib.search.door import NO_MOVE, NoNextState, search_door
from gamelib.search.movers import mover_rule, opponents
from gamelib.search.stats import Stats

__all__ = ["alphabeta", "center_first", "keeps_three_cases"]

def keeps_three_cases(result: float, value: float, alpha: float, beta: float) -> bool:
    """True iff ``result`` is a correct alpha-beta answer in ``[alpha, beta]`` for a state
    whose true value is ``value``: the three cases of the module docstring.

    >>> keeps_three_cases(1, 1, -1, 0), keeps_three_cases(0, 1, -1, 0)
    (True, True)
    >>> keeps_three_cases(0, 1, -1, 1)
    False
    """
    if value < alpha:
        return result <= alpha
    if value > beta:
        return result >= beta
    return result == value


@search_door
def alphabeta(game: AnyGame, state: Hashable, player: Player | None = None,
              alpha: float | None = None, beta: float | None = None, *, stats: Stats | None = None,
              order: MoveOrder | None = None, observer: Observer | None = None) -> int:
    """The value of ``state`` for ``player`` within the window ``[alpha, beta]``.

    Arguments: ``game`` and ``state``; ``player`` defaults to the player to move (for a
    running game it must be that player); the window ``alpha < beta`` (default: ``[-1, 1]``,
    or the game's ``value_range`` if it has one, see
    :func:`~gamelib.search.common.default_window`). ``order``, if
    given, rearranges the legal moves of every state before they are searched; without
    it the successors come in ``next_states`` order.

    Result: a number satisfying the three cases of the module docstring (exact inside
    the window, ``<= alpha`` below it, ``>= beta`` above it); with the default window
    ``[-1, 1]`` the exact value.

    ``stats``, if given, is filled: ``calls``, ``terminal``, ``cutoffs`` (loops left
    early because a move reached ``beta``), ``visited``, ``seconds``. ``observer`` is
    for :func:`~gamelib.search.trace.trace_search`. Raises
    :class:`GameError` for a bad game, player, window or order.
    """
    player = player_to_move(game, state, player)
    alpha, beta = default_window(game, alpha, beta)
    check_window(alpha, beta)
    check_order(order)
    check_observer(observer)
    stats = Stats() if stats is None else stats

    who_moves, opponent = mover_rule(game), opponents(game)

    def successors(s: Hashable, p: Player) -> list[Hashable]:
        if order is None:
            return game.next_states(s, p)
        return [game.play(s, m) for m in order(game, s, game.moves(s))]

    def value(s: Hashable, p: Player, alpha: float, beta: float) -> float:
        stats.enter(s)
        if game.finished(s):
            stats.terminal += 1
            return game.utility(s, p)
        m = who_moves(s, p)   # p, unless the last mover moves again
        if m != p:   # search for m, in m's window; the sign flips once at the end
            alpha, beta = -beta, -alpha
        o = opponent[m]
        best, n = alpha, NO_MOVE
        for n in successors(s, m):
            best = max(best, -value(n, o, -beta, -alpha))
            if best >= beta:
                stats.cutoffs += 1
                break
            alpha = max(best, alpha)
        else:
            if n is NO_MOVE:   # the loop ran zero times: a running state without next states
                raise NoNextState(s)
        return best if m == p else -best

    if observer is not None:   # every recursive call now goes through the observer
        value = observer(value)
    with stats.timer():
        # An int for every game whose utilities are ints (a TreeGame may have others).
        return value(state, player, alpha, beta)  # type: ignore[return-value]


_TICTACTOE_RANK: dict[Hashable, int] = {(1, 1): 0, (0, 0): 1, (0, 2): 1, (2, 0): 1, (2, 2): 1}
"""Centre first, then the corners, then the edges (rank 2, the default)."""


def center_first(game: AnyGame, state: Hashable, moves: list[Hashable]) -> list[Hashable]:
    """The moves sorted by closeness to the centre, ties kept in their given order.

    For tic-tac-toe (moves ``(row, col)``): the centre, then the four corners, then the
    four edges; a central square lies on more lines. For Connect Four (moves are column
    indices): by distance from the middle column, left before right. Raises
    :class:`GameError` for a game whose moves are neither.
    """
    if isinstance(game, ConnectFour):
        middle = (game.cols - 1) / 2
        return sorted(moves, key=lambda m: abs(m - middle))  # type: ignore[operator]
    if isinstance(game, (TicTacToe, TicTacToeBitboard)):
        return sorted(moves, key=lambda m: _TICTACTOE_RANK.get(m, 2))
    raise GameError(
        f"center_first knows the moves of tic-tac-toe and Connect Four, not of {game.name}"
    )
