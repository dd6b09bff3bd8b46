"""The play session: input, settings and the computer player (see :mod:`gamelib.session`)."""

from __future__ import annotations

import contextlib
import math
import random
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Final, NamedTuple, TypeVar

from gamelib.game import Game, GameError, Move, State, describe_text
from gamelib.search.stats import Decision
from gamelib.session.readonly import ReadOnly
from gamelib.session.rules import (
    CLOSED,
    NO_MOVES,
    GameFailed,
    Labels,
    budget_for,
    check_delay,
    check_game,
    check_mode,
    check_strength,
    choose_move,
    is_number,
    join_moves,
    move_values,
    name_of,
    search_failure,
    strength_label,
    threads_can_start,
)
from gamelib.session.turns import Turns

__all__ = ["PlaySession"]


class _Job(NamedTuple):
    """One computer move to make: started in ``generation`` on ``state``."""

    generation: int
    state: State
    rng: random.Random
    pause: bool  # pause for the delay first (computer versus computer, in a thread)


T = TypeVar("T")


def _locked(read: Callable[[PlaySession], T], doc: str) -> ReadOnly[PlaySession, T]:
    """A read-only attribute of a :class:`PlaySession`: ``read(session)`` with its lock held."""

    def read_locked(session: PlaySession) -> T:
        with session._lock:
            return read(session)

    return ReadOnly(read_locked, doc)


class PlaySession(Turns):
    """One game in progress: the position, its history, the turns and the computer player.

    Arguments are those of :func:`gamelib.ui.play` (GameError for a bad one), plus
    ``labels``, the board's names for the players and its click help (plain names and
    typed moves without it), and ``on_change``, called with the session's lock held
    after every change (a board redraws there; it must not call back into input methods).
    Every method is safe to call from any thread. The input methods (:meth:`submit`,
    :meth:`play_move`, :meth:`play_at`, :meth:`undo`, :meth:`new_game`, :meth:`hint`,
    :meth:`run`, :meth:`stop`, :meth:`wait`) never raise: they return False (``hint``:
    None) and say why in :attr:`message`. The settings (:meth:`set_mode`,
    :meth:`set_strength`, :meth:`set_delay`) raise GameError for a value they do not take.
    """

    def __init__(self, game: Game[Any, Any], *, mode: str = "human-computer",
                 depth: int | None = None, seconds: float | None = None,
                 seed: int | None = None, delay: float = 0.8, background: bool = True,
                 labels: Labels | None = None,
                 on_change: Callable[[], object] | None = None) -> None:
        check_game(game)
        check_mode(mode)
        check_strength(depth, seconds)
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise GameError(f"seed must be a whole number or None, got {seed!r}")
        check_delay(delay)
        super().__init__(game, mode, labels, on_change)
        self._depth, self._seconds = depth, seconds
        self._delay = float(delay)
        self._threads = bool(background) and threads_can_start()
        self._rng: Final = random.Random(seed)
        self._set_message(self._welcome(fresh=True))
        self._continue()

    # -- what one can read (each read with the lock held) ------------------------------

    game = _locked(lambda s: s._game, "The game being played.")
    labels = _locked(
        lambda s: s._labels, "The names of the players and the click help used in the messages."
    )
    state = _locked(lambda s: s._states[-1], "The current position.")
    history = _locked(
        lambda s: list(s._history),
        "The moves from the start to :attr:`state`, as a copy (``replay`` gives the state).",
    )
    notation = _locked(
        lambda s: list(s._texts), "The moves of :attr:`history` in the game's notation."
    )
    last_move = _locked(
        lambda s: s._history[-1] if s._history else None,
        "The move that led to :attr:`state`; None at the start.",
    )
    message = _locked(
        lambda s: s._message,
        "What just happened, or why an input was refused (at most MESSAGE_LIMIT characters).",
    )
    error = _locked(lambda s: s._error, "True when :attr:`message` reports a refusal or a failure.")
    thinking = _locked(
        lambda s: s._busy is not None, "True while the computer searches for a move or for hints."
    )
    finished = _locked(lambda s: s._facts_of[-1].finished, "True once the game is won or drawn.")
    status = _locked(
        lambda s: s._status()[0],
        "The status lines for the board: whose turn or the result, then a value or hints.",
    )
    status_player = _locked(
        lambda s: s._status()[1],
        "The player whose token goes beside :attr:`status` (None: none, e.g. a draw).",
    )
    mode = _locked(lambda s: s._mode, "Who plays which side: one of :data:`MODES`.")
    strength = _locked(
        lambda s: (s._depth, s._seconds),
        "The computer's search limits ``(depth, seconds)``; ``(None, None)``: the default.",
    )
    delay = _locked(
        lambda s: s._delay, "Seconds of pause before each move of a computer-versus-computer game."
    )
    running = _locked(
        lambda s: s._running and s._mode == "computer-computer",
        "In computer-versus-computer mode: True unless paused with :meth:`stop`.",
    )
    decision = _locked(
        lambda s: s._decision,
        "The computer's latest :class:`~gamelib.search.stats.Decision` (with its stats).",
    )
    hints = _locked(
        lambda s: None if s._hints is None else dict(s._hints),
        "The values shown by the latest :meth:`hint`, until the next move.",
    )
    threaded = _locked(
        lambda s: s._threads,
        "True if the computer thinks in a background thread (False: synchronously).",
    )
    closed = _locked(lambda s: s._closed, "True after :meth:`close`: every input is then refused.")

    def __repr__(self) -> str:
        with self._lock:
            moves = " ".join(self._texts) or "none"
            return f"<PlaySession {name_of(self._game)}, {self._mode}: moves {moves}>"

    # -- input -------------------------------------------------------------------------

    def submit(self, text: object) -> bool:
        """Play the move typed as ``text`` in the game's notation.

        Returns True if the move was played. Otherwise (malformed text, illegal move,
        the computer's turn or thinking, game over) returns False and explains in
        :attr:`message`; the position and history stay as they were.
        """
        def act() -> bool:
            if not isinstance(text, str):
                return self._refuse(f"a move is typed as text, not {type(text).__name__}")
            try:
                move = self._ask("parse_move", text, refusal=True)
            except GameError as error:
                return self._refuse(str(error), keep_case=str(error).startswith(text.strip()))
            return self._human_move(move)

        return self._input(act)

    def play_move(self, move: Move) -> bool:
        """Play ``move`` in the game's own form, e.g. ``(1, 1)`` or ``3``; False if refused."""
        return self._input(lambda: self._human_move(move))

    def play_at(self, x: object, y: object,
                locate: Callable[[float, float, State], Move | None]) -> bool:
        """Play the move at the point ``(x, y)`` of a board: ``locate(x, y, state)`` names it.

        ``locate`` is a board's ``move_at``. A point that is not two finite numbers, or
        where ``locate`` finds no move (or fails), is refused with the board's click help.
        """
        def act() -> bool:
            if not (is_number(x) and is_number(y)):
                return self._refuse("a click needs two finite numbers x, y in canvas pixels")
            move: Move | None = None
            try:
                fx, fy = float(x), float(y)  # type: ignore[arg-type]
            except OverflowError:  # a whole number too large for a float: far off any board
                pass
            else:
                if not (math.isfinite(fx) and math.isfinite(fy)):
                    return self._refuse("a click needs two finite numbers x, y in canvas pixels")
                with contextlib.suppress(Exception):  # a board that cannot place the point
                    move = locate(fx, fy, self._states[-1])
            if move is None:
                how = self._labels.click_help or "moves are typed here"
                return self._refuse(f"That is not a place on the board: {how}.")
            return self._human_move(move)

        return self._input(act)

    def undo(self) -> bool:
        """Take back the last move of a human player and every computer move after it.

        Against the computer this takes back your last move and the computer's reply
        (also while it is still thinking about that reply: its search is cancelled).
        Between two humans, or in a paused computer game, it takes back one move.
        Returns False, with a :attr:`message`, when there is nothing to take back.
        """
        def act() -> bool:
            humans = self._humans()
            if self._closed:
                return self._refuse(CLOSED)
            if not humans:
                return self._refuse("The computers are playing: press Stop first, then Undo.")
            target = next((ply for ply in range(len(self._history) - 1, -1, -1)
                           if self._facts_of[ply].mover in humans), None)
            if target is None:
                if self._history:
                    return self._refuse("Nothing to undo: you have not moved yet.")
                return self._refuse("Nothing to undo: no move has been made yet.")
            taken = self._texts[target:]
            self._end_generation()
            self._truncate(target)
            self._set_message(f"Took back {join_moves(taken)}.")
            self._update()
            return True

        return self._input(act, refuse_now=False)

    def new_game(self) -> bool:
        """Start again from the first position, with the same players and strength.

        Any search under way is cancelled. Returns True (False once closed).
        """
        def act() -> bool:
            if self._closed:
                return self._refuse(CLOSED)
            self._end_generation()
            self._truncate(0)
            self._decision = None
            self._running = self._mode == "computer-computer"
            self._set_message("New game. " + self._welcome(fresh=True))
            self._update()
            return True

        return self._input(act, refuse_now=False)

    def hint(self) -> dict[Hashable, float] | None:
        """The value of every legal move for the human to move; None (with a message) if refused.

        Values are for the player to move, after that move: +1 a win, 0 a draw, -1 a loss
        with best play, numbers in between are estimates. The search uses the computer's
        strength and its own budget, and runs in the calling thread.
        """
        try:
            with self._lock:
                if self._refuse_input():
                    return None
                state, generation = self._states[-1], self._generation
                moves = self._ask("moves", state)
                if not moves:
                    self._refuse(f"No hint: {NO_MOVES}.")
                    return None
                budget = self._budget = budget_for(self._game, self._depth, self._seconds)
                depth, seconds = self._depth, self._seconds
                self._busy = "hint"
                self._set_message("Computing the value of every move…")
                self._update()
            try:
                values: dict[Hashable, float] | None = dict(
                    move_values(self._game, state, depth, seconds, budget))
                problem = ""
            except Exception as error:  # the board must survive a failing search
                values, problem = None, search_failure(error, self._game)
            with self._lock:
                if generation != self._generation:
                    return None
                self._busy, self._budget = None, None
                if values is None:
                    self._refuse(f"No hint: {problem}.")
                    return None
                self._hints_cut = budget.expired() and not budget.cancelled
                self._hints_seconds = budget.seconds
                self._set_message(self._describe_hints(values))
                self._hints = values
                self._update()
                return dict(values)
        except GameFailed as failed:
            with self._lock:
                self._busy = None
                self._refuse(f"No hint: {failed}.")
            return None
        except Exception as error:  # pragma: no cover - a last resort: never raise at the user
            with self._lock:
                self._busy = None
                self._refuse(f"No hint: an internal error ({type(error).__name__}).")
            return None

    def run(self) -> bool:
        """Start or resume a computer-versus-computer game; False in the other modes."""
        def act() -> bool:
            if self._closed:
                return self._refuse(CLOSED)
            if self._mode != "computer-computer":
                return self._refuse("Run is for computer versus computer: choose it under Players.")
            if self._facts_of[-1].finished:
                return self._refuse("The game is over: press New to watch another.")
            self._running = True
            self._set_message("Running: the computers play each other.")
            self._update()
            return True

        return self._input(act, refuse_now=False)

    def stop(self) -> bool:
        """Pause a computer-versus-computer game at once (a search under way is cancelled).

        While paused, either side's moves can be made by hand; :meth:`run` resumes.
        Returns False in the other modes.
        """
        def act() -> bool:
            if self._mode != "computer-computer" or not self._running:
                return self._refuse("Nothing to stop: no computer-versus-computer game is running.")
            self._end_generation()
            self._running = False
            self._set_message("Paused. Move for either side, or press Run to continue.")
            self._update()
            return False  # nothing for the computer to do: do not continue

        with self._lock:
            was_running = self._mode == "computer-computer" and self._running
        self._input(act, refuse_now=False)
        return was_running

    def wait(self, timeout: object = None) -> bool:
        """Block until the computer has nothing left to do, or ``timeout`` seconds pass.

        "Nothing left" means: a human is to move, the game is over, the computer games
        are paused, the computer failed or the session is closed. Returns True if so,
        False on timeout. ``timeout`` None, ``math.inf`` or any number too large for a
        timer waits until then, which the budgets of the searches bound; zero or a
        negative number does not wait. A timeout that is not a number (or is nan) is
        refused with a message, without waiting. Do not call it from ``on_change``.
        """
        limit: float | None = None
        if timeout is not None:
            if not is_number(timeout) or timeout != timeout:  # nan is not equal to itself
                with self._lock:
                    self._refuse(f"wait(timeout) takes a number of seconds or None, not "
                                 f"{describe_text(timeout)}", keep_case=True)
                    return not self._pending()
            if timeout < threading.TIMEOUT_MAX:  # type: ignore[operator]
                limit = 0.0 if timeout <= 0 else float(timeout)  # type: ignore[operator, arg-type]
        with self._changed:
            return self._changed.wait_for(lambda: not self._pending(), limit)

    def _input(self, act: Callable[[], bool], refuse_now: bool = True) -> bool:
        """Run an input under the lock; never raise; let the computer move after it."""
        try:
            with self._lock:
                done = False if refuse_now and self._refuse_input() else act()
        except GameFailed as failed:
            with self._lock:
                done = self._refuse(f"{failed}; nothing was played.")
        except Exception as error:  # pragma: no cover - a last resort: never raise at the user
            with self._lock:
                done = self._refuse(f"Something went wrong in gamelib ({type(error).__name__}).")
        if done:
            self._continue()
        return done

    # -- settings ----------------------------------------------------------------------

    def set_mode(self, mode: str) -> bool:
        """Change who plays which side (one of :data:`MODES`), keeping the position.

        If the computer is now to move, it starts thinking; a search under way is
        cancelled. Raises GameError for an unknown mode.
        """
        check_mode(mode)
        with self._lock:
            self._end_generation()
            self._mode = mode
            self._running = mode == "computer-computer"
            self._failure = None
            self._set_message(self._welcome(fresh=not self._history))
            self._update()
        self._continue()
        return True

    def set_strength(self, depth: int | None = None, seconds: float | None = None) -> bool:
        """Set the computer's search limits for its next search (both None: the default).

        ``depth`` is in plies; ``seconds`` is a time budget. Raises GameError for bad values.
        """
        check_strength(depth, seconds)
        with self._lock:
            self._depth, self._seconds = depth, seconds
            self._set_message(f"Computer strength: {strength_label(self._game, depth, seconds)}.")
            self._update()
        return True

    def set_delay(self, delay: float) -> bool:
        """Seconds to pause before each move of a computer-versus-computer game (0 to 5).

        A pause under way is shortened (or lengthened) to the new delay.
        """
        check_delay(delay)
        with self._lock:
            self._delay = float(delay)
            self._update()
        return True

    def refresh(self) -> None:
        """Call ``on_change`` now (e.g. when a board must be drawn again)."""
        with self._lock:
            self._update()

    def close(self) -> None:
        """Cancel any search or demo; from now on every input is refused."""
        with self._lock:
            self._end_generation()
            self._running = False
            self._closed = True
            self._update()

    # -- the computer ------------------------------------------------------------------

    def _continue(self) -> None:
        """Let the computer move while it is its turn (in a thread, or right here)."""
        while True:
            with self._lock:
                if self._busy is not None or not self._computer_to_move():
                    return
                self._busy = "move"
                # A fresh generator per move, drawn in order from the seeded one, so that
                # a seeded game replays whatever happens to searches that get cancelled.
                job = _Job(self._generation, self._states[-1],
                           random.Random(self._rng.getrandbits(64)),
                           self._threads and self._mode == "computer-computer")
                self._update()
                threaded = self._threads
            if threaded and self._start_thread(job):
                return
            self._run_job(job._replace(pause=False))

    def _start_thread(self, job: _Job) -> bool:
        """Run ``job`` in a daemon thread; False (and no more threads) where none can start."""
        try:
            threading.Thread(target=self._background_job, args=(job,), daemon=True).start()
            return True
        except RuntimeError:  # Pyodide: "can't start new thread"
            with self._lock:
                self._threads = False
            return False

    def _background_job(self, job: _Job) -> None:
        try:
            self._run_job(job)
            self._continue()
        except Exception as error:  # pragma: no cover - a last resort: never die silently
            with self._lock:
                if job.generation == self._generation:
                    self._fail(f"The computer stopped: an internal error ({type(error).__name__}).")

    def _pause(self, generation: int) -> bool:
        """Wait for the delay (which may change meanwhile); False if the generation ended."""
        started = time.monotonic()
        with self._changed:
            while generation == self._generation:
                left = started + self._delay - time.monotonic()
                if left <= 0:
                    return True
                self._changed.wait(left)
            return False

    def _run_job(self, job: _Job) -> None:
        if job.pause and not self._pause(job.generation):
            return
        with self._lock:
            if job.generation != self._generation:
                return
            budget = self._budget = budget_for(self._game, self._depth, self._seconds)
            depth, seconds = self._depth, self._seconds
        decision: Decision | None = None
        try:
            if not self._ask("moves", job.state):
                problem = NO_MOVES
            else:
                decision = choose_move(self._game, job.state, depth, seconds, job.rng, budget)
        except GameFailed as failed:
            problem = str(failed)
        except Exception as error:  # the board must survive a failing search
            problem = search_failure(error, self._game)
        with self._lock:
            if job.generation != self._generation or job.state is not self._states[-1]:
                return  # stale: a new game, an undo or a stop came first
            self._busy, self._budget = None, None
            if decision is None:
                self._fail(f"The computer could not move: {problem}.")
                return
            try:
                after = self._ask("play", job.state, decision.move, refusal=True)
                text, facts = str(self._ask("format_move", decision.move)), self._facts(after)
            except GameError as error:
                self._fail(f"The computer chose an illegal move ({error}).")
                return
            except GameFailed as failed:
                self._fail(f"The computer's move failed: {failed}.")
                return
            mover = self._facts_of[-1].mover
            self._push(decision.move, after, facts, text)
            self._decision, self._decision_ply = decision, len(self._history)
            calls = decision.stats.calls
            searched = f" after searching {calls:,} positions" if calls > 1 else ""
            cut = (f" Its time ran out ({budget.seconds:g} s): this is the best move it found."
                   if decision.cut_short else "")
            self._set_message(f"{mover} (computer) played {text}{searched}.{cut}"
                              + self._game_over())
            self._update()

