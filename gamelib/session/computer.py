"""The computer of a play session: its strength, its searches, their budgets and threads.

A :class:`Computer` is composed into :class:`~gamelib.session.play.PlaySession`. It keeps
the settings of the computer player (``depth``, ``seconds``, the delay between the moves
of a computer-versus-computer game, whether it thinks in a thread) and the budget of the
search under way, which the session cancels on Undo, New game, Stop or close. Its search
methods run without the session's lock and never raise: they return the result, or None
and the reason in words. The players (:mod:`gamelib.session.players`) are imported when
first needed, so that importing the session stays quick.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Final, NamedTuple

from gamelib.game import Game, State
from gamelib.search.common import Budget
from gamelib.search.puct import Guide
from gamelib.search.stats import Decision
from gamelib.session.history import GameFailed, ask
from gamelib.session.words import NO_MOVES, search_failure

__all__ = ["Computer", "Job", "Search", "budget_for", "choose_move", "move_values",
           "mcts_move", "threads_can_start"]


def threads_can_start() -> bool:
    """False where Python cannot start threads (Pyodide, JupyterLite); checked once more
    whenever a start fails."""
    return sys.platform != "emscripten"


def budget_for(game: Game[Any, Any], depth: int | None, seconds: float | None,
               mcts: int | None = None) -> Budget:
    """The budget the session sets for one computer move or hint: ``seconds``, or the
    player's own default for this game and depth
    (:func:`~gamelib.session.players.default_seconds`; the engine's for the MCTS player),
    so that the session can say how long the search had when it was cut short. Its
    arguments were checked already."""
    from gamelib.search.engine import DEFAULT_SECONDS
    from gamelib.session.players import default_seconds

    if seconds is None:
        seconds = default_seconds(game, depth) if mcts is None else DEFAULT_SECONDS
    return Budget(seconds)


def choose_move(game: Game[Any, Any], state: State, depth: int | None,
                seconds: float | None, rng: random.Random, budget: Budget) -> Decision:
    """The game's computer player's move within ``budget``
    (:func:`gamelib.session.players.choose_move`)."""
    from gamelib.session.players import choose_move

    return choose_move(game, state, depth=depth, seconds=seconds, rng=rng, budget=budget)


def move_values(game: Game[Any, Any], state: State, depth: int | None,
                seconds: float | None, budget: Budget) -> dict[Hashable, float]:
    """The game's computer player's values within ``budget``
    (:func:`gamelib.session.players.move_values`)."""
    from gamelib.session.players import move_values

    return move_values(game, state, depth=depth, seconds=seconds, budget=budget)


def mcts_move(game: Game[Any, Any], state: State, iterations: int, seconds: float | None,
              rng: random.Random, budget: Budget, guide: Guide | None = None) -> Decision:
    """The Monte-Carlo player's move: ``iterations`` of UCT (PUCT with a ``guide``) within
    ``seconds`` (default: :data:`~gamelib.search.engine.DEFAULT_SECONDS`) and ``budget``,
    in this thread."""
    from gamelib.search.engine import DEFAULT_SECONDS
    from gamelib.search.mcts import mcts_decision

    return mcts_decision(game, state, iterations=iterations,
                         seconds=DEFAULT_SECONDS if seconds is None else seconds,
                         budget=budget, rng=rng, guide=guide)


class Job(NamedTuple):
    """One computer move to make: started in ``generation`` on ``state``."""

    generation: int
    state: State
    rng: random.Random
    pause: bool  # pause for the delay first (computer versus computer, in a thread)


class Search(NamedTuple):
    """One search to make: its budget and the strength set when it started."""

    budget: Budget
    depth: int | None
    seconds: float | None


class Computer:
    """The computer player of one session (see the module docstring).

    Arguments were checked at the session's door. Its fields are read and written with
    the session's lock held; :meth:`move` and :meth:`values` run without it.
    """

    def __init__(self, game: Game[Any, Any], depth: int | None, seconds: float | None,
                 delay: float, background: bool, seed: int | None,
                 mcts: int | None = None, guide: Guide | None = None) -> None:
        self.game: Final = game
        self.depth, self.seconds = depth, seconds
        self.mcts: Final = mcts  # MCTS iterations per move; None: the game's player
        self.guide: Final = guide  # with mcts: PUCT, and the hints are its priors
        self.delay = float(delay)
        self.threaded = bool(background) and threads_can_start()
        self.rng: Final = random.Random(seed)
        self.budget: Budget | None = None  # of the search under way, to cancel it

    def new_search(self) -> Search:
        """A new search at the current strength; its budget (see :func:`budget_for`) is
        kept to be cancelled."""
        self.budget = budget_for(self.game, self.depth, self.seconds, self.mcts)
        return Search(self.budget, self.depth, self.seconds)

    def cancel(self) -> None:
        """Cancel the search under way, if any: it ends at its next look at its budget."""
        if self.budget is not None:
            self.budget.cancel()
            self.budget = None

    def next_rng(self) -> random.Random:
        """A fresh generator for one move, drawn in order from the seeded one, so that a
        seeded game replays whatever happens to searches that get cancelled."""
        return random.Random(self.rng.getrandbits(64))

    def start(self, work: Callable[[], None]) -> bool:
        """Run ``work`` in a daemon thread; False (and no more threads) where none can start."""
        try:
            threading.Thread(target=work, daemon=True).start()
            return True
        except RuntimeError:  # Pyodide: "can't start new thread"
            self.threaded = False
            return False

    def pause(self, changed: threading.Condition, current: Callable[[], bool]) -> bool:
        """Wait for the delay (which may change meanwhile) on ``changed``, the session's
        condition; False as soon as ``current()`` says the job's generation ended."""
        started = time.monotonic()
        with changed:
            while current():
                left = started + self.delay - time.monotonic()
                if left <= 0:
                    return True
                changed.wait(left)
            return False

    def move(self, state: State, rng: random.Random,
             search: Search) -> tuple[Decision | None, str]:
        """The computer's decision in ``state`` for ``search``, or None and why not."""
        try:
            if not ask(self.game, "moves", state):
                return None, NO_MOVES
            depth, seconds, budget = search.depth, search.seconds, search.budget
            if self.mcts is not None:
                return (mcts_move(self.game, state, self.mcts, seconds, rng, budget,
                                  self.guide), "")
            return choose_move(self.game, state, depth, seconds, rng, budget), ""
        except GameFailed as failed:
            return None, str(failed)
        except BaseException as error:  # noqa: BLE001 - the board must survive any failure
            return None, search_failure(error, self.game)

    def values(self, state: State, search: Search) -> tuple[dict[Hashable, float] | None, str]:
        """The value of every move in ``state`` for ``search`` (with a guide: its priors,
        as :class:`~gamelib.search.stats.Priors`), or None and why not."""
        try:
            if self.guide is not None:
                from gamelib.search.puct import guide_priors

                return guide_priors(self.game, state, self.guide), ""
            depth, seconds = search.depth, search.seconds
            return dict(move_values(self.game, state, depth, seconds, search.budget)), ""
        except BaseException as error:  # noqa: BLE001 - the board must survive any failure
            return None, search_failure(error, self.game)
