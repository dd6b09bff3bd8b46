"""Choosing a move from exact values: :func:`best_move`, the lessons' computer player.

It sits above the algorithms (it calls one of them for every move) and below the engine
(:mod:`gamelib.search.engine`), which adds time budgets, caches shared between moves and
Connect Four's own player. Lesson 2 builds the same function from :func:`minimax`.

>>> import random
>>> from gamelib.games import TicTacToe
>>> game = TicTacToe()
>>> best_move(game, game.start, rng=random.Random(1))[0]
0
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from gamelib.game import GameError, Player, other
from gamelib.search.common import (
    AnyGame,
    ValueFunction,
    check_game,
    check_rng,
    check_running,
    pick_best,
)
from gamelib.search.door import search_door
from gamelib.search.memo import memo_minimax

__all__ = ["best_move", "keeping_moves", "running_states"]


@search_door
def best_move(game: AnyGame, state: Hashable, *, rng: random.Random | None = None,
              value: ValueFunction | None = None) -> tuple[int, Hashable]:
    """``(v, move)``: the value ``v`` of ``state`` for the player to move and an optimal move.

    The value of each legal move ``m`` is ``-value(game, play(state, m), opponent)``
    (``value(game, play(state, m), player)`` where the player moves again);
    ``v`` is the largest of them and ``move`` is drawn uniformly at random among the moves
    that reach it, so the computer does not play the same game every time.

    ``rng`` is the random source: a seeded ``random.Random`` for a reproducible choice,
    or None for the package's shared, seeded one (see :func:`~gamelib.search.common.pick`).

    ``value(game, state, player)`` computes exact values; by default memoized minimax
    with one cache for this call. It is not bounded in time: use it on games small
    enough to solve (:func:`choose_move` is the bounded player). Raises
    :class:`GameError` if ``game`` is not a game, ``state`` is invalid or finished, or
    ``rng`` or ``value`` is bad.
    """
    check_game(game)
    check_running(game, state)
    check_rng(rng)
    if value is None:
        cache: dict[Hashable, int] = {}

        def value(g: AnyGame, s: Hashable, p: Player) -> int:
            return memo_minimax(g, s, p, cache=cache)

    elif not callable(value):
        raise GameError(
            f"value must be a function value(game, state, player) -> int or None, "
            f"got {type(value).__name__}"
        )
    player = game.to_move(state)
    opponent = other(game, player)
    values = {m: _value_for(game, game.play(state, m), player, opponent, value)
              for m in game.moves(state)}
    move = pick_best(values, rng)
    return values[move], move


def _value_for(game: AnyGame, state: Hashable, player: Player, opponent: Player,
               value: ValueFunction) -> int:
    """The value of ``state``, reached by a move of ``player``, for ``player``: asked of
    ``value`` for the player to move in ``state`` (a search of a running state is for
    that player), the opponent unless ``player`` moves again."""
    if not game.finished(state) and game.to_move(state) == player:
        return value(game, state, player)
    return -value(game, state, opponent)


def keeping_moves(game: AnyGame, state: Hashable,
                  cache: dict[Hashable, int] | None = None) -> set[Hashable]:
    """The moves of the running ``state`` that keep its exact value: those whose exact
    (memoized minimax) value for the player to move equals the best one. ``cache`` is
    :func:`~gamelib.search.memo.memo_minimax`'s cache, to share between calls. A game
    small enough to solve only; the state is trusted (a helper of measurements)."""
    cache = {} if cache is None else cache
    player = game.to_move(state)
    opponent = other(game, player)
    values = {m: _value_for(game, game.play(state, m), player, opponent,
                            lambda g, s, p: memo_minimax(g, s, p, cache=cache))
              for m in game.moves(state)}
    best = max(values.values())
    return {m for m, v in values.items() if v == best}


def running_states(game: AnyGame) -> list[Hashable]:
    """Every running (not finished) state reachable from ``game.start``, sorted by
    ``repr`` (a fixed order, for seeded samples). A game small enough to enumerate only:
    tic-tac-toe has 4,520."""
    seen = {game.start}
    todo = [game.start]
    while todo:
        state = todo.pop()
        if game.finished(state):
            continue
        for move in game.moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return sorted((s for s in seen if not game.finished(s)), key=repr)
