"""Minimax: the value of a state when both players play perfectly, and a best move.

The value of a state ``s`` for the player ``p`` whose turn it is is defined by recursion
on the game tree (the lecture notes' *negamax* form)::

    value(s, p) = utility(s, p)                                  if finished(s)
    value(s, p) = max { -value(n, o) : n in next_states(s, p) }  otherwise, o = other(p)

The minus sign does all the work of the "min" in minimax: the game is zero-sum, so what
the opponent ``o`` gains in ``n`` the player ``p`` loses. Values are -1 (lost), 0 (drawn)
and +1 (won).

The recursion passes ``o`` down because in most games the players take turns. Where a
player moves twice in a row, ``o`` is not the player to move in ``n``: every search of
this package asks ``to_move(s)`` in each running state and, when it is not the player
the value is asked for, searches for the one who moves and flips the sign once (see
:func:`~gamelib.search.movers.turns_alternate` for the games that promise to take
turns). So the sign flips only where the mover
changes, and a game with extra turns gets its exact value too.

:func:`minimax` computes exactly this recursion and nothing more: no cache, no pruning.
It makes one call per node of the game tree, which is why it is slow and why its call
count is a good yardstick. From the empty tic-tac-toe board it makes 549,946 calls,
255,168 of them on finished boards (one for each way a game can go), although there
are only 5,478 different states. The faster searches in this package return the same
values with far fewer calls.

>>> from gamelib.games import TicTacToe
>>> from gamelib.game import replay
>>> from gamelib.search import Stats
>>> game, stats = TicTacToe(), Stats()
>>> state = replay(game, [(1, 1), (0, 0)])    # X in the centre, O in a corner
>>> minimax(game, state, stats=stats), stats.calls
(0, 6812)
"""

from __future__ import annotations

from collections.abc import Hashable

from gamelib.game import Player
from gamelib.search.common import (
    AnyGame,
    Observer,
    check_observer,
    player_to_move,
)
from gamelib.search.door import NoNextState, search_door
from gamelib.search.movers import mover_rule, opponents
from gamelib.search.stats import Stats

__all__ = ["minimax"]


@search_door
def minimax(game: AnyGame, state: Hashable, player: Player | None = None, *,
            stats: Stats | None = None, observer: Observer | None = None) -> int:
    """The value of ``state`` for ``player`` by the plain negamax recursion.

    Arguments: ``game`` and ``state``; ``player`` defaults to the player to move (for a
    running game it must be that player). Result: -1, 0 or +1, the value of ``state`` for
    ``player`` when both sides play perfectly.

    ``stats``, if given, is filled: ``calls`` (one per node of the game tree below and
    including ``state``), ``terminal`` (calls on finished states), ``visited`` (distinct
    states), ``seconds``. Without a cache this is exponential in the number of moves
    left: use it on small games or late positions only. ``observer`` is for
    :func:`~gamelib.search.trace.trace_search` (see :data:`~gamelib.search.common.Observer`).
    """
    player = player_to_move(game, state, player)
    check_observer(observer)
    stats = Stats() if stats is None else stats

    who_moves, opponent = mover_rule(game), opponents(game)

    def value(s: Hashable, p: Player) -> int:
        stats.enter(s)
        if game.finished(s):
            stats.terminal += 1
            return game.utility(s, p)
        m = who_moves(s, p)   # p, unless the last mover moves again
        o = opponent[m]
        try:
            v = max(-value(n, o) for n in game.next_states(s, m))
        except ValueError:   # max() of nothing, or an error from further down?
            if game.next_states(s, m):
                raise   # from further down: this state has next states
            raise NoNextState(s) from None   # a running state without them breaks the rule
        return v if m == p else -v

    if observer is not None:   # every recursive call now goes through the observer
        value = observer(value)
    with stats.timer():
        return value(state, player)
