"""The play controller: a game in a notebook cell, driven by clicks, buttons or code.

:func:`play` builds a :class:`PlayController`, shows its widget and returns it. The
controller owns the position; the widgets only call its methods, and so can a test
or a lesson cell:

>>> from gamelib.games import TicTacToe
>>> c = play(TicTacToe(), seed=1, background=False, display=False)
>>> c.submit("2,2"), c.history[0], len(c.history)      # the computer answered at once
(True, (1, 1), 2)
>>> c.submit("2,2"), c.message.startswith("Cell 2,2 is taken by X"), len(c.history)
(False, True, 2)

How it stays responsive
-----------------------
Nothing ever waits for input: there is no ``input()`` and no polling loop. When the
computer is to move, its search runs in a daemon thread (or right away with
``background=False``); until it is done, :attr:`~PlayController.thinking` is true, the
board says so, and any move is refused with a message. Its result comes back through
the controller under a lock, together with the *generation* it was started in: New
game, Undo, Stop and a change of players start a new generation, so a stale result is
dropped instead of landing on the wrong position. Computer-versus-computer games run
the same way, one move per thread with a pause of ``delay`` seconds before each.
"""

from __future__ import annotations

import html
import math
import random
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final

import ipywidgets as w

from gamelib.game import Game, GameError, Move, Player, State, describe_text
from gamelib.games import ConnectFour
from gamelib.search.stats import Decision
from gamelib.ui.boards import (
    DEFAULT_SIZE,
    BoardView,
    ConnectFourBoard,
    _winner,
    board_for,
    check_game,
    format_value,
)

__all__ = ["PlayController", "play", "MODES"]

MODES: Final = ("human-computer", "computer-human", "human-human", "computer-computer")
"""Who plays which side, first mover first: ``"computer-human"`` lets the computer start."""

MESSAGE_LIMIT: Final = 160
"""Messages longer than this many characters are cut short."""

MAX_DELAY: Final = 5.0
"""The longest pause (seconds) between the moves of a computer-versus-computer game."""

# Larger text and controls for a projector, scoped to the play widget only.
_STYLE: Final = """<style>
.gamelib-play {
  --jp-widgets-font-size: 16px;
  --jp-widgets-inline-height: 34px;
  --jp-widgets-inline-label-width: 80px;
}
</style>"""


class PlayView(w.HBox):  # type: ignore[misc]
    """The play widget: an HBox whose plain-text form is one stable line.

    Notebook viewers that cannot run widgets (and saved outputs compared by nbval) show
    that line instead of the nested reprs of every control.
    """

    def __init__(self, children: Sequence[Any], label: str, **kwargs: Any) -> None:
        super().__init__(children, **kwargs)
        self._label = label

    def __repr__(self) -> str:
        return self._label


# The engine is imported when first needed, so that importing gamelib.ui stays quick.
def _choose_move(
    game: Game[Any, Any], state: State, depth: int | None, seconds: float | None,
    rng: random.Random,
) -> Decision:
    from gamelib.search.engine import choose_move

    return choose_move(game, state, depth=depth, seconds=seconds, rng=rng)


def _move_values(
    game: Game[Any, Any], state: State, depth: int | None, seconds: float | None
) -> dict[Hashable, float]:
    from gamelib.search.engine import move_values

    return move_values(game, state, depth=depth, seconds=seconds)


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def _check_options(
    mode: object, depth: object, seconds: object, seed: object, delay: object
) -> None:
    _check_mode(mode)
    _check_strength(depth, seconds)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise GameError(f"seed must be a whole number or None, got {seed!r}")
    _check_delay(delay)


def _check_mode(mode: object) -> None:
    if mode not in MODES:
        raise GameError(f"mode must be one of {', '.join(map(repr, MODES))}; got {mode!r}")


def _check_strength(depth: object, seconds: object) -> None:
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise GameError(f"depth must be a whole number of plies, 1 or more, or None; got {depth!r}")
    if seconds is not None and (
        not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
        or not 0 < seconds <= 60
    ):
        raise GameError(f"seconds must be a number in (0, 60] or None; got {seconds!r}")


def _check_delay(delay: object) -> None:
    if (
        not isinstance(delay, (int, float)) or isinstance(delay, bool)
        or not 0 <= delay <= MAX_DELAY
    ):
        raise GameError(f"delay must be a number of seconds from 0 to {MAX_DELAY:g}, got {delay!r}")


class PlayController:
    """One game on one board: the position, its history, the computer and the widgets.

    Create it with :func:`play`. All methods are safe to call from any thread; the
    ones that take input (:meth:`submit`, :meth:`click`, :meth:`play_move`,
    :meth:`undo`, :meth:`new_game`, :meth:`hint`, :meth:`run`, :meth:`stop`) never
    raise for bad input: they return False (or None) and say why in :attr:`message`.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        mode: str = "human-computer",
        depth: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        size: int = DEFAULT_SIZE,
        delay: float = 0.8,
        background: bool = True,
    ) -> None:
        """See :func:`play` for the arguments; GameError for a bad one."""
        check_game(game)
        _check_options(mode, depth, seconds, seed, delay)
        self._game: Final = game
        self._board: Final = board_for(game, size)
        self._mode = mode
        self._depth = depth
        self._seconds = seconds
        self._delay = float(delay)
        self._background: Final = bool(background)
        self._rng: Final = random.Random(seed)
        self._lock: Final = threading.RLock()
        self._changed: Final = threading.Condition(self._lock)
        self._generation = 0
        self._wake = threading.Event()  # set when the generation ends: cuts a pause short
        self._states: list[State] = [game.start]
        self._history: list[Move] = []
        self._busy: str | None = None  # "move" or "hint" while the computer works
        self._running = mode == "computer-computer"
        self._decision: Decision | None = None
        self._decision_ply = -1
        self._hints: dict[Hashable, float] | None = None
        self._failure: str | None = None
        self._message = ""
        self._error = False
        self._view: Any = None
        self._shown_in: object = None
        self._set_message(self._welcome())
        self._build_widgets()
        with self._lock:
            self._refresh()
        self._continue()

    # -- what one can read -------------------------------------------------------------

    @property
    def game(self) -> Game[Any, Any]:
        """The game being played."""
        return self._game

    @property
    def board(self) -> BoardView:
        """The board that draws the game and maps clicks to moves."""
        return self._board

    @property
    def state(self) -> State:
        """The position shown on the board."""
        with self._lock:
            return self._states[-1]

    @property
    def history(self) -> list[Move]:
        """The moves from the start to :attr:`state`, as a copy.

        ``gamelib.game.replay(game, history) == state`` always holds.
        """
        with self._lock:
            return list(self._history)

    @property
    def message(self) -> str:
        """The message under the board: what just happened, or why input was refused."""
        with self._lock:
            return self._message

    @property
    def thinking(self) -> bool:
        """True while the computer searches for a move or for hints."""
        with self._lock:
            return self._busy is not None

    @property
    def finished(self) -> bool:
        """True once the game is won or drawn."""
        with self._lock:
            return bool(self._game.finished(self._states[-1]))

    @property
    def status(self) -> list[str]:
        """The status lines drawn below the board: whose turn or the result, then a value."""
        with self._lock:
            return self._status()[0]

    @property
    def mode(self) -> str:
        """Who plays which side: one of :data:`MODES`."""
        with self._lock:
            return self._mode

    @property
    def strength(self) -> tuple[int | None, float | None]:
        """The computer's search limits ``(depth, seconds)``; ``(None, None)``: the default."""
        with self._lock:
            return self._depth, self._seconds

    @property
    def delay(self) -> float:
        """Seconds of pause before each move of a computer-versus-computer game."""
        with self._lock:
            return self._delay

    @property
    def running(self) -> bool:
        """In computer-versus-computer mode: True unless paused with :meth:`stop`."""
        with self._lock:
            return self._running and self._mode == "computer-computer"

    @property
    def decision(self) -> Decision | None:
        """The computer's latest :class:`~gamelib.search.stats.Decision` (with its stats)."""
        with self._lock:
            return self._decision

    @property
    def hints(self) -> dict[Hashable, float] | None:
        """The values shown by the latest :meth:`hint`, until the next move."""
        with self._lock:
            return None if self._hints is None else dict(self._hints)

    @property
    def widget(self) -> Any:
        """The ipywidgets box with the board and the controls (display it to show it)."""
        return self._view

    @property
    def canvas(self) -> Any:
        """The ipycanvas Canvas the board is drawn on."""
        return self._canvas

    def __repr__(self) -> str:
        with self._lock:
            moves = " ".join(self._game.format_move(m) for m in self._history) or "none"
            return f"<PlayController {self._game.name}, {self._mode}: moves {moves}>"

    # -- input -------------------------------------------------------------------------

    def submit(self, text: object) -> bool:
        """Play the move typed as ``text`` in the game's notation, as if entered in the box.

        Returns True if the move was played. Otherwise (malformed text, illegal move,
        the computer's turn or thinking, game over) returns False and explains in
        :attr:`message`; the position and history stay as they were.
        """
        with self._lock:
            if self._refuse_input():
                return False
            if not isinstance(text, str):
                return self._refuse(f"a move is typed as text, not {type(text).__name__}")
            try:
                move = self._game.parse_move(text)
            except GameError as error:
                return self._refuse(str(error))
            except Exception:  # a student's game may raise anything
                return self._refuse(f"{describe_text(text)} could not be read as a move")
            accepted = self._human_move(move)
        if accepted:
            self._continue()
        return accepted

    def click(self, x: float, y: float) -> bool:
        """Play the move under the point ``(x, y)`` of the canvas, in canvas pixels.

        Returns True if a move was played; False with a :attr:`message` for a click
        on a margin or outside the board, on a taken cell or full column, or at a
        time when no move is allowed.
        """
        with self._lock:
            if self._refuse_input():
                return False
            if not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in (x, y)
            ):
                return self._refuse("a click needs two finite numbers x, y in canvas pixels")
            move = self._board.move_at(x, y, self._states[-1])
            if move is None:
                return self._refuse(f"That is not a place on the board: {self._board.click_help}.")
            accepted = self._human_move(move)
        if accepted:
            self._continue()
        return accepted

    def play_move(self, move: Move) -> bool:
        """Play ``move`` given in the game's own representation, e.g. ``(1, 1)`` or ``3``.

        Returns True if it was played; False with a :attr:`message` otherwise.
        """
        with self._lock:
            if self._refuse_input():
                return False
            accepted = self._human_move(move)
        if accepted:
            self._continue()
        return accepted

    def undo(self) -> bool:
        """Take back the last move of a human player and every computer move after it.

        Against the computer this takes back your last move and the computer's reply
        (also while it is still thinking about that reply: the search is dropped).
        Between two humans, or in a paused computer game, it takes back one move.
        Returns False, with a :attr:`message`, when there is nothing to take back.
        """
        with self._lock:
            humans = self._humans()
            if not humans:
                return self._refuse("The computers are playing: press Stop first, then Undo.")
            if self._busy == "hint":
                self._end_generation()
            target = None
            for ply in range(len(self._history) - 1, -1, -1):
                if self._game.to_move(self._states[ply]) in humans:
                    target = ply
                    break
            if target is None:
                if self._history:
                    return self._refuse("Nothing to undo: you have not moved yet.")
                return self._refuse("Nothing to undo: no move has been made yet.")
            taken = self._history[target:]
            self._end_generation()
            del self._history[target:]
            del self._states[target + 1 :]
            self._failure = None
            self._hints = None
            self._set_message(
                "Took back " + ", ".join(self._game.format_move(m) for m in taken) + "."
            )
            self._refresh()
        self._continue()
        return True

    def new_game(self) -> bool:
        """Start again from the first position, with the same players and strength.

        Any search under way is dropped. Returns True.
        """
        with self._lock:
            self._end_generation()
            del self._history[:]
            del self._states[1:]
            self._failure = None
            self._hints = None
            self._decision = None
            self._running = self._mode == "computer-computer"
            self._set_message("New game. " + self._welcome())
            self._refresh()
        self._continue()
        return True

    def hint(self) -> dict[Hashable, float] | None:
        """The value of every legal move for the human to move, shown on the board.

        Values are for the player to move, after that move: +1 a win, 0 a draw, -1 a
        loss with best play, numbers in between are estimates. The search uses the
        computer's strength setting and runs in the calling thread. Returns the
        values, or None (with a :attr:`message`) when no hint can be given now.
        """
        with self._lock:
            if self._refuse_input():
                return None
            state = self._states[-1]
            generation = self._generation
            self._busy = "hint"
            self._set_message("Computing the value of every move…")
            self._refresh()
        try:
            values: dict[Hashable, float] | None = dict(
                _move_values(self._game, state, self._depth, self._seconds)
            )
            problem = None
        except Exception as error:  # the board must survive a failing search
            values, problem = None, f"No hint: the search failed ({_short(str(error))})."
        with self._lock:
            if generation != self._generation:
                return None
            self._busy = None
            if values is None:
                self._set_message(problem or "No hint.", error=True)
            else:
                self._hints = values
                self._set_message(self._describe_hints(state, values))
            self._refresh()
            return None if values is None else dict(values)

    # -- settings ----------------------------------------------------------------------

    def set_mode(self, mode: str) -> bool:
        """Change who plays which side (one of :data:`MODES`), keeping the position.

        If the computer is now to move, it starts thinking. Any search under way is
        dropped. Raises GameError for an unknown mode.
        """
        _check_mode(mode)
        with self._lock:
            self._end_generation()
            self._mode = mode
            self._running = mode == "computer-computer"
            self._failure = None
            self._set_message(self._welcome())
            self._refresh()
        self._continue()
        return True

    def set_strength(self, depth: int | None = None, seconds: float | None = None) -> bool:
        """Set the computer's search limits for its next search (both None: the default).

        ``depth`` is in plies; ``seconds`` is a time budget. Raises GameError for bad
        values.
        """
        _check_strength(depth, seconds)
        with self._lock:
            self._depth, self._seconds = depth, seconds
            self._set_message(f"Computer strength: {_strength_label(self._game, depth, seconds)}.")
            if self._strength.value != (depth, seconds):
                choices = list(self._strength.options)
                if (depth, seconds) not in [value for _, value in choices]:
                    self._strength.options = _strength_options(self._game, depth, seconds)
                self._strength.value = (depth, seconds)
            self._refresh()
        return True

    def set_delay(self, delay: float) -> bool:
        """Seconds to pause before each move of a computer-versus-computer game (0 to 5)."""
        _check_delay(delay)
        with self._lock:
            self._delay = float(delay)
            if self._delay_slider.value != self._delay:
                self._delay_slider.value = self._delay
        return True

    def run(self) -> bool:
        """Start or resume a computer-versus-computer game; False in the other modes."""
        with self._lock:
            if self._mode != "computer-computer":
                return self._refuse("Run is for computer versus computer: choose it under Players.")
            if self._game.finished(self._states[-1]):
                return self._refuse("The game is over: press New to watch another.")
            self._running = True
            self._set_message("Running: the computers play each other.")
            self._refresh()
        self._continue()
        return True

    def stop(self) -> bool:
        """Pause a computer-versus-computer game at once (a search under way is dropped).

        While paused, either side's moves can be made by hand; :meth:`run` resumes.
        Returns False in the other modes.
        """
        with self._lock:
            if self._mode != "computer-computer" or not self._running:
                return self._refuse("Nothing to stop: no computer-versus-computer game is running.")
            self._end_generation()
            self._running = False
            self._set_message("Paused. Move for either side, or press Run to continue.")
            self._refresh()
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the computer has nothing left to do, or ``timeout`` seconds pass.

        "Nothing left" means: a human is to move, the game is over, the computer games
        are paused, or the computer failed. Returns True if so, False on timeout.
        Do not call it from a widget callback.
        """
        with self._changed:
            return self._changed.wait_for(lambda: not self._pending(), timeout)

    def show(self) -> None:
        """Display the widget in the current notebook cell (no-op outside IPython)."""
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:  # pragma: no cover - IPython is installed with Jupyter
            return
        shell = get_ipython()
        self._shown_in = None if shell is None else (id(shell), shell.execution_count)
        display(self._view)  # type: ignore[no-untyped-call]

    def _ipython_display_(self) -> None:
        # play() already displayed the widget in this cell: showing it twice would
        # put two boards under one cell. In a later cell, show it (again).
        from IPython import get_ipython

        shell = get_ipython()
        here = None if shell is None else (id(shell), shell.execution_count)
        if here is None or here != self._shown_in:
            self.show()

    def close(self) -> None:
        """Stop any search or demo and close the widgets."""
        with self._lock:
            self._end_generation()
            self._running = False
        for widget in self._widgets:
            widget.close()

    # -- the rules of taking turns ------------------------------------------------------

    def _humans(self) -> set[Player]:
        first, second = self._game.players
        mode = self._mode
        if mode == "human-computer":
            return {first}
        if mode == "computer-human":
            return {second}
        if mode == "computer-computer" and self._running:
            return set()
        return {first, second}

    def _computer_to_move(self) -> bool:
        state = self._states[-1]
        return (
            self._failure is None
            and not self._game.finished(state)
            and self._game.to_move(state) not in self._humans()
        )

    def _pending(self) -> bool:
        return self._busy is not None or self._computer_to_move()

    def _refuse_input(self) -> bool:
        """If no human move may be made now, say why and return True."""
        state = self._states[-1]
        if self._busy == "move":
            self._refuse("Please wait: the computer is thinking.")
            return True
        if self._busy == "hint":
            self._refuse("Please wait: the hints are being computed.")
            return True
        if self._game.finished(state):
            self._refuse(f"The game is over ({self._result()}): press New or Undo.")
            return True
        if self._failure is not None:
            self._refuse(f"{self._failure} Press Undo or New.")
            return True
        if self._game.to_move(state) not in self._humans():
            self._refuse("It is the computer's turn.")
            return True
        return False

    def _refuse(self, text: str) -> bool:
        self._set_message(text, error=True)
        self._refresh()
        return False

    def _human_move(self, move: Move) -> bool:
        state = self._states[-1]
        try:
            after = self._game.play(state, move)
        except GameError as error:
            return self._refuse(str(error))
        except Exception:  # a student's game may raise anything
            return self._refuse(f"{describe_text(move)} is not a move in this game.")
        player = self._game.to_move(state)
        self._push(move, after)
        who = "You" if len(self._humans()) == 1 else player
        self._set_message(f"{who} played {self._game.format_move(move)}." + self._game_over())
        self._refresh()
        return True

    def _push(self, move: Move, after: State) -> None:
        self._history.append(move)
        self._states.append(after)
        self._hints = None

    def _end_generation(self) -> None:
        """Drop whatever the computer is doing: its result will be ignored."""
        self._generation += 1
        self._wake.set()
        self._wake = threading.Event()
        self._busy = None
        self._changed.notify_all()

    # -- the computer ------------------------------------------------------------------

    def _continue(self) -> None:
        """Let the computer move while it is its turn (in a thread, or right here)."""
        while True:
            with self._lock:
                if self._busy is not None or not self._computer_to_move():
                    return
                job = self._start_job()
            if self._background:
                threading.Thread(target=self._background_job, args=job, daemon=True).start()
                return
            self._run_job(*job)

    def _start_job(self) -> tuple[int, State, random.Random, float, threading.Event]:
        self._busy = "move"
        pause = self._delay if self._mode == "computer-computer" and self._background else 0.0
        # A fresh generator per move, drawn in order from the seeded one, so that a
        # seeded game is reproducible whatever happens to searches that get dropped.
        rng = random.Random(self._rng.getrandbits(64))
        self._refresh()
        return self._generation, self._states[-1], rng, pause, self._wake

    def _background_job(
        self, generation: int, state: State, rng: random.Random, pause: float,
        wake: threading.Event,
    ) -> None:
        try:
            self._run_job(generation, state, rng, pause, wake)
            self._continue()
        except Exception as error:  # pragma: no cover - a last resort: never die silently
            with self._lock:
                if generation == self._generation:
                    self._fail(f"The computer stopped: {error!r}.")

    def _run_job(
        self, generation: int, state: State, rng: random.Random, pause: float,
        wake: threading.Event,
    ) -> None:
        if pause > 0 and wake.wait(pause):
            return  # the generation ended during the pause
        try:
            decision: Decision | None = _choose_move(
                self._game, state, self._depth, self._seconds, rng
            )
            problem = ""
        except Exception as error:  # the board must survive a failing search
            decision, problem = None, f"{type(error).__name__}: {error}"
        with self._lock:
            if generation != self._generation or state is not self._states[-1]:
                return  # stale: a new game, an undo or a stop came first
            self._busy = None
            if decision is None:
                self._fail(f"The computer could not move ({_short(problem)}).")
                return
            try:
                after = self._game.play(state, decision.move)
            except Exception as error:
                self._fail(f"The computer chose an illegal move ({_short(str(error))}).")
                return
            player = self._game.to_move(state)
            self._push(decision.move, after)
            self._decision = decision
            self._decision_ply = len(self._history)
            calls = decision.stats.calls
            searched = f" after searching {calls:,} positions" if calls > 1 else ""
            self._set_message(
                f"{player} (computer) played {self._game.format_move(decision.move)}{searched}."
                + self._game_over()
            )
            self._refresh()

    def _fail(self, text: str) -> None:
        self._busy = None
        self._failure = _short(text)
        self._set_message(self._failure, error=True)
        self._refresh()

    # -- what the board and the message say ---------------------------------------------

    def _welcome(self) -> str:
        first, second = self._game.players
        label = self._board.player_label
        if self._mode == "human-computer":
            return f"You play {label(first)} and start. {self._how_to_move()}"
        if self._mode == "computer-human":
            return f"You play {label(second)}; the computer starts."
        if self._mode == "human-human":
            return f"Two players: {label(first)} starts. {self._how_to_move()}"
        return "Computer versus computer: Stop pauses, Run resumes."

    def _how_to_move(self) -> str:
        return f"To move, {self._board.click_help}, or type a move and press Enter."

    def _game_over(self) -> str:
        """A closing remark for a move that ended the game, else ``""``."""
        if not self._game.finished(self._states[-1]):
            return ""
        return f" Game over: {self._result()}. Press New to play again."

    def _result(self) -> str:
        winner = _winner(self._game, self._states[-1])
        if winner is None:
            return "a draw"
        if len(self._humans()) == 1 and self._mode != "computer-computer":
            return "you win" if winner in self._humans() else "the computer wins"
        return f"{winner} wins"

    def _status(self) -> tuple[list[str], Player | None]:
        """The two status lines below the board, and whose token to show beside them."""
        game = self._game
        state = self._states[-1]
        lines: list[str] = []
        if game.finished(state):
            token = _winner(game, state)
            result = self._result()
            lines.append(f"Game over: {result}." if token is None else result.capitalize() + "!")
        else:
            token = game.to_move(state)
            humans = self._humans()
            if self._busy == "move":
                lines.append(f"{token} to move: the computer is thinking…")
            elif self._busy == "hint":
                lines.append(f"{token} to move: computing hints…")
            elif self._failure is not None:
                lines.append(f"{token} to move: the computer could not move")
            elif token in humans:
                if self._mode == "computer-computer":
                    lines.append(f"{token} to move (paused)")
                elif len(humans) == 1:
                    lines.append(f"{token} to move: your turn")
                else:
                    lines.append(f"{token} to move")
            else:
                lines.append(f"{token} to move: the computer")
        decision = self._decision
        if decision is not None and self._decision_ply == len(self._history) and decision.summary:
            mover = game.to_move(self._states[-2])
            lines.append(f"Computer ({mover}): {decision.summary}")
        elif self._hints:
            lines.append("Hints: the value of each move for " + game.to_move(state))
        return lines, token

    def _describe_hints(self, state: State, values: Mapping[Hashable, float]) -> str:
        player = self._game.to_move(state)
        if not values:
            return "No hint: there is no legal move."
        best = max(values.values())
        best_moves = [self._game.format_move(m) for m, v in values.items() if v == best]
        shown = ", ".join(best_moves[:6]) + (" …" if len(best_moves) > 6 else "")
        return _short(f"Best for {player}: {shown} (value {format_value(best)}).")

    def _set_message(self, text: str, error: bool = False) -> None:
        text = _short(text)
        self._message = text[:1].upper() + text[1:]
        self._error = error

    # -- widgets -----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        from ipycanvas import Canvas

        board = self._board
        game = self._game
        big = {"font_size": "16px"}
        canvas = Canvas(
            width=board.width,
            height=board.height,
            layout=w.Layout(width=f"{board.width}px", height="auto", max_width="100%"),
        )
        canvas.on_mouse_down(self._safely(self._on_canvas_click))
        # A tap on a touch screen arrives as a touch, not as a mouse click.
        canvas.on_touch_start(self._safely(self._on_canvas_touch))
        # A browser that (re)creates the canvas, e.g. after a page reload, gets it blank.
        canvas.on_client_ready(self._safely(self._on_client_ready))
        self._canvas = canvas
        column_buttons: list[Any] = []
        rows: list[Any] = []
        if isinstance(board, ConnectFourBoard):
            # Buttons above the board, each over its column: a disc drops from there.
            g = board.geometry
            for col in range(g.cols):
                column = w.Button(
                    description=str(col + 1),
                    tooltip=f"drop a disc in column {col + 1}",
                    icon="arrow-down",
                    layout=w.Layout(width=f"{g.cell - 4}px", height="36px", margin="0 2px",
                                    padding="0"),
                    style=big,
                )
                column.on_click(self._safely(lambda _b, c=col: self._column_button(c)))
                column_buttons.append(column)
            rows.append(
                w.HBox(
                    column_buttons,
                    layout=w.Layout(
                        padding=f"0 0 4px {g.grid.x - 2:.0f}px", width=f"{board.width}px"
                    ),
                )
            )
        rows.append(canvas)
        self._html = w.HTML(layout=w.Layout(width=f"{board.width}px", min_height="56px",
                                            max_width="100%"))
        rows.append(self._html)
        left = w.VBox(rows, layout=w.Layout(margin="0 20px 8px 0"))

        label = board.player_label
        first, second = game.players
        wide = w.Layout(width="330px", margin="0 0 8px 0")
        self._players = w.Dropdown(
            options=[
                (f"You: {label(first)}, you start", "human-computer"),
                (f"You: {label(second)}, computer starts", "computer-human"),
                ("Two players", "human-human"),
                ("Computer vs computer", "computer-computer"),
            ],
            value=self._mode,
            description="Players",
            layout=wide,
        )
        self._players.observe(self._safely(self._on_players), names="value")
        options = _strength_options(game, self._depth, self._seconds)
        self._strength = w.Dropdown(
            options=options,
            value=(self._depth, self._seconds),
            description="Strength",
            layout=wide,
        )
        self._strength.observe(self._safely(self._on_strength), names="value")
        self._box = w.Text(
            placeholder=f"e.g. {_example(game)}, then Enter",
            description="Move",
            continuous_update=False,
            layout=wide,
        )
        self._box.observe(self._safely(self._on_text), names="value")
        self._clearing = False

        def button(text: str, tip: str, action: Callable[[], object], icon: str = "") -> Any:
            made = w.Button(description=text, tooltip=tip, icon=icon,
                            layout=w.Layout(width="104px", height="40px", margin="0 6px 8px 0"),
                            style=big)
            made.on_click(self._safely(lambda _b: action()))
            return made

        new = button("New", "start a new game", self.new_game, "refresh")
        undo = button("Undo", "take back your last move and the reply", self.undo, "undo")
        hint = button("Hint", "show the value of every move", self._hint_button, "lightbulb-o")
        self._run_button = button("Run", "computer vs computer: start or resume", self.run, "play")
        self._stop_button = button("Stop", "computer vs computer: pause", self.stop, "stop")
        self._delay_slider = w.FloatSlider(
            value=self._delay, min=0.0, max=MAX_DELAY, step=0.1, description="Delay (s)",
            readout_format=".1f", layout=wide,
        )
        self._delay_slider.observe(
            self._safely(lambda change: self.set_delay(change["new"])), names="value"
        )
        self._demo = w.VBox([w.HBox([self._run_button, self._stop_button]), self._delay_slider])
        style = w.HTML(_STYLE, layout=w.Layout(width="0", height="0", margin="0"))
        right = w.VBox(
            [style, self._players, self._strength, self._box, w.HBox([new, undo, hint]),
             self._demo],
            layout=w.Layout(width="350px"),
        )
        self._view = PlayView(
            [left, right],
            f"[{game.name}: an interactive board; run the notebook in Jupyter to play]",
            layout=w.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        self._view.add_class("gamelib-play")
        self._widgets: Sequence[Any] = [
            self._view, left, right, style, canvas, self._html, self._players, self._strength,
            self._box, new, undo, hint, self._run_button, self._stop_button,
            self._delay_slider, self._demo, *column_buttons,
        ]

    def _safely(self, handler: Callable[..., object]) -> Callable[..., None]:
        """A widget callback that reports a failure in the message instead of raising."""

        def safe(*args: Any) -> None:
            try:
                handler(*args)
            except Exception as error:  # pragma: no cover - a last resort
                with self._lock:
                    self._set_message(f"Something went wrong: {error!r}", error=True)
                    self._refresh()

        return safe

    def _on_canvas_click(self, x: float, y: float) -> None:
        self.click(x, y)

    def _on_canvas_touch(self, touches: Sequence[tuple[float, float]]) -> None:
        if len(touches) == 1:
            self.click(*touches[0])

    def _on_client_ready(self) -> None:
        with self._lock:
            self._refresh()

    def _column_button(self, col: int) -> None:
        self.play_move(col)

    def _on_text(self, change: Mapping[str, Any]) -> None:
        if self._clearing or not change["new"]:
            return
        try:
            self.submit(change["new"])
        finally:
            self._clearing = True
            try:
                self._box.value = ""
            finally:
                self._clearing = False

    def _on_players(self, change: Mapping[str, Any]) -> None:
        if change["new"] != self.mode:
            self.set_mode(change["new"])

    def _on_strength(self, change: Mapping[str, Any]) -> None:
        depth, seconds = change["new"]
        self.set_strength(depth, seconds)

    def _hint_button(self) -> None:
        if self._background:
            threading.Thread(target=self.hint, daemon=True).start()
        else:
            self.hint()

    def _refresh(self) -> None:
        """Redraw the board and update the message and buttons (call with the lock held)."""
        if self._view is None:
            return
        lines, token = self._status()
        last = self._history[-1] if self._history else None
        self._board.draw(
            self._canvas, self._states[-1], last_move=last, status=lines,
            hints=self._hints, status_player=token,
        )
        colour = "#b3261e" if self._error else "#2b2d42"
        self._html.value = (
            f'<div style="font-size:18px;line-height:1.35;color:{colour};padding:6px 2px">'
            f"{html.escape(self._message)}</div>"
        )
        computer_game = self._mode == "computer-computer"
        self._demo.layout.display = None if computer_game else "none"
        over = self._game.finished(self._states[-1])
        self._run_button.disabled = not computer_game or self._running or over
        self._stop_button.disabled = not computer_game or not self._running or over
        if self._players.value != self._mode:
            self._players.value = self._mode
        self._changed.notify_all()


def _example(game: Game[Any, Any]) -> str:
    try:
        moves = game.moves(game.start)
        return str(game.format_move(moves[len(moves) // 2])) if moves else "?"
    except Exception:  # pragma: no cover - a student's game may raise anything
        return "?"


def _strength_label(game: Game[Any, Any], depth: int | None, seconds: float | None) -> str:
    if depth is None and seconds is None:
        return "strong (1 s)" if isinstance(game, ConnectFour) else "perfect"
    parts = []
    if depth is not None:
        parts.append(f"depth {depth}")
    if seconds is not None:
        parts.append(f"{seconds:g} s")
    return ", ".join(parts)


def _strength_options(
    game: Game[Any, Any], depth: int | None, seconds: float | None
) -> list[tuple[str, tuple[int | None, float | None]]]:
    if isinstance(game, ConnectFour):
        choices: list[tuple[int | None, float | None]] = [
            (2, None), (4, None), (6, None), (None, 0.3), (None, None), (None, 3.0),
        ]
    else:
        choices = [(None, None), (1, None), (2, None), (3, None), (4, None)]
    if (depth, seconds) not in choices:
        choices.append((depth, seconds))
    return [(_strength_label(game, d, s), (d, s)) for d, s in choices]


def play(
    game: Game[Any, Any],
    *,
    mode: str = "human-computer",
    depth: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    size: int = DEFAULT_SIZE,
    delay: float = 0.8,
    background: bool = True,
    display: bool = True,
) -> PlayController:
    """Show ``game`` in the current cell, ready to play, and return its controller.

    Arguments:
        game: a TicTacToe, TicTacToeBitboard, ConnectFour (any size) or Nim; any other
            game of the Game protocol is shown as text and takes typed moves.
        mode: who plays which side, first mover first: ``"human-computer"`` (you
            start), ``"computer-human"`` (the computer starts), ``"human-human"`` or
            ``"computer-computer"`` (a demo that plays itself; Stop pauses it).
        depth, seconds: the computer's search limits, passed to
            :func:`gamelib.search.engine.choose_move`; both None (default) means a
            perfect player for tic-tac-toe and Nim and a strong one (1 s) for Connect Four.
        seed: seeds the computer's random choice among equally good moves, so that
            a seeded game replays identically (if the search is exact or limited by
            ``depth``: what a time budget reaches depends on the machine); None
            plays differently each time.
        size: the board's width in pixels (240 to 1200; 440 suits a projector).
        delay: seconds between moves of a computer-versus-computer game (0 to 5).
        background: True (default) runs the computer in a thread so that the page
            stays responsive; False runs it at once, for tests and executed notebooks.
        display: False builds the controller without showing it (show it later by
            evaluating it in a cell, or with :meth:`PlayController.show`).

    Result: the :class:`PlayController`. Raises GameError for a bad argument.
    """
    controller = PlayController(
        game, mode=mode, depth=depth, seconds=seconds, seed=seed, size=size, delay=delay,
        background=background,
    )
    if display:
        controller.show()
    return controller
