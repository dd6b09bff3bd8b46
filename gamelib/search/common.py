"""What every search shares: the time budget (a deadline that can also be cancelled).

A :class:`Budget` is made once, at the public door (the play session, ``choose_move``,
the Connect Four player), and handed down; a search asks :meth:`Budget.expired` every so
many nodes and, when it says yes, raises :class:`SearchTimeout`, which the iterative
deepening driver catches to return the best move of the last finished iteration.

Another thread (the play session, when the user presses Undo or New game, or closes the
board) calls :meth:`Budget.cancel`; the search then ends at its next look at the clock, as
if its time had run out.
"""

from __future__ import annotations

import threading
import time
from typing import Final

__all__ = ["MAX_SECONDS", "Budget", "SearchTimeout"]

MAX_SECONDS: Final = 30.0
"""The hard cap on any computer move or hint, whatever depth was asked for."""


class SearchTimeout(Exception):
    """Raised inside a search when its budget has run out or was cancelled."""


class Budget:
    """A deadline on :func:`time.perf_counter` plus a cancel flag, shared across threads.

    ``seconds`` is the time allowed from now (None: :data:`MAX_SECONDS`); it is capped at
    :data:`MAX_SECONDS`. Callers check ``seconds`` at their door; this class trusts it.
    """

    __slots__ = ("deadline", "seconds", "_cancelled")

    def __init__(self, seconds: float | None = None) -> None:
        limit = MAX_SECONDS if seconds is None else min(float(seconds), MAX_SECONDS)
        self.seconds = limit
        self.deadline = time.perf_counter() + limit
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """Ask the search to stop at its next look at the clock (thread-safe)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled.is_set()

    def expired(self) -> bool:
        """True when the deadline has passed or the budget was cancelled."""
        return self._cancelled.is_set() or time.perf_counter() > self.deadline

    def remaining(self) -> float:
        """Seconds left before the deadline (0.0 once expired or cancelled)."""
        if self._cancelled.is_set():
            return 0.0
        return max(0.0, self.deadline - time.perf_counter())

    def check(self) -> None:
        """Raise :class:`SearchTimeout` if :meth:`expired`."""
        if self.expired():
            raise SearchTimeout("the search's time budget ran out")

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else f"{self.remaining():.3f} s left"
        return f"Budget({self.seconds:g} s, {state})"


