"""Minimax: the value of a state when both players play perfectly, and a best move.

The value of a state ``s`` for the player ``p`` whose turn it is is defined by recursion
on the game tree (the lecture notes' *negamax* form)::

    value(s, p) = utility(s, p)                                  if finished(s)
    value(s, p) = max { -value(n, o) : n in next_states(s, p) }  otherwise, o = other(p)

The minus sign does all the work of the "min" in minimax: the game is zero-sum, so what
the opponent ``o`` gains in ``n`` the player ``p`` loses. Values are -1 (lost), 0 (drawn)
and +1 (won).

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

import random
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from gamelib.game import Game, GameError, Player, check_player, other
from gamelib.search.stats import Stats

__all__ = ["minimax", "best_move", "ValueFunction", "player_to_move", "pick", "check_rng"]

AnyGame = Game[Any, Any]
"""A game with any kind of states and moves."""

ValueFunction = Callable[[AnyGame, Hashable, Player], int]
"""``value(game, state, player) -> int``: the exact value of ``state`` for ``player``."""

T = TypeVar("T")

_shared_rng = random.Random(20240917)
"""The random source of the searches when the caller gives none (seeded, see :func:`pick`)."""


def pick(options: list[T], rng: random.Random | None = None) -> T:
    """One of ``options``, chosen uniformly at random with ``rng``.

    Pass a seeded ``random.Random`` for a reproducible choice. If ``rng`` is None, one
    module-level ``random.Random`` with a fixed seed is used: a program that makes the
    same calls in the same order then gets the same choices, but every choice made
    anywhere in the process advances it. Raises :class:`GameError` if ``options`` is
    empty or ``rng`` is not a ``random.Random``.
    """
    if not options:
        raise GameError("there is nothing to choose from")
    check_rng(rng)
    return (_shared_rng if rng is None else rng).choice(options)


def check_rng(rng: object) -> None:
    """Raise :class:`GameError` unless ``rng`` is a ``random.Random`` or None."""
    if rng is not None and not isinstance(rng, random.Random):
        raise GameError(f"rng must be a random.Random or None, got {type(rng).__name__}")


def player_to_move(game: AnyGame, state: Hashable, player: Player | None) -> Player:
    """The player a search of ``state`` is for: ``player``, or whose turn it is if None.

    A search may only ask for the value of a running game for the player whose turn it
    is, because ``next_states(state, player)`` is defined only for that player. For a
    finished state any player of the game is allowed. Raises :class:`GameError` for an
    unknown player or for the wrong player in a running game.
    """
    turn = game.to_move(state)
    if player is None:
        return turn
    check_player(game, player)
    if player != turn and not game.finished(state):
        raise GameError(
            f"it is {turn}'s turn in this state, not {player}'s: a search of a running "
            "game is for the player to move (pass player=None to use them)"
        )
    return player


def minimax(game: AnyGame, state: Hashable, player: Player | None = None, *,
            stats: Stats | None = None) -> int:
    """The value of ``state`` for ``player`` by the plain negamax recursion.

    Arguments: ``game`` and ``state``; ``player`` defaults to the player to move (for a
    running game it must be that player). Result: -1, 0 or +1, the value of ``state`` for
    ``player`` when both sides play perfectly.

    ``stats``, if given, is filled: ``calls`` (one per node of the game tree below and
    including ``state``), ``terminal`` (calls on finished states), ``visited`` (distinct
    states), ``seconds``. Without a cache this is exponential in the number of moves
    left: use it on small games or late positions only.
    """
    player = player_to_move(game, state, player)
    stats = Stats() if stats is None else stats

    def value(s: Hashable, p: Player) -> int:
        stats.calls += 1
        stats.visited.add(s)
        if game.finished(s):
            stats.terminal += 1
            return game.utility(s, p)
        o = other(game, p)
        return max(-value(n, o) for n in game.next_states(s, p))

    with stats.timer():
        return value(state, player)


def best_move(game: AnyGame, state: Hashable, *, rng: random.Random | None = None,
              value: ValueFunction | None = None) -> tuple[int, Hashable]:
    """``(v, move)``: the value ``v`` of ``state`` for the player to move and an optimal move.

    The value of each legal move ``m`` is ``-value(game, play(state, m), opponent)``;
    ``v`` is the largest of them and ``move`` is drawn uniformly at random among the moves
    that reach it, so the computer does not play the same game every time.

    ``rng`` is the random source: a seeded ``random.Random`` for a reproducible choice,
    or None for the package's shared, seeded one (see :func:`pick`).

    ``value(game, state, player)`` computes exact values; by default memoized minimax
    with one cache for this call. Raises :class:`GameError` if ``state`` is finished.
    """
    if game.finished(state):
        raise GameError("the game is over in this state: there is no move to choose")
    if value is None:
        from gamelib.search.memo import memo_minimax

        cache: dict[Hashable, int] = {}

        def value(g: AnyGame, s: Hashable, p: Player) -> int:
            return memo_minimax(g, s, p, cache=cache)

    player = game.to_move(state)
    opponent = other(game, player)
    values = {m: -value(game, game.play(state, m), opponent) for m in game.moves(state)}
    best = max(values.values())
    optimal = [m for m, v in values.items() if v == best]
    return best, pick(optimal, rng)
