"""The computer players, one per kind of game: who answers when the computer is to move.

gamelib's packages form layers, ``games < search < connect4 < session < ui``, and a layer
imports only those below it. The search engine (:mod:`gamelib.search.engine`) plays any
game, by an exact search or by iterative deepening with a heuristic; Connect Four has a
player of its own (:mod:`gamelib.connect4.player`: tactics, the solver, then the search).
Choosing between them needs both, so the choice is made here, above them, and
:mod:`gamelib.search` never has to know that Connect Four exists.

:data:`PLAYERS` is that choice as a table: a kind of game and its
:class:`ComputerPlayer`; a game of no kind in the table gets :data:`ENGINE`. A new game
whose computer should search with a heuristic of its own joins the table with
:func:`engine_player` (docs/extending.md walks through it). The session
and the boards get the computer's moves, hints and heuristic through the functions below.
As in aima's ``player(game, state) -> move``, :func:`player` gives just the move:

>>> from gamelib.games import ConnectFour, TicTacToe
>>> game = ConnectFour()
>>> player(game, ConnectFour.from_moves("445566"), depth=2) in (2, 6)   # columns 3, 7 win
True
>>> heuristic_for(TicTacToe()).__name__
'tictactoe_open_lines'
>>> round(heuristic_for(game)(ConnectFour.from_moves("44553"), "X"), 3)   # X has three
0.484

This module imports the engine and the Connect Four player; the session imports it when
the computer first moves or hints, so that importing the session stays quick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Final, NamedTuple, Protocol, cast

from gamelib.connect4 import player as c4player
from gamelib.connect4.heuristic import connect_four_heuristic
from gamelib.connect4.player import connect_four_move, connect_four_move_values
from gamelib.games import ConnectFour, Pig, RandomTurnTicTacToe
from gamelib.games.connect_four import C4State
from gamelib.search import engine
from gamelib.search.common import MAX_SECONDS, AnyGame, Budget, Heuristic, check_game
from gamelib.search.expectiminimax import expectiminimax_move, expectiminimax_move_values
from gamelib.search.heuristics import default_heuristic, zero
from gamelib.search.stats import Decision

__all__ = [
    "ComputerPlayer", "ENGINE", "CONNECT_FOUR", "CHANCE_GAMES", "PLAYERS", "engine_player",
    "player_for", "choose_move", "move_values", "heuristic_for", "player", "default_seconds",
]


class Chooser(Protocol):
    """``choose(game, state, *, depth, seconds, rng, budget) -> Decision``: the computer's
    move in a running ``state`` (see :func:`gamelib.search.engine.choose_move`)."""

    def __call__(self, game: AnyGame, state: Hashable, *, depth: int | None = None,
                 seconds: float | None = None, rng: random.Random | None = None,
                 budget: Budget | None = None) -> Decision: ...


class Valuer(Protocol):
    """``values(game, state, *, depth, seconds, budget) -> {move: value}``: every legal
    move's value for the player to move (see :func:`gamelib.search.engine.move_values`)."""

    def __call__(self, game: AnyGame, state: Hashable, *, depth: int | None = None,
                 seconds: float | None = None,
                 budget: Budget | None = None) -> dict[Hashable, float]: ...


class ComputerPlayer(NamedTuple):
    """How the computer plays one kind of game: its move, its hints, its heuristic, and
    ``seconds(depth)``, the time it takes when no ``seconds`` is given."""

    choose: Chooser
    values: Valuer
    heuristic: Callable[[AnyGame], Heuristic]
    seconds: Callable[[int | None], float]


def _connect_four_choose(game: AnyGame, state: Hashable, *, depth: int | None = None,
                         seconds: float | None = None, rng: random.Random | None = None,
                         budget: Budget | None = None) -> Decision:
    """:func:`~gamelib.connect4.player.connect_four_move` (it checks its arguments)."""
    return connect_four_move(cast(ConnectFour, game), cast(C4State, state), seconds=seconds,
                             depth=depth, rng=rng, budget=budget)


def _connect_four_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                         seconds: float | None = None,
                         budget: Budget | None = None) -> dict[Hashable, float]:
    """:func:`~gamelib.connect4.player.connect_four_move_values`, keyed by column."""
    values = connect_four_move_values(cast(ConnectFour, game), cast(C4State, state),
                                      seconds=seconds, depth=depth, budget=budget)
    return {column: value for column, value in values.items()}


def _connect_four_heuristic(game: AnyGame) -> Heuristic:
    """:func:`~gamelib.connect4.heuristic.connect_four_heuristic` for ``game``'s board."""
    return connect_four_heuristic(cast(ConnectFour, game))


def _engine_seconds(depth: int | None) -> float:
    """The engine's default time, with or without a depth."""
    return engine.DEFAULT_SECONDS


def _connect_four_seconds(depth: int | None) -> float:
    """Connect Four's player's default: 1 s, or for a depth alone the cap (30 s)."""
    return c4player.DEFAULT_SECONDS if depth is None else MAX_SECONDS


ENGINE: Final = ComputerPlayer(engine.choose_move, engine.move_values, default_heuristic,
                               _engine_seconds)
"""Any game: the search engine, with the heuristic the search layer knows for the game."""


def engine_player(heuristic: Callable[[AnyGame], Heuristic]) -> ComputerPlayer:
    """The search engine as the computer player of a kind of game whose depth-limited
    searches estimate with ``heuristic(game)`` (a ``h(state, player)`` inside (-1, 1));
    moves, hints and budgets as :data:`ENGINE`'s. For an entry of :data:`PLAYERS`, e.g.
    ``(Othello, engine_player(lambda game: disc_balance))``."""

    def choose(game: AnyGame, state: Hashable, *, depth: int | None = None,
               seconds: float | None = None, rng: random.Random | None = None,
               budget: Budget | None = None) -> Decision:
        return engine.choose_move(game, state, depth=depth, seconds=seconds, rng=rng,
                                  budget=budget, heuristic=heuristic(game))

    def values(game: AnyGame, state: Hashable, *, depth: int | None = None,
               seconds: float | None = None,
               budget: Budget | None = None) -> dict[Hashable, float]:
        return engine.move_values(game, state, depth=depth, seconds=seconds, budget=budget,
                                  heuristic=heuristic(game))

    return ComputerPlayer(choose, values, heuristic, _engine_seconds)

CONNECT_FOUR: Final = ComputerPlayer(_connect_four_choose, _connect_four_values,
                                     _connect_four_heuristic, _connect_four_seconds)
"""Connect Four, on any board size: its own player and the threat-counting heuristic."""



def _chance_heuristic(game: AnyGame) -> Heuristic:
    """Pig's lead in points; :func:`~gamelib.search.heuristics.zero` for other chance games."""
    return cast(Heuristic, game.lead) if isinstance(game, Pig) else zero


def _chance_choose(game: AnyGame, state: Hashable, *, depth: int | None = None,
                   seconds: float | None = None, rng: random.Random | None = None,
                   budget: Budget | None = None) -> Decision:
    """:func:`~gamelib.search.expectiminimax.expectiminimax_move`: rolls the die in a
    chance state, searches elsewhere (it checks its arguments)."""
    return expectiminimax_move(game, state, depth=depth, seconds=seconds, rng=rng,
                               budget=budget, heuristic=_chance_heuristic(game))


def _chance_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                   seconds: float | None = None,
                   budget: Budget | None = None) -> dict[Hashable, float]:
    """:func:`~gamelib.search.expectiminimax.expectiminimax_move_values`, for hints."""
    return expectiminimax_move_values(game, state, depth=depth, seconds=seconds,
                                      budget=budget, heuristic=_chance_heuristic(game))


CHANCE_GAMES: Final = ComputerPlayer(_chance_choose, _chance_values, _chance_heuristic,
                                     _engine_seconds)
"""Games with dice or a coin (random-turn tic-tac-toe, Pig): expectiminimax, and the die."""

PLAYERS: Final[tuple[tuple[type, ComputerPlayer], ...]] = (
    (ConnectFour, CONNECT_FOUR), (RandomTurnTicTacToe, CHANCE_GAMES), (Pig, CHANCE_GAMES))
"""The kinds of game with a player of their own, first match wins; others get ENGINE."""


def player_for(game: AnyGame) -> ComputerPlayer:
    """The :class:`ComputerPlayer` of ``game``: the first entry of :data:`PLAYERS` whose
    kind ``game`` is an instance of, else :data:`ENGINE`. Raises :class:`GameError` if
    ``game`` is not a game."""
    check_game(game)
    return next((p for kind, p in PLAYERS if isinstance(game, kind)), ENGINE)


def choose_move(game: AnyGame, state: Hashable, *, depth: int | None = None,
                seconds: float | None = None, rng: random.Random | None = None,
                budget: Budget | None = None) -> Decision:
    """The computer's move in ``state``, by ``game``'s player (arguments and result as in
    :func:`gamelib.search.engine.choose_move`; the player checks them)."""
    return player_for(game).choose(game, state, depth=depth, seconds=seconds, rng=rng,
                                   budget=budget)


def move_values(game: AnyGame, state: Hashable, *, depth: int | None = None,
                seconds: float | None = None,
                budget: Budget | None = None) -> dict[Hashable, float]:
    """Every legal move's value for the player to move, by ``game``'s player, for hints
    (as :func:`gamelib.search.engine.move_values`)."""
    return player_for(game).values(game, state, depth=depth, seconds=seconds, budget=budget)


def default_seconds(game: AnyGame, depth: int | None = None) -> float:
    """The time budget of a move or hint of ``game`` when no ``seconds`` is given: the
    engine's :data:`~gamelib.search.engine.DEFAULT_SECONDS` (5 s), Connect Four's 1 s (30 s
    for a ``depth`` alone). The session sets this budget, so that it can report the time
    a search cut short really had."""
    return player_for(game).seconds(depth)


def heuristic_for(game: AnyGame) -> Heuristic:
    """The heuristic of ``game``'s player: threats for Connect Four, open lines for
    tic-tac-toe, :func:`~gamelib.search.heuristics.zero` for any other game."""
    return player_for(game).heuristic(game)


def player(game: AnyGame, state: Hashable, *, depth: int | None = None,
           seconds: float | None = None, rng: random.Random | None = None) -> Hashable:
    """aima's ``player(game, state) -> move``: just the move of :func:`choose_move`."""
    return choose_move(game, state, depth=depth, seconds=seconds, rng=rng).move
