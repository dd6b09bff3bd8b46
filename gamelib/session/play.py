"""The play session: input, settings and the computer player (see :mod:`gamelib.session`).

A :class:`PlaySession` is composed of a :class:`~gamelib.session.state.PlayState` (under
its lock: the history, the turns, the computer's doing, the message), and a
:class:`~gamelib.session.computer.Computer` (its strength, searches and budgets); it takes
the input, checks it at the door and keeps the order of events: a move, then the
computer's reply, in a thread or right here."""

from __future__ import annotations

import contextlib
import functools
import math
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar

from gamelib.game import Game, GameError, Move, State, describe_text
from gamelib.search.common import check_whole, is_number, legal_form
from gamelib.search.puct import Guide
from gamelib.session.checks import (
    check_delay,
    check_game,
    check_guide,
    check_iterations,
    check_labels,
    check_mode,
    check_strength,
)
from gamelib.session.computer import Computer, Job
from gamelib.session.history import (
    GameFailed,
    History,
    ask,
    describe_exception,
    facts_of,
)
from gamelib.session.readonly import ReadOnly
from gamelib.session.state import PlayState
from gamelib.session.turns import Turns
from gamelib.session.words import (
    CLOSED,
    NO_MOVES,
    Labels,
    TypedMoves,
    describe_hints,
    join_moves,
    name_of,
    search_failure,
    strength_label,
)

__all__ = ["PlaySession"]


T = TypeVar("T")


def _locked(read: Callable[[PlaySession], T], doc: str) -> ReadOnly[PlaySession, T]:
    """A read-only attribute of a :class:`PlaySession`: ``read(session)`` with its lock held."""

    def read_locked(session: PlaySession) -> T:
        with session._st.lock:
            return read(session)

    return ReadOnly(read_locked, doc)


class PlaySession:
    """One game in progress: the position, its history, the turns and the computer player.

    Arguments are those of :func:`gamelib.ui.play` (GameError for a bad one; ``mcts``
    makes the computer a Monte-Carlo tree search with that many iterations per move, and
    ``guide`` with it makes that search PUCT and the hints the guide's priors), plus
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
                 on_change: Callable[[], object] | None = None,
                 mcts: int | None = None, guide: Guide | None = None) -> None:
        check_game(game)
        check_mode(mode)
        check_strength(depth, seconds)
        check_iterations(mcts)
        check_guide(guide, mcts)
        check_labels(labels)
        seed = check_whole(seed, "seed", None, optional=True)  # numpy's ints become ints
        check_delay(delay)
        self._game: Final = game
        try:
            history = History.begin(game)
        except GameFailed as failed:
            raise GameError(f"{name_of(game)} cannot be played: {failed}") from None
        turns = Turns.begin(game.players, mode, labels if labels is not None else TypedMoves())
        self._st: Final = PlayState(history, turns, on_change)
        self._computer: Final = Computer(game, depth, seconds, delay, background, seed, mcts,
                                         guide)
        self._idle_since = time.monotonic()  # when a threadless demo's pause began
        self._st.set_message(turns.welcome(history.now, fresh=True))
        self._continue()

    # -- what one can read (each read with the lock held) ------------------------------

    game = _locked(lambda s: s._game, "The game being played.")
    labels = _locked(lambda s: s._st.turns.labels,
                     "The players' names and click help, for messages.")
    state = _locked(lambda s: s._st.history.state, "The current position.")
    history = _locked(lambda s: list(s._st.history.moves),
        "The moves from the start to :attr:`state`, as a copy (``replay`` gives the state).")
    notation = _locked(lambda s: list(s._st.history.texts),
                       "The moves of :attr:`history` in the game's notation.")
    last_move = _locked(lambda s: s._st.history.moves[-1] if s._st.history.moves else None,
                        "The move that led to :attr:`state`; None at the start.")
    message = _locked(lambda s: s._st.message,
        "What just happened, or why an input was refused (at most MESSAGE_LIMIT characters).")
    error = _locked(lambda s: s._st.error,
                    "True when :attr:`message` reports a refusal or a failure.")
    thinking = _locked(lambda s: s._st.busy is not None,
                       "True while the computer searches for a move or for hints.")
    finished = _locked(lambda s: s._st.history.now.finished, "True once the game is won or drawn.")
    status = _locked(lambda s: s._st.status()[0],
        "The status lines for the board: whose turn or the result, then a value or hints.")
    status_player = _locked(lambda s: s._st.status()[1],
        "The player whose token goes beside :attr:`status` (None: none, e.g. a draw).")
    mode = _locked(lambda s: s._st.turns.mode, "Who plays which side: one of :data:`MODES`.")
    strength = _locked(lambda s: (s._computer.depth, s._computer.seconds),
        "The computer's search limits ``(depth, seconds)``; ``(None, None)``: the default.")
    mcts = _locked(lambda s: s._computer.mcts,
        "The MCTS player's iterations per move; None when the computer uses the engine's search.")
    delay = _locked(lambda s: s._computer.delay,
                    "Seconds of pause before each move of a computer-versus-computer game.")
    running = _locked(lambda s: s._st.turns.running and s._st.turns.mode == "computer-computer",
                      "In computer-versus-computer mode: True unless paused with :meth:`stop`.")
    decision = _locked(lambda s: s._st.decision,
        "The computer's latest :class:`~gamelib.search.stats.Decision` (with its stats).")
    hints = _locked(lambda s: None if s._st.hints is None else type(s._st.hints)(s._st.hints),
                    "The values (or a guide's Priors) shown by the latest :meth:`hint`, until "
                    "the next move.")
    threaded = _locked(lambda s: s._computer.threaded,
                       "True if the computer thinks in a background thread (False: synchronously).")
    closed = _locked(lambda s: s._st.closed,
                     "True after :meth:`close`: every input is then refused.")

    def __repr__(self) -> str:
        with self._st.lock:
            moves = " ".join(self._st.history.texts) or "none"
            return f"<PlaySession {name_of(self._game)}, {self._st.turns.mode}: moves {moves}>"

    # -- input -------------------------------------------------------------------------

    def submit(self, text: object) -> bool:
        """Play the move typed as ``text`` in the game's notation.

        Returns True if the move was played. Otherwise (malformed text, illegal move,
        the computer's turn or thinking, game over) returns False and explains in
        :attr:`message`; the position and history stay as they were.
        """
        def act() -> bool:
            if not isinstance(text, str):
                return self._st.refuse(f"a move is typed as text, not {type(text).__name__}")
            try:
                move = ask(self._game, "parse_move", text, refusal=True)
            except GameError as error:
                return self._st.refuse(str(error), keep_case=str(error).startswith(text.strip()))
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
                return self._st.refuse("a click needs two finite numbers x, y in canvas pixels")
            move: Move | None = None
            try:
                fx, fy = float(x), float(y)  # type: ignore[arg-type]
            except OverflowError:  # a whole number too large for a float: far off any board
                pass
            else:
                if not (math.isfinite(fx) and math.isfinite(fy)):
                    return self._st.refuse("a click needs two finite numbers x, y in canvas pixels")
                with contextlib.suppress(BaseException):  # a board that cannot place the point
                    move = locate(fx, fy, self._st.history.state)
            if move is None:
                how = self._st.turns.labels.click_help or "moves are typed here"
                return self._st.refuse(f"That is not a place on the board: {how}.")
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
            humans, history = self._st.turns.humans(), self._st.history
            if self._st.closed:
                return self._st.refuse(CLOSED)
            if not humans:
                return self._st.refuse("The computers are playing: press Stop first, then Undo.")
            target = next((ply for ply in range(history.ply - 1, -1, -1)
                           if history.facts[ply].mover in humans), None)
            if target is None:
                if history.ply:
                    return self._st.refuse("Nothing to undo: you have not moved yet.")
                return self._st.refuse("Nothing to undo: no move has been made yet.")
            taken = history.texts[target:]
            self._end_generation()
            self._st.truncate(target)
            self._st.set_message(f"Took back {join_moves(taken)}.")
            self._st.update()
            return True

        return self._input(act, refuse_now=False)

    def new_game(self) -> bool:
        """Start again from the first position, with the same players and strength.

        Any search under way is cancelled. Returns True (False once closed).
        """
        def act() -> bool:
            if self._st.closed:
                return self._st.refuse(CLOSED)
            self._end_generation()
            self._st.truncate(0)
            self._st.decision = None
            self._st.turns = self._st.turns.with_mode(self._st.turns.mode)
            self._st.set_message("New game. "
                                 + self._st.turns.welcome(self._st.history.now, fresh=True))
            self._st.update()
            return True

        return self._input(act, refuse_now=False)

    def hint(self) -> dict[Hashable, float] | None:
        """The value of every legal move for the human to move; None (with a message) if refused.

        Values are for the player to move, after that move: +1 a win, 0 a draw, -1 a loss
        with best play, numbers in between are estimates. The search uses the computer's
        strength and its own budget, and runs in the calling thread. With a ``guide``
        the hints are instead its priors (:class:`~gamelib.search.stats.Priors`: each
        from 0 to 1, together 1), the moves the guided search will look at first.
        """
        try:
            with self._st.lock:
                if self._st.refuse_input():
                    return None
                game, state, generation = self._game, self._st.history.state, self._st.generation
                if not ask(game, "moves", state):
                    self._st.refuse(f"No hint: {NO_MOVES}.")
                    return None
                computer = self._computer
                search = computer.new_search()
                self._st.busy = "hint"
                self._st.set_message("Computing the value of every move…")
                self._st.update()
            values, problem = computer.values(state, search)
            budget = search.budget
            with self._st.lock:
                if generation != self._st.generation:
                    return None
                self._st.busy, computer.budget = None, None
                if values is None:
                    self._st.refuse(f"No hint: {problem}.")
                    return None
                self._st.hints_cut = budget.expired() and not budget.cancelled
                cut = budget.seconds
                self._st.set_message(describe_hints(
                    self._st.history.now.mover, values, lambda m: str(ask(game, "format_move", m)),
                    cut if self._st.hints_cut else None))
                self._st.hints = values
                self._st.update()
                return type(values)(values)     # a copy, Priors kept Priors
        except BaseException as error:  # noqa: BLE001 - a last resort: never raise at the user
            with self._st.lock:
                self._st.busy = None
                self._st.refuse("No hint: " + (f"{error}." if isinstance(error, GameFailed)
                                            else f"{search_failure(error, self._game)}."))
            return None

    def run(self) -> bool:
        """Start or resume a computer-versus-computer game; False in the other modes."""
        def act() -> bool:
            if self._st.closed:
                return self._st.refuse(CLOSED)
            if self._st.turns.mode != "computer-computer":
                return self._st.refuse(
                    "Run is for computer versus computer: choose it under Players.")
            if self._st.history.now.finished:
                return self._st.refuse("The game is over: press New to watch another.")
            self._st.turns = self._st.turns.with_running(True)
            self._st.set_message("Running: the computers play each other.")
            self._st.update()
            return True

        return self._input(act, refuse_now=False)

    def stop(self) -> bool:
        """Pause a computer-versus-computer game at once (a search under way is cancelled).

        While paused, either side's moves can be made by hand; :meth:`run` resumes.
        Returns False in the other modes.
        """
        def act() -> bool:
            if not self._st.running():
                return self._st.refuse(
                    "Nothing to stop: no computer-versus-computer game is running.")
            if self._st.history.now.finished:
                return self._st.refuse("Nothing to stop: the game is over. Press New for another.")
            self._end_generation()
            self._st.turns = self._st.turns.with_running(False)
            self._st.set_message("Paused. Move for either side, or press Run to continue.")
            self._st.update()
            return False  # nothing for the computer to do: do not continue

        with self._st.lock:
            was_running = self._st.running() and not self._st.history.now.finished
        self._input(act, refuse_now=False)
        return was_running

    def wait(self, timeout: object = None) -> bool:
        """Block until the computer has nothing left to do, or ``timeout`` seconds pass.

        "Nothing left" means: a human is to move, the game is over, the computer games
        are paused, the computer failed or the session is closed. Returns True if so,
        False on timeout. ``timeout`` None, ``math.inf`` or any number too large for a
        timer waits until then, which the budgets of the searches bound; zero or a
        negative number does not wait. A timeout that is not a number (or is nan) is
        refused with a message, without waiting. Without threads, it plays a running
        computer game's moves itself (no delay; the timeout is checked after each move).
        Do not call it from ``on_change``.
        """
        limit: float | None = None
        if timeout is not None:
            if not is_number(timeout) or timeout != timeout:  # nan is not equal to itself
                with self._st.lock:
                    self._st.refuse(f"wait(timeout) takes a number of seconds or None, not "
                                 f"{describe_text(timeout)}", keep_case=True)
                    return not self._st.pending()
            if timeout < threading.TIMEOUT_MAX:  # type: ignore[operator]
                limit = 0.0 if timeout <= 0 else float(timeout)  # type: ignore[operator, arg-type]
        deadline = time.monotonic() + (math.inf if limit is None else limit)
        while time.monotonic() < deadline and self._tick(patient=False):
            pass  # without threads, nobody else plays a computer game's moves
        with self._st.changed:
            return self._st.changed.wait_for(lambda: not self._st.pending(), limit)

    def tick(self) -> bool:
        """Without threads (``background=False``, Pyodide), where no call plays more than
        one computer move: play a running computer game's next move if :attr:`delay` s
        passed since the last one (or since it started or resumed); a board's page calls it
        several times a second. True if the computer moved (or failed to). Never raises."""
        return self._tick(patient=True)

    def _tick(self, patient: bool) -> bool:
        with self._st.lock:  # patient False: no waiting for the delay
            if (self._computer.threaded or self._st.busy is not None or not self._st.running()
                    or not self._st.computer_to_move() or patient
                    and time.monotonic() - self._idle_since < self._computer.delay):
                return False
            self._st.busy = "move"
            job = Job(self._st.generation, self._st.history.state, self._computer.next_rng(), False)
            self._st.update()
        self._move_and_continue(job)  # which notes when the next delay begins
        return True

    def _input(self, act: Callable[[], bool], refuse_now: bool = True) -> bool:
        """Run an input under the lock; never raise; let the computer move after it."""
        try:
            with self._st.lock:
                done = False if refuse_now and self._st.refuse_input() else act()
        except GameFailed as failed:
            with self._st.lock:
                done = self._st.refuse(f"{failed}; nothing was played.")
        except BaseException as error:  # noqa: BLE001 - a last resort: never raise at the user
            with self._st.lock:
                done = self._st.refuse(f"Something went wrong: {describe_exception(error)}; "
                                    "nothing was played.")
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
        with self._st.lock:
            self._end_generation()
            self._st.turns = self._st.turns.with_mode(mode)
            self._st.failure = None
            history = self._st.history
            self._st.set_message(self._st.turns.welcome(history.now, fresh=not history.ply))
            self._st.update()
        self._continue()
        return True

    def set_strength(self, depth: int | None = None, seconds: float | None = None) -> bool:
        """Set the computer's search limits for its next search (both None: the default).

        ``depth`` is in plies; ``seconds`` is a time budget. Raises GameError for bad values.
        """
        check_strength(depth, seconds)
        with self._st.lock:
            self._computer.depth, self._computer.seconds = depth, seconds
            label = strength_label(self._game, depth, seconds)
            self._st.set_message(f"Computer strength: {label}.")
            self._st.update()
        return True

    def set_delay(self, delay: float) -> bool:
        """Seconds to pause before each move of a computer-versus-computer game (0 to 5).

        A pause under way is shortened (or lengthened) to the new delay.
        """
        check_delay(delay)
        with self._st.lock:
            self._computer.delay = float(delay)
            self._st.update()
        return True

    def refresh(self) -> None:
        """Call ``on_change`` now (e.g. when a board must be drawn again)."""
        with self._st.lock:
            self._st.update()

    def close(self) -> None:
        """Cancel any search or demo; from now on every input is refused."""
        with self._st.lock:
            self._end_generation()
            self._st.turns = self._st.turns.with_running(False)
            self._st.closed = True
            self._st.update()

    # -- the computer ------------------------------------------------------------------

    def _continue(self) -> None:
        """Let the computer move while it is its turn (in a thread, or right here)."""
        while True:
            with self._st.lock:
                if self._st.busy is not None or not self._st.computer_to_move():
                    return
                if not self._computer.threaded and self._st.running():
                    self._idle_since = time.monotonic()  # its moves come by ticks
                    return
                self._st.busy = "move"
                computer = self._computer
                job = Job(self._st.generation, self._st.history.state, computer.next_rng(),
                           computer.threaded and self._st.turns.mode == "computer-computer")
                self._st.update()
                threaded = computer.threaded
            if threaded and computer.start(functools.partial(self._move_and_continue, job)):
                return
            self._run_safely(job._replace(pause=False))

    def _move_and_continue(self, job: Job) -> None:
        """A computer thread's work: ``job``, then the next one if the computer is to move."""
        self._run_safely(job)
        self._continue()

    def _run_safely(self, job: Job) -> None:
        """Run ``job``; whatever it raises, ``BaseException`` subclasses included (a check's
        refusal, ``SystemExit``), is reported as the computer's failure, so that no thread
        dies silently and the session stays usable (Undo, New game, a change of players)."""
        try:
            self._run_job(job)
        except BaseException as error:  # noqa: BLE001 - reported, never raised in a thread
            with self._st.lock:
                if job.generation == self._st.generation:
                    self._st.fail(f"The computer stopped: {search_failure(error, self._game)}.")

    def _run_job(self, job: Job) -> None:
        if job.pause and not self._computer.pause(
                self._st.changed, lambda: job.generation == self._st.generation):
            return
        with self._st.lock:
            if job.generation != self._st.generation:
                return
            search = self._computer.new_search()
        decision, problem = self._computer.move(job.state, job.rng, search)
        with self._st.lock:
            if job.generation != self._st.generation or job.state is not self._st.history.state:
                return  # stale: a new game, an undo or a stop came first
            self._st.busy, self._computer.budget = None, None
            if decision is None:
                self._st.fail(f"The computer could not move: {problem}.")
                return
            try:
                after = ask(self._game, "play", job.state, decision.move, refusal=True)
                text = str(ask(self._game, "format_move", decision.move))
                facts = facts_of(self._game, after)
            except GameError as error:
                self._st.fail(f"The computer chose an illegal move ({error}).")
                return
            except GameFailed as failed:
                self._st.fail(f"The computer's move failed: {failed}.")
                return
            mover = self._st.history.now.mover
            self._st.push(decision.move, after, facts, text)
            self._st.decision, self._st.decision_ply = decision, self._st.history.ply
            calls = decision.stats.calls
            searched = f" after searching {calls:,} positions" if calls > 1 else ""
            cut = (f" Its time ran out ({search.budget.seconds:g} s): this is the best move "
                   "it found." if decision.cut_short else "")
            said = self._st.turns.played(mover, text, f"{searched}.{cut}", self._st.message)
            self._st.set_message(said + self._st.turns.game_over(self._st.history.now))
            self._st.update()

    # -- the turns and the messages --------------------------------------------------------

    def _human_move(self, move: Move) -> bool:
        state, mover = self._st.history.state, self._st.history.now.mover
        try:
            if not ask(self._game, "finished", state):  # numpy's 3 is the column 3
                move = legal_form(ask(self._game, "moves", state), move)
            after = ask(self._game, "play", state, move, refusal=True)
        except GameError as error:
            return self._st.refuse(str(error), keep_case=str(error).startswith(str(move)))
        text, facts = str(ask(self._game, "format_move", move)), facts_of(self._game, after)
        self._st.push(move, after, facts, text)
        who = "You" if len(self._st.turns.humans()) == 1 else mover
        self._st.set_message(f"{who} played {text}." + self._st.turns.game_over(facts))
        self._st.update()
        return True

    def _end_generation(self) -> None:
        """Cancel whatever the computer is doing: its result will be dropped."""
        self._computer.cancel()
        self._st.end_generation()

