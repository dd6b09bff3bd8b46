"""What a play session knows, under its lock: the game so far, whose turn, the computer's
doing, and what the board says about it.

A :class:`PlayState` is composed into :class:`~gamelib.session.play.PlaySession`, which
holds its :attr:`~PlayState.lock` whenever it reads or changes it. It keeps the
:class:`~gamelib.session.history.History`, the :class:`~gamelib.session.turns.Turns`,
whether the computer is busy (a move or hints) or failed, its latest decision and hints,
the message and the *generation* (a count that New game, Undo, Stop, a change of players
and close raise, so that a search started before is dropped). Every change ends in
:meth:`PlayState.update`, which calls the board's ``on_change`` and wakes the waiters.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Hashable
from typing import Final

from gamelib.game import Move, Player, State
from gamelib.search.stats import Decision, Priors
from gamelib.session.history import Facts, History
from gamelib.session.turns import Turns
from gamelib.session.words import CLOSED, short

__all__ = ["PlayState"]


class PlayState:
    """The state of one session's game and board; read and changed with :attr:`lock` held
    (see the module docstring). Its methods trust their arguments."""

    def __init__(self, history: History, turns: Turns,
                 on_change: Callable[[], object] | None) -> None:
        self.lock: Final = threading.RLock()
        self.changed: Final = threading.Condition(self.lock)
        self.on_change: Final = on_change
        self.history = history
        self.turns = turns
        self.generation = 0
        self.busy: str | None = None  # "move" or "hint" while the computer works
        self.closed = False
        self.failure: str | None = None  # why the computer could not move
        self.decision: Decision | None = None
        self.decision_ply = -1  # the ply that decision led to
        self.hints: dict[Hashable, float] | None = None
        self.hints_cut = False
        self.message, self.error = "", False

    # -- whose turn ------------------------------------------------------------------------

    def running(self) -> bool:
        """A computer-versus-computer game that is not paused."""
        return self.turns.mode == "computer-computer" and self.turns.running

    def computer_to_move(self) -> bool:
        """The computer is to move and may (open, not failed)."""
        return (not self.closed and self.failure is None
                and self.turns.computer_to_move(self.history.now))

    def pending(self) -> bool:
        """The computer is working or has work to do."""
        return self.busy is not None or self.computer_to_move()

    def refuse_input(self) -> bool:
        """If no human move may be made now, say why and return True."""
        refusal = CLOSED if self.closed else self.turns.refusal(
            self.history.now, self.busy, self.failure)
        if refusal is not None:
            self.refuse(refusal)
        return refusal is not None

    # -- changes -----------------------------------------------------------------------------

    def push(self, move: Move, after: State, facts: Facts, text: str) -> None:
        """``move`` (written ``text``) was played, leading to ``after``."""
        self.history = self.history.push(move, after, facts, text)
        self.hints = None

    def truncate(self, ply: int) -> None:
        """Back to the position after ``ply`` moves; a failure is forgotten."""
        self.history = self.history.back_to(ply)
        self.failure = None
        self.hints = None

    def end_generation(self) -> None:
        """Start a new generation: whatever the computer is doing will be dropped (the
        session cancels its search)."""
        self.generation += 1
        self.busy = None
        self.changed.notify_all()

    def fail(self, text: str) -> None:
        """The computer could not move: say ``text`` until Undo, New or a change of players."""
        self.busy = None
        self.failure = short(text)
        self.set_message(self.failure, error=True)
        self.update()

    # -- what the board says ---------------------------------------------------------------

    def refuse(self, text: str, keep_case: bool = False) -> bool:
        """Say why an input was refused; False, the input's result."""
        self.set_message(text, error=True, keep_case=keep_case)
        self.update()
        return False

    def set_message(self, text: str, error: bool = False, keep_case: bool = False) -> None:
        """The message, shortened to MESSAGE_LIMIT, its first letter capitalised unless
        ``keep_case`` (a refusal that quotes the input)."""
        text = short(text)
        self.message = text if keep_case else text[:1].upper() + text[1:]
        self.error = error

    def status(self) -> tuple[list[str], Player | None]:
        """The status lines below the board, and whose token to show beside them."""
        decision = self.decision
        if decision is not None and self.decision_ply != self.history.ply:
            decision = None
        return self.turns.status(self.history, self.busy, self.failure, decision,
                                 None if not self.hints else self.hints_cut,
                                 isinstance(self.hints, Priors))

    def update(self) -> None:
        """Tell the board (``on_change``) and the waiters that something changed."""
        if self.on_change is not None:
            # A board that fails to redraw must not break the game: the next change redraws.
            with contextlib.suppress(BaseException):
                self.on_change()
        self.changed.notify_all()
